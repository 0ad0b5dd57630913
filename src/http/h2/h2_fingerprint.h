// What an HTTP/2 client shows before and around its first request: the
// SETTINGS (ids, values, order), the connection WINDOW_UPDATE, PRIORITY
// frames, each HEADERS frame's priority, the pseudo-header order and the
// first stream id. A profile's "http2" block (profiles/h2_block.h) or
// customTlsClient's HTTP/2 fields (abi/custom_tls_client.h) fill it, with
// fhttp's defaults for what they leave out, so the wire matches upstream's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tlsc {

struct H2Priority {
  uint32_t depends_on = 0;
  bool exclusive = false;
  uint16_t weight = 16;  // 1..256, as on the wire + 1
};

struct H2PriorityFrame {
  uint32_t stream_id = 0;
  H2Priority priority;
};

// fhttp's transportDefaultConnFlow: what it sends when a profile names none.
inline constexpr uint32_t kFhttpDefaultConnectionFlow = 15663105;

// A settings id that stands for a GREASE setting: a reserved id of the form
// 0x?a?a drawn per connection (Chrome's HTTP/2 settings GREASE). 0 is no
// setting of HTTP/2's, so it cannot clash with one a profile names.
inline constexpr uint16_t kGreaseSettingId = 0;

// The id a connection sends for kGreaseSettingId: 0x0a0a, 0x1a1a, ... 0xfafa,
// picked from `draw` (any number).
inline uint16_t grease_setting_id(uint32_t draw) {
  return static_cast<uint16_t>(0x0a0a + 0x1010 * (draw % 16));
}

struct H2Fingerprint {
  std::vector<std::pair<uint16_t, uint32_t>> settings;  // wire order; kGreaseSettingId for GREASE
  uint32_t connection_flow = kFhttpDefaultConnectionFlow;
  std::vector<H2PriorityFrame> priority_frames;
  // nullopt: HEADERS frames carry no PRIORITY flag.
  std::optional<H2Priority> header_priority = H2Priority{0, true, 256};
  std::vector<std::string> pseudo_header_order;  // empty: Go's (:authority :method :path :scheme)
  uint32_t first_stream_id = 1;

  // The Akamai HTTP/2 fingerprint this client shows:
  // "1:65536;2:0|15663105|0|m,a,s,p" (a GREASE setting as "GREASE:value").
  std::string akamai() const;
  // The value of a setting this client sends, if it sends it.
  std::optional<uint32_t> setting(uint16_t id) const;
};

// Upstream's H2SettingsMap: "HEADER_TABLE_SIZE" -> 1, ...
std::optional<uint16_t> h2_setting_id(std::string_view name);

// fhttp sends no PRIORITY flag for the zero PriorityParam.
inline bool is_zero_priority(const H2Priority& p) {
  return p.depends_on == 0 && !p.exclusive && p.weight == 1;
}

// fhttp's nextStreamID: 3 with AllowHTTP, then InitialStreamID (0: none),
// then two past the last PRIORITY frame.
uint32_t fhttp_first_stream_id(const H2Fingerprint& f, uint32_t initial, bool allow_http);

// A pseudo-header name fhttp knows (:method :authority :scheme :path).
bool is_request_pseudo_header(std::string_view name);

}  // namespace tlsc
