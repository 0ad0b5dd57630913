// The connect contract every connection filter follows. A connection is
// built as a chain of steps (conn/connection_chain.h), each on top of what
// the step before it yielded: TCP (net/tcp_connect_step.h), TLS
// (tls/tls_connect_step.h), a proxy tunnel (conn/proxy/proxy_tunnel.h),
// and later QUIC, as another first step.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/error.h"
#include "net/stream.h"

namespace tlsc {

// What connecting has built so far: the top stream of the chain, and the
// protocol its TLS negotiated there (ALPN; empty when none, or when no TLS
// ends the chain).
struct Connected {
  std::unique_ptr<Stream> stream;
  std::string alpn;
};

class ConnectStep {
 public:
  using Done = std::function<void(Result<Connected>)>;

  virtual ~ConnectStep() = default;
  // Builds on `below` (no stream for the first step) and calls `done`
  // exactly once, on the loop thread and never from inside start(), unless
  // the step is destroyed first: that stops whatever is under way and
  // closes what it opened. The step is not destroyed inside its own `done`
  // (use Reactor::destroy_later). Loop thread only.
  virtual void start(Connected below, Done done) = 0;
};

}  // namespace tlsc
