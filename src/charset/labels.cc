#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "charset/encoding.h"
#include "charset/go_text.h"

namespace tlsc::charset {
namespace {

using E = Encoding;

// htmlindex's nameMap (x/text v0.32.0), sorted for binary search.
constexpr std::pair<std::string_view, Encoding> kLabels[] = {
    {"866", E::ibm866},
    {"ansi_x3.4-1968", E::windows1252},
    {"arabic", E::iso8859_6},
    {"ascii", E::windows1252},
    {"asmo-708", E::iso8859_6},
    {"big5", E::big5},
    {"big5-hkscs", E::big5},
    {"chinese", E::gbk},
    {"cn-big5", E::big5},
    {"cp1250", E::windows1250},
    {"cp1251", E::windows1251},
    {"cp1252", E::windows1252},
    {"cp1253", E::windows1253},
    {"cp1254", E::windows1254},
    {"cp1255", E::windows1255},
    {"cp1256", E::windows1256},
    {"cp1257", E::windows1257},
    {"cp1258", E::windows1258},
    {"cp819", E::windows1252},
    {"cp866", E::ibm866},
    {"csbig5", E::big5},
    {"cseuckr", E::euc_kr},
    {"cseucpkdfmtjapanese", E::euc_jp},
    {"csgb2312", E::gbk},
    {"csibm866", E::ibm866},
    {"csiso2022jp", E::iso2022jp},
    {"csiso2022kr", E::replacement},
    {"csiso58gb231280", E::gbk},
    {"csiso88596e", E::iso8859_6},
    {"csiso88596i", E::iso8859_6},
    {"csiso88598e", E::iso8859_8},
    {"csiso88598i", E::iso8859_8i},
    {"csisolatin1", E::windows1252},
    {"csisolatin2", E::iso8859_2},
    {"csisolatin3", E::iso8859_3},
    {"csisolatin4", E::iso8859_4},
    {"csisolatin5", E::windows1254},
    {"csisolatin6", E::iso8859_10},
    {"csisolatin9", E::iso8859_15},
    {"csisolatinarabic", E::iso8859_6},
    {"csisolatincyrillic", E::iso8859_5},
    {"csisolatingreek", E::iso8859_7},
    {"csisolatinhebrew", E::iso8859_8},
    {"cskoi8r", E::koi8_r},
    {"csksc56011987", E::euc_kr},
    {"csmacintosh", E::macintosh},
    {"csshiftjis", E::shift_jis},
    {"csunicode", E::utf16le},
    {"cyrillic", E::iso8859_5},
    {"dos-874", E::windows874},
    {"ecma-114", E::iso8859_6},
    {"ecma-118", E::iso8859_7},
    {"elot_928", E::iso8859_7},
    {"euc-jp", E::euc_jp},
    {"euc-kr", E::euc_kr},
    {"gb18030", E::gb18030},
    {"gb2312", E::gbk},
    {"gb_2312", E::gbk},
    {"gb_2312-80", E::gbk},
    {"gbk", E::gbk},
    {"greek", E::iso8859_7},
    {"greek8", E::iso8859_7},
    {"hebrew", E::iso8859_8},
    {"hz-gb-2312", E::replacement},
    {"ibm819", E::windows1252},
    {"ibm866", E::ibm866},
    {"iso-10646-ucs-2", E::utf16le},
    {"iso-2022-cn", E::replacement},
    {"iso-2022-cn-ext", E::replacement},
    {"iso-2022-jp", E::iso2022jp},
    {"iso-2022-kr", E::replacement},
    {"iso-8859-1", E::windows1252},
    {"iso-8859-10", E::iso8859_10},
    {"iso-8859-11", E::windows874},
    {"iso-8859-13", E::iso8859_13},
    {"iso-8859-14", E::iso8859_14},
    {"iso-8859-15", E::iso8859_15},
    {"iso-8859-16", E::iso8859_16},
    {"iso-8859-2", E::iso8859_2},
    {"iso-8859-3", E::iso8859_3},
    {"iso-8859-4", E::iso8859_4},
    {"iso-8859-5", E::iso8859_5},
    {"iso-8859-6", E::iso8859_6},
    {"iso-8859-6-e", E::iso8859_6},
    {"iso-8859-6-i", E::iso8859_6},
    {"iso-8859-7", E::iso8859_7},
    {"iso-8859-8", E::iso8859_8},
    {"iso-8859-8-e", E::iso8859_8},
    {"iso-8859-8-i", E::iso8859_8i},
    {"iso-8859-9", E::windows1254},
    {"iso-ir-100", E::windows1252},
    {"iso-ir-101", E::iso8859_2},
    {"iso-ir-109", E::iso8859_3},
    {"iso-ir-110", E::iso8859_4},
    {"iso-ir-126", E::iso8859_7},
    {"iso-ir-127", E::iso8859_6},
    {"iso-ir-138", E::iso8859_8},
    {"iso-ir-144", E::iso8859_5},
    {"iso-ir-148", E::windows1254},
    {"iso-ir-149", E::euc_kr},
    {"iso-ir-157", E::iso8859_10},
    {"iso-ir-58", E::gbk},
    {"iso8859-1", E::windows1252},
    {"iso8859-10", E::iso8859_10},
    {"iso8859-11", E::windows874},
    {"iso8859-13", E::iso8859_13},
    {"iso8859-14", E::iso8859_14},
    {"iso8859-15", E::iso8859_15},
    {"iso8859-2", E::iso8859_2},
    {"iso8859-3", E::iso8859_3},
    {"iso8859-4", E::iso8859_4},
    {"iso8859-5", E::iso8859_5},
    {"iso8859-6", E::iso8859_6},
    {"iso8859-7", E::iso8859_7},
    {"iso8859-8", E::iso8859_8},
    {"iso8859-9", E::windows1254},
    {"iso88591", E::windows1252},
    {"iso885910", E::iso8859_10},
    {"iso885911", E::windows874},
    {"iso885913", E::iso8859_13},
    {"iso885914", E::iso8859_14},
    {"iso885915", E::iso8859_15},
    {"iso88592", E::iso8859_2},
    {"iso88593", E::iso8859_3},
    {"iso88594", E::iso8859_4},
    {"iso88595", E::iso8859_5},
    {"iso88596", E::iso8859_6},
    {"iso88597", E::iso8859_7},
    {"iso88598", E::iso8859_8},
    {"iso88599", E::windows1254},
    {"iso_8859-1", E::windows1252},
    {"iso_8859-15", E::iso8859_15},
    {"iso_8859-1:1987", E::windows1252},
    {"iso_8859-2", E::iso8859_2},
    {"iso_8859-2:1987", E::iso8859_2},
    {"iso_8859-3", E::iso8859_3},
    {"iso_8859-3:1988", E::iso8859_3},
    {"iso_8859-4", E::iso8859_4},
    {"iso_8859-4:1988", E::iso8859_4},
    {"iso_8859-5", E::iso8859_5},
    {"iso_8859-5:1988", E::iso8859_5},
    {"iso_8859-6", E::iso8859_6},
    {"iso_8859-6:1987", E::iso8859_6},
    {"iso_8859-7", E::iso8859_7},
    {"iso_8859-7:1987", E::iso8859_7},
    {"iso_8859-8", E::iso8859_8},
    {"iso_8859-8:1988", E::iso8859_8},
    {"iso_8859-9", E::windows1254},
    {"iso_8859-9:1989", E::windows1254},
    {"koi", E::koi8_r},
    {"koi8", E::koi8_r},
    {"koi8-r", E::koi8_r},
    {"koi8-ru", E::koi8_u},
    {"koi8-u", E::koi8_u},
    {"koi8_r", E::koi8_r},
    {"korean", E::euc_kr},
    {"ks_c_5601-1987", E::euc_kr},
    {"ks_c_5601-1989", E::euc_kr},
    {"ksc5601", E::euc_kr},
    {"ksc_5601", E::euc_kr},
    {"l1", E::windows1252},
    {"l2", E::iso8859_2},
    {"l3", E::iso8859_3},
    {"l4", E::iso8859_4},
    {"l5", E::windows1254},
    {"l6", E::iso8859_10},
    {"l9", E::iso8859_15},
    {"latin1", E::windows1252},
    {"latin2", E::iso8859_2},
    {"latin3", E::iso8859_3},
    {"latin4", E::iso8859_4},
    {"latin5", E::windows1254},
    {"latin6", E::iso8859_10},
    {"logical", E::iso8859_8i},
    {"mac", E::macintosh},
    {"macintosh", E::macintosh},
    {"ms932", E::shift_jis},
    {"ms_kanji", E::shift_jis},
    {"replacement", E::replacement},
    {"shift-jis", E::shift_jis},
    {"shift_jis", E::shift_jis},
    {"sjis", E::shift_jis},
    {"sun_eu_greek", E::iso8859_7},
    {"tis-620", E::windows874},
    {"ucs-2", E::utf16le},
    {"unicode", E::utf16le},
    {"unicode-1-1-utf-8", E::utf8},
    {"unicode11utf8", E::utf8},
    {"unicode20utf8", E::utf8},
    {"unicodefeff", E::utf16le},
    {"unicodefffe", E::utf16be},
    {"us-ascii", E::windows1252},
    {"utf-16", E::utf16le},
    {"utf-16be", E::utf16be},
    {"utf-16le", E::utf16le},
    {"utf-8", E::utf8},
    {"utf8", E::utf8},
    {"visual", E::iso8859_8},
    {"windows-1250", E::windows1250},
    {"windows-1251", E::windows1251},
    {"windows-1252", E::windows1252},
    {"windows-1253", E::windows1253},
    {"windows-1254", E::windows1254},
    {"windows-1255", E::windows1255},
    {"windows-1256", E::windows1256},
    {"windows-1257", E::windows1257},
    {"windows-1258", E::windows1258},
    {"windows-31j", E::shift_jis},
    {"windows-874", E::windows874},
    {"windows-949", E::euc_kr},
    {"x-cp1250", E::windows1250},
    {"x-cp1251", E::windows1251},
    {"x-cp1252", E::windows1252},
    {"x-cp1253", E::windows1253},
    {"x-cp1254", E::windows1254},
    {"x-cp1255", E::windows1255},
    {"x-cp1256", E::windows1256},
    {"x-cp1257", E::windows1257},
    {"x-cp1258", E::windows1258},
    {"x-euc-jp", E::euc_jp},
    {"x-gbk", E::gbk},
    {"x-mac-cyrillic", E::x_mac_cyrillic},
    {"x-mac-roman", E::macintosh},
    {"x-mac-ukrainian", E::x_mac_cyrillic},
    {"x-sjis", E::shift_jis},
    {"x-unicode20utf8", E::utf8},
    {"x-user-defined", E::x_user_defined},
    {"x-x-big5", E::big5},
};

static_assert(std::ranges::is_sorted(kLabels, {}, &std::pair<std::string_view, Encoding>::first),
              "kLabels must stay sorted for binary search");

}  // namespace

std::optional<Encoding> lookup_label(std::string_view label) {
  const std::string key = detail::lower_for_match(detail::trim_space(label));
  const auto* it = std::ranges::lower_bound(
      kLabels, std::string_view(key), {}, &std::pair<std::string_view, Encoding>::first);
  if (it == std::end(kLabels) || it->first != key) return std::nullopt;
  return it->second;
}

std::string_view canonical_name(Encoding e) {
  switch (e) {
    case E::utf8: return "utf-8";
    case E::ibm866: return "ibm866";
    case E::iso8859_2: return "iso-8859-2";
    case E::iso8859_3: return "iso-8859-3";
    case E::iso8859_4: return "iso-8859-4";
    case E::iso8859_5: return "iso-8859-5";
    case E::iso8859_6: return "iso-8859-6";
    case E::iso8859_7: return "iso-8859-7";
    case E::iso8859_8: return "iso-8859-8";
    case E::iso8859_8i: return "iso-8859-8-i";
    case E::iso8859_10: return "iso-8859-10";
    case E::iso8859_13: return "iso-8859-13";
    case E::iso8859_14: return "iso-8859-14";
    case E::iso8859_15: return "iso-8859-15";
    case E::iso8859_16: return "iso-8859-16";
    case E::koi8_r: return "koi8-r";
    case E::koi8_u: return "koi8-u";
    case E::macintosh: return "macintosh";
    case E::windows874: return "windows-874";
    case E::windows1250: return "windows-1250";
    case E::windows1251: return "windows-1251";
    case E::windows1252: return "windows-1252";
    case E::windows1253: return "windows-1253";
    case E::windows1254: return "windows-1254";
    case E::windows1255: return "windows-1255";
    case E::windows1256: return "windows-1256";
    case E::windows1257: return "windows-1257";
    case E::windows1258: return "windows-1258";
    case E::x_mac_cyrillic: return "x-mac-cyrillic";
    case E::gbk: return "gbk";
    case E::gb18030: return "gb18030";
    case E::big5: return "big5";
    case E::euc_jp: return "euc-jp";
    case E::iso2022jp: return "iso-2022-jp";
    case E::shift_jis: return "shift_jis";
    case E::euc_kr: return "euc-kr";
    case E::replacement: return "replacement";
    case E::utf16be: return "utf-16be";
    case E::utf16le: return "utf-16le";
    case E::x_user_defined: return "x-user-defined";
  }
  return "";
}

}  // namespace tlsc::charset
