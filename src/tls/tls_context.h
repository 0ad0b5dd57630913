// A session's TLS client state: one SSL_CTX configured from the session's
// options, the session-ticket cache that lets the next connection resume,
// and the checks that follow a handshake (certificate pins). Loop thread
// only.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <openssl/ssl.h>

#include "core/error.h"
#include "tls/client_hello_spec.h"
#include "tls/handshake_error_text.h"

namespace tlsc {

struct TlsOptions {
  bool insecure_skip_verify = false;
  std::string server_name_overwrite;                     // SNI and verification name
  std::map<std::string, std::vector<std::string>> pins;  // certificatePinningHosts
  ClientHelloSpec spec;                                  // every byte of the ClientHello
  // Run once on the new SSL_CTX: a QUIC context's QUIC method
  // (conn/quic/quic_connection.h, prepare_quic_context). False fails create().
  std::function<bool(SSL_CTX*)> prepare_context;
};

// What every client SSL_CTX shares, over TCP or QUIC: the version range
// (a spec narrows it per connection), GREASE, Go's certificate size limit,
// and a decompressor for every certificate compression a spec may offer
// (BoringSSL refuses to offer one it cannot undo). The ClientHello itself
// comes from the spec, per connection (spec_apply.h).
bool configure_client_context(SSL_CTX* ctx);

class TlsContext {
 public:
  static Result<std::unique_ptr<TlsContext>> create(TlsOptions options);
  ~TlsContext();

  // A client SSL for a connection to host:port, with SNI, verification
  // name, and a cached session to resume if there is one. Tickets are kept
  // per ticket_scope: a new scope (the session's proxy changed or rotated)
  // forgets the older ones, as upstream starts a new ticket cache with each
  // new transport, so no ticket links connections made through different
  // proxies.
  Result<bssl::UniquePtr<SSL>> new_connection(const std::string& host, uint16_t port,
                                              uint64_t ticket_scope = 0);
  // After the handshake: certificate pins for host (upstream's rules).
  std::optional<Error> check_pins(const SSL* ssl, const std::string& host) const;
  const TlsOptions& options() const { return options_; }

 private:
  explicit TlsContext(TlsOptions options) : options_(std::move(options)) {}
  static int on_new_session(SSL* ssl, SSL_SESSION* session);

  TlsOptions options_;
  bssl::UniquePtr<SSL_CTX> ctx_;
  std::map<std::string, bssl::UniquePtr<SSL_SESSION>> sessions_;  // by host:port#scope
  uint64_t ticket_scope_ = 0;
};

// Go-worded text for a failed handshake or record (SSL_get_error gave
// ssl_error): verification results become "tls: failed to verify
// certificate: x509: ...", everything else what handshake_error_text.h
// makes of BoringSSL's error queue and the connection's trace (may be
// null). Drains this thread's error queue.
Error tls_handshake_error(const SSL* ssl, int ssl_error, const std::string& host, const TlsTrace* trace);

}  // namespace tlsc
