#include "charset/media_type.h"

#include <map>
#include <string>
#include <utility>

#include "charset/go_text.h"

namespace tlsc::charset {
namespace {

using detail::byte_at;

bool is_tspecial(int c) {
  return std::string_view(R"(()<>@,;:\"/[]?=)").find(static_cast<char>(c)) != std::string_view::npos;
}

bool is_token_char(int c) { return c > 0x20 && c < 0x7F && !is_tspecial(c); }

struct Split {
  std::string_view head;
  std::string_view rest;
};

// consumeToken: the longest prefix of token characters. Non-ASCII bytes are
// never token characters, so a byte scan equals Go's rune scan.
Split consume_token(std::string_view v) {
  std::size_t i = 0;
  while (i < v.size() && is_token_char(byte_at(v, i))) ++i;
  return {v.substr(0, i), v.substr(i)};
}

bool check_media_type(std::string_view s) {
  const Split type = consume_token(s);
  if (type.head.empty()) return false;
  if (type.rest.empty()) return true;
  if (type.rest.front() != '/') return false;
  const Split sub = consume_token(type.rest.substr(1));
  return !sub.head.empty() && sub.rest.empty();
}

struct Value {
  std::string value;
  std::string_view rest;
};

// consumeValue: a token or a quoted-string. Go's quoted-string only honours
// a backslash before a tspecial (so MSIE paths like "C:\dir" survive) and
// rejects raw CR/LF. nullopt is Go's ("", v) failure.
std::optional<Value> consume_value(std::string_view v) {
  if (v.empty()) return std::nullopt;
  if (v.front() != '"') {
    const Split t = consume_token(v);
    if (t.head.empty()) return std::nullopt;
    return Value{std::string(t.head), t.rest};
  }
  std::string out;
  for (std::size_t i = 1; i < v.size(); ++i) {
    const int c = byte_at(v, i);
    if (c == '"') return Value{std::move(out), v.substr(i + 1)};
    if (c == '\\' && i + 1 < v.size() && is_tspecial(byte_at(v, i + 1))) {
      out.push_back(v[i + 1]);
      ++i;
      continue;
    }
    if (c == '\r' || c == '\n') return std::nullopt;
    out.push_back(static_cast<char>(c));
  }
  return std::nullopt;
}

struct Param {
  std::string key;
  std::string value;
  std::string_view rest;
};

std::optional<Param> consume_media_param(std::string_view v) {
  std::string_view rest = detail::trim_left_space(v);
  if (rest.empty() || rest.front() != ';') return std::nullopt;
  rest = detail::trim_left_space(rest.substr(1));
  const Split key = consume_token(rest);
  if (key.head.empty()) return std::nullopt;
  rest = detail::trim_left_space(key.rest);
  if (rest.empty() || rest.front() != '=') return std::nullopt;
  rest = detail::trim_left_space(rest.substr(1));
  std::optional<Value> value = consume_value(rest);
  if (!value) return std::nullopt;
  // Token keys are ASCII, so ASCII folding is all of strings.ToLower here.
  return Param{detail::lower_for_match(key.head), std::move(value->value), value->rest};
}

bool is_hex(int c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int unhex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

std::optional<std::string> percent_hex_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      ++i;
      continue;
    }
    if (!is_hex(byte_at(s, i + 1)) || !is_hex(byte_at(s, i + 2))) return std::nullopt;
    out.push_back(static_cast<char>(unhex(byte_at(s, i + 1)) << 4 | unhex(byte_at(s, i + 2))));
    i += 3;
  }
  return out;
}

// RFC 2231 charset'language'value; only us-ascii and utf-8 are accepted.
std::optional<std::string> decode_2231(std::string_view v) {
  const std::size_t q1 = v.find('\'');
  if (q1 == std::string_view::npos) return std::nullopt;
  const std::size_t q2 = v.find('\'', q1 + 1);
  if (q2 == std::string_view::npos) return std::nullopt;
  const std::string cs = detail::lower_for_match(v.substr(0, q1));
  if (cs != "us-ascii" && cs != "utf-8") return std::nullopt;
  return percent_hex_unescape(v.substr(q2 + 1));
}

using ParamMap = std::map<std::string, std::string, std::less<>>;

// Go's stitching of "name*" / "name*0" / "name*0*" / "name*1"... pieces.
void stitch(const std::string& base, const ParamMap& pieces, ParamMap& params) {
  if (auto it = pieces.find(base + "*"); it != pieces.end()) {
    if (auto v = decode_2231(it->second)) params[base] = std::move(*v);
    return;
  }
  std::string joined;
  bool valid = false;
  for (std::size_t n = 0;; ++n) {
    const std::string simple = base + "*" + std::to_string(n);
    if (auto it = pieces.find(simple); it != pieces.end()) {
      valid = true;
      joined += it->second;
      continue;
    }
    auto it = pieces.find(simple + "*");
    if (it == pieces.end()) break;
    valid = true;
    if (n == 0) {
      if (auto v = decode_2231(it->second)) joined += *v;
    } else if (auto v = percent_hex_unescape(it->second)) {
      joined += *v;
    }
  }
  if (valid) params[base] = std::move(joined);
}

}  // namespace

std::optional<std::string> charset_param(std::string_view content_type) {
  const std::size_t semi = content_type.find(';');
  const std::string_view base = semi == std::string_view::npos ? content_type : content_type.substr(0, semi);
  const std::string lowered = detail::lower_for_match(base);
  if (!check_media_type(detail::trim_space(lowered))) return std::nullopt;

  ParamMap params;
  std::map<std::string, ParamMap, std::less<>> continuation;
  std::string_view v = content_type.substr(base.size());
  while (!v.empty()) {
    v = detail::trim_left_space(v);
    if (v.empty()) break;
    std::optional<Param> p = consume_media_param(v);
    if (!p) {
      if (detail::trim_space(v) == ";") break;  // trailing ';' is tolerated
      return std::nullopt;
    }
    ParamMap* pmap = &params;
    if (const std::size_t star = p->key.find('*'); star != std::string::npos) {
      pmap = &continuation[p->key.substr(0, star)];
    }
    if (auto it = pmap->find(p->key); it != pmap->end() && it->second != p->value) {
      return std::nullopt;  // duplicate parameter with a different value
    }
    (*pmap)[p->key] = std::move(p->value);
    v = p->rest;
  }
  if (auto it = continuation.find("charset"); it != continuation.end()) {
    stitch("charset", it->second, params);
  }
  if (auto it = params.find("charset"); it != params.end()) return it->second;
  return std::nullopt;
}

}  // namespace tlsc::charset
