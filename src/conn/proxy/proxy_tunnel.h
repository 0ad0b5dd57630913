// A proxy tunnel as a connect step: drives a ProxyHandshake over the
// stream below (the connection to the proxy) and yields the same stream
// once the tunnel is open, ready to carry the target's bytes (TLS to the
// target goes on top of it). SOCKS4 carries an IPv4 address, so its step
// first resolves the target (after the proxy connection is up, as
// go-socks4 does). Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "conn/proxy/proxy_handshake.h"
#include "net/connect_step.h"
#include "net/dns_resolver.h"
#include "reactor/reactor.h"

namespace tlsc {

class ProxyTunnel final : public ConnectStep, public StreamObserver {
 public:
  ProxyTunnel(Reactor& reactor, std::unique_ptr<ProxyHandshake> handshake);
  // SOCKS4: the target is resolved (IPv4) when the step starts.
  static std::unique_ptr<ProxyTunnel> socks4(Reactor& reactor, DnsResolver& resolver, std::string target_host,
                                             uint16_t target_port);
  ~ProxyTunnel() override;
  ProxyTunnel(const ProxyTunnel&) = delete;
  ProxyTunnel& operator=(const ProxyTunnel&) = delete;

  void start(Connected below, Done done) override;

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;

 private:
  struct Socks4Target {
    DnsResolver* resolver;
    std::string host;
    uint16_t port;
  };
  void run_handshake();
  void fail(Error e);
  void fail_later(Error e);

  Reactor& reactor_;
  std::unique_ptr<ProxyHandshake> handshake_;
  std::optional<Socks4Target> socks4_target_;
  std::unique_ptr<Stream> stream_;
  Done done_;
  Liveness liveness_;
};

}  // namespace tlsc
