#include "conn/proxy/proxy_tunnel.h"

#include "conn/proxy/socks4_handshake.h"

namespace tlsc {

ProxyTunnel::ProxyTunnel(Reactor& reactor, std::unique_ptr<ProxyHandshake> handshake)
    : reactor_(reactor), handshake_(std::move(handshake)) {}

std::unique_ptr<ProxyTunnel> ProxyTunnel::socks4(Reactor& reactor, DnsResolver& resolver,
                                                 std::string target_host, uint16_t target_port) {
  auto t = std::make_unique<ProxyTunnel>(reactor, nullptr);
  t->socks4_target_ = Socks4Target{&resolver, std::move(target_host), target_port};
  return t;
}

ProxyTunnel::~ProxyTunnel() {
  if (stream_) {
    stream_->set_observer(nullptr);
    stream_->close();
    // The stream may be in the middle of calling us: let it unwind first.
    reactor_.destroy_later(std::move(stream_));
  }
}

void ProxyTunnel::start(Connected below, Done done) {
  stream_ = std::move(below.stream);
  done_ = std::move(done);
  if (!socks4_target_) {
    run_handshake();
    return;
  }
  // The stream to the proxy waits, unobserved, while the target resolves:
  // anything the proxy sends meanwhile marks it unusable.
  const Socks4Target& t = *socks4_target_;
  t.resolver->resolve(
      t.host, t.port, AddressFamilies::ipv4_only,
      [this, alive = liveness_.watch()](Result<std::vector<SocketAddress>> addrs) {
        if (!alive) return;
        const Socks4Target& target = *socks4_target_;
        if (!addrs || addrs->empty() || !addrs->front().is_v4()) {
          std::string why = addrs ? "no suitable address found" : addrs.error().message;
          fail(make_error(ErrorCode::proxy, "unable to find IP address of host " + target.host + ": " + why));
          return;
        }
        std::string ip(reinterpret_cast<const char*>(addrs->front().ip.data()), 4);
        handshake_ = std::make_unique<Socks4Handshake>(Socks4Handshake::socks4(std::move(ip), target.port));
        run_handshake();
      });
}

void ProxyTunnel::run_handshake() {
  auto first = handshake_->start();
  if (!first) {
    fail_later(first.error());
    return;
  }
  stream_->set_observer(this);
  stream_->write(*first);
}

void ProxyTunnel::fail(Error e) {
  if (stream_) {
    stream_->set_observer(nullptr);
    stream_->close();
    reactor_.destroy_later(std::move(stream_));
  }
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(e));
}

void ProxyTunnel::fail_later(Error e) {
  reactor_.post([this, alive = liveness_.watch(), e = std::move(e)]() mutable {
    if (alive) fail(std::move(e));
  });
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
  auto done = std::move(done_);
  done_ = nullptr;
  done(Connected{std::move(stream_), ""});
}

void ProxyTunnel::on_stream_closed(const Error* error) {
  if (!done_) return;
  // The stream is finished; it is closed and released with the tunnel.
  fail(error ? handshake_->on_io_error(*error) : handshake_->on_eof());
}

}  // namespace tlsc
