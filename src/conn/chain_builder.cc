#include "conn/chain_builder.h"

#include "conn/proxy/http_connect.h"
#include "conn/proxy/proxy_tls.h"
#include "conn/proxy/proxy_tunnel.h"
#include "conn/proxy/socks4_handshake.h"
#include "conn/proxy/socks5_handshake.h"
#include "net/tcp_connect_step.h"
#include "tls/tls_connect_step.h"
#include "tls/tls_context.h"

namespace tlsc {
namespace {

bool is_socks(ProxyKind k) { return k != ProxyKind::http && k != ProxyKind::https; }

// net.OpError of x/net/internal/socks: Source is the proxy, Addr the
// target; both are left out when the proxy address has no port.
std::string socks5_prefix(const DialPlan& plan) {
  const ProxyEndpoint& p = *plan.proxy;
  std::string prefix = "socks connect " + plan.network;
  if (p.port != 0) prefix += " " + p.host_port + "->" + host_port(plan.host, plan.port);
  return prefix + ": ";
}

// How each kind's Go dialer words a failure to reach the proxy.
ConnectionChain::WrapError proxy_dial_wrap(const DialPlan& plan) {
  switch (plan.proxy->kind) {
    case ProxyKind::http:
    case ProxyKind::https:
      return nullptr;
    case ProxyKind::socks5:
      return [prefix = socks5_prefix(plan)](Error e) {
        e.message = prefix + e.message;
        return e;
      };
    case ProxyKind::socks4:
    case ProxyKind::socks4a:
      return [](Error e) {
        e.message = "socks4 dial: " + e.message;
        return e;
      };
  }
  return nullptr;
}

std::unique_ptr<ConnectStep> proxy_tcp_step(Reactor& reactor, DnsResolver& resolver, const DialPlan& plan) {
  const ProxyEndpoint& p = *plan.proxy;
  if (p.port == 0) {
    // Go's net.Dialer on a host without a (valid) port.
    bool missing = p.host_port.find(':') == std::string::npos || p.host_port.ends_with(":");
    return std::make_unique<FailedStep>(
        reactor,
        make_error(ErrorCode::invalid_input, "dial tcp: address " + p.host_port + ": " +
                                                 (missing ? "missing port in address" : "invalid port")));
  }
  // SOCKS dialers resolve the proxy with plain "tcp" (upstream passes the
  // request's network only to its CONNECT dialer).
  TcpEndpoint to_proxy{p.hostname, p.port, is_socks(p.kind) ? AddressFamilies::any : plan.families,
                       plan.local_address};
  return std::make_unique<TcpConnectStep>(reactor, resolver, std::move(to_proxy));
}

std::unique_ptr<ConnectStep> tunnel_step(Reactor& reactor, DnsResolver& resolver, const DialPlan& plan) {
  const ProxyEndpoint& p = *plan.proxy;
  switch (p.kind) {
    case ProxyKind::http:
    case ProxyKind::https: {
      ConnectRequest req;
      req.authority = host_port(plan.host, plan.port);
      req.headers = plan.connect_headers;
      req.credentials = p.credentials;
      return std::make_unique<ProxyTunnel>(reactor, std::make_unique<HttpConnectHandshake>(std::move(req)));
    }
    case ProxyKind::socks5:
      return std::make_unique<ProxyTunnel>(
          reactor,
          std::make_unique<Socks5Handshake>(plan.host, plan.port, p.credentials, socks5_prefix(plan)));
    case ProxyKind::socks4a:
      return std::make_unique<ProxyTunnel>(
          reactor, std::make_unique<Socks4Handshake>(Socks4Handshake::socks4a(plan.host, plan.port)));
    case ProxyKind::socks4:
      return ProxyTunnel::socks4(reactor, resolver, plan.host, plan.port);
  }
  return nullptr;
}

}  // namespace

std::string host_port(const std::string& host, uint16_t port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

std::unique_ptr<ConnectionChain> build_connection_chain(Reactor& reactor, DnsResolver& resolver,
                                                        const DialPlan& plan) {
  auto chain = std::make_unique<ConnectionChain>(reactor);
  if (plan.proxy) {
    chain->add(proxy_tcp_step(reactor, resolver, plan), proxy_dial_wrap(plan));
    if (plan.proxy->kind == ProxyKind::https) {
      // Upstream reaches an HTTPS proxy with Go's plain crypto/tls.
      std::string name = plan.proxy->hostname;
      chain->add(std::make_unique<TlsConnectStep>(
          reactor, [name] { return new_proxy_tls_connection(name); }, nullptr, name));
    }
    chain->add(tunnel_step(reactor, resolver, plan));
  } else {
    chain->add(std::make_unique<TcpConnectStep>(
        reactor, resolver, TcpEndpoint{plan.host, plan.port, plan.families, plan.local_address}));
  }
  if (plan.tls != nullptr) {
    TlsContext* tls = plan.tls;
    chain->add(std::make_unique<TlsConnectStep>(
        reactor,
        [tls, host = plan.host, port = plan.port, scope = plan.ticket_scope] {
          return tls->new_connection(host, port, scope);
        },
        tls, plan.verify_name));
  }
  return chain;
}

}  // namespace tlsc
