#include "session/session.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "http/transaction.h"
#include "profiles/registry.h"
#include "tls/spec_apply.h"
#include "tls/spec_options.h"

namespace tlsc {

namespace {

PoolLimits limits_from(const TransportOptionsInput& t) {
  PoolLimits l;
  if (t.max_idle_conns > 0) l.max_idle_total = static_cast<size_t>(t.max_idle_conns);
  if (t.max_idle_conns_per_host > 0) l.max_idle_per_host = static_cast<size_t>(t.max_idle_conns_per_host);
  if (t.idle_conn_timeout_ns) {
    // Go: zero means no limit.
    l.idle_timeout = std::chrono::milliseconds(*t.idle_conn_timeout_ns / 1000000);
  }
  if (t.disable_keep_alives) l.max_idle_per_host = 0;
  if (t.max_conns_per_host > 0) l.max_conns_per_host = static_cast<size_t>(t.max_conns_per_host);
  return l;
}

}  // namespace

Session::Session(std::string id, ClientOptions options, Reactor& reactor)
    : id_(std::move(id)),
      options_(std::move(options)),
      pool_(reactor, limits_from(options_.transport)) {}

Session::~Session() = default;

ClientOptions Session::options() const {
  std::lock_guard lock(options_mu_);
  return options_;
}

void Session::update_from_request(const RequestInput& in) {
  std::lock_guard lock(options_mu_);
  // Upstream's handleModification: SetProxy when the URL differs or the
  // proxy rotates. A URL SetProxy cannot use is rolled back silently, so
  // the session keeps its proxy.
  if (in.proxy_url && (*in.proxy_url != options_.proxy_url || in.is_rotating_proxy)) {
    (void)set_proxy(options_, *in.proxy_url);
  }
  options_.rotating_proxy = in.is_rotating_proxy;
  options_.follow_redirects = in.follow_redirects;
}

Result<TlsContext*> Session::tls_context() {
  if (!tls_) {
    ClientOptions o = options();
    TlsOptions t;
    t.profile = o.profile;
    t.insecure_skip_verify = o.insecure_skip_verify;
    t.server_name_overwrite = o.server_name_overwrite;
    t.pins = o.certificate_pinning_hosts;
    SpecOptions so{.disable_http3 = o.disable_http3, .random_extension_order = o.random_tls_extension_order};
    t.spec = apply_spec_options(o.custom_spec ? *o.custom_spec : find_profile(o.profile).tls, so);
    if (o.force_http1) t.spec = restrict_to_http1(std::move(t.spec));
    auto made = TlsContext::create(std::move(t));
    if (!made) return made.error();
    tls_ = std::move(*made);
  }
  return tls_.get();
}

Result<const H2Fingerprint*> Session::h2_fingerprint() {
  if (!h2_) {
    ClientOptions o = options();
    if (o.custom_tls_client) {
      h2_ = h2_fingerprint_from_custom(*o.custom_tls_client);
    } else {
      const Profile& profile = find_profile(o.profile);
      auto f = h2_fingerprint_from_json(profile.http2, profile.allow_http);
      if (!f) return f.error();
      h2_ = std::move(*f);
    }
  }
  return &*h2_;
}

void Session::close_on_loop(const std::string& reason) {
  closed_ = true;
  // cancel() removes the transaction from the set. Requests go first, so
  // they end with the reason rather than with their connection's close.
  std::vector<Transaction*> victims(in_flight_.begin(), in_flight_.end());
  for (Transaction* t : victims) t->cancel(reason);
  pool_.close_all();
}

}  // namespace tlsc
