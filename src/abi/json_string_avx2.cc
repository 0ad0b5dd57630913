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

// 32 bytes in a register, for json_string_blocks.h's X86Block.
struct Avx2Register {
  using Vector = __m256i;
  static constexpr size_t kSize = 32;

  static Vector load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(char* p, Vector v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static Vector splat(char c) { return _mm256_set1_epi8(c); }
  static Vector cmpeq(Vector a, Vector b) { return _mm256_cmpeq_epi8(a, b); }
  static Vector cmpgt(Vector a, Vector b) { return _mm256_cmpgt_epi8(a, b); }
  static Vector or_(Vector a, Vector b) { return _mm256_or_si256(a, b); }
  static Vector and_(Vector a, Vector b) { return _mm256_and_si256(a, b); }
  static Vector andnot(Vector a, Vector b) { return _mm256_andnot_si256(a, b); }  // ~a & b
  static uint64_t movemask(Vector v) { return static_cast<uint32_t>(_mm256_movemask_epi8(v)); }
  static Vector index() {
    return _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                            23, 24, 25, 26, 27, 28, 29, 30, 31);
  }
  // The bytes' sum (at most 160), from four 64-bit sums of 8 bytes each.
  static size_t sum_bytes(Vector v) {
    const __m256i sums = _mm256_sad_epu8(v, _mm256_setzero_si256());
    const __m128i pair = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    return static_cast<size_t>(_mm_cvtsi128_si64(pair) + _mm_extract_epi64(pair, 1));
  }
};
using Avx2Block = X86Block<Avx2Register>;

size_t size_avx2(std::string_view s) { return size_of<Avx2Block>(s); }
char* write_avx2(char* dst, std::string_view s) { return write<Avx2Block>(dst, s); }
char* write_contents_avx2(char* dst, std::string_view s) { return write_contents<Avx2Block>(dst, s); }

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
char* write_json_string_contents_avx2(char* dst, std::string_view s) { return write_contents_avx2(dst, s); }
}  // namespace tlsc::detail

#endif  // TLSC_JSON_STRING_AVX2
