#include "conn/proxy/proxy_url.h"

#include <charconv>

#include "core/url.h"

namespace tlsc {
namespace {

Error url_error(std::string_view text, std::string_view reason) {
  return make_error(ErrorCode::invalid_input, "parse \"" + std::string(text) + "\": " + std::string(reason));
}

// Go's validUserinfo: the bytes RFC 3986 allows in user info, plus '@'.
bool valid_userinfo(std::string_view s) {
  for (char c : s) {
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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Go's unescape in encodeUserPassword mode: %XX decoded, '+' kept.
Result<std::string> unescape_userinfo(std::string_view text, std::string_view part) {
  std::string out;
  out.reserve(part.size());
  for (size_t i = 0; i < part.size(); ++i) {
    if (part[i] != '%') {
      out.push_back(part[i]);
      continue;
    }
    int hi = i + 1 < part.size() ? hex_value(part[i + 1]) : -1;
    int lo = i + 2 < part.size() ? hex_value(part[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      std::string_view bad = part.substr(i, 3);
      return url_error(text, "invalid URL escape \"" + std::string(bad) + "\"");
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

std::string join_host_port(const std::string& host, std::string_view port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::string(port);
  return host + ":" + std::string(port);
}

}  // namespace

const char* proxy_kind_name(ProxyKind kind) {
  switch (kind) {
    case ProxyKind::http:
      return "http";
    case ProxyKind::https:
      return "https";
    case ProxyKind::socks4:
      return "socks4";
    case ProxyKind::socks4a:
      return "socks4a";
    case ProxyKind::socks5:
      return "socks5";
  }
  return "?";
}

Result<ProxyEndpoint> parse_proxy_url(std::string_view text) {
  auto parsed = parse_url(text);
  if (!parsed) return parsed.error();
  const Url& u = *parsed;
  // Go splits user info off at the last '@' and checks it before anything
  // else of the host.
  if (!u.userinfo.empty() && !valid_userinfo(u.userinfo)) {
    return url_error(text, "net/url: invalid userinfo");
  }
  if (u.hostname.empty() && u.port.empty()) {
    return make_error(ErrorCode::invalid_input, "invalid url `" + std::string(text) +
                                                    "`, make sure to specify full url like "
                                                    "https://username:password@hostname.com:443/");
  }
  ProxyEndpoint p;
  p.url = std::string(text);
  p.hostname = u.hostname;
  if (u.scheme == "http" || u.scheme == "https") {
    p.kind = u.scheme == "http" ? ProxyKind::http : ProxyKind::https;
    std::string port = u.port.empty() ? (u.scheme == "http" ? "80" : "443") : u.port;
    p.host_port = join_host_port(u.hostname, port);
  } else if (u.scheme == "socks4" || u.scheme == "socks4a" || u.scheme == "socks5" || u.scheme == "socks5h") {
    p.kind = u.scheme == "socks4"    ? ProxyKind::socks4
             : u.scheme == "socks4a" ? ProxyKind::socks4a
                                     : ProxyKind::socks5;
    p.host_port = u.port.empty() ? u.host() : join_host_port(u.hostname, u.port);
  } else if (u.scheme.empty()) {
    return make_error(ErrorCode::invalid_input, "specify scheme explicitly (https://)");
  } else {
    return make_error(ErrorCode::invalid_input, "scheme " + u.scheme + " is not supported");
  }
  if (!u.port.empty()) {
    unsigned port = 0;
    auto [end, ec] = std::from_chars(u.port.data(), u.port.data() + u.port.size(), port);
    // Out of range ports fail when dialed, as Go's do; 0 stands for that.
    if (ec == std::errc() && end == u.port.data() + u.port.size() && port <= 65535) {
      p.port = static_cast<uint16_t>(port);
    }
  } else if (p.kind == ProxyKind::http) {
    p.port = 80;
  } else if (p.kind == ProxyKind::https) {
    p.port = 443;
  }
  if (!u.userinfo.empty() || text.find('@') != std::string_view::npos) {
    // Go: User is set whenever the authority holds an '@', even "@host".
    size_t at_pos = text.find("//");
    bool has_at = false;
    if (at_pos != std::string_view::npos) {
      std::string_view authority = text.substr(at_pos + 2);
      authority = authority.substr(0, authority.find_first_of("/?#"));
      has_at = authority.find('@') != std::string_view::npos;
    }
    if (has_at) {
      ProxyCredentials c;
      std::string_view info = u.userinfo;
      size_t colon = info.find(':');
      auto user = unescape_userinfo(text, info.substr(0, colon));
      if (!user) return user.error();
      c.username = std::move(*user);
      if (colon != std::string_view::npos) {
        auto pass = unescape_userinfo(text, info.substr(colon + 1));
        if (!pass) return pass.error();
        c.password = std::move(*pass);
      }
      p.credentials = std::move(c);
    }
  }
  return p;
}

}  // namespace tlsc
