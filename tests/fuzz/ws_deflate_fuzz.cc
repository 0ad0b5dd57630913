// libFuzzer target for permessage-deflate (RFC 7692): the inflater fed a
// server's compressed messages, and the negotiation of the server's
// Sec-WebSocket-Extensions answer. Input layout:
//   byte 0      bit 0: server_no_context_takeover; bits 1-3: the client
//               window (9 + value, capped at 15); bit 4: the text after
//               the first 0x00 byte is a Sec-WebSocket-Extensions answer
//   the rest    messages, each a length byte then that many bytes
// Checks: no message inflates past its limit; each message is inflated
// again from a deflater's output round trip (deflate then inflate gives the
// bytes back, context carried over or not); the negotiation never accepts
// a window outside 8..15.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "codec/ws_deflate.h"
#include "wire/ws_extensions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto flags = static_cast<unsigned char>(input[0]);
  std::string_view rest = input.substr(1);
  if (flags & 0x10) {
    const size_t nul = rest.find('\0');
    const std::string_view answer = rest.substr(0, nul);
    for (const bool offered_bits : {false, true}) {
      auto r = tlsc::accept_ws_extensions({answer}, {true, offered_bits});
      if (r && *r) {
        const auto& p = **r;
        if (p.server_max_window_bits < 8 || p.server_max_window_bits > 15) __builtin_trap();
        if (p.client_max_window_bits < 8 || p.client_max_window_bits > 15) __builtin_trap();
        if (!offered_bits && p.client_max_window_bits != 15) __builtin_trap();
      }
    }
    (void)tlsc::parse_ws_deflate_offer(answer);
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  }
  const bool no_takeover = (flags & 1) != 0;
  const int window = std::min(15, 9 + ((flags >> 1) & 7));
  constexpr size_t kLimit = 1 << 16;
  tlsc::WsInflater server_messages(no_takeover);
  tlsc::WsDeflater deflater(window, no_takeover);
  tlsc::WsInflater round_trip(no_takeover);
  bool broken = false;
  while (!rest.empty()) {
    const size_t n = std::min<size_t>(static_cast<unsigned char>(rest[0]), rest.size() - 1);
    const std::string_view message = rest.substr(1, n);
    rest.remove_prefix(1 + n);
    if (!broken) {
      auto out = server_messages.inflate(message, kLimit);
      if (out && out->size() > kLimit) __builtin_trap();
      broken = !out;  // the connection would end here
    }
    auto packed = deflater.deflate(message);
    if (!packed) continue;
    auto back = round_trip.inflate(*packed, kLimit);
    if (!back || *back != message) __builtin_trap();
  }
  return 0;
}
