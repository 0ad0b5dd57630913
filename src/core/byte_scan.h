// Wide scans over bytes: how many leading bytes of a buffer need no work.
// A body is mostly such bytes (ASCII text, nothing JSON escapes), so the
// charset decoder and the JSON writer copy whole runs instead of looking at
// one byte at a time. 16 bytes a step with SSE2 on x86-64 and NEON on arm64,
// 8 with plain 64-bit words elsewhere; every answer is the byte loop's.
#pragma once

#include <cstddef>

namespace tlsc {

// The number of leading bytes of p[0, n) below 0x80.
size_t count_ascii_prefix(const char* p, size_t n);

// A byte Go's JSON encoder (HTML-safe) writes as it is: 0x20..0x7f except
// '"', '\\', '<', '>', '&'.
constexpr bool is_json_plain_byte(unsigned char c) {
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

// The number of leading bytes of p[0, n) that Go's JSON encoder writes as
// they are: 0x20..0x7f except '"', '\\', and (HTML-safe escaping) '<', '>',
// '&'. Stops at a control byte and at any byte >= 0x80, which the caller
// checks as UTF-8.
size_t count_json_plain_prefix(const char* p, size_t n);

namespace detail {
// The portable versions (8 bytes a step), used where neither SSE2 nor NEON
// is; compiled everywhere so that the tests check them on every machine.
size_t count_ascii_prefix_words(const char* p, size_t n);
size_t count_json_plain_prefix_words(const char* p, size_t n);
}  // namespace detail

}  // namespace tlsc
