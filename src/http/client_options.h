// A session's client configuration: what upstream fixes when it builds an
// http.Client for a sessionId (profile, timeout, jar, transport), plus the
// two things a later request may change (proxy, followRedirects).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "abi/request_input.h"
#include "net/dns_resolver.h"
#include "conn/proxy/proxy_url.h"
#include "platform/socket_address.h"
#include "tls/client_hello_spec.h"

namespace tlsc {

struct ClientOptions {
  std::string profile = "chrome_133";
  std::optional<CustomTlsClientInput> custom_tls_client;
  std::optional<ClientHelloSpec> custom_spec;  // built from custom_tls_client
  std::chrono::milliseconds timeout{30000};
  bool follow_redirects = false;
  bool use_cookie_jar = true;
  bool insecure_skip_verify = false;
  bool force_http1 = false;
  bool disable_http3 = false;
  bool random_tls_extension_order = false;
  AddressFamilies families = AddressFamilies::any;
  std::optional<SocketAddress> local_address;
  TransportOptionsInput transport;
  MultiHeaderMap default_headers;
  MultiHeaderMap connect_headers;
  std::string server_name_overwrite;
  std::string proxy_url;
  std::optional<ProxyEndpoint> proxy;  // proxy_url checked; none when empty
  // Changes whenever upstream would build a new transport for the proxy
  // (a different proxyUrl, or any request of a rotating-proxy session that
  // names one): pooled connections of an older generation are not reused.
  uint64_t proxy_generation = 0;
  bool rotating_proxy = false;
  std::map<std::string, std::vector<std::string>> certificate_pinning_hosts;
};

// Upstream's CreateClient rules, as errors worded as upstream words them.
// The proxy URL is not checked here: see set_proxy.
Result<ClientOptions> client_options_from_input(const RequestInput& in);

// Points the options at proxy_url ("" = no proxy), checked as upstream's
// newConnectDialer checks it; on error the options are left unchanged.
// Errors read "failed to build client out of request input: <reason>".
std::optional<Error> set_proxy(ClientOptions& o, const std::string& proxy_url);

}  // namespace tlsc
