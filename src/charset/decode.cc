#include <algorithm>

#include "charset/decoders.h"
#include "charset/tables.h"
#include "core/byte_scan.h"

namespace tlsc::charset::detail {

std::string decode(Encoding e, std::string_view in) {
  switch (e) {
    case Encoding::utf8:
      return decode_utf8(in);
    case Encoding::utf16be:
      return decode_utf16(in, true);
    case Encoding::utf16le:
      return decode_utf16(in, false);
    case Encoding::replacement:
      return "\xEF\xBF\xBD";
    case Encoding::euc_jp:
      return decode_euc_jp(in);
    case Encoding::shift_jis:
      return decode_shift_jis(in);
    case Encoding::iso2022jp:
      return decode_iso2022jp(in);
    case Encoding::euc_kr:
      return decode_euc_kr(in);
    case Encoding::gbk:
      return decode_gbk(in, false);
    case Encoding::gb18030:
      return decode_gbk(in, true);
    case Encoding::big5:
      return decode_big5(in);
    default:
      break;
  }
  if (const auto* table = single_byte_table(e)) return decode_single_byte(in, *table);
  return std::string(in);
}

const std::array<std::uint16_t, 128>* single_byte_table(Encoding e) {
  namespace t = tables;
  switch (e) {
    case Encoding::ibm866:
      return &t::ibm866;
    case Encoding::iso8859_2:
      return &t::iso8859_2;
    case Encoding::iso8859_3:
      return &t::iso8859_3;
    case Encoding::iso8859_4:
      return &t::iso8859_4;
    case Encoding::iso8859_5:
      return &t::iso8859_5;
    case Encoding::iso8859_6:
      return &t::iso8859_6;
    case Encoding::iso8859_7:
      return &t::iso8859_7;
    case Encoding::iso8859_8:
    case Encoding::iso8859_8i:
      return &t::iso8859_8;
    case Encoding::iso8859_10:
      return &t::iso8859_10;
    case Encoding::iso8859_13:
      return &t::iso8859_13;
    case Encoding::iso8859_14:
      return &t::iso8859_14;
    case Encoding::iso8859_15:
      return &t::iso8859_15;
    case Encoding::iso8859_16:
      return &t::iso8859_16;
    case Encoding::koi8_r:
      return &t::koi8_r;
    case Encoding::koi8_u:
      return &t::koi8_u;
    case Encoding::macintosh:
      return &t::macintosh;
    case Encoding::x_mac_cyrillic:
      return &t::x_mac_cyrillic;
    case Encoding::windows874:
      return &t::windows874;
    case Encoding::windows1250:
      return &t::windows1250;
    case Encoding::windows1251:
      return &t::windows1251;
    case Encoding::windows1252:
      return &t::windows1252;
    case Encoding::windows1253:
      return &t::windows1253;
    case Encoding::windows1254:
      return &t::windows1254;
    case Encoding::windows1255:
      return &t::windows1255;
    case Encoding::windows1256:
      return &t::windows1256;
    case Encoding::windows1257:
      return &t::windows1257;
    case Encoding::windows1258:
      return &t::windows1258;
    case Encoding::x_user_defined:
      return &t::x_user_defined;
    default:
      return nullptr;
  }
}

bool decodes_to_itself(Encoding e, std::span<const std::string> parts) {
  if (e == Encoding::utf8) {
    // Each part's well-formed stretch is found as for one string; only the
    // few bytes of a character cut by the end of a part go through the DFA,
    // from the state it leaves into the next part.
    unsigned state = utf8_dfa::kAccept;
    for (const std::string& part : parts) {
      const auto* p = reinterpret_cast<const unsigned char*>(part.data());
      size_t i = 0;
      while (state != utf8_dfa::kAccept && i < part.size()) state = utf8_dfa::step(state, p[i++]);
      if (state == utf8_dfa::kError) return false;
      if (state != utf8_dfa::kAccept) continue;  // a part inside one character
      const size_t rest = part.size() - i - valid_utf8_prefix(std::string_view(part).substr(i));
      if (rest == 0) continue;
      if (rest > 3) return false;  // an ill-formed sequence, not one cut by the part's end
      state = utf8_dfa::run(utf8_dfa::kAccept, p + part.size() - rest, rest);
      if (state == utf8_dfa::kError) return false;
    }
    return state == utf8_dfa::kAccept;
  }
  if (single_byte_table(e) != nullptr) {
    return std::ranges::all_of(parts, [](const std::string& part) {
      return count_ascii_prefix(part.data(), part.size()) == part.size();
    });
  }
  return false;
}

}  // namespace tlsc::charset::detail
