// The JSON string writer 32 bytes a step, for x86-64 CPUs with AVX2:
// json_string.cc calls it only where the CPU says it has AVX2. The build
// targets plain x86-64, so only what is declared below the target pragma
// (this file's block and its own copies of the templates of
// json_string_blocks.h, all of internal linkage) is compiled for AVX2;
// every inline function of the headers above it stays plain x86-64.
#include "abi/json_string.h"

#if TLSC_JSON_STRING_AVX2

#include <immintrin.h>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/utf8.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#include "abi/json_string_blocks.h"

namespace tlsc {
namespace {

// The same answers as json_string_blocks.h's 16-byte SSE2 block, for 32
// bytes (AVX2 compares signed bytes with "greater than" only).
struct Avx2Block {
  static constexpr size_t kSize = 32;
  static constexpr int kShift = 1;

  static __m256i load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static uint64_t bits(__m256i v) { return static_cast<uint32_t>(_mm256_movemask_epi8(v)); }
  static __m256i eq(__m256i v, char c) { return _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c)); }
  static __m256i below_0x20(__m256i v) { return _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v); }

  static uint64_t special(const char* p) {
    const __m256i v = load(p);
    // As signed bytes everything above 0x7f is negative: one "below 0x20"
    // finds control bytes and non-ASCII together.
    const __m256i hit = _mm256_or_si256(
        below_0x20(v), _mm256_or_si256(_mm256_or_si256(eq(v, '"'), eq(v, '\\')),
                                       _mm256_or_si256(_mm256_or_si256(eq(v, '<'), eq(v, '>')), eq(v, '&'))));
    return bits(hit);
  }
  static uint64_t high(const char* p) { return bits(load(p)); }
  static uint64_t equal_to(const char* p, unsigned char c) { return bits(eq(load(p), static_cast<char>(c))); }
  static size_t extra(const char* p, size_t k) {
    const __m256i v = load(p);
    const __m256i one = _mm256_or_si256(
        _mm256_or_si256(_mm256_or_si256(eq(v, '"'), eq(v, '\\')), _mm256_or_si256(eq(v, '\b'), eq(v, '\f'))),
        _mm256_or_si256(_mm256_or_si256(eq(v, '\n'), eq(v, '\r')), eq(v, '\t')));
    // Control bytes: below 0x20 and not negative (not above 0x7f).
    const __m256i control = _mm256_and_si256(below_0x20(v), _mm256_cmpgt_epi8(v, _mm256_set1_epi8(-1)));
    const __m256i five =
        _mm256_or_si256(_mm256_andnot_si256(one, control),
                        _mm256_or_si256(_mm256_or_si256(eq(v, '<'), eq(v, '>')), eq(v, '&')));
    __m256i weights = _mm256_or_si256(_mm256_and_si256(one, _mm256_set1_epi8(1)),
                                      _mm256_and_si256(five, _mm256_set1_epi8(5)));
    const __m256i index = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
                                           19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    weights = _mm256_and_si256(weights, _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(k)), index));
    // Four 64-bit sums, one per 8 bytes, added up (at most 160).
    const __m256i sums = _mm256_sad_epu8(weights, _mm256_setzero_si256());
    const __m128i pair = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    return static_cast<size_t>(_mm_cvtsi128_si64(pair) + _mm_extract_epi64(pair, 1));
  }
  static void copy(char* dst, const char* src) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), load(src));
  }
};

size_t size_avx2(std::string_view s) { return size_of<Avx2Block>(s); }
char* write_avx2(char* dst, std::string_view s) { return write<Avx2Block>(dst, s); }

}  // namespace
}  // namespace tlsc

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// Declared in json_string.h for plain x86-64, so defined out here: GCC
// would take a definition under the pragma for another version of them.
namespace tlsc::detail {
size_t json_string_size_avx2(std::string_view s) { return size_avx2(s); }
char* write_json_string_avx2(char* dst, std::string_view s) { return write_avx2(dst, s); }
}  // namespace tlsc::detail

#endif  // TLSC_JSON_STRING_AVX2
