// Go's view of UTF-8 text, for the places where matching Go's results
// depends on it: utf8.EncodeRune / DecodeRune / DecodeLastRune / Valid,
// unicode.IsSpace, strings.TrimSpace / TrimLeftFunc(unicode.IsSpace), and
// the part of strings.ToLower that can make a string equal an ASCII label.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tlsc::charset::detail {

inline constexpr char32_t kReplacementChar = 0xFFFD;

struct Rune {
  char32_t cp = kReplacementChar;
  std::size_t size = 0;
};

// Byte at i, or -1 past the end: every decoder reads input through this so
// that running off the end is a value, not undefined behaviour.
inline int byte_at(std::string_view s, std::size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : -1;
}

// utf8.EncodeRune: surrogates and values past U+10FFFF become U+FFFD.
void append_utf8(std::string& out, char32_t cp);

// utf8.DecodeRune on s[pos:]: (U+FFFD, 1) for any invalid or truncated
// sequence, (U+FFFD, 0) at the end.
Rune decode_rune(std::string_view s, std::size_t pos);

// utf8.DecodeLastRune.
Rune decode_last_rune(std::string_view s);

bool valid_utf8(std::string_view s);

// unicode.IsSpace.
bool is_space(char32_t cp);

std::string_view trim_space(std::string_view s);
std::string_view trim_left_space(std::string_view s);

// strings.ToLower as far as comparisons against ASCII are concerned: ASCII
// letters fold, and so do the only two non-ASCII code points whose Go
// lowercase is ASCII (U+0130 -> 'i', U+212A KELVIN SIGN -> 'k'). Everything
// else is kept as is; it stays non-ASCII either way, so it can never match.
std::string lower_for_match(std::string_view s);

}  // namespace tlsc::charset::detail
