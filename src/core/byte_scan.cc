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

constexpr uint64_t kHigh = 0x8080808080808080ull;

uint64_t load64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
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

}  // namespace tlsc
