#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {
namespace {

// Index into x/text's packed EUC-KR table, or -1 for a trail byte outside
// the lead's row. Rows 0x81..0xC6 carry the UHC extension (A-Z, a-z and
// 0x81..0xFE: 178 cells); later rows only 0xA1..0xFE (94 cells).
long packed_index(int c0, int c1) {
  constexpr int kWideRows = 0xC7 - 0x81;
  if (c0 < 0xC7) {
    const int base = 178 * (c0 - 0x81);
    if (c1 >= 0x41 && c1 < 0x5B) return base + (c1 - 0x41);
    if (c1 >= 0x61 && c1 < 0x7B) return base + 26 + (c1 - 0x61);
    if (c1 >= 0x81 && c1 < 0xFF) return base + 52 + (c1 - 0x81);
    return -1;
  }
  if (c1 >= 0xA1 && c1 < 0xFF) return 178 * kWideRows + (c0 - 0xC7) * 94 + (c1 - 0xA1);
  return -1;
}

}  // namespace

std::string decode_euc_kr(std::string_view in) {
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
    const long index = packed_index(c0, c1);
    if (index >= 0 && static_cast<std::size_t>(index) < tables::euc_kr.size() &&
        tables::euc_kr[static_cast<std::size_t>(index)] != 0) {
      append_utf8(out, tables::euc_kr[static_cast<std::size_t>(index)]);
      i += 2;
      continue;
    }
    // An ASCII trail byte is left to be decoded on its own.
    append_utf8(out, kReplacementChar);
    i += c1 < 0x80 ? 1 : 2;
  }
  return out;
}

}  // namespace tlsc::charset::detail
