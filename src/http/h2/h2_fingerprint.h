// What an HTTP/2 client shows before and around its first request: the
// SETTINGS (ids, values, order), the connection WINDOW_UPDATE, PRIORITY
// frames, each HEADERS frame's priority, the pseudo-header order and the
// first stream id. A profile's "http2" block (profiles/SCHEMA.md) or
// customTlsClient's HTTP/2 fields fill it, with fhttp's defaults for what
// they leave out, so the wire matches upstream's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "abi/request_input.h"
#include "core/error.h"

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

struct H2Fingerprint {
  std::vector<std::pair<uint16_t, uint32_t>> settings;  // wire order
  uint32_t connection_flow = 15663105;
  std::vector<H2PriorityFrame> priority_frames;
  // nullopt: HEADERS frames carry no PRIORITY flag.
  std::optional<H2Priority> header_priority = H2Priority{0, true, 256};
  std::vector<std::string> pseudo_header_order;  // empty: Go's (:authority :method :path :scheme)
  uint32_t first_stream_id = 1;

  // The Akamai HTTP/2 fingerprint this client shows:
  // "1:65536;2:0|15663105|0|m,a,s,p".
  std::string akamai() const;
  // The value of a setting this client sends, if it sends it.
  std::optional<uint32_t> setting(uint16_t id) const;
};

// A profile file's "http2" block (null or absent: fhttp's defaults).
Result<H2Fingerprint> h2_fingerprint_from_json(const nlohmann::json& http2, bool allow_http);

// customTlsClient's HTTP/2 fields, as upstream's getCustomTlsClientProfile
// maps them (unknown setting names skipped, weights as Go's uint8 + 1).
H2Fingerprint h2_fingerprint_from_custom(const CustomTlsClientInput& custom);

}  // namespace tlsc
