#include "charset/attr_unescape.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "charset/go_text.h"

namespace tlsc::charset {
namespace {

using detail::byte_at;

struct NamedRef {
  std::string_view name;  // as matched, including the ';' when required
  char32_t first;
  char32_t second;  // 0 when the reference expands to one code point
};

// The HTML named references whose expansion holds a character the prescan
// reacts to: ASCII (quotes, '=', ';', letters), Unicode white space (label
// trimming), or U+0130 / U+212A (lowercase to ASCII). Any other reference
// expands only to characters that behave exactly like the literal "&name;"
// in the prescan: neither can ever be part of a matching label, a
// "content-type" pragma, or the "charset" keyword. Sorted by name.
constexpr NamedRef kRefs[] = {
    {"AMP", 0x26, 0},
    {"AMP;", 0x26, 0},
    {"DiacriticalGrave;", 0x60, 0},
    {"GT", 0x3E, 0},
    {"GT;", 0x3E, 0},
    {"Hat;", 0x5E, 0},
    {"Idot;", 0x130, 0},
    {"LT", 0x3C, 0},
    {"LT;", 0x3C, 0},
    {"MediumSpace;", 0x205F, 0},
    {"NewLine;", 0x0A, 0},
    {"NonBreakingSpace;", 0xA0, 0},
    {"QUOT", 0x22, 0},
    {"QUOT;", 0x22, 0},
    {"Tab;", 0x09, 0},
    {"ThickSpace;", 0x205F, 0x200A},
    {"ThinSpace;", 0x2009, 0},
    {"UnderBar;", 0x5F, 0},
    {"VerticalLine;", 0x7C, 0},
    {"VeryThinSpace;", 0x200A, 0},
    {"amp", 0x26, 0},
    {"amp;", 0x26, 0},
    {"apos;", 0x27, 0},
    {"ast;", 0x2A, 0},
    {"bne;", 0x3D, 0x20E5},
    {"bsol;", 0x5C, 0},
    {"colon;", 0x3A, 0},
    {"comma;", 0x2C, 0},
    {"commat;", 0x40, 0},
    {"dollar;", 0x24, 0},
    {"emsp13;", 0x2004, 0},
    {"emsp14;", 0x2005, 0},
    {"emsp;", 0x2003, 0},
    {"ensp;", 0x2002, 0},
    {"equals;", 0x3D, 0},
    {"excl;", 0x21, 0},
    {"fjlig;", 0x66, 0x6A},
    {"grave;", 0x60, 0},
    {"gt", 0x3E, 0},
    {"gt;", 0x3E, 0},
    {"hairsp;", 0x200A, 0},
    {"lbrace;", 0x7B, 0},
    {"lbrack;", 0x5B, 0},
    {"lcub;", 0x7B, 0},
    {"lowbar;", 0x5F, 0},
    {"lpar;", 0x28, 0},
    {"lsqb;", 0x5B, 0},
    {"lt", 0x3C, 0},
    {"lt;", 0x3C, 0},
    {"midast;", 0x2A, 0},
    {"nbsp", 0xA0, 0},
    {"nbsp;", 0xA0, 0},
    {"num;", 0x23, 0},
    {"numsp;", 0x2007, 0},
    {"nvgt;", 0x3E, 0x20D2},
    {"nvlt;", 0x3C, 0x20D2},
    {"percnt;", 0x25, 0},
    {"period;", 0x2E, 0},
    {"plus;", 0x2B, 0},
    {"puncsp;", 0x2008, 0},
    {"quest;", 0x3F, 0},
    {"quot", 0x22, 0},
    {"quot;", 0x22, 0},
    {"rbrace;", 0x7D, 0},
    {"rbrack;", 0x5D, 0},
    {"rcub;", 0x7D, 0},
    {"rpar;", 0x29, 0},
    {"rsqb;", 0x5D, 0},
    {"semi;", 0x3B, 0},
    {"sol;", 0x2F, 0},
    {"thinsp;", 0x2009, 0},
    {"verbar;", 0x7C, 0},
    {"vert;", 0x7C, 0},
};

static_assert(std::ranges::is_sorted(kRefs, {}, &NamedRef::name));

// Numeric references to 0x80..0x9F mean windows-1252, per the HTML spec.
constexpr std::array<char32_t, 32> kC1Replacements = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

bool is_alnum(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One reference at s[0] == '&'; appends its expansion and returns how many
// bytes it used. A non-reference is a literal '&' of length 1.
std::size_t unescape_one(std::string_view s, std::string& out) {
  if (s.size() <= 1) {
    out.push_back('&');
    return 1;
  }
  if (s[1] == '#') {
    if (s.size() <= 3) {  // x/net v0.48 wants at least "&#" plus two bytes
      out.push_back('&');
      return 1;
    }
    std::size_t i = 2;
    const bool hex = s[i] == 'x' || s[i] == 'X';
    if (hex) ++i;
    // Go accumulates in an int32 and lets it wrap; do the same in uint32.
    std::uint32_t x = 0;
    while (i < s.size()) {
      const int c = byte_at(s, i);
      ++i;
      const int d = hex ? hex_value(c) : (c >= '0' && c <= '9' ? c - '0' : -1);
      if (d >= 0) {
        x = x * (hex ? 16u : 10u) + static_cast<std::uint32_t>(d);
        continue;
      }
      if (c != ';') --i;
      break;
    }
    if (i <= 3) {
      out.push_back('&');
      return 1;
    }
    const auto v = static_cast<std::int32_t>(x);
    char32_t cp = detail::kReplacementChar;
    if (v >= 0x80 && v <= 0x9F) {
      cp = kC1Replacements.at(static_cast<std::size_t>(v - 0x80));
    } else if (v > 0 && v <= 0x10FFFF) {
      cp = static_cast<char32_t>(v);  // surrogates become U+FFFD on append
    }
    detail::append_utf8(out, cp);
    return i;
  }
  std::size_t i = 1;
  while (i < s.size()) {
    const int c = byte_at(s, i);
    ++i;
    if (is_alnum(c)) continue;
    if (c != ';') --i;
    break;
  }
  const std::string_view name = s.substr(1, i - 1);
  const bool legacy_before_equals = !name.empty() && name.back() != ';' && byte_at(s, i) == '=';
  if (!name.empty() && !legacy_before_equals) {
    const auto* it = std::ranges::lower_bound(kRefs, name, {}, &NamedRef::name);
    if (it != std::end(kRefs) && it->name == name) {
      detail::append_utf8(out, it->first);
      if (it->second != 0) detail::append_utf8(out, it->second);
      return i;
    }
  }
  out.append(s.substr(0, i));
  return i;
}

std::string convert_newlines(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\r') {
      out.push_back(s[i]);
      continue;
    }
    out.push_back('\n');
    if (byte_at(s, i + 1) == '\n') ++i;
  }
  return out;
}

}  // namespace

std::string unescape_attribute(std::string_view raw) {
  const std::string s = convert_newlines(raw);
  const std::string_view view(s);
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < view.size()) {
    if (view[i] == '&') {
      i += unescape_one(view.substr(i), out);
    } else {
      out.push_back(view[i]);
      ++i;
    }
  }
  return out;
}

}  // namespace tlsc::charset
