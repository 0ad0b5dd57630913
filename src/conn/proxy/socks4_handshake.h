// SOCKS4 and SOCKS4a CONNECT as github.com/bdandy/go-socks4 (upstream's
// socks4 dialer) speaks it: one request carrying the user id
// "nobody@0.0.0.0", then an 8-byte reply of which only the code counts.
// SOCKS4 carries the target's IPv4 address (resolved by the caller);
// SOCKS4a carries 0.0.0.1 and the host name for the proxy to resolve.
// Errors keep go-socks4's texts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "conn/proxy/proxy_handshake.h"

namespace tlsc {

class Socks4Handshake final : public ProxyHandshake {
 public:
  // SOCKS4: ipv4 holds the target's address (4 bytes, network order).
  static Socks4Handshake socks4(std::string ipv4, uint16_t port);
  // SOCKS4a: the proxy resolves host.
  static Socks4Handshake socks4a(std::string host, uint16_t port);

  Result<std::string> start() override;
  std::optional<Error> feed(std::string_view in, std::string& out) override;
  bool done() const override { return done_; }
  std::string_view leftover() const override { return leftover_; }
  Error on_eof() override;
  Error on_io_error(const Error& e) override;

 private:
  Socks4Handshake(bool socks4a, std::string host, std::string ipv4, uint16_t port);
  std::optional<Error> fail(std::string message);

  bool socks4a_;
  std::string host_;
  std::string ipv4_;
  uint16_t port_;
  std::string reply_;
  bool done_ = false;
  std::string leftover_;
  std::optional<Error> error_;
};

}  // namespace tlsc
