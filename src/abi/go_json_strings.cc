#include "abi/go_json_strings.h"

namespace tlsc {
namespace {

// The length of the valid UTF-8 sequence at s[i] (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF), or 0.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  auto cont = [&](size_t k) { return k < s.size() && (b(k) & 0xc0) == 0x80; };
  if (c >= 0xc2 && c <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    const unsigned char c1 = b(i + 1);
    if (c == 0xe0 && c1 < 0xa0) return 0;  // overlong
    if (c == 0xed && c1 > 0x9f) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    const unsigned char c1 = b(i + 1);
    if (c == 0xf0 && c1 < 0x90) return 0;  // overlong
    if (c == 0xf4 && c1 > 0x8f) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

// The code unit of a \uXXXX escape starting at s[i] (the backslash), or -1.
long escape_unit(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  long v = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    const char c = s[k];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

}  // namespace

std::optional<std::string> with_go_replacement_characters(std::string_view s) {
  std::string out;
  bool changed = false;
  bool in_string = false;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (!in_string) {
      if (c == '"') in_string = true;
      out += c;
      ++i;
      continue;
    }
    if (c == '"') {
      in_string = false;
      out += c;
      ++i;
      continue;
    }
    if (c == '\\') {
      const long unit = escape_unit(s, i);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const long low = escape_unit(s, i + 6);
        if (low >= 0xdc00 && low <= 0xdfff) {  // a pair: kept
          out.append(s.substr(i, 12));
          i += 12;
          continue;
        }
      }
      if (unit >= 0xd800 && unit <= 0xdfff) {  // alone: Go's replacement (the next escape is read anew)
        out += "\\ufffd";
        changed = true;
        i += 6;
        continue;
      }
      // Any other escape: two bytes here, the rest (hex digits) as plain bytes.
      out.append(s.substr(i, 2));
      i += 2;
      continue;
    }
    const size_t n = utf8_length(s, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      changed = true;
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace tlsc
