// The shape of a well-formed UTF-8 sequence (Unicode's table 3-7): what its
// lead byte says and what the bytes after it must be. Shared by the charset
// decoders (x/text's rules for ill-formed input) and the JSON string writer
// (Go's utf8.DecodeRune: any ill-formed byte is one U+FFFD).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

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

// Well-formedness a byte at a time without a branch: a shift DFA (one
// table load, one shift). Each state is a bit offset; a byte's row holds,
// at each state's offset, the 6-bit state that follows. Error is sticky.
// Same language as utf8_sequence_size: shortest forms, no surrogates,
// nothing past U+10FFFF.
namespace utf8_dfa {
enum State : unsigned {
  kAccept = 0,  // between characters
  kError = 6,
  kTail1 = 12,  // one continuation byte (80..BF) to go
  kTail2 = 18,
  kTail3 = 24,
  kAfterE0 = 30,  // A0..BF, then one more
  kAfterED = 36,  // 80..9F, then one more
  kAfterF0 = 42,  // 90..BF, then two more
  kAfterF4 = 48,  // 80..8F, then two more
};

constexpr std::array<uint64_t, 256> make_rows() {
  std::array<uint64_t, 256> rows{};
  constexpr unsigned kStates[] = {kAccept,  kError,   kTail1,   kTail2,  kTail3,
                                  kAfterE0, kAfterED, kAfterF0, kAfterF4};
  for (unsigned b = 0; b < 256; ++b) {
    uint64_t row = 0;
    for (unsigned from : kStates) {
      unsigned to = kError;
      const bool cont = b >= 0x80 && b <= 0xBF;
      switch (from) {
        case kAccept:
          if (b < 0x80)
            to = kAccept;
          else if (b >= 0xC2 && b <= 0xDF)
            to = kTail1;
          else if (b == 0xE0)
            to = kAfterE0;
          else if (b == 0xED)
            to = kAfterED;
          else if (b >= 0xE1 && b <= 0xEF)
            to = kTail2;
          else if (b == 0xF0)
            to = kAfterF0;
          else if (b >= 0xF1 && b <= 0xF3)
            to = kTail3;
          else if (b == 0xF4)
            to = kAfterF4;
          break;
        case kTail1:
          if (cont) to = kAccept;
          break;
        case kTail2:
          if (cont) to = kTail1;
          break;
        case kTail3:
          if (cont) to = kTail2;
          break;
        case kAfterE0:
          if (b >= 0xA0 && b <= 0xBF) to = kTail1;
          break;
        case kAfterED:
          if (b >= 0x80 && b <= 0x9F) to = kTail1;
          break;
        case kAfterF0:
          if (b >= 0x90 && b <= 0xBF) to = kTail2;
          break;
        case kAfterF4:
          if (b >= 0x80 && b <= 0x8F) to = kTail2;
          break;
        default:
          break;
      }
      row |= uint64_t{to} << from;
    }
    rows[b] = row;
  }
  return rows;
}
inline constexpr std::array<uint64_t, 256> kRows = make_rows();

inline unsigned step(unsigned state, unsigned char b) {
  return static_cast<unsigned>(kRows[b] >> state) & 63;
}

// The state after p[0, n) from `state`. The bits above a state's 6 are
// left in place between bytes: a shift by (x & 63) is one instruction
// where the machine's shift takes its count mod 64, which keeps one byte's
// step at the latency of a shift.
inline unsigned run(unsigned state, const unsigned char* p, std::size_t n) {
  uint64_t raw = state;
#pragma GCC unroll 16
  for (std::size_t k = 0; k < n; ++k) raw = kRows[p[k]] >> (raw & 63);
  return static_cast<unsigned>(raw & 63);
}
}  // namespace utf8_dfa

}  // namespace tlsc
