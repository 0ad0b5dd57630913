#include "conn/connection_dialer.h"

#include "tls/tls_stream.h"

namespace tlsc {

std::string origin_key(const Url& url) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on
  // operator+ chains of std::string here.
  std::string key = url.scheme;
  key += "://";
  key += url.host();
  if (url.port.empty()) {
    key += ':';
    key += std::to_string(url.effective_port());
  }
  return key;
}

std::string pool_key(const Url& url, const ClientOptions& options) {
  std::string key = origin_key(url);
  if (options.proxy) {
    key += " via ";
    key += options.proxy->url;
    key += " #";
    key += std::to_string(options.proxy_generation);
  }
  return key;
}

ConnectionDialer::ConnectionDialer(Reactor& reactor, DnsResolver& resolver, TlsContext* tls,
                                   const ClientOptions& options, Url target, Callback done)
    : reactor_(reactor),
      resolver_(resolver),
      tls_(tls),
      options_(options),
      target_(std::move(target)),
      done_(std::move(done)) {}

ConnectionDialer::~ConnectionDialer() { cancel(); }

void ConnectionDialer::cancel() {
  *alive_ = false;
  done_ = nullptr;
  if (connector_) {
    connector_->cancel();
    std::shared_ptr<DualStackConnector> doomed(std::move(connector_));
    reactor_.post([doomed] {});
  }
  if (proxy_dialer_) {
    std::shared_ptr<ProxyDialer> doomed(std::move(proxy_dialer_));
    reactor_.post([doomed] {});
  }
  if (handshaking_) {
    handshaking_->close();
    std::shared_ptr<Stream> doomed(std::move(handshaking_));
    reactor_.post([doomed] {});
  }
}

void ConnectionDialer::start() {
  if (options_.proxy) {
    start_proxied();
    return;
  }
  std::weak_ptr<bool> alive = alive_;
  resolver_.resolve(target_.hostname, target_.effective_port(), options_.families,
                    [this, alive](Result<std::vector<SocketAddress>> addrs) {
                      auto a = alive.lock();
                      if (!a || !*a) return;
                      on_resolved(std::move(addrs));
                    });
}

void ConnectionDialer::start_proxied() {
  // Upstream dials every target through the proxy's tunnel, http:// ones
  // too: its transports have no Proxy function, only the proxy dialer.
  ProxyDialOptions o;
  o.families = options_.families;
  o.local_address = options_.local_address;
  o.connect_headers = options_.connect_headers;
  // The request's network as upstream's roundTripper names it (SOCKS
  // errors print it).
  if (options_.families == AddressFamilies::ipv4_only) o.network = "tcp4";
  if (options_.families == AddressFamilies::ipv6_only && target_.scheme == "https") o.network = "tcp6";
  std::weak_ptr<bool> alive = alive_;
  proxy_dialer_ = std::make_unique<ProxyDialer>(
      reactor_, resolver_, *options_.proxy, target_.hostname, target_.effective_port(), std::move(o),
      [this, alive](Result<std::unique_ptr<Stream>> stream) {
        auto a = alive.lock();
        if (!a || !*a) return;
        // Not destroyed inside its own callback.
        std::shared_ptr<ProxyDialer> doomed(std::move(proxy_dialer_));
        reactor_.post([doomed] {});
        if (!stream) {
          finish(stream.error());
          return;
        }
        on_transport(std::move(*stream));
      });
  proxy_dialer_->start();
}

void ConnectionDialer::on_resolved(Result<std::vector<SocketAddress>> addrs) {
  if (!addrs) {
    finish(addrs.error());
    return;
  }
  std::weak_ptr<bool> alive = alive_;
  connector_ = std::make_unique<DualStackConnector>(reactor_, std::move(*addrs), options_.local_address,
                                              [this, alive](Result<SocketHandle> fd) {
                                                auto a = alive.lock();
                                                if (!a || !*a) {
                                                  if (fd) sock::close(*fd);
                                                  return;
                                                }
                                                on_connected(std::move(fd));
                                              });
  connector_->start();
}

void ConnectionDialer::on_connected(Result<SocketHandle> fd) {
  // Destroyed later: we are inside the connector's own callback.
  if (connector_) {
    std::shared_ptr<DualStackConnector> doomed(std::move(connector_));
    reactor_.post([doomed] {});
  }
  if (!fd) {
    finish(fd.error());
    return;
  }
  on_transport(std::make_unique<TcpStream>(reactor_, *fd));
}

void ConnectionDialer::on_transport(std::unique_ptr<Stream> stream) {
  if (target_.scheme == "http") {
    finish(DialedConnection{std::move(stream), ""});
    return;
  }
  start_tls(std::move(stream));
}

void ConnectionDialer::start_tls(std::unique_ptr<Stream> inner) {
  auto ssl = tls_->new_connection(target_.hostname, target_.effective_port(), options_.proxy_generation);
  if (!ssl) {
    finish(ssl.error());
    return;
  }
  std::string verify_name = options_.server_name_overwrite.empty() ? target_.hostname
                                                                    : options_.server_name_overwrite;
  auto tls = std::make_unique<TlsStream>(reactor_, std::move(inner), std::move(*ssl), tls_,
                                         verify_name);
  TlsStream* raw = tls.get();
  handshaking_ = std::move(tls);
  std::weak_ptr<bool> alive = alive_;
  raw->start_handshake([this, alive, raw](std::optional<Error> error) {
    auto a = alive.lock();
    if (!a || !*a) return;
    std::unique_ptr<Stream> stream = std::move(handshaking_);
    if (error) {
      // Not destroyed inside its own callback.
      std::shared_ptr<Stream> doomed(std::move(stream));
      reactor_.post([doomed] {});
      finish(*error);
      return;
    }
    std::string alpn = raw->alpn();
    finish(DialedConnection{std::move(stream), std::move(alpn)});
  });
}

void ConnectionDialer::finish(Result<DialedConnection> result) {
  auto done = std::move(done_);
  done_ = nullptr;
  *alive_ = false;
  if (done) done(std::move(result));
}

}  // namespace tlsc
