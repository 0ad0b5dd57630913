// The one place a connection's steps are chosen:
//
//   direct:        tcp(origin)                      [-> tls(origin, profile)]
//   http proxy:    tcp(proxy) -> CONNECT            [-> tls(origin, profile)]
//   https proxy:   tcp(proxy) -> tls(proxy, plain) -> CONNECT [-> tls(origin)]
//   socks proxy:   tcp(proxy) -> SOCKS5 / SOCKS4(a) [-> tls(origin, profile)]
//
// Failures of the connection to a proxy read as the kind's Go dialer words
// them ("socks connect tcp a->b: dial tcp ...", "socks4 dial: ...").
#pragma once

#include <memory>

#include "conn/connection_chain.h"
#include "conn/dial_plan.h"
#include "net/dns_resolver.h"

namespace tlsc {

std::unique_ptr<ConnectionChain> build_connection_chain(Reactor& reactor, DnsResolver& resolver,
                                                        const DialPlan& plan);

// "host:port" as a proxy sees the target (IPv6 in brackets).
std::string host_port(const std::string& host, uint16_t port);

}  // namespace tlsc
