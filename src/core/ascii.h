// ASCII case rules, the only ones protocol text needs: header names, schemes,
// hosts, cookie attributes and Go's error words are ASCII, and locale-aware
// functions (tolower) would change with the host process's locale.
#pragma once

#include <string>
#include <string_view>

namespace tlsc {

constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char ascii_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

// RFC 7230 tchar (Go's httpguts.IsTokenRune; a non-ASCII rune is never one,
// so a byte test gives Go's answer).
constexpr bool is_token_byte(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
      return true;
    default:
      return false;
  }
}

inline std::string ascii_lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// <0, 0, >0 as a and b compare with ASCII letters folded to lower case.
inline int compare_ascii_icase(std::string_view a, std::string_view b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    const auto ca = static_cast<unsigned char>(ascii_lower(a[i]));
    const auto cb = static_cast<unsigned char>(ascii_lower(b[i]));
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

inline bool equal_ascii_icase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && compare_ascii_icase(a, b) == 0;
}

}  // namespace tlsc
