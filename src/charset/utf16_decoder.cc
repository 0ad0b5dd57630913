#include "charset/decoders.h"
#include "charset/go_text.h"

namespace tlsc::charset::detail {

std::string decode_utf16(std::string_view in, bool big_endian) {
  std::string out;
  out.reserve(in.size() + in.size() / 2);
  const auto unit_at = [&](std::size_t i) -> char32_t {
    const int a = byte_at(in, i);
    const int b = byte_at(in, i + 1);
    return static_cast<char32_t>(big_endian ? (a << 8 | b) : (b << 8 | a));
  };
  const auto is_low = [](char32_t u) { return u >= 0xDC00 && u <= 0xDFFF; };
  std::size_t i = 0;
  while (i < in.size()) {
    if (i + 1 >= in.size()) {  // odd trailing byte
      append_utf8(out, kReplacementChar);
      break;
    }
    char32_t r = unit_at(i);
    std::size_t size = 2;
    if (r >= 0xD800 && r <= 0xDFFF && i + 3 < in.size()) {
      // x/text pairs any surrogate with a following low surrogate and
      // consumes both; a low+low pair therefore becomes a single U+FFFD.
      const char32_t next = unit_at(i + 2);
      if (is_low(next)) {
        r = r <= 0xDBFF ? 0x10000 + ((r - 0xD800) << 10) + (next - 0xDC00) : kReplacementChar;
        size = 4;
      }
    }
    append_utf8(out, r);  // a lone surrogate becomes U+FFFD here
    i += size;
  }
  return out;
}

}  // namespace tlsc::charset::detail
