// The client side of a proxy protocol as a byte-in, byte-out state
// machine: no socket, no clock. ProxyTunnel (proxy_tunnel.h) drives one
// over a Stream; tests and fuzzers drive them directly.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

class ProxyHandshake {
 public:
  virtual ~ProxyHandshake() = default;

  // The first bytes to send (the CONNECT request, the SOCKS greeting), or
  // the error that stops the handshake before anything is sent.
  virtual Result<std::string> start() = 0;

  // Consumes bytes from the proxy and appends what must be sent next to
  // `out`. After an error the handshake is dead; further calls repeat it.
  virtual std::optional<Error> feed(std::string_view in, std::string& out) = 0;

  // The tunnel is open: bytes from here on belong to the target.
  virtual bool done() const = 0;

  // Bytes received after the handshake's last byte (valid once done()).
  virtual std::string_view leftover() const = 0;

  // The proxy closed the connection before done(): what to report.
  virtual Error on_eof() = 0;

  // Reading or writing failed before done(): the error as the protocol's
  // Go client words it (SOCKS puts its "socks connect ..." prefix first).
  virtual Error on_io_error(const Error& e) { return make_error(ErrorCode::proxy, e.message); }
};

}  // namespace tlsc
