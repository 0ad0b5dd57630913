#include <algorithm>

#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {
namespace {

// gb18030 four-byte pointers below 39420 map through x/text's range table:
// find the last range starting at or before the pointer and offset from it.
char32_t from_ranges(long pointer) {
  const std::span<const std::uint16_t> flat = tables::gb18030_ranges;
  const std::size_t count = flat.size() / 2;
  std::size_t lo = 0;
  std::size_t hi = count;
  while (lo < hi) {  // first range whose start is > pointer
    const std::size_t mid = lo + (hi - lo) / 2;
    if (pointer >= flat[2 * mid]) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return kReplacementChar;  // cannot happen: range 0 starts at 0
  const long start = flat[2 * (lo - 1)];
  const long first = flat[2 * (lo - 1) + 1];
  return static_cast<char32_t>(pointer + first - start);
}

struct Step {
  char32_t r;
  std::size_t size;
};

Step four_byte(std::string_view in, std::size_t i, int c0, int c1) {
  const int c2 = byte_at(in, i + 2);
  const int c3 = byte_at(in, i + 3);
  // Every failure here skips only the lead: the second byte is ASCII.
  if (c3 < 0) return {kReplacementChar, 1};
  if (c2 < 0x81 || c2 > 0xFE) return {kReplacementChar, 1};
  if (c3 < 0x30 || c3 > 0x39) return {kReplacementChar, 1};
  const long pointer =
      ((static_cast<long>(c0 - 0x81) * 10 + (c1 - 0x30)) * 126 + (c2 - 0x81)) * 10 + (c3 - 0x30);
  if (pointer < 39420) return {from_ranges(pointer), 4};
  const long supplementary = pointer - 189000;
  if (supplementary >= 0 && supplementary < 0x100000) {
    return {static_cast<char32_t>(supplementary + 0x10000), 4};
  }
  return {kReplacementChar, 1};
}

}  // namespace

std::string decode_gbk(std::string_view in, bool four_byte_allowed) {
  std::string out;
  out.reserve(in.size() * 3 / 2);
  std::size_t i = 0;
  while (i < in.size()) {
    const int c0 = byte_at(in, i);
    Step step{kReplacementChar, 1};
    if (c0 < 0x80) {
      step = {static_cast<char32_t>(c0), 1};
    } else if (c0 == 0x80) {
      step = {0x20AC, 1};  // Microsoft's euro sign, kept by WHATWG and x/text
    } else if (c0 < 0xFF) {
      const int c1 = byte_at(in, i + 1);
      int cell = -1;
      if (c1 >= 0x40 && c1 < 0x7F) {
        cell = c1 - 0x40;
      } else if (c1 >= 0x80 && c1 < 0xFF) {
        cell = c1 - 0x41;
      } else if (four_byte_allowed && c1 >= 0x30 && c1 < 0x40) {
        step = four_byte(in, i, c0, c1);
      }
      if (cell >= 0) {
        const auto index = static_cast<std::size_t>((c0 - 0x81) * 190 + cell);
        step = {kReplacementChar, 2};
        if (index < tables::gbk.size() && tables::gbk[index] != 0) step.r = tables::gbk[index];
      }
    }
    append_utf8(out, step.r);
    i += step.size;
  }
  return out;
}

}  // namespace tlsc::charset::detail
