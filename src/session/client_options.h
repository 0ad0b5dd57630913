// A session's client configuration: what upstream fixes when it builds an
// http.Client for a sessionId (profile, timeout, jar, transport), plus the
// two things a later request may change (proxy, followRedirects).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "abi/request_input.h"
#include "net/dns_resolver.h"
#include "net/socket_address.h"
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
  bool rotating_proxy = false;
  std::map<std::string, std::vector<std::string>> certificate_pinning_hosts;
};

// Upstream's CreateClient rules, as errors worded as upstream words them.
Result<ClientOptions> client_options_from_input(const RequestInput& in);

}  // namespace tlsc
