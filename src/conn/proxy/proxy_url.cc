#include "conn/proxy/proxy_url.h"

#include <charconv>

#include "core/url.h"

namespace tlsc {
namespace {

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
  // parse_url has checked the user info and its escapes as Go does.
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
      c.username = u.username();
      c.password = u.password().value_or("");
      p.credentials = std::move(c);
    }
  }
  return p;
}

}  // namespace tlsc
