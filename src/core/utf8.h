// The shape of a well-formed UTF-8 sequence (Unicode's table 3-7): what its
// lead byte says and what the bytes after it must be. Shared by the charset
// decoders (x/text's rules for ill-formed input) and the JSON string writer
// (Go's utf8.DecodeRune: any ill-formed byte is one U+FFFD).
#pragma once

#include <cstddef>

namespace tlsc {

// What a UTF-8 lead byte starts: the sequence's length (0: none; ASCII and
// continuation bytes start none) and the range its second byte must be in
// (the others are always 0x80..0xBF).
struct Utf8Lead {
  std::size_t size = 0;
  int lo = 0x80;
  int hi = 0xBF;
};
constexpr Utf8Lead utf8_lead(int b0) {
  if (b0 >= 0xC2 && b0 <= 0xDF) return {2, 0x80, 0xBF};
  if (b0 >= 0xE0 && b0 <= 0xEF) return {3, b0 == 0xE0 ? 0xA0 : 0x80, b0 == 0xED ? 0x9F : 0xBF};
  if (b0 >= 0xF0 && b0 <= 0xF4) return {4, b0 == 0xF0 ? 0x90 : 0x80, b0 == 0xF4 ? 0x8F : 0xBF};
  return {};
}

// The length of the well-formed sequence at p[0, avail), or 0 if none
// starts there (Go's utf8.DecodeRune returning RuneError, 1). avail > 0.
inline std::size_t utf8_sequence_size(const unsigned char* p, std::size_t avail) {
  const Utf8Lead lead = utf8_lead(p[0]);
  if (lead.size == 0 || avail < lead.size) return 0;
  if (p[1] < lead.lo || p[1] > lead.hi) return 0;
  for (std::size_t k = 2; k < lead.size; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
  }
  return lead.size;
}

}  // namespace tlsc
