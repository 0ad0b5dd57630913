// Opens a tunnel to host:port through a proxy: resolve the proxy, connect
// (dual stack), TLS to an https:// proxy, then the proxy's handshake
// (CONNECT, SOCKS5, SOCKS4/4a). The result is a Stream that carries the
// target's bytes; TLS to the target goes on top of it, exactly as on a
// direct connection. This is upstream's proxy dialer (connect.go): every
// target, http:// ones included, is reached through a tunnel. Loop thread
// only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "net/dns_resolver.h"
#include "net/dual_stack_connector.h"
#include "conn/proxy/proxy_tunnel.h"
#include "conn/proxy/proxy_url.h"
#include "net/stream.h"

namespace tlsc {

struct ProxyDialOptions {
  // Families for the proxy's own address (http and https proxies, as
  // upstream passes the request's network to their dialer) and for a
  // SOCKS4 target.
  AddressFamilies families = AddressFamilies::any;
  std::optional<SocketAddress> local_address;
  // connectHeaders: sent with CONNECT.
  std::vector<std::pair<std::string, std::vector<std::string>>> connect_headers;
  // Go's network name in SOCKS errors: "tcp", "tcp4" (disableIPV6) or "tcp6".
  std::string network = "tcp";
};

class ProxyDialer {
 public:
  using Done = std::function<void(Result<std::unique_ptr<Stream>>)>;

  // `done` runs exactly once, later, unless the dialer is destroyed first
  // (which stops whatever step is under way and closes its sockets).
  ProxyDialer(Reactor& reactor, DnsResolver& resolver, ProxyEndpoint proxy, std::string target_host,
              uint16_t target_port, ProxyDialOptions options, Done done);
  ~ProxyDialer();
  ProxyDialer(const ProxyDialer&) = delete;
  ProxyDialer& operator=(const ProxyDialer&) = delete;

  void start();

  // "host:port" of the target as the proxy sees it (IPv6 in brackets).
  static std::string authority(const std::string& host, uint16_t port);

 private:
  void on_proxy_resolved(Result<std::vector<SocketAddress>> addrs);
  void on_connected(Result<SocketHandle> fd);
  void on_proxy_stream(std::unique_ptr<Stream> stream);
  void start_tunnel(std::unique_ptr<Stream> stream, std::unique_ptr<ProxyHandshake> handshake);
  // A failure of the connection to the proxy, worded as the kind's Go
  // dialer words it.
  void fail_dial(const Error& e);
  void finish(Result<std::unique_ptr<Stream>> r);
  std::string socks5_prefix() const;

  Reactor& reactor_;
  DnsResolver& resolver_;
  ProxyEndpoint proxy_;
  std::string target_host_;
  uint16_t target_port_;
  ProxyDialOptions options_;
  Done done_;
  std::unique_ptr<DualStackConnector> connector_;
  std::unique_ptr<Stream> handshaking_;  // TLS to the proxy, until it is up
  std::unique_ptr<ProxyTunnel> tunnel_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace tlsc
