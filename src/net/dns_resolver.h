// Name resolution inside the event loop with c-ares: /etc/hosts first, then
// DNS, never a blocking getaddrinfo. Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "platform/socket_address.h"
#include "reactor/reactor.h"

namespace tlsc {

enum class AddressFamilies { any, ipv4_only, ipv6_only };

class DnsResolver {
 public:
  using Callback = std::function<void(Result<std::vector<SocketAddress>>)>;

  explicit DnsResolver(Reactor& reactor);
  ~DnsResolver();
  DnsResolver(const DnsResolver&) = delete;
  DnsResolver& operator=(const DnsResolver&) = delete;

  // The callback always runs, later on the loop thread, exactly once (also
  // with an error when the resolver is destroyed first). IP literals skip DNS.
  // Errors are Go's resolver words without the dialer's "dial tcp: "
  // ("lookup example.test: no such host"); whoever dials adds that.
  void resolve(const std::string& host, uint16_t port, AddressFamilies families, Callback cb);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The version of the c-ares linked in, for the build information destroySession answers with.
std::string cares_library_version();

}  // namespace tlsc
