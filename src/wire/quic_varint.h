// QUIC's variable-length integer (RFC 9000 section 16), which HTTP/3 uses
// too: 1, 2, 4 or 8 bytes, the length in the first byte's two high bits.
#pragma once

#include <cstdint>
#include <string>

namespace tlsc {

constexpr uint64_t kMaxQuicVarint = (uint64_t{1} << 62) - 1;

// Appends v (its low 62 bits) in the shortest form.
inline void append_quic_varint(std::string& out, uint64_t v) {
  v &= kMaxQuicVarint;
  if (v < (1u << 6)) {
    out.push_back(static_cast<char>(v));
    return;
  }
  const int len = v < (1u << 14) ? 2 : v < (uint64_t{1} << 30) ? 4 : 8;
  const uint8_t prefix = len == 2 ? 0x40 : len == 4 ? 0x80 : 0xc0;
  for (int i = len - 1; i >= 0; --i) {
    uint8_t b = static_cast<uint8_t>(v >> (8 * i));
    if (i == len - 1) b |= prefix;
    out.push_back(static_cast<char>(b));
  }
}

}  // namespace tlsc
