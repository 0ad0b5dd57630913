#include "core/byte_scan.h"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace tlsc {
namespace {

// The byte loop: for the tail shorter than a step, and to find the exact
// byte inside a step that has one.
size_t ascii_tail(const char* p, size_t i, size_t n) {
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80) ++i;
  return i;
}
size_t json_plain_tail(const char* p, size_t i, size_t n) {
  while (i < n && is_json_plain_byte(static_cast<unsigned char>(p[i]))) ++i;
  return i;
}

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHigh = 0x8080808080808080ull;

uint64_t load64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
// High bit set in each byte of w equal to c (exact in the lowest flagged
// byte; bytes above it may be false hits, so callers only ask "any").
uint64_t bytes_equal(uint64_t w, unsigned char c) {
  uint64_t x = w ^ (kOnes * c);
  return (x - kOnes) & ~x & kHigh;
}

}  // namespace

namespace detail {

size_t count_ascii_prefix_words(const char* p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (load64(p + i) & kHigh) return ascii_tail(p, i, n);
  }
  return ascii_tail(p, i, n);
}

size_t count_json_plain_prefix_words(const char* p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w = load64(p + i);
    // A byte below 0x20 borrows into its own high bit in (w - 0x20 each)
    // (exact for the lowest one, and "any" is all this asks); w's own high
    // bits are the non-ASCII bytes.
    uint64_t special = ((w - kOnes * 0x20) & ~w & kHigh) | (w & kHigh) | bytes_equal(w, '"') |
                       bytes_equal(w, '\\') | bytes_equal(w, '<') | bytes_equal(w, '>') | bytes_equal(w, '&');
    if (special) return json_plain_tail(p, i, n);
  }
  return json_plain_tail(p, i, n);
}

}  // namespace detail

size_t count_ascii_prefix(const char* p, size_t n) {
#if !defined(__SSE2__) && !defined(__ARM_NEON)
  return detail::count_ascii_prefix_words(p, n);
#else
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    if (int mask = _mm_movemask_epi8(v))
      return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)));
  }
#elif defined(__ARM_NEON)
  for (; i + 16 <= n; i += 16) {
    uint8x16_t v = vld1q_u8(reinterpret_cast<const uint8_t*>(p + i));
    if (vmaxvq_u8(v) >= 0x80) return ascii_tail(p, i, n);
  }
#endif
  return ascii_tail(p, i, n);
#endif
}

size_t count_json_plain_prefix(const char* p, size_t n) {
#if !defined(__SSE2__) && !defined(__ARM_NEON)
  return detail::count_json_plain_prefix_words(p, n);
#else
  size_t i = 0;
#if defined(__SSE2__)
  // As signed bytes, everything >= 0x80 is negative, so one "less than
  // 0x20" finds control bytes and non-ASCII together.
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i lt = _mm_set1_epi8('<');
  const __m128i gt = _mm_set1_epi8('>');
  const __m128i amp = _mm_set1_epi8('&');
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i hit =
        _mm_or_si128(_mm_cmplt_epi8(v, space),
                     _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                  _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt)),
                                               _mm_cmpeq_epi8(v, amp))));
    if (int mask = _mm_movemask_epi8(hit))
      return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)));
  }
#elif defined(__ARM_NEON)
  const int8x16_t space = vdupq_n_s8(0x20);
  for (; i + 16 <= n; i += 16) {
    uint8x16_t v = vld1q_u8(reinterpret_cast<const uint8_t*>(p + i));
    uint8x16_t hit = vcltq_s8(vreinterpretq_s8_u8(v), space);
    hit = vorrq_u8(hit, vceqq_u8(v, vdupq_n_u8('"')));
    hit = vorrq_u8(hit, vceqq_u8(v, vdupq_n_u8('\\')));
    hit = vorrq_u8(hit, vceqq_u8(v, vdupq_n_u8('<')));
    hit = vorrq_u8(hit, vceqq_u8(v, vdupq_n_u8('>')));
    hit = vorrq_u8(hit, vceqq_u8(v, vdupq_n_u8('&')));
    if (vmaxvq_u8(hit)) return json_plain_tail(p, i, n);
  }
#endif
  return json_plain_tail(p, i, n);
#endif
}

}  // namespace tlsc
