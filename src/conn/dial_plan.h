// Everything needed to connect to one origin, as plain data: the target,
// how to reach the network (families, local address), the proxy, and the
// TLS the origin gets. The HTTP layer fills it from the client's options
// (http/client.cc); build_connection_chain turns it into steps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "conn/proxy/proxy_url.h"
#include "core/headers.h"
#include "net/dns_resolver.h"
#include "platform/socket_address.h"

namespace tlsc {

class TlsContext;

struct DialPlan {
  std::string host;  // the origin's name or IP literal (no brackets)
  uint16_t port = 0;
  // TLS to the origin with the session's context (its ClientHello spec,
  // tickets and pins); nullptr: plain TCP (http://).
  TlsContext* tls = nullptr;
  std::string verify_name;    // SNI and certificate name (serverNameOverwrite or host)
  uint64_t ticket_scope = 0;  // TLS tickets are kept per scope (the proxy's generation)
  AddressFamilies families = AddressFamilies::any;
  std::optional<SocketAddress> local_address;
  // Every connection goes through the proxy's tunnel, http:// targets too,
  // as upstream's proxy dialer does.
  std::optional<ProxyEndpoint> proxy;
  MultiHeaderMap connect_headers;  // sent with CONNECT
  // Go's network name in SOCKS errors: "tcp", "tcp4" (disableIPV6) or "tcp6".
  std::string network = "tcp";
};

}  // namespace tlsc
