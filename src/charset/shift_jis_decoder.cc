#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {

std::string decode_shift_jis(std::string_view in) {
  std::string out;
  out.reserve(in.size() * 3 / 2);
  std::size_t i = 0;
  while (i < in.size()) {
    const int c0 = byte_at(in, i);
    char32_t r = kReplacementChar;
    std::size_t size = 1;
    if (c0 < 0x80) {
      r = static_cast<char32_t>(c0);
    } else if (c0 >= 0xA1 && c0 < 0xE0) {  // half-width katakana
      r = static_cast<char32_t>(c0 + (0xFF61 - 0xA1));
    } else if ((c0 >= 0x81 && c0 < 0xA0) || (c0 >= 0xE0 && c0 < 0xFD)) {
      // Two Shift_JIS lead values share one pair of JIS rows.
      int row = 2 * (c0 <= 0x9F ? c0 - 0x70 : c0 - 0xB0) - 0x21;
      const int c1 = byte_at(in, i + 1);
      int cell = -1;
      if (c1 < 0x40 || c1 == 0x7F) {
        size = 1;  // end of input, or an ASCII trail decoded on its own next
      } else if (c1 < 0x7F) {
        --row;
        cell = c1 - 0x40;
      } else if (c1 < 0x9F) {
        --row;
        cell = c1 - 0x41;
      } else if (c1 < 0xFD) {
        cell = c1 - 0x9F;
      } else {
        size = 2;
      }
      if (cell >= 0) {
        size = 2;
        const auto index = static_cast<std::size_t>(row * 94 + cell);
        if (index < tables::jis0208.size() && tables::jis0208[index] != 0) {
          r = tables::jis0208[index];
        }
      }
    } else if (c0 == 0x80) {
      r = 0x80;
    }
    append_utf8(out, r);
    i += size;
  }
  return out;
}

}  // namespace tlsc::charset::detail
