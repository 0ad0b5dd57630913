// One HTTP client: what upstream's http.Client and its Transport hold for
// a session. Its options, its cookie jar, its connections, its TLS state
// (the SSL_CTX and ticket cache), and the requests running on it, so that
// closing the client ends them. A session (session/) names one of these; a
// request without a sessionId gets a client of its own that ends with it.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "cookies/cookie_jar.h"
#include "http/alt_svc.h"
#include "http/client_options.h"
#include "http/connection_pool.h"
#include "net/dns_resolver.h"
#include "reactor/reactor.h"
#include "tls/tls_context.h"

namespace tlsc {

// A request running on a client, as the client sees it: something to end.
class ClientRequest {
 public:
  // Finishes now with this error (its single completion).
  virtual void cancel(const Error& reason) = 0;

 protected:
  ~ClientRequest() = default;
};

class HttpClient {
 public:
  // single_request: the client of a request without a sessionId (no
  // connection outlives it, as upstream's fresh client).
  HttpClient(Reactor& reactor, DnsResolver& resolver, ClientOptions options, bool single_request);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Any thread.
  ClientOptions options() const;
  void modify(const ClientModification& m);
  // The jar is shared by the loop thread and getCookiesFromSession callers.
  template <class F>
  auto with_jar(F&& f) {
    std::lock_guard lock(jar_mu_);
    return f(jar_);
  }

  // Loop thread only.
  Reactor& reactor() { return reactor_; }
  DnsResolver& resolver() { return resolver_; }
  ConnectionPool& pool() { return pool_; }
  // The origins' HTTP/3 alternatives (withAltSvc).
  AltSvcCache& alt_svc() { return alt_svc_; }
  bool single_request() const { return single_request_; }
  // Made on first use: the SSL_CTX and ticket cache of this client.
  Result<TlsContext*> tls_context();
  // The same with ALPN offering http/1.1 alone, as upstream dials a
  // WebSocket (its upgrade is HTTP/1.1) whatever the client's forceHttp1.
  Result<TlsContext*> tls_context_http1();
  // The context of this client's QUIC connections: the profile's QUIC
  // ClientHello, with the same verification, pins and server name.
  Result<TlsContext*> tls_context_quic();
  bool closed() const { return closed_; }
  void add(ClientRequest* r) { running_.insert(r); }
  void remove(ClientRequest* r) { running_.erase(r); }
  // Ends the client: requests running finish with `reason`, connections
  // close, later requests fail at once.
  void close(const Error& reason);

 private:
  Reactor& reactor_;
  DnsResolver& resolver_;
  const bool single_request_;
  mutable std::mutex options_mu_;
  ClientOptions options_;
  std::mutex jar_mu_;
  CookieJar jar_;
  ConnectionPool pool_;
  AltSvcCache alt_svc_;
  Result<std::unique_ptr<TlsContext>> make_tls_context(bool http1_only) const;
  Result<std::unique_ptr<TlsContext>> make_quic_tls_context() const;

  std::unique_ptr<TlsContext> tls_;
  std::unique_ptr<TlsContext> tls_http1_;
  std::unique_ptr<TlsContext> tls_quic_;
  std::unordered_set<ClientRequest*> running_;
  bool closed_ = false;
};

}  // namespace tlsc
