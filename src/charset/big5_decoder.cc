#include <algorithm>

#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {
namespace {

char32_t big5_at(std::size_t index) {
  const std::uint16_t low = tables::big5_low[index];
  if (low == 0) return kReplacementChar;
  const bool plane2 = std::ranges::binary_search(tables::big5_plane2, index);
  return plane2 ? 0x20000u + low : low;
}

}  // namespace

std::string decode_big5(std::string_view in) {
  std::string out;
  out.reserve(in.size() * 3 / 2);
  std::size_t i = 0;
  while (i < in.size()) {
    const int c0 = byte_at(in, i);
    if (c0 < 0x80) {
      out.push_back(static_cast<char>(c0));
      ++i;
      continue;
    }
    const int c1 = byte_at(in, i + 1);
    if (c0 == 0x80 || c0 == 0xFF || c1 < 0) {
      append_utf8(out, kReplacementChar);
      ++i;
      continue;
    }
    int cell = -1;
    if (c1 >= 0x40 && c1 < 0x7F) {
      cell = c1 - 0x40;
    } else if (c1 >= 0xA1 && c1 < 0xFF) {
      cell = c1 - 0x62;
    } else {
      // x/text keeps an ASCII second byte for the next round but swallows
      // 0x7F..0xA0 and 0xFF together with the lead.
      append_utf8(out, kReplacementChar);
      i += c1 < 0x40 ? 1 : 2;
      continue;
    }
    const auto index = static_cast<std::size_t>((c0 - 0x81) * 157 + cell);
    i += 2;
    if (index >= tables::big5_low.size()) {
      append_utf8(out, kReplacementChar);
      continue;
    }
    // Four pointers decode to a base letter plus a combining mark.
    switch (index) {
      case 1133:
        out.append("\u00CA\u0304");
        continue;
      case 1135:
        out.append("\u00CA\u030C");
        continue;
      case 1164:
        out.append("\u00EA\u0304");
        continue;
      case 1166:
        out.append("\u00EA\u030C");
        continue;
      default:
        append_utf8(out, big5_at(index));
    }
  }
  return out;
}

}  // namespace tlsc::charset::detail
