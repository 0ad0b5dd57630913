// The first step of a connection: resolve the host, connect over TCP with
// Happy Eyeballs (DualStackConnector), yield a TcpStream. Errors read as
// Go's dialer words them ("dial tcp: lookup x: no such host", "dial tcp
// 127.0.0.1:1: connect: connection refused").
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "net/connect_step.h"
#include "net/dns_resolver.h"
#include "net/dual_stack_connector.h"
#include "reactor/reactor.h"

namespace tlsc {

struct TcpEndpoint {
  std::string host;  // a name or an IP literal
  uint16_t port = 0;
  AddressFamilies families = AddressFamilies::any;
  std::optional<SocketAddress> local_address;
};

class TcpConnectStep final : public ConnectStep {
 public:
  TcpConnectStep(Reactor& reactor, DnsResolver& resolver, TcpEndpoint endpoint);
  void start(Connected below, Done done) override;

 private:
  void on_resolved(Result<std::vector<SocketAddress>> addresses);
  void on_connected(Result<SocketHandle> socket);
  // `done`, taken: called at most once.
  void finish(Result<Connected> r);
  // Runs a callback of ours; std::bad_alloc out of it ends the step with
  // no_memory_error() (if it has not ended yet) instead of leaving the
  // request to its timeout.
  template <class F>
  void reporting_no_memory(F&& step);

  Reactor& reactor_;
  DnsResolver& resolver_;
  TcpEndpoint endpoint_;
  Done done_;
  std::unique_ptr<DualStackConnector> connector_;
  Liveness liveness_;
};

}  // namespace tlsc
