#include "conn/proxy/proxy_tunnel.h"

namespace tlsc {

ProxyTunnel::ProxyTunnel(Reactor& reactor, std::unique_ptr<Stream> to_proxy,
                         std::unique_ptr<ProxyHandshake> handshake, Done done)
    : reactor_(reactor), stream_(std::move(to_proxy)), handshake_(std::move(handshake)),
      done_(std::move(done)) {}

ProxyTunnel::~ProxyTunnel() {
  *alive_ = false;
  if (stream_) {
    stream_->set_observer(nullptr);
    stream_->close();
    // The stream may be in the middle of calling us: let it unwind first.
    std::shared_ptr<Stream> doomed(std::move(stream_));
    reactor_.post([doomed] {});
  }
}

void ProxyTunnel::start() {
  auto first = handshake_->start();
  if (!first) {
    fail(first.error());
    return;
  }
  stream_->set_observer(this);
  stream_->write(*first);
}

void ProxyTunnel::finish(Result<std::unique_ptr<Stream>> r) {
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

void ProxyTunnel::fail(Error e) {
  if (stream_) {
    stream_->set_observer(nullptr);
    stream_->close();
    std::shared_ptr<Stream> doomed(std::move(stream_));
    reactor_.post([doomed] {});
  }
  finish(std::move(e));
}

void ProxyTunnel::on_stream_data(std::string_view data) {
  if (!done_) return;
  std::string out;
  if (auto e = handshake_->feed(data, out)) {
    fail(*e);
    return;
  }
  if (!out.empty()) stream_->write(out);
  if (!handshake_->done()) return;
  if (!handshake_->leftover().empty()) {
    // Neither a TLS server nor an HTTP server speaks first, so these bytes
    // can only come from a proxy that broke the protocol.
    fail(make_error(ErrorCode::proxy, "proxy sent " + std::to_string(handshake_->leftover().size()) +
                                          " unexpected bytes after opening the tunnel"));
    return;
  }
  stream_->set_observer(nullptr);
  finish(std::move(stream_));
}

void ProxyTunnel::on_stream_closed(const Error* error) {
  if (!done_) return;
  // The stream is finished; it is closed and released with the tunnel.
  fail(error ? handshake_->on_io_error(*error) : handshake_->on_eof());
}

}  // namespace tlsc
