// A tls-client session: one client (options, cookie jar, connections) kept
// across calls under a sessionId. Requests without a sessionId get a fresh
// session of their own that ends with the request, as upstream's fresh
// client does.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include "http/connection_pool.h"
#include "cookies/cookie_jar.h"
#include "http/h2/h2_fingerprint.h"
#include "http/client_options.h"
#include "tls/tls_context.h"

namespace tlsc {

class Transaction;

class Session {
 public:
  Session(std::string id, ClientOptions options, Reactor& reactor);
  ~Session();

  const std::string& id() const { return id_; }
  bool ephemeral() const { return id_.empty(); }

  // Any thread.
  ClientOptions options() const;
  // Upstream's handleModification: a later request may change the proxy and
  // the redirect policy of an existing session.
  void update_from_request(const RequestInput& in);

  // The jar is shared by the loop thread and getCookiesFromSession callers.
  template <class F>
  auto with_jar(F&& f) {
    std::lock_guard lock(jar_mu_);
    return f(jar_);
  }

  // Loop thread only.
  ConnectionPool& pool() { return pool_; }
  // Made on first use: the SSL_CTX and ticket cache of this session.
  Result<TlsContext*> tls_context();
  // Made on first use: what this session's HTTP/2 connections show.
  Result<const H2Fingerprint*> h2_fingerprint();
  std::unordered_set<Transaction*>& in_flight() { return in_flight_; }
  bool closed() const { return closed_; }
  // Ends the session on the loop thread: idle connections closed, requests
  // in flight finish with an error.
  void close_on_loop(const std::string& reason);

 private:
  const std::string id_;
  mutable std::mutex options_mu_;
  ClientOptions options_;
  std::mutex jar_mu_;
  CookieJar jar_;
  ConnectionPool pool_;
  std::unique_ptr<TlsContext> tls_;
  std::optional<H2Fingerprint> h2_;
  std::unordered_set<Transaction*> in_flight_;
  bool closed_ = false;
};

}  // namespace tlsc
