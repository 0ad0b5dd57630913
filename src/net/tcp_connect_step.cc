#include "net/tcp_connect_step.h"

#include <new>

#include "net/tcp_stream.h"

namespace tlsc {

TcpConnectStep::TcpConnectStep(Reactor& reactor, DnsResolver& resolver, TcpEndpoint endpoint)
    : reactor_(reactor), resolver_(resolver), endpoint_(std::move(endpoint)) {}

void TcpConnectStep::start(Connected, Done done) {
  done_ = std::move(done);
  resolver_.resolve(endpoint_.host, endpoint_.port, endpoint_.families,
                    [this, alive = liveness_.watch()](Result<std::vector<SocketAddress>> addrs) {
                      if (alive) reporting_no_memory([&] { on_resolved(std::move(addrs)); });
                    });
}

void TcpConnectStep::finish(Result<Connected> r) {
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

template <class F>
void TcpConnectStep::reporting_no_memory(F&& step) {
  try {
    step();
  } catch (const std::bad_alloc&) {
    // Ours to report only while `done` is still ours: past it, the
    // allocation failed in a later step, which reports it.
    finish(no_memory_error());
  }
}

void TcpConnectStep::on_resolved(Result<std::vector<SocketAddress>> addrs) {
  if (!addrs) {
    Error e = addrs.error();
    e.message = "dial tcp: " + e.message;
    finish(std::move(e));
    return;
  }
  connector_ =
      std::make_unique<DualStackConnector>(reactor_, std::move(*addrs), endpoint_.local_address,
                                           [this, alive = liveness_.watch()](Result<SocketHandle> s) {
                                             if (alive) {
                                               reporting_no_memory([&] { on_connected(std::move(s)); });
                                             } else if (s) {
                                               sock::close(*s);
                                             }
                                           });
  connector_->start();
}

void TcpConnectStep::on_connected(Result<SocketHandle> s) {
  reactor_.destroy_later(std::move(connector_));  // we are inside its callback
  if (!s) {
    finish(s.error());
    return;
  }
  std::unique_ptr<TcpStream> stream;
  try {
    stream = std::make_unique<TcpStream>(reactor_, *s);
  } catch (const std::bad_alloc&) {
    sock::close(*s);
    throw;
  }
  finish(Connected{std::move(stream), ""});
}

}  // namespace tlsc
