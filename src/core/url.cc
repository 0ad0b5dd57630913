#include "core/url.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/ascii.h"

namespace tlsc {
namespace {

bool is_ctl(unsigned char c) { return c < 0x20 || c == 0x7f; }

Error parse_error(std::string_view text, std::string_view reason) {
  std::string m = "parse \"";
  m.append(text);
  m.append("\": ");
  m.append(reason);
  return make_error(ErrorCode::invalid_input, std::move(m));
}

// Bytes a path may carry unescaped on the wire; everything else (spaces,
// non-ASCII, quotes) is percent-encoded as Go's EscapedPath does.
bool path_byte_ok(unsigned char c) {
  if (c >= 'a' && c <= 'z') return true;
  if (c >= 'A' && c <= 'Z') return true;
  if (c >= '0' && c <= '9') return true;
  switch (c) {
    case '-':
    case '.':
    case '_':
    case '~':
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':':
    case '@':
    case '/':
    case '%':
      return true;
    default:
      return false;
  }
}

bool query_byte_ok(unsigned char c) {
  return c > 0x20 && c < 0x7f && c != '"' && c != '<' && c != '>' && c != '`' && c != '{' && c != '}' &&
         c != '|' && c != '\\' && c != '^' && c != '#';
}

std::string escape_if_needed(std::string_view s, bool (*ok)(unsigned char)) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (ok(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// Bytes a host may carry as they are: Go's shouldEscape(c, encodeHost) is
// false for them. Everything else ASCII must not appear, not even escaped.
bool host_byte_ok(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '-':
    case '.':
    case '_':
    case '~':
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':':
    case '[':
    case ']':
    case '<':
    case '>':
    case '"':
      return true;
    default:
      return false;
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Go's EscapeError: the bad escape, at most three bytes of it.
std::string escape_error(std::string_view at) {
  return "invalid URL escape \"" + std::string(at.substr(0, 3)) + "\"";
}

enum class HostPart { host, zone };

// Go's unescape(s, encodeHost / encodeZone): in a host only non-ASCII bytes
// may be %-escaped (and "%25", which starts an IPv6 zone); a zone may
// escape what a host could carry as it is. Returns the unescaped text, or
// Go's reason.
Result<std::string> unescape_host(std::string_view s, HostPart part) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) {
        return make_error(ErrorCode::invalid_input, escape_error(s.substr(i)));
      }
      const auto v = static_cast<unsigned char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      const bool percent = s.substr(i, 3) == "%25";
      if (part == HostPart::host && v < 0x80 && !percent) {
        return make_error(ErrorCode::invalid_input, escape_error(s.substr(i)));
      }
      if (part == HostPart::zone && !percent && v != ' ' && v < 0x80 && !host_byte_ok(v)) {
        return make_error(ErrorCode::invalid_input, escape_error(s.substr(i)));
      }
      out.push_back(static_cast<char>(v));
      i += 3;
      continue;
    }
    if (c < 0x80 && !host_byte_ok(c)) {
      std::string m = "invalid character \"";
      m.push_back(static_cast<char>(c));
      m += "\" in host name";
      return make_error(ErrorCode::invalid_input, std::move(m));
    }
    out.push_back(static_cast<char>(c));
    ++i;
  }
  return out;
}

// Go's validUserinfo (RFC 3986 userinfo, plus '@' since Go splits the
// authority at its last '@').
bool valid_userinfo(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
    switch (c) {
      case '-':
      case '.':
      case '_':
      case ':':
      case '~':
      case '!':
      case '$':
      case '&':
      case '\'':
      case '(':
      case ')':
      case '*':
      case '+':
      case ',':
      case ';':
      case '=':
      case '%':
      case '@':
        continue;
      default:
        return false;
    }
  }
  return true;
}

// The first malformed %-escape of s, or "" (Go's unescape in the modes that
// allow any escape: path, user and password).
std::string_view bad_escape(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') continue;
    if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) return s.substr(i, 3);
    i += 2;
  }
  return {};
}

// RFC 3986 5.2.4
std::string remove_dot_segments(std::string_view path) {
  std::vector<std::string_view> out;
  bool leading_slash = !path.empty() && path.front() == '/';
  size_t i = leading_slash ? 1 : 0;
  bool trailing = false;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view seg = path.substr(i, j - i);
    trailing = false;
    if (seg == ".") {
      trailing = true;
    } else if (seg == "..") {
      if (!out.empty()) out.pop_back();
      trailing = true;
    } else {
      out.push_back(seg);
    }
    i = j + 1;
  }
  std::string r = leading_slash ? "/" : "";
  for (size_t k = 0; k < out.size(); ++k) {
    if (k) r.push_back('/');
    r.append(out[k]);
  }
  if (trailing && (r.empty() || r.back() != '/')) r.push_back('/');
  return r;
}

}  // namespace

namespace {

// Go keeps the brackets in URL.Host; we keep the name bare and print the
// brackets back for what came in them, for an IPv6 literal made by hand,
// and for what would not parse back without them ("[[]").
bool needs_brackets(const Url& u) {
  return u.bracketed || u.hostname.find(':') != std::string_view::npos || u.hostname.starts_with("[");
}

}  // namespace

std::string Url::host() const {
  // Go's removeZone: an IPv6 zone names an interface of this machine and
  // means nothing to the server.
  // Go's removeZone cuts a bracketed host at its last '%'.
  const bool brackets = needs_brackets(*this);
  std::string_view name = hostname;
  if (brackets) name = name.substr(0, name.rfind('%'));
  std::string h = brackets ? "[" + std::string(name) + "]" : std::string(name);
  if (!port.empty()) h += ":" + port;
  return h;
}

namespace {

// %XX escapes decoded; a '%' without two hex digits after it stays as is.
std::string percent_decoded(std::string_view in) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && hex(in[i + 1]) >= 0 && hex(in[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(in[i + 1]) * 16 + hex(in[i + 2])));
      i += 2;
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

}  // namespace

std::string Url::decoded_path() const { return percent_decoded(path); }

std::string Url::username() const {
  return percent_decoded(std::string_view(userinfo).substr(0, userinfo.find(':')));
}

std::optional<std::string> Url::password() const {
  const size_t colon = userinfo.find(':');
  if (colon == std::string::npos) return std::nullopt;
  return percent_decoded(std::string_view(userinfo).substr(colon + 1));
}

uint16_t Url::effective_port() const {
  if (!port.empty()) {
    unsigned v = 0;
    auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), v);
    if (ec != std::errc() || p != port.data() + port.size() || v > 65535) return 0;
    return static_cast<uint16_t>(v);
  }
  if (scheme == "http" || scheme == "ws") return 80;
  if (scheme == "https" || scheme == "wss") return 443;
  return 0;
}

std::string Url::request_uri() const {
  std::string r = path.empty() ? "/" : path;
  if (force_query || !query.empty()) {
    r.push_back('?');
    r.append(query);
  }
  return r;
}

std::string Url::to_string() const {
  std::string r;
  if (!scheme.empty()) r = scheme + ":";
  if (opaque) {
    // Go's String: "scheme:opaque", no "//" (javascript:alert(1)).
  } else if (!scheme.empty() || !hostname.empty() || !userinfo.empty()) {
    r += "//";
    if (!userinfo.empty()) r += userinfo + "@";
    // Go's escape(host, encodeHost): every byte a host cannot carry as it
    // is (non-ASCII, a zone's '%', a space a zone unescaped) escaped again.
    const bool ipv6 = needs_brackets(*this);
    if (ipv6) r.push_back('[');
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (char ch : hostname) {
      const auto c = static_cast<unsigned char>(ch);
      if (c >= 0x80 || !host_byte_ok(c)) {
        r.push_back('%');
        r.push_back(kHex[c >> 4]);
        r.push_back(kHex[c & 15]);
      } else {
        r.push_back(ch);
      }
    }
    if (ipv6) r.push_back(']');
    if (!port.empty()) r += ":" + port;
  }
  if (!opaque && !path.empty() && path.front() != '/' && !hostname.empty()) r.push_back('/');
  r += path;
  if (force_query || !query.empty()) r += "?" + query;
  if (!fragment.empty()) r += "#" + fragment;
  return r;
}

Result<Url> parse_url(std::string_view text) {
  for (char c : text) {
    if (is_ctl(static_cast<unsigned char>(c))) {
      return parse_error(text, "net/url: invalid control character in URL");
    }
  }
  Url u;
  std::string_view rest = text;
  if (size_t hash = rest.find('#'); hash != std::string_view::npos) {
    u.fragment = std::string(rest.substr(hash + 1));
    rest = rest.substr(0, hash);
  }
  if (rest.empty()) return u;

  // scheme
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alpha) continue;
    if (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) continue;
    if (c == ':') {
      if (i == 0) return parse_error(text, "missing protocol scheme");
      u.scheme = ascii_lowercase(rest.substr(0, i));
      rest = rest.substr(i + 1);
    }
    break;
  }

  if (size_t q = rest.find('?'); q != std::string_view::npos) {
    std::string_view raw_query = rest.substr(q + 1);
    if (raw_query.empty()) u.force_query = true;
    u.query = escape_if_needed(raw_query, query_byte_ok);
    rest = rest.substr(0, q);
  }

  if (rest.starts_with("//")) {
    rest = rest.substr(2);
    size_t end = rest.find('/');
    std::string_view authority = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    std::string_view userinfo;
    bool has_userinfo = false;
    if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
      userinfo = authority.substr(0, at);
      has_userinfo = true;
      authority = authority.substr(at + 1);
    }
    // Go's parseHost, then the userinfo: a bad host is reported first.
    std::string_view hostport = authority;
    if (hostport.starts_with("[")) {
      const size_t close = hostport.rfind(']');
      if (close == std::string_view::npos) return parse_error(text, "missing ']' in host");
      std::string_view after = hostport.substr(close + 1);
      if (!after.empty()) {
        bool digits = after.front() == ':';
        for (char c : after.substr(1)) digits = digits && c >= '0' && c <= '9';
        if (!digits) return parse_error(text, "invalid port \"" + std::string(after) + "\" after host");
        u.port = std::string(after.substr(1));
      }
      // RFC 6874: "%25" starts a zone, which may escape more than a host.
      std::string_view literal = hostport.substr(1, close - 1);
      const size_t zone = literal.find("%25");
      auto address = unescape_host(literal.substr(0, zone), HostPart::host);
      if (!address) return parse_error(text, address.error().message);
      std::string name = ascii_lowercase(*address);
      if (zone != std::string_view::npos) {
        auto zone_text = unescape_host(literal.substr(zone), HostPart::zone);
        if (!zone_text) return parse_error(text, zone_text.error().message);
        name += *zone_text;  // the zone keeps its case: it names an interface
      }
      u.hostname = std::move(name);
      u.bracketed = true;
    } else {
      if (size_t colon = hostport.rfind(':'); colon != std::string_view::npos) {
        for (char c : hostport.substr(colon + 1)) {
          if (c < '0' || c > '9') {
            return parse_error(text,
                               "invalid port \"" + std::string(hostport.substr(colon)) + "\" after host");
          }
        }
        u.port = std::string(hostport.substr(colon + 1));
        hostport = hostport.substr(0, colon);
      }
      auto name = unescape_host(hostport, HostPart::host);
      if (!name) return parse_error(text, name.error().message);
      u.hostname = ascii_lowercase(*name);
    }
    if (has_userinfo) {
      if (!valid_userinfo(userinfo)) return parse_error(text, "net/url: invalid userinfo");
      if (auto bad = bad_escape(userinfo); !bad.empty()) return parse_error(text, escape_error(bad));
      u.userinfo = std::string(userinfo);
    }
  } else if (!u.scheme.empty() && !rest.starts_with("/")) {
    // "host:8080/path" parses as scheme "host" with an opaque part in Go;
    // a client cannot use it, so say what Go's http client would.
    u.path = std::string(rest);
    u.opaque = true;
    return u;
  } else if (u.scheme.empty()) {
    size_t colon = rest.find(':');
    size_t slash = rest.find('/');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
      return parse_error(text, "first path segment in URL cannot contain colon");
    }
  }
  if (auto bad = bad_escape(rest); !bad.empty()) return parse_error(text, escape_error(bad));
  u.path = escape_if_needed(rest, path_byte_ok);
  return u;
}

Url resolve_reference(const Url& base, const Url& ref) {
  Url t;
  if (!ref.scheme.empty()) {
    t = ref;
    t.path = remove_dot_segments(ref.path);
    return t;
  }
  t.scheme = base.scheme;
  if (!ref.hostname.empty()) {
    t.userinfo = ref.userinfo;
    t.hostname = ref.hostname;
    t.bracketed = ref.bracketed;
    t.port = ref.port;
    t.path = remove_dot_segments(ref.path);
    t.query = ref.query;
    t.force_query = ref.force_query;
  } else {
    t.userinfo = base.userinfo;
    t.hostname = base.hostname;
    t.bracketed = base.bracketed;
    t.port = base.port;
    if (ref.path.empty()) {
      t.path = base.path;
      if (ref.query.empty() && !ref.force_query) {
        t.query = base.query;
        t.force_query = base.force_query;
      } else {
        t.query = ref.query;
        t.force_query = ref.force_query;
      }
    } else {
      if (ref.path.front() == '/') {
        t.path = remove_dot_segments(ref.path);
      } else {
        std::string merged;
        if (base.path.empty()) {
          merged = "/" + ref.path;
        } else {
          size_t last = base.path.rfind('/');
          merged = base.path.substr(0, last + 1) + ref.path;
        }
        t.path = remove_dot_segments(merged);
      }
      t.query = ref.query;
      t.force_query = ref.force_query;
    }
  }
  t.fragment = ref.fragment;
  return t;
}

bool is_domain_or_subdomain(std::string_view sub, std::string_view parent) {
  if (sub == parent) return true;
  if (sub.size() <= parent.size()) return false;
  return sub.ends_with(parent) && sub[sub.size() - parent.size() - 1] == '.';
}

}  // namespace tlsc
