// Wide scans over bytes: how many leading bytes of a buffer are ASCII. A
// body is mostly such bytes, so the charset decoders copy whole runs
// instead of looking at one byte at a time (the JSON string writer,
// abi/json_string.cc, has its own block scan). 16 bytes a step with SSE2 on x86-64 and NEON on arm64,
// 8 with plain 64-bit words elsewhere; every answer is the byte loop's.
#pragma once

#include <cstddef>

namespace tlsc {

// The number of leading bytes of p[0, n) below 0x80.
size_t count_ascii_prefix(const char* p, size_t n);

namespace detail {
// The portable versions (8 bytes a step), used where neither SSE2 nor NEON
// is; compiled everywhere so that the tests check them on every machine.
size_t count_ascii_prefix_words(const char* p, size_t n);
}  // namespace detail

}  // namespace tlsc
