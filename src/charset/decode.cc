#include "charset/decoders.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {

std::string decode(Encoding e, std::string_view in) {
  namespace t = tables;
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
    case Encoding::ibm866:
      return decode_single_byte(in, t::ibm866);
    case Encoding::iso8859_2:
      return decode_single_byte(in, t::iso8859_2);
    case Encoding::iso8859_3:
      return decode_single_byte(in, t::iso8859_3);
    case Encoding::iso8859_4:
      return decode_single_byte(in, t::iso8859_4);
    case Encoding::iso8859_5:
      return decode_single_byte(in, t::iso8859_5);
    case Encoding::iso8859_6:
      return decode_single_byte(in, t::iso8859_6);
    case Encoding::iso8859_7:
      return decode_single_byte(in, t::iso8859_7);
    case Encoding::iso8859_8:
    case Encoding::iso8859_8i:
      return decode_single_byte(in, t::iso8859_8);
    case Encoding::iso8859_10:
      return decode_single_byte(in, t::iso8859_10);
    case Encoding::iso8859_13:
      return decode_single_byte(in, t::iso8859_13);
    case Encoding::iso8859_14:
      return decode_single_byte(in, t::iso8859_14);
    case Encoding::iso8859_15:
      return decode_single_byte(in, t::iso8859_15);
    case Encoding::iso8859_16:
      return decode_single_byte(in, t::iso8859_16);
    case Encoding::koi8_r:
      return decode_single_byte(in, t::koi8_r);
    case Encoding::koi8_u:
      return decode_single_byte(in, t::koi8_u);
    case Encoding::macintosh:
      return decode_single_byte(in, t::macintosh);
    case Encoding::x_mac_cyrillic:
      return decode_single_byte(in, t::x_mac_cyrillic);
    case Encoding::windows874:
      return decode_single_byte(in, t::windows874);
    case Encoding::windows1250:
      return decode_single_byte(in, t::windows1250);
    case Encoding::windows1251:
      return decode_single_byte(in, t::windows1251);
    case Encoding::windows1252:
      return decode_single_byte(in, t::windows1252);
    case Encoding::windows1253:
      return decode_single_byte(in, t::windows1253);
    case Encoding::windows1254:
      return decode_single_byte(in, t::windows1254);
    case Encoding::windows1255:
      return decode_single_byte(in, t::windows1255);
    case Encoding::windows1256:
      return decode_single_byte(in, t::windows1256);
    case Encoding::windows1257:
      return decode_single_byte(in, t::windows1257);
    case Encoding::windows1258:
      return decode_single_byte(in, t::windows1258);
    case Encoding::x_user_defined:
      return decode_single_byte(in, t::x_user_defined);
  }
  return std::string(in);
}

}  // namespace tlsc::charset::detail
