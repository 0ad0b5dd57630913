// Opening an HTTP/3 connection to an origin, for the pool: resolve the
// name, pick the address quic-go would (the first IPv4 one, else the
// first), open the QUIC connection with the profile's QUIC fingerprint and
// its HTTP/3 one, and say when it is ready for requests or why it failed.
// The build without QUIC libraries (cross builds for now) has the same
// calls, answering that HTTP/3 is not in it (h3_dial_absent.cc). Loop
// thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "http/h3/h3_fingerprint.h"
#include "http/http_connection.h"
#include "net/dns_resolver.h"
#include "reactor/reactor.h"
#include "wire/quic_fingerprint.h"

namespace tlsc {

class TlsContext;
struct TlsOptions;

struct H3DialPlan {
  std::string host;  // the origin's name or IP literal (no brackets)
  uint16_t port = 443;
  AddressFamilies families = AddressFamilies::any;
  TlsContext* tls = nullptr;  // made with prepare_http3_tls and the profile's QUIC ClientHello
  std::shared_ptr<const QuicFingerprint> quic;
  std::shared_ptr<const H3Fingerprint> h3;
  size_t max_header_bytes = size_t{10} << 20;
};

// Whether this build speaks HTTP/3 at all.
bool http3_available();

// The QUIC and HTTP/3 libraries linked in, {name, version} ("ngtcp2",
// "1.24.0"); none without HTTP/3.
std::vector<std::pair<std::string, std::string>> http3_library_versions();

// Gives a TLS context's options what QUIC needs of its SSL_CTX; false when
// this build has no HTTP/3.
bool prepare_http3_tls(TlsOptions& options);

// One HTTP/3 connection being opened; destroying it stops the attempt
// (the callback is not called then).
class H3Dial {
 public:
  // Once: the connection, its handshake done, or why it could not be had
  // (Go's words for a refused or silent peer, the certificate's error).
  using Done = std::function<void(Result<std::shared_ptr<HttpConnection>>)>;
  // Later, once: the connection takes no more requests (closed, idle
  // timeout, GOAWAY), so its owner forgets it.
  using Retired = std::function<void(HttpConnection*)>;

  virtual ~H3Dial() = default;
};

std::unique_ptr<H3Dial> dial_h3(Reactor& reactor, DnsResolver& resolver, H3DialPlan plan,
                                std::string pool_key, H3Dial::Done done, H3Dial::Retired retired);

}  // namespace tlsc
