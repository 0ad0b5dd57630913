#include "net/tcp_connect_step.h"

#include "net/tcp_stream.h"

namespace tlsc {

TcpConnectStep::TcpConnectStep(Reactor& reactor, DnsResolver& resolver, TcpEndpoint endpoint)
    : reactor_(reactor), resolver_(resolver), endpoint_(std::move(endpoint)) {}

void TcpConnectStep::start(Connected, Done done) {
  done_ = std::move(done);
  resolver_.resolve(endpoint_.host, endpoint_.port, endpoint_.families,
                    [this, alive = liveness_.watch()](Result<std::vector<SocketAddress>> addrs) {
                      if (alive) on_resolved(std::move(addrs));
                    });
}

void TcpConnectStep::on_resolved(Result<std::vector<SocketAddress>> addrs) {
  if (!addrs) {
    Error e = addrs.error();
    e.message = "dial tcp: " + e.message;
    done_(std::move(e));
    return;
  }
  connector_ =
      std::make_unique<DualStackConnector>(reactor_, std::move(*addrs), endpoint_.local_address,
                                           [this, alive = liveness_.watch()](Result<SocketHandle> s) {
                                             if (alive) {
                                               on_connected(std::move(s));
                                             } else if (s) {
                                               sock::close(*s);
                                             }
                                           });
  connector_->start();
}

void TcpConnectStep::on_connected(Result<SocketHandle> s) {
  reactor_.destroy_later(std::move(connector_));  // we are inside its callback
  if (!s) {
    done_(s.error());
    return;
  }
  done_(Connected{std::make_unique<TcpStream>(reactor_, *s), ""});
}

}  // namespace tlsc
