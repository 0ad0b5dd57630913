// Strings as Go's encoding/json writes them (json.Marshal: HTML-safe),
// which is what upstream's response JSON is made of. Byte for byte:
//   - '"' and '\\' get a backslash; \b \f \n \r \t their short escapes
//     (Go 1.22 and later); every other byte below 0x20 and '<', '>', '&'
//     \u00XX with lowercase hex;
//   - U+2028 and U+2029 become \u2028 and \u2029;
//   - each byte that does not start a well-formed UTF-8 sequence (Go's
//     utf8.DecodeRune giving RuneError, 1) becomes \ufffd;
//   - everything else, 0x7f included, is copied.
// A response body is most of a response's bytes, so this runs a block of
// bytes a step (AVX2 on the x86-64 CPUs that have it, else SSE2; NEON on
// arm64; 64-bit words elsewhere): a first pass counts the exact size, a
// second writes into it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// Whether this build carries the AVX2 version (abi/json_string_avx2.cc),
// chosen at run time. Not on macOS: its x86-64 Macs keep SSE2, which leaves
// Apple's toolchain no CPU-model runtime to need.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__APPLE__)
#define TLSC_JSON_STRING_AVX2 1
#else
#define TLSC_JSON_STRING_AVX2 0
#endif

namespace tlsc {

// How many bytes write_json_string writes for s, the two quotes included.
size_t json_string_size(std::string_view s);

// Writes s as a JSON string at dst, which has room for exactly
// json_string_size(s) bytes; returns the end of what it wrote.
char* write_json_string(char* dst, std::string_view s);

// The same without the quotes: json_string_size(s) - 2 bytes at dst, which
// has room for exactly those. For a string written in pieces that meet
// where Go's UTF-8 decoding has a character boundary (json_string_parts.h).
char* write_json_string_contents(char* dst, std::string_view s);

void append_json_string(std::string& out, std::string_view s);
// The same where the caller has json_string_size(s) already.
void append_json_string(std::string& out, std::string_view s, size_t size);

namespace detail {
// The portable versions (8 bytes a step), used where neither SSE2 nor NEON
// is; compiled everywhere so that the tests check them on every machine.
size_t json_string_size_words(std::string_view s);
char* write_json_string_words(char* dst, std::string_view s);
// The 16-byte versions (SSE2, NEON; the words where neither is), what runs
// where AVX2 does not.
size_t json_string_size_vector(std::string_view s);
char* write_json_string_vector(char* dst, std::string_view s);
// Whether json_string_size and write_json_string run the AVX2 versions.
bool json_string_avx2_in_use();
#if TLSC_JSON_STRING_AVX2
// Only on a CPU with AVX2.
size_t json_string_size_avx2(std::string_view s);
char* write_json_string_avx2(char* dst, std::string_view s);
char* write_json_string_contents_avx2(char* dst, std::string_view s);
#endif
}  // namespace detail

}  // namespace tlsc
