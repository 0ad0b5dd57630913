// A proxyUrl checked the way upstream's newConnectDialer checks it, and
// split into what a tunnel needs: the kind of proxy, where it listens, and
// the credentials from its user info. Any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

enum class ProxyKind {
  http,     // CONNECT over TCP
  https,    // CONNECT over TLS to the proxy
  socks4,   // target resolved here, IPv4 only
  socks4a,  // target name resolved by the proxy
  socks5,   // socks5:// and socks5h:// alike: the proxy resolves names
};

struct ProxyCredentials {
  std::string username;  // percent-decoded, as Go's URL.User.Username()
  std::string password;  // empty when the URL has none
};

struct ProxyEndpoint {
  ProxyKind kind = ProxyKind::http;
  std::string url;       // as the caller wrote it: identifies the proxy
  std::string hostname;  // no brackets
  // Go's proxyUrl.Host after upstream's defaults: "host:port" (brackets for
  // IPv6). SOCKS URLs get no default port; host_port is then just the host
  // and port == 0, and dialing fails as Go's does ("missing port in
  // address").
  std::string host_port;
  uint16_t port = 0;
  std::optional<ProxyCredentials> credentials;  // the URL had user info
};

// Errors carry upstream's words, which callers see after "failed to build
// client out of request input: ":
//   parse "<url>": <url.Parse's reason>
//   invalid url `<url>`, make sure to specify full url like https://username:password@hostname.com:443/
//   specify scheme explicitly (https://)
//   scheme <scheme> is not supported
Result<ProxyEndpoint> parse_proxy_url(std::string_view text);

const char* proxy_kind_name(ProxyKind kind);

}  // namespace tlsc
