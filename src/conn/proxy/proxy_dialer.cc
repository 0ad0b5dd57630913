#include "conn/proxy/proxy_dialer.h"


#include "conn/proxy/http_connect.h"
#include "conn/proxy/proxy_tls.h"
#include "conn/proxy/socks4_handshake.h"
#include "conn/proxy/socks5_handshake.h"
#include "net/tcp_stream.h"
#include "tls/tls_stream.h"

namespace tlsc {
namespace {

// Stream objects are not destroyed inside their own callbacks.
template <class T>
void destroy_later(Reactor& reactor, std::unique_ptr<T>& p) {
  if (!p) return;
  std::shared_ptr<T> doomed(std::move(p));
  reactor.post([doomed] {});
}

}  // namespace

std::string ProxyDialer::authority(const std::string& host, uint16_t port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

ProxyDialer::ProxyDialer(Reactor& reactor, DnsResolver& resolver, ProxyEndpoint proxy,
                         std::string target_host, uint16_t target_port, ProxyDialOptions options,
                         Done done)
    : reactor_(reactor), resolver_(resolver), proxy_(std::move(proxy)),
      target_host_(std::move(target_host)), target_port_(target_port), options_(std::move(options)),
      done_(std::move(done)) {}

ProxyDialer::~ProxyDialer() {
  *alive_ = false;
  done_ = nullptr;
  if (connector_) connector_->cancel();
  destroy_later(reactor_, connector_);
  if (handshaking_) handshaking_->close();
  destroy_later(reactor_, handshaking_);
  destroy_later(reactor_, tunnel_);
}

std::string ProxyDialer::socks5_prefix() const {
  // net.OpError of x/net/internal/socks: Source is the proxy, Addr the
  // target; both are left out when the proxy address has no port.
  std::string p = "socks connect " + options_.network;
  if (proxy_.port != 0) p += " " + proxy_.host_port + "->" + authority(target_host_, target_port_);
  return p + ": ";
}

void ProxyDialer::finish(Result<std::unique_ptr<Stream>> r) {
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

void ProxyDialer::fail_dial(const Error& e) {
  Error wrapped = e;
  switch (proxy_.kind) {
    case ProxyKind::http:
    case ProxyKind::https:
      break;
    case ProxyKind::socks5:
      wrapped.message = socks5_prefix() + e.message;
      break;
    case ProxyKind::socks4:
    case ProxyKind::socks4a:
      wrapped.message = "socks4 dial: " + e.message;
      break;
  }
  finish(std::move(wrapped));
}

void ProxyDialer::start() {
  auto alive = alive_;
  if (proxy_.port == 0) {
    // Go's net.Dialer on a host without a (valid) port.
    std::string what = proxy_.host_port.find(':') == std::string::npos ||
                               proxy_.host_port.ends_with(":")
                           ? "missing port in address"
                           : "invalid port";
    reactor_.post([this, alive, what] {
      if (*alive) {
        fail_dial(make_error(ErrorCode::invalid_input, "dial tcp: address " + proxy_.host_port + ": " + what));
      }
    });
    return;
  }
  // SOCKS dialers resolve the proxy with plain "tcp" (upstream passes the
  // request's network only to its CONNECT dialer).
  bool socks = proxy_.kind != ProxyKind::http && proxy_.kind != ProxyKind::https;
  resolver_.resolve(proxy_.hostname, proxy_.port, socks ? AddressFamilies::any : options_.families,
                    [this, alive](Result<std::vector<SocketAddress>> addrs) {
                      if (*alive) on_proxy_resolved(std::move(addrs));
                    });
}

void ProxyDialer::on_proxy_resolved(Result<std::vector<SocketAddress>> addrs) {
  if (!done_) return;
  if (!addrs) {
    fail_dial(addrs.error());
    return;
  }
  auto alive = alive_;
  connector_ = std::make_unique<DualStackConnector>(
      reactor_, std::move(*addrs), options_.local_address, [this, alive](Result<SocketHandle> fd) {
        if (*alive) {
          on_connected(std::move(fd));
        } else if (fd) {
          sock::close(*fd);
        }
      });
  connector_->start();
}

void ProxyDialer::on_connected(Result<SocketHandle> fd) {
  destroy_later(reactor_, connector_);
  if (!done_) {
    if (fd) sock::close(*fd);
    return;
  }
  if (!fd) {
    fail_dial(fd.error());
    return;
  }
  auto tcp = std::make_unique<TcpStream>(reactor_, *fd);
  if (proxy_.kind != ProxyKind::https) {
    on_proxy_stream(std::move(tcp));
    return;
  }
  auto ssl = new_proxy_tls_connection(proxy_.hostname);
  if (!ssl) {
    finish(ssl.error());
    return;
  }
  auto tls = std::make_unique<TlsStream>(reactor_, std::move(tcp), std::move(*ssl), nullptr,
                                         proxy_.hostname);
  TlsStream* raw = tls.get();
  handshaking_ = std::move(tls);
  auto alive = alive_;
  raw->start_handshake([this, alive](std::optional<Error> error) {
    if (!*alive || !done_) return;
    std::unique_ptr<Stream> stream = std::move(handshaking_);
    if (error) {
      destroy_later(reactor_, stream);
      finish(*error);
      return;
    }
    on_proxy_stream(std::move(stream));
  });
}

void ProxyDialer::on_proxy_stream(std::unique_ptr<Stream> stream) {
  switch (proxy_.kind) {
    case ProxyKind::http:
    case ProxyKind::https: {
      ConnectRequest req;
      req.authority = authority(target_host_, target_port_);
      req.headers = options_.connect_headers;
      req.credentials = proxy_.credentials;
      start_tunnel(std::move(stream), std::make_unique<HttpConnectHandshake>(std::move(req)));
      return;
    }
    case ProxyKind::socks5:
      start_tunnel(std::move(stream), std::make_unique<Socks5Handshake>(
                                          target_host_, target_port_, proxy_.credentials, socks5_prefix()));
      return;
    case ProxyKind::socks4a:
      start_tunnel(std::move(stream), std::make_unique<Socks4Handshake>(
                                          Socks4Handshake::socks4a(target_host_, target_port_)));
      return;
    case ProxyKind::socks4:
      break;
  }
  // SOCKS4 carries an IPv4 address: go-socks4 resolves the target (ip4)
  // after it has connected to the proxy. The idle stream waits here.
  handshaking_ = std::move(stream);
  auto alive = alive_;
  resolver_.resolve(target_host_, target_port_, AddressFamilies::ipv4_only,
                    [this, alive](Result<std::vector<SocketAddress>> addrs) {
                      if (!*alive || !done_) return;
                      std::unique_ptr<Stream> s = std::move(handshaking_);
                      if (!addrs || addrs->empty() || !addrs->front().is_v4()) {
                        std::string why = addrs ? "no suitable address found" : addrs.error().message;
                        if (why.starts_with("dial tcp: ")) why.erase(0, 10);
                        destroy_later(reactor_, s);
                        finish(make_error(ErrorCode::proxy,
                                          "unable to find IP address of host " + target_host_ + ": " + why));
                        return;
                      }
                      std::string ip(reinterpret_cast<const char*>(addrs->front().ip.data()), 4);
                      start_tunnel(std::move(s), std::make_unique<Socks4Handshake>(
                                                     Socks4Handshake::socks4(std::move(ip), target_port_)));
                    });
}

void ProxyDialer::start_tunnel(std::unique_ptr<Stream> stream, std::unique_ptr<ProxyHandshake> handshake) {
  auto alive = alive_;
  tunnel_ = std::make_unique<ProxyTunnel>(reactor_, std::move(stream), std::move(handshake),
                                          [this, alive](Result<std::unique_ptr<Stream>> r) {
                                            if (!*alive) return;
                                            destroy_later(reactor_, tunnel_);
                                            finish(std::move(r));
                                          });
  tunnel_->start();
}

}  // namespace tlsc
