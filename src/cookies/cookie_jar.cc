#include "cookies/cookie_jar.h"

#include <algorithm>
#include <array>
#include <optional>

#include "core/ascii.h"

namespace tlsc {
namespace {

// Go compares instants on seconds since year 1 held in an int64; a unix
// value near INT64_MAX wraps there and lands in the distant past. Doing the
// same wrap keeps "expires far in the future" answers identical to Go's.
constexpr int64_t kUnixToInternal = 62135596800;

int64_t go_internal(int64_t unix) {
  return static_cast<int64_t>(static_cast<uint64_t>(unix) + static_cast<uint64_t>(kUnixToInternal));
}

bool go_after(int64_t a_unix, int64_t b_unix) { return go_internal(a_unix) > go_internal(b_unix); }

bool is_go_zero(int64_t unix) { return go_internal(unix) == 0; }

bool has_prefix(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// ---- IP literals: net.ParseIP, i.e. netip.ParseAddr without a zone ------

bool parse_ipv4(std::string_view s) {
  int val = 0, pos = 0, dig_len = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      if (dig_len == 1 && val == 0) return false;  // leading zero
      val = val * 10 + (c - '0');
      ++dig_len;
      if (val > 255) return false;
    } else if (c == '.') {
      if (i == 0 || i == s.size() - 1 || s[i - 1] == '.') return false;
      if (pos == 3) return false;
      ++pos;
      val = 0;
      dig_len = 0;
    } else {
      return false;
    }
  }
  return pos == 3;
}

bool parse_ipv6(std::string_view s) {
  if (s.find('%') != std::string_view::npos) return false;  // zones are not IPs to ParseIP
  int ellipsis = -1;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return true;
  }
  int i = 0;
  while (i < 16) {
    size_t off = 0;
    uint32_t acc = 0;
    for (; off < s.size(); ++off) {
      char c = s[off];
      uint32_t d;
      if (c >= '0' && c <= '9') {
        d = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        break;
      }
      acc = (acc << 4) + d;
      if (acc > 0xffff) return false;
    }
    if (off == 0) return false;
    if (off < s.size() && s[off] == '.') {
      if (ellipsis < 0 && i != 12) return false;
      if (i + 4 > 16) return false;
      if (!parse_ipv4(s)) return false;
      s = std::string_view();
      i += 4;
      break;
    }
    i += 2;
    s.remove_prefix(off);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return false;
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;  // "::" must stand for at least one zero group
}

bool is_ip(std::string_view host) {
  for (char c : host) {
    if (c == '.') return parse_ipv4(host);
    if (c == ':') return parse_ipv6(host);
    if (c == '%') return false;
  }
  return false;
}

// ---- Go's canonicalHost ------------------------------------------------

bool has_port(std::string_view host) {
  size_t colons = static_cast<size_t>(std::count(host.begin(), host.end(), ':'));
  if (colons == 0) return false;
  if (colons == 1) return true;
  return host[0] == '[' && host.find("]:") != std::string_view::npos;
}

// net.SplitHostPort, host part only.
std::optional<std::string_view> split_host_port(std::string_view hp) {
  size_t i = hp.rfind(':');
  if (i == std::string_view::npos) return std::nullopt;
  std::string_view host;
  size_t j = 0, k = 0;
  if (!hp.empty() && hp[0] == '[') {
    size_t end = hp.find(']');
    if (end == std::string_view::npos) return std::nullopt;
    if (end + 1 == hp.size()) return std::nullopt;
    if (end + 1 != i) return std::nullopt;
    host = hp.substr(1, end - 1);
    j = 1;
    k = end + 1;
  } else {
    host = hp.substr(0, i);
    if (host.find(':') != std::string_view::npos) return std::nullopt;
  }
  if (hp.substr(j).find('[') != std::string_view::npos) return std::nullopt;
  if (hp.substr(k).find(']') != std::string_view::npos) return std::nullopt;
  return host;
}

// unicode/utf8.DecodeRuneInString: an invalid sequence is U+FFFD of width 1.
char32_t decode_rune(std::string_view s, size_t& width) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  width = 1;
  if (b0 < 0x80) return b0;
  size_t size = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    size = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    size = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    size = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0xFFFD;
  }
  if (s.size() < size) return 0xFFFD;
  const auto b1 = static_cast<unsigned char>(s[1]);
  if (b1 < lo || b1 > hi) return 0xFFFD;
  char32_t r;
  if (size == 2) {
    r = (static_cast<char32_t>(b0 & 0x1F) << 6) | (b1 & 0x3F);
  } else {
    const auto b2 = static_cast<unsigned char>(s[2]);
    if (b2 < 0x80 || b2 > 0xBF) return 0xFFFD;
    if (size == 3) {
      r = (static_cast<char32_t>(b0 & 0x0F) << 12) | (static_cast<char32_t>(b1 & 0x3F) << 6) | (b2 & 0x3F);
    } else {
      const auto b3 = static_cast<unsigned char>(s[3]);
      if (b3 < 0x80 || b3 > 0xBF) return 0xFFFD;
      r = (static_cast<char32_t>(b0 & 0x07) << 18) | (static_cast<char32_t>(b1 & 0x3F) << 12) |
          (static_cast<char32_t>(b2 & 0x3F) << 6) | (b3 & 0x3F);
    }
  }
  width = size;
  return r;
}

// Go does Punycode in int32 and detects overflow by the sign after a
// wrapping add; these reproduce that wrap without signed-overflow UB.
int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

int32_t puny_adapt(int32_t delta, int32_t num_points, bool first_time) {
  delta = first_time ? delta / 700 : delta / 2;
  delta += delta / num_points;
  int32_t k = 0;
  while (delta > ((36 - 1) * 26) / 2) {
    delta /= 36 - 1;
    k += 36;
  }
  return k + (36 - 1 + 1) * delta / (delta + 38);
}

char puny_digit(int32_t d) { return d < 26 ? static_cast<char>('a' + d) : static_cast<char>('0' + d - 26); }

// RFC 3492 encoding of one label with the "xn--" prefix (cookiejar/punycode.go).
std::optional<std::string> punycode_label(std::string_view label) {
  std::vector<int32_t> runes;
  for (std::string_view rest = label; !rest.empty();) {
    size_t w = 1;
    runes.push_back(static_cast<int32_t>(decode_rune(rest, w)));
    rest.remove_prefix(w);
  }
  std::string out = "xn--";
  int32_t delta = 0, n = 128, bias = 72, b = 0, remaining = 0;
  for (int32_t r : runes) {
    if (r < 0x80) {
      ++b;
      out.push_back(static_cast<char>(r));
    } else {
      ++remaining;
    }
  }
  int32_t h = b;
  if (b > 0) out.push_back('-');
  while (remaining != 0) {
    int32_t m = 0x7fffffff;
    for (int32_t r : runes) {
      if (m > r && r >= n) m = r;
    }
    delta = wrap32(int64_t{delta} + wrap32(int64_t{m - n} * (int64_t{h} + 1)));
    if (delta < 0) return std::nullopt;
    n = m;
    for (int32_t r : runes) {
      if (r < n) {
        delta = wrap32(int64_t{delta} + 1);
        if (delta < 0) return std::nullopt;
        continue;
      }
      if (r > n) continue;
      int32_t q = delta;
      for (int32_t k = 36;; k += 36) {
        int32_t t = std::clamp(k - bias, 1, 26);
        if (q < t) break;
        out.push_back(puny_digit(t + (q - t) % (36 - t)));
        q = (q - t) / (36 - t);
      }
      out.push_back(puny_digit(q));
      bias = puny_adapt(delta, h + 1, h == b);
      delta = 0;
      ++h;
      --remaining;
    }
    delta = wrap32(int64_t{delta} + 1);
    ++n;
  }
  return out;
}

bool all_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::optional<std::string> to_ascii(std::string_view s) {
  if (all_ascii(s)) return std::string(s);
  std::string out;
  for (bool first = true;; first = false) {
    size_t dot = s.find('.');
    std::string_view label = s.substr(0, dot);
    if (!first) out.push_back('.');
    if (all_ascii(label)) {
      out.append(label);
    } else {
      std::optional<std::string> enc = punycode_label(label);
      if (!enc) return std::nullopt;
      out.append(*enc);
    }
    if (dot == std::string_view::npos) break;
    s.remove_prefix(dot + 1);
  }
  return out;
}

std::optional<std::string> canonical_host(std::string_view raw) {
  // fhttp lowercases before splitting off the port (Go now does it after).
  std::string lowered = ascii_lowercase(raw);
  std::string_view host = lowered;
  if (has_port(host)) {
    std::optional<std::string_view> h = split_host_port(host);
    if (!h) return std::nullopt;
    host = *h;
  }
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  return to_ascii(host);
}

// ---- jar key, paths, domains ---------------------------------------------

// Without a public suffix list Go keys by the last two labels ("eTLD+1" as
// if every TLD were a public suffix), with its exact slicing kept for
// malformed hosts.
std::string jar_key(std::string_view host) {
  if (is_ip(host)) return std::string(host);
  size_t i = host.rfind('.');
  if (i == std::string_view::npos || i == 0) return std::string(host);
  size_t prev = host.substr(0, i - 1).rfind('.');
  return std::string(prev == std::string_view::npos ? host : host.substr(prev + 1));
}

std::string default_path(std::string_view path) {
  if (path.empty() || path[0] != '/') return "/";
  size_t i = path.rfind('/');
  if (i == 0) return "/";
  return std::string(path.substr(0, i));
}

bool has_dot_suffix(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s[s.size() - suffix.size() - 1] == '.' &&
         s.substr(s.size() - suffix.size()) == suffix;
}

struct DomainAndType {
  std::string domain;
  bool host_only = false;
};

std::optional<DomainAndType> domain_and_type(std::string_view host, std::string_view domain) {
  if (domain.empty()) return DomainAndType{std::string(host), true};
  // fhttp predates Go accepting Domain=<the IP itself>; any Domain on an IP
  // host rejects the cookie (errNoHostname).
  if (is_ip(host)) return std::nullopt;
  if (domain[0] == '.') domain.remove_prefix(1);
  if (domain.empty() || domain[0] == '.') return std::nullopt;
  std::string d = ascii_lowercase(domain);
  if (d.back() == '.') return std::nullopt;
  // No public suffix check: New(nil) lets foo.co.uk set cookies for co.uk.
  if (host != d && !has_dot_suffix(host, d)) return std::nullopt;
  return DomainAndType{std::move(d), false};
}

bool path_match(std::string_view cookie_path, std::string_view request_path) {
  if (request_path == cookie_path) return true;
  if (has_prefix(request_path, cookie_path)) {
    if (!cookie_path.empty() && cookie_path.back() == '/') return true;
    if (request_path.size() > cookie_path.size() && request_path[cookie_path.size()] == '/') {
      return true;
    }
  }
  return false;
}

std::optional<bool> scheme_is_secure(std::string_view scheme) {
  if (scheme == "http" || scheme == "ws") return false;
  if (scheme == "https" || scheme == "wss") return true;
  return std::nullopt;
}

}  // namespace

void CookieJar::set_cookies(std::string_view scheme, std::string_view host_in, std::string_view path,
                            const std::vector<Cookie>& cookies, int64_t now_unix) {
  if (cookies.empty() || !scheme_is_secure(scheme)) return;
  std::optional<std::string> host = canonical_host(host_in);
  if (!host) return;
  const std::string key = jar_key(*host);
  const std::string def_path = default_path(path);

  auto sub_it = entries_.find(key);
  for (const Cookie& c : cookies) {
    Entry e;
    e.name = c.name;
    e.path = (c.path.empty() || c.path[0] != '/') ? def_path : c.path;
    std::optional<DomainAndType> dt = domain_and_type(*host, c.domain);
    if (!dt) continue;
    e.domain = std::move(dt->domain);
    e.host_only = dt->host_only;

    // Max-Age wins over Expires; either one in the past deletes.
    bool remove = false;
    if (c.max_age < 0) {
      remove = true;
    } else if (c.max_age > 0) {
      // time.Duration(MaxAge) * time.Second wraps in int64 for MaxAge
      // beyond ~292 years, and Time.Add floors the leftover nanoseconds.
      const auto d = static_cast<int64_t>(static_cast<uint64_t>(c.max_age) * 1000000000ULL);
      int64_t dsec = d / 1000000000;
      if (d % 1000000000 < 0) --dsec;
      e.expires = now_unix + dsec;
      e.persistent = true;
    } else if (!c.expires || is_go_zero(*c.expires)) {
      e.persistent = false;
    } else if (!go_after(*c.expires, now_unix)) {
      remove = true;
    } else {
      e.expires = *c.expires;
      e.persistent = true;
    }

    const std::string id = e.domain + ";" + e.path + ";" + e.name;
    if (remove) {
      if (sub_it != entries_.end()) sub_it->second.erase(id);
      continue;
    }

    e.value = c.value;
    e.secure = c.secure;
    e.http_only = c.http_only;
    if (c.same_site == "Default") {
      e.same_site = "SameSite";
    } else if (c.same_site == "Strict") {
      e.same_site = "SameSite=Strict";
    } else if (c.same_site == "Lax") {
      e.same_site = "SameSite=Lax";
    }

    if (sub_it == entries_.end()) sub_it = entries_.try_emplace(key).first;
    SubMap& sub = sub_it->second;
    if (auto old = sub.find(id); old != sub.end()) {
      e.creation = old->second.creation;
      e.seq_num = old->second.seq_num;
    } else {
      e.creation = now_unix;
      e.seq_num = next_seq_num_++;
    }
    e.last_access = now_unix;
    sub.insert_or_assign(id, std::move(e));
  }
  if (sub_it != entries_.end() && sub_it->second.empty()) entries_.erase(sub_it);
}

std::vector<Cookie> CookieJar::cookies(std::string_view scheme, std::string_view host_in,
                                       std::string_view path_in, int64_t now_unix) {
  std::vector<Cookie> out;
  std::optional<bool> https = scheme_is_secure(scheme);
  if (!https) return out;
  std::optional<std::string> host = canonical_host(host_in);
  if (!host) return out;
  auto sub_it = entries_.find(jar_key(*host));
  if (sub_it == entries_.end()) return out;
  const std::string_view path = path_in.empty() ? std::string_view("/") : path_in;

  SubMap& sub = sub_it->second;
  std::vector<const Entry*> selected;
  for (auto it = sub.begin(); it != sub.end();) {
    Entry& e = it->second;
    if (e.persistent && !go_after(e.expires, now_unix)) {
      it = sub.erase(it);
      continue;
    }
    const bool domain_match = e.domain == *host || (!e.host_only && has_dot_suffix(*host, e.domain));
    if (domain_match && path_match(e.path, path) && (*https || !e.secure)) {
      e.last_access = now_unix;
      selected.push_back(&e);
    }
    ++it;
  }

  // RFC 6265 5.4 point 2: longest path first, then earliest creation.
  std::sort(selected.begin(), selected.end(), [](const Entry* a, const Entry* b) {
    if (a->path.size() != b->path.size()) return a->path.size() > b->path.size();
    if (a->creation != b->creation) return go_after(b->creation, a->creation);
    return a->seq_num < b->seq_num;
  });
  out.reserve(selected.size());
  for (const Entry* e : selected) {
    Cookie c;
    c.name = e->name;
    c.value = e->value;
    c.path = e->path;
    c.domain = e->domain;
    if (e->persistent) c.expires = e->expires;
    c.secure = e->secure;
    c.http_only = e->http_only;
    out.push_back(std::move(c));
  }
  if (sub.empty()) entries_.erase(sub_it);
  return out;
}

}  // namespace tlsc
