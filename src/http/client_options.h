// A session's client configuration: what upstream fixes when it builds an
// http.Client for a sessionId (fingerprint, timeout, jar, transport), plus
// the two things a later request may change (proxy, followRedirects). Plain
// domain values: abi/client_options_input.h builds them from the caller's
// JSON.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conn/proxy/proxy_url.h"
#include "core/headers.h"
#include "http/h2/h2_fingerprint.h"
#include "http/h3/h3_fingerprint.h"
#include "net/dns_resolver.h"
#include "platform/socket_address.h"
#include "tls/client_hello_spec.h"
#include "wire/quic_fingerprint.h"

namespace tlsc {

// transportOptions, as Go's http.Transport fields (0: Go's default).
struct TransportOptions {
  // The caller sent transportOptions: its fields are taken as upstream
  // takes them, Go's defaults included (2 idle connections per host).
  // Without it the pool keeps what the session recently used (PoolLimits).
  bool given = false;
  std::optional<std::chrono::milliseconds> idle_conn_timeout;  // set, 0 included: as given
  int64_t max_idle_conns = 0;
  int64_t max_idle_conns_per_host = 0;
  int64_t max_conns_per_host = 0;
  int64_t max_response_header_bytes = 0;
  int64_t write_buffer_size = 0;
  int64_t read_buffer_size = 0;
  bool disable_keep_alives = false;
  bool disable_compression = false;
};

struct ClientOptions {
  std::string profile = "chrome_133";  // the identifier, or "custom"
  // The profile's (or customTlsClient's) ClientHello, before the flags
  // below, and its HTTP/2 fingerprint. Shared, not copied: every request
  // builds options and every transaction holds a copy of them. Set by
  // abi/client_options_input.h; never null there.
  std::shared_ptr<const ClientHelloSpec> tls_spec;
  std::shared_ptr<const H2Fingerprint> h2;
  // The profile's HTTP/3 half: the ClientHello of its QUIC Initial, its
  // QUIC fingerprint and its HTTP/3 one. Null when the profile has no QUIC
  // block (customTlsClient too): its requests stay on TCP.
  std::shared_ptr<const ClientHelloSpec> quic_tls;
  std::shared_ptr<const QuicFingerprint> quic;
  std::shared_ptr<const H3Fingerprint> h3;
  bool protocol_racing = false;  // withProtocolRacing
  // withAltSvc (ours): an https origin's Alt-Svc "h3" alternative is
  // remembered (http/alt_svc.h), and requests race HTTP/3 to it while it
  // lasts, as withProtocolRacing races them.
  bool alt_svc = false;
  std::chrono::milliseconds timeout{30000};
  bool follow_redirects = false;
  bool use_cookie_jar = true;
  bool insecure_skip_verify = false;
  bool force_http1 = false;
  bool disable_http3 = false;
  bool random_tls_extension_order = false;
  bool debug = false;  // withDebug: each request traces its states on stderr
  AddressFamilies families = AddressFamilies::any;
  std::optional<SocketAddress> local_address;
  TransportOptions transport;
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

// Points the options at proxy_url ("" = no proxy), checked as upstream's
// newConnectDialer checks it; on error the options are left unchanged.
// Errors read "failed to build client out of request input: <reason>".
std::optional<Error> set_proxy(ClientOptions& o, const std::string& proxy_url);

// What a later request of an existing session changes (upstream's
// handleModification): the proxy, when it names a different one or the
// session rotates proxies, and the redirect policy.
struct ClientModification {
  std::optional<std::string> proxy_url;
  bool rotating_proxy = false;
  bool follow_redirects = false;
};
void apply_modification(ClientOptions& o, const ClientModification& m);

}  // namespace tlsc
