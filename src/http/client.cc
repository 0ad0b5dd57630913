#include "http/client.h"

#include <vector>

#include "http/h3/h3_dial.h"
#include "tls/spec_apply.h"
#include "tls/spec_options.h"

namespace tlsc {
namespace {

constexpr size_t kGoDefaultMaxIdleConnsPerHost = 2;  // net/http DefaultMaxIdleConnsPerHost

PoolLimits limits_from(const TransportOptions& t) {
  PoolLimits l;
  if (t.given) {
    // Upstream copies transportOptions into http.Transport: MaxIdleConns 0
    // is no limit, MaxIdleConnsPerHost 0 is Go's 2.
    if (t.max_idle_conns > 0) l.max_idle_total = static_cast<size_t>(t.max_idle_conns);
    l.max_idle_per_host = t.max_idle_conns_per_host > 0 ? static_cast<size_t>(t.max_idle_conns_per_host)
                                                        : kGoDefaultMaxIdleConnsPerHost;
  }
  if (t.idle_conn_timeout) l.idle_timeout = *t.idle_conn_timeout;  // Go: zero means no limit
  if (t.disable_keep_alives) l.max_idle_per_host = 0;
  if (t.max_conns_per_host > 0) l.max_conns_per_host = static_cast<size_t>(t.max_conns_per_host);
  return l;
}

// What the session's TLS contexts share, TCP and QUIC: verification,
// the server name, the pins.
TlsOptions verification_options(const ClientOptions& o) {
  TlsOptions t;
  t.insecure_skip_verify = o.insecure_skip_verify;
  t.server_name_overwrite = o.server_name_overwrite;
  t.pins = o.certificate_pinning_hosts;
  return t;
}

}  // namespace

HttpClient::HttpClient(Reactor& reactor, DnsResolver& resolver, ClientOptions options, bool single_request)
    : reactor_(reactor),
      resolver_(resolver),
      single_request_(single_request),
      options_(std::move(options)),
      pool_(reactor, resolver, limits_from(options_.transport)) {}

HttpClient::~HttpClient() = default;

ClientOptions HttpClient::options() const {
  std::lock_guard lock(options_mu_);
  return options_;
}

void HttpClient::modify(const ClientModification& m) {
  std::lock_guard lock(options_mu_);
  apply_modification(options_, m);
}

Result<std::unique_ptr<TlsContext>> HttpClient::make_tls_context(bool http1_only) const {
  ClientOptions o = options();
  TlsOptions t = verification_options(o);
  SpecOptions so{.disable_http3 = o.disable_http3, .random_extension_order = o.random_tls_extension_order};
  t.spec = apply_spec_options(*o.tls_spec, so);
  if (o.force_http1 || http1_only) t.spec = restrict_to_http1(std::move(t.spec));
  return TlsContext::create(std::move(t));
}

Result<std::unique_ptr<TlsContext>> HttpClient::make_quic_tls_context() const {
  ClientOptions o = options();
  TlsOptions t = verification_options(o);
  // The browser's QUIC hello as captured (it permutes its own extensions);
  // withRandomTLSExtensionOrder is for the TCP hello upstream's utls builds.
  t.spec = *o.quic_tls;
  if (!prepare_http3_tls(t)) return make_error(ErrorCode::internal, "HTTP/3 is not in this build");
  return TlsContext::create(std::move(t));
}

Result<TlsContext*> HttpClient::tls_context_quic() {
  if (!tls_quic_) {
    auto made = make_quic_tls_context();
    if (!made) return made.error();
    tls_quic_ = std::move(*made);
  }
  return tls_quic_.get();
}

Result<TlsContext*> HttpClient::tls_context() {
  if (!tls_) {
    auto made = make_tls_context(false);
    if (!made) return made.error();
    tls_ = std::move(*made);
  }
  return tls_.get();
}

Result<TlsContext*> HttpClient::tls_context_http1() {
  if (options().force_http1) return tls_context();
  if (!tls_http1_) {
    auto made = make_tls_context(true);
    if (!made) return made.error();
    tls_http1_ = std::move(*made);
  }
  return tls_http1_.get();
}

void HttpClient::close(const Error& reason) {
  closed_ = true;
  // cancel() removes the request from the set. Requests go first, so they
  // end with the reason rather than with their connection's close.
  std::vector<ClientRequest*> victims(running_.begin(), running_.end());
  for (ClientRequest* r : victims) r->cancel(reason);
  pool_.close_all();
}

}  // namespace tlsc
