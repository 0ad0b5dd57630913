// Opens a connection to one origin: DNS, TCP (dual stack), then TLS for
// https; with a proxyUrl, a tunnel through the proxy (net/proxy) takes the
// place of DNS and TCP, and TLS to the target goes on top of it. The result
// is the top of the filter stack a request's bytes go through, and the
// protocol TLS negotiated. Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/url.h"
#include "net/dns_resolver.h"
#include "net/dual_stack_connector.h"
#include "conn/proxy/proxy_dialer.h"
#include "net/stream.h"
#include "net/tcp_stream.h"
#include "http/client_options.h"
#include "tls/tls_context.h"

namespace tlsc {

struct DialedConnection {
  std::unique_ptr<Stream> stream;
  std::string alpn;  // "" for plain http or when the server chose nothing
};

class ConnectionDialer {
 public:
  // Called once, on the loop thread, unless cancel() came first. The
  // dialer must not be destroyed inside the call; post its destruction.
  using Callback = std::function<void(Result<DialedConnection>)>;

  // tls: the client's TLS state, for an https target (it outlives the dial).
  ConnectionDialer(Reactor& reactor, DnsResolver& resolver, TlsContext* tls, const ClientOptions& options,
                   Url target, Callback done);
  ~ConnectionDialer();

  void start();
  void cancel();

 private:
  void start_proxied();
  void on_resolved(Result<std::vector<SocketAddress>> addresses);
  void on_connected(Result<SocketHandle> fd);
  // TCP to the target, or a tunnel to it: TLS next for https.
  void on_transport(std::unique_ptr<Stream> stream);
  void start_tls(std::unique_ptr<Stream> tcp);
  void finish(Result<DialedConnection> result);

  Reactor& reactor_;
  DnsResolver& resolver_;
  TlsContext* tls_;
  ClientOptions options_;
  Url target_;
  Callback done_;
  std::unique_ptr<DualStackConnector> connector_;
  std::unique_ptr<ProxyDialer> proxy_dialer_;
  std::unique_ptr<Stream> handshaking_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// The pool key of a connection to the URL's origin.
std::string origin_key(const Url& url);

// The pool key of a connection of these options to the URL's origin: the
// origin, plus the proxy and its generation when there is one, so that
// connections never mix proxies and a rotated proxy gets new ones.
std::string pool_key(const Url& url, const ClientOptions& options);

}  // namespace tlsc
