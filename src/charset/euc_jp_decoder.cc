#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {
namespace {

char32_t lookup(std::span<const std::uint16_t> table, std::size_t index) {
  if (index >= table.size() || table[index] == 0) return kReplacementChar;
  return table[index];
}

bool is_row_byte(int b) { return b >= 0xA1 && b <= 0xFE; }

}  // namespace

std::string decode_euc_jp(std::string_view in) {
  std::string out;
  out.reserve(in.size() * 3 / 2);
  std::size_t i = 0;
  while (i < in.size()) {
    const int c0 = byte_at(in, i);
    const int c1 = byte_at(in, i + 1);
    char32_t r = kReplacementChar;
    std::size_t size = 1;
    if (c0 < 0x80) {
      r = static_cast<char32_t>(c0);
    } else if (c0 == 0x8E) {  // half-width katakana
      if (c1 < 0xA1) {        // includes the end of input
        size = 1;
      } else if (c1 > 0xDF) {
        size = c1 == 0xFF ? 1 : 2;
      } else {
        r = static_cast<char32_t>(c1 + (0xFF61 - 0xA1));
        size = 2;
      }
    } else if (c0 == 0x8F) {  // JIS X 0212
      const int c2 = byte_at(in, i + 2);
      if (c2 < 0) {
        // Truncated at the end: x/text skips a plausible second byte with
        // the lead (its range check here stops at 0xFD, unlike below).
        size = (c1 >= 0xA1 && c1 < 0xFE) ? 2 : 1;
      } else if (!is_row_byte(c1)) {
        size = 1;
      } else if (!is_row_byte(c2)) {
        size = 2;
      } else {
        r = lookup(tables::jis0212, static_cast<std::size_t>((c1 - 0xA1) * 94 + (c2 - 0xA1)));
        size = 3;
      }
    } else if (is_row_byte(c0)) {  // JIS X 0208
      if (c1 >= 0 && is_row_byte(c1)) {
        r = lookup(tables::jis0208, static_cast<std::size_t>((c0 - 0xA1) * 94 + (c1 - 0xA1)));
        size = 2;
      }
    }
    append_utf8(out, r);
    i += size;
  }
  return out;
}

}  // namespace tlsc::charset::detail
