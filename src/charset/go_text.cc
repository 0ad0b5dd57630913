#include "charset/go_text.h"

#include <algorithm>

namespace tlsc::charset::detail {
namespace {

struct Accept {
  int lo;
  int hi;
};

// Expected length of a sequence starting with b (0 for a byte that cannot
// start one) and the range its second byte must fall in, as Go's utf8
// package tables say.
struct Lead {
  std::size_t size;
  Accept second;
};

Lead lead_of(int b) {
  if (b < 0x80) return {1, {0, 0}};
  if (b < 0xC2) return {0, {0, 0}};
  if (b < 0xE0) return {2, {0x80, 0xBF}};
  if (b == 0xE0) return {3, {0xA0, 0xBF}};
  if (b == 0xED) return {3, {0x80, 0x9F}};
  if (b < 0xF0) return {3, {0x80, 0xBF}};
  if (b == 0xF0) return {4, {0x90, 0xBF}};
  if (b < 0xF4) return {4, {0x80, 0xBF}};
  if (b == 0xF4) return {4, {0x80, 0x8F}};
  return {0, {0, 0}};
}

bool is_continuation(int b) { return b >= 0x80 && b <= 0xBF; }

}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacementChar;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

Rune decode_rune(std::string_view s, std::size_t pos) {
  const int b0 = byte_at(s, pos);
  if (b0 < 0) return {kReplacementChar, 0};
  const Lead lead = lead_of(b0);
  if (lead.size == 1) return {static_cast<char32_t>(b0), 1};
  if (lead.size == 0) return {kReplacementChar, 1};
  const int b1 = byte_at(s, pos + 1);
  if (b1 < lead.second.lo || b1 > lead.second.hi) return {kReplacementChar, 1};
  if (lead.size == 2) {
    return {static_cast<char32_t>(((b0 & 0x1F) << 6) | (b1 & 0x3F)), 2};
  }
  const int b2 = byte_at(s, pos + 2);
  if (!is_continuation(b2)) return {kReplacementChar, 1};
  if (lead.size == 3) {
    return {static_cast<char32_t>(((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F)), 3};
  }
  const int b3 = byte_at(s, pos + 3);
  if (!is_continuation(b3)) return {kReplacementChar, 1};
  return {static_cast<char32_t>(((b0 & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F)),
          4};
}

Rune decode_last_rune(std::string_view s) {
  if (s.empty()) return {kReplacementChar, 0};
  const std::size_t end = s.size();
  const int last = byte_at(s, end - 1);
  if (last < 0x80) return {static_cast<char32_t>(last), 1};
  // Back up to the nearest byte that can start a sequence, at most 4 bytes.
  const std::size_t lim = end >= 4 ? end - 4 : 0;
  std::size_t start = end - 1;
  while (start > lim) {
    --start;
    if ((byte_at(s, start) & 0xC0) != 0x80) break;
  }
  const Rune r = decode_rune(s.substr(0, end), start);
  if (start + r.size != end) return {kReplacementChar, 1};
  return r;
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const Rune r = decode_rune(s, i);
    if (r.cp == kReplacementChar && r.size == 1) return false;
    i += r.size;
  }
  return true;
}

bool is_space(char32_t cp) {
  switch (cp) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

std::string_view trim_left_space(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const Rune r = decode_rune(s, i);
    if (!is_space(r.cp)) break;
    i += r.size;
  }
  return s.substr(i);
}

std::string_view trim_space(std::string_view s) {
  s = trim_left_space(s);
  while (!s.empty()) {
    const Rune r = decode_last_rune(s);
    if (!is_space(r.cp)) break;
    s.remove_suffix(r.size);
  }
  return s;
}

std::string lower_for_match(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const int b = byte_at(s, i);
    if (b < 0x80) {
      out.push_back(static_cast<char>(b >= 'A' && b <= 'Z' ? b + 0x20 : b));
      ++i;
      continue;
    }
    const Rune r = decode_rune(s, i);
    if (r.cp == 0x130) {
      out.push_back('i');
    } else if (r.cp == 0x212A) {
      out.push_back('k');
    } else {
      out.append(s.substr(i, r.size));
    }
    i += r.size;
  }
  return out;
}

}  // namespace tlsc::charset::detail
