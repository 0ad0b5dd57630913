// Opens a connection to one origin: DNS, TCP, then TLS for https. The
// result is the top of the filter stack a request's bytes go through, and
// the protocol TLS negotiated. (Proxies are one more step of this stack.)
// Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/url.h"
#include "net/dns_resolver.h"
#include "net/stream.h"
#include "net/tcp_stream.h"
#include "session/session.h"

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

  ConnectionDialer(Reactor& reactor, DnsResolver& resolver, std::shared_ptr<Session> session,
                   const ClientOptions& options, Url target, Callback done);
  ~ConnectionDialer();

  void start();
  void cancel();

 private:
  void on_resolved(Result<std::vector<SocketAddress>> addresses);
  void on_connected(Result<int> fd);
  void start_tls(std::unique_ptr<Stream> tcp);
  void finish(Result<DialedConnection> result);

  Reactor& reactor_;
  DnsResolver& resolver_;
  std::shared_ptr<Session> session_;
  ClientOptions options_;
  Url target_;
  Callback done_;
  std::unique_ptr<TcpConnector> connector_;
  std::unique_ptr<Stream> handshaking_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// The pool key of a connection to the URL's origin.
std::string origin_key(const Url& url);

}  // namespace tlsc
