#include "wire/header_canon.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace tlsc {
namespace {

constexpr std::array<bool, 256> make_token_table() {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[static_cast<size_t>(c)] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<size_t>(c)] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<size_t>(c)] = true;
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) {
    t[static_cast<unsigned char>(c)] = true;
  }
  return t;
}

constexpr std::array<bool, 256> kToken = make_token_table();

constexpr char kHex[] = "0123456789abcdef";

void append_hex_escape(std::string& out, char prefix, uint32_t v, int digits) {
  out.push_back('\\');
  out.push_back(prefix);
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
    out.push_back(kHex[(v >> shift) & 0xF]);
  }
}

// Length of a valid UTF-8 sequence starting at s[i] and its code point,
// or 0 when the bytes there are not valid UTF-8 (Go then emits \xNN).
size_t decode_utf8(std::string_view s, size_t i, uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  uint32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
    cp = b0 & 0x1F;
    min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    cp = b0 & 0x0F;
    min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    cp = b0 & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (s.size() - i < len) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

bool is_valid_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!kToken[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

bool is_valid_received_value_byte(unsigned char c) { return c == '\t' || (c >= 0x20 && c != 0x7F); }

std::string canonical_header_key(std::string_view key) {
  std::string out(key);
  for (char c : key) {
    if (!kToken[static_cast<unsigned char>(c)]) return out;
  }
  bool upper = true;
  for (char& c : out) {
    c = upper ? ascii_upper(c) : ascii_lower(c);
    upper = c == '-';
  }
  return out;
}

bool canonicalize_received_header_key(std::string& key) {
  if (key.empty()) return false;
  bool has_space = false;
  for (char c : key) {
    if (kToken[static_cast<unsigned char>(c)]) continue;
    if (c != ' ') return false;
    has_space = true;
  }
  if (has_space) return true;
  bool upper = true;
  for (char& c : key) {
    c = upper ? ascii_upper(c) : ascii_lower(c);
    upper = c == '-';
  }
  return true;
}

std::string go_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\a':
          out += "\\a";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\v':
          out += "\\v";
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            append_hex_escape(out, 'x', c, 2);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t len = decode_utf8(s, i, cp);
    if (len == 0) {
      append_hex_escape(out, 'x', c, 2);
      ++i;
      continue;
    }
    if (cp <= 0xA0 || cp == 0xAD) {
      append_hex_escape(out, 'u', cp, 4);
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  out.push_back('"');
  return out;
}

}  // namespace tlsc
