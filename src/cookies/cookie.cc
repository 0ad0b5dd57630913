#include "cookies/cookie.h"

#include <array>
#include <cstddef>
#include <utility>

#include "core/ascii.h"

namespace tlsc {
namespace {

// textproto.TrimString: ASCII whitespace only, not Unicode spaces.
bool is_trim_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_trim_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_trim_space(s.back())) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_cookie_name_valid(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!is_token_byte(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// fhttp commented out Go's `b != '"'`, so quotes are legal inside values.
bool valid_cookie_value_byte(unsigned char b) { return b >= 0x20 && b < 0x7f && b != ';' && b != '\\'; }

struct CookieValue {
  std::string_view value;
  bool quoted = false;
  bool ok = false;
};

CookieValue parse_cookie_value(std::string_view raw, bool allow_double_quote) {
  CookieValue r;
  if (allow_double_quote && raw.size() > 1 && raw.front() == '"' && raw.back() == '"') {
    raw = raw.substr(1, raw.size() - 2);
    r.quoted = true;
  }
  for (char c : raw) {
    if (!valid_cookie_value_byte(static_cast<unsigned char>(c))) return r;
  }
  r.value = raw;
  r.ok = true;
  return r;
}

// strconv.Atoi on a 64-bit platform: optional sign, at least one digit,
// nothing else, and the value must fit in int64.
std::optional<int64_t> go_atoi(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    neg = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  constexpr uint64_t kLimit = uint64_t{1} << 63;  // |INT64_MIN|
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (kLimit - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (!neg && v > kLimit - 1) return std::nullopt;
  if (neg) return static_cast<int64_t>(0 - v);  // two's complement, INT64_MIN ok
  return static_cast<int64_t>(v);
}

// ---- time.Parse for the two layouts Go tries on Expires ----------------

// Go's lookup(): case-insensitive match of a fixed-width name prefix.
int lookup_name(std::string_view& value, const std::array<std::string_view, 12>& names, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    std::string_view n = names[i];
    if (value.size() < n.size()) continue;
    bool match = true;
    for (size_t k = 0; k < n.size(); ++k) {
      if (ascii_lower(value[k]) != ascii_lower(n[k])) {
        match = false;
        break;
      }
    }
    if (match) {
      value.remove_prefix(n.size());
      return static_cast<int>(i);
    }
  }
  return -1;
}

constexpr std::array<std::string_view, 12> kShortDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 12> kShortMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// Go's skip(): a space in the layout matches a run of one or more spaces
// (or none at the very end of the value); anything else must match exactly.
bool skip(std::string_view& value, std::string_view prefix) {
  while (!prefix.empty()) {
    if (prefix.front() == ' ') {
      if (!value.empty() && value.front() != ' ') return false;
      while (!prefix.empty() && prefix.front() == ' ') prefix.remove_prefix(1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      continue;
    }
    if (value.empty() || value.front() != prefix.front()) return false;
    prefix.remove_prefix(1);
    value.remove_prefix(1);
  }
  return true;
}

// Go's getnum(): one or two digits, exactly two when `fixed`.
bool getnum(std::string_view& value, bool fixed, int& out) {
  if (value.empty() || !is_digit(value[0])) return false;
  if (value.size() < 2 || !is_digit(value[1])) {
    if (fixed) return false;
    out = value[0] - '0';
    value.remove_prefix(1);
    return true;
  }
  out = (value[0] - '0') * 10 + (value[1] - '0');
  value.remove_prefix(2);
  return true;
}

// Go's parseSignedOffset: sign, digits, magnitude at most 23.
size_t parse_signed_offset(std::string_view value) {
  if (value.empty() || (value[0] != '+' && value[0] != '-')) return 0;
  size_t i = 1;
  uint64_t x = 0;
  while (i < value.size() && is_digit(value[i])) {
    if (x > (uint64_t{1} << 63) / 10) return 0;  // leadingInt overflow
    x = x * 10 + static_cast<uint64_t>(value[i] - '0');
    if (x > (uint64_t{1} << 63)) return 0;
    ++i;
  }
  if (i == 1 || x > 23) return 0;
  return i;
}

// Go's parseTimeZone: how many bytes of `value` form a zone abbreviation.
std::optional<size_t> parse_time_zone(std::string_view value) {
  if (value.size() < 3) return std::nullopt;
  if (value.size() >= 4 && (value.substr(0, 4) == "ChST" || value.substr(0, 4) == "MeST")) {
    return 4;
  }
  if (value.substr(0, 3) == "GMT") {
    if (value.size() == 3) return 3;
    return 3 + parse_signed_offset(value.substr(3));
  }
  if (value[0] == '+' || value[0] == '-') {
    size_t n = parse_signed_offset(value);
    if (n == 0) return std::nullopt;
    return n;
  }
  size_t upper = 0;
  while (upper < 6 && upper < value.size() && value[upper] >= 'A' && value[upper] <= 'Z') ++upper;
  switch (upper) {
    case 3:
      return 3;
    case 4:
      if (value[3] == 'T' || value.substr(0, 4) == "WITA") return 4;
      return std::nullopt;
    case 5:
      if (value[4] == 'T') return 5;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

bool is_leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

int days_in(int month, int64_t year) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && is_leap(year)) return 29;
  return kDays[static_cast<size_t>(month - 1)];
}

// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant).
int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t mp = (m + 9) % 12;
  const int64_t doy = (153 * mp + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct ParsedTime {
  int64_t unix = 0;
  bool is_go_zero = false;  // exactly Go's zero Time (year 1, no fraction)
};

// time.Parse with layout "Mon, 02 Jan 2006 15:04:05 MST" (sep ' ') or
// "Mon, 02-Jan-2006 15:04:05 MST" (sep '-').
std::optional<ParsedTime> parse_expires_layout(std::string_view v, char sep) {
  const std::string_view sep_str = sep == ' ' ? std::string_view(" ") : std::string_view("-");
  if (lookup_name(v, kShortDays, 7) < 0) return std::nullopt;
  if (!skip(v, ", ")) return std::nullopt;
  int day = 0;
  if (!getnum(v, true, day)) return std::nullopt;
  if (!skip(v, sep_str)) return std::nullopt;
  int month = lookup_name(v, kShortMonths, 12) + 1;
  if (month == 0) return std::nullopt;
  if (!skip(v, sep_str)) return std::nullopt;
  if (v.size() < 4) return std::nullopt;
  int year = 0;
  for (size_t i = 0; i < 4; ++i) {
    if (!is_digit(v[i])) return std::nullopt;
    year = year * 10 + (v[i] - '0');
  }
  v.remove_prefix(4);
  if (!skip(v, " ")) return std::nullopt;
  int hour = 0, minute = 0, second = 0;
  if (!getnum(v, false, hour) || hour >= 24) return std::nullopt;
  if (!skip(v, ":")) return std::nullopt;
  if (!getnum(v, true, minute) || minute >= 60) return std::nullopt;
  if (!skip(v, ":")) return std::nullopt;
  if (!getnum(v, true, second) || second >= 60) return std::nullopt;
  // Go accepts a fractional second the layout does not mention.
  bool has_fraction = false;
  if (v.size() >= 2 && (v[0] == '.' || v[0] == ',') && is_digit(v[1])) {
    size_t n = 2;
    while (n < v.size() && is_digit(v[n])) ++n;
    for (size_t i = 1; i < n && i < 10; ++i) {
      if (v[i] != '0') has_fraction = true;
    }
    v.remove_prefix(n);
  }
  if (!skip(v, " ")) return std::nullopt;
  if (v.size() >= 3 && v.substr(0, 3) == "UTC") {
    v.remove_prefix(3);
  } else {
    std::optional<size_t> n = parse_time_zone(v);
    if (!n) return std::nullopt;
    v.remove_prefix(*n);
  }
  if (!v.empty()) return std::nullopt;  // "extra text"
  if (day < 1 || day > days_in(month, year)) return std::nullopt;

  ParsedTime t;
  t.unix = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  t.is_go_zero =
      year == 1 && month == 1 && day == 1 && hour == 0 && minute == 0 && second == 0 && !has_fraction;
  return t;
}

std::optional<ParsedTime> parse_expires(std::string_view v) {
  if (auto t = parse_expires_layout(v, ' ')) return t;
  return parse_expires_layout(v, '-');
}

std::string sanitize_cookie_name(std::string_view n) {
  std::string out(n);
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = '-';
  }
  return out;
}

std::string sanitize_cookie_value(std::string_view v, bool quoted) {
  std::string out;
  out.reserve(v.size() + 2);
  for (char c : v) {
    if (valid_cookie_value_byte(static_cast<unsigned char>(c))) out.push_back(c);
  }
  if (out.empty()) return out;
  if (quoted || out.find_first_of(" ,") != std::string::npos) {
    out.insert(out.begin(), '"');
    out.push_back('"');
  }
  return out;
}

// Unix seconds of Go's zero time.Time (0001-01-01T00:00:00Z).
constexpr int64_t kGoZeroTimeUnix = -62135596800;

}  // namespace

std::optional<Cookie> parse_set_cookie(std::string_view header_value) {
  std::string_view line = trim(header_value);
  // strings.Split(line, ";"): an empty line yields one empty part.
  if (line.empty()) return std::nullopt;

  size_t semi = line.find(';');
  std::string_view first = trim(line.substr(0, semi));
  std::string_view rest = semi == std::string_view::npos ? std::string_view() : line.substr(semi + 1);
  bool has_rest = semi != std::string_view::npos;

  size_t eq = first.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view name = first.substr(0, eq);  // fhttp does not trim here
  if (!is_cookie_name_valid(name)) return std::nullopt;
  CookieValue value = parse_cookie_value(first.substr(eq + 1), true);
  if (!value.ok) return std::nullopt;

  Cookie c;
  c.name = std::string(name);
  c.value = std::string(value.value);
  c.quoted = value.quoted;

  while (has_rest) {
    semi = rest.find(';');
    std::string_view part = trim(rest.substr(0, semi));
    has_rest = semi != std::string_view::npos;
    rest = has_rest ? rest.substr(semi + 1) : std::string_view();
    if (part.empty()) continue;

    std::string_view attr = part;
    std::string_view raw_val;
    if (size_t j = part.find('='); j != std::string_view::npos) {
      attr = part.substr(0, j);
      raw_val = part.substr(j + 1);
    }
    CookieValue av = parse_cookie_value(raw_val, false);
    if (!av.ok) continue;  // Go files it under Unparsed
    std::string_view val = av.value;
    const std::string lower_attr = ascii_lowercase(attr);

    if (lower_attr == "samesite") {
      const std::string lv = ascii_lowercase(val);
      if (lv == "lax") {
        c.same_site = "Lax";
      } else if (lv == "strict") {
        c.same_site = "Strict";
      } else if (lv == "none") {
        c.same_site = "None";
      } else {
        c.same_site = "Default";
      }
    } else if (lower_attr == "secure") {
      c.secure = true;
    } else if (lower_attr == "httponly") {
      c.http_only = true;
    } else if (lower_attr == "domain") {
      c.domain = std::string(val);
    } else if (lower_attr == "max-age") {
      std::optional<int64_t> secs = go_atoi(val);
      // A leading zero on a non-zero number is rejected, "+05" is not.
      if (!secs || (*secs != 0 && val.front() == '0')) continue;
      c.max_age = *secs <= 0 ? -1 : *secs;
    } else if (lower_attr == "expires") {
      c.raw_expires = std::string(val);
      std::optional<ParsedTime> t = parse_expires(val);
      // A later unparseable Expires resets an earlier good one, as in Go.
      if (!t || t->is_go_zero) {
        c.expires.reset();
      } else {
        c.expires = t->unix;
      }
    } else if (lower_attr == "path") {
      c.path = std::string(val);
    }
  }
  return c;
}

std::string cookie_header_value(const std::vector<Cookie>& cookies) {
  std::string out;
  for (const Cookie& c : cookies) {
    if (!out.empty()) out.append("; ");
    out.append(sanitize_cookie_name(c.name));
    out.push_back('=');
    out.append(sanitize_cookie_value(c.value, c.quoted));
  }
  return out;
}

Cookie cookie_from_caller(std::string name, std::string value, std::string path, std::string domain,
                          std::optional<int64_t> expires, int64_t max_age, bool secure, bool http_only) {
  Cookie c;
  c.name = std::move(name);
  c.value = std::move(value);
  c.path = std::move(path);
  c.domain = std::move(domain);
  // 0 and null mean "none" (our fix); the Go zero instant is "none" in Go too.
  if (expires && *expires != 0 && *expires != kGoZeroTimeUnix) c.expires = expires;
  c.max_age = max_age;
  c.secure = secure;
  c.http_only = http_only;
  return c;
}

}  // namespace tlsc
