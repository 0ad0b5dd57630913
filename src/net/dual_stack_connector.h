// TCP connect over a resolved address list the way Go's net.Dialer does it
// by default (dialParallel, RFC 6555 "Happy Eyeballs"): the addresses of
// the first address's family are tried in order; if that has not succeeded
// after the fallback delay (Go: 300 ms) or has failed, the other family's
// addresses are tried alongside. The first connected socket wins and the
// other attempt is cancelled. With a single family this is TcpConnector.
// Loop thread only.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "net/tcp_stream.h"

namespace tlsc {

class DualStackConnector {
 public:
  using Callback = TcpConnector::Callback;
  static constexpr std::chrono::milliseconds kFallbackDelay{300};  // Go's default

  // The callback runs exactly once, on the loop thread, unless cancel() or
  // destruction comes first. When both families fail the primary family's
  // error is reported, as Go does.
  DualStackConnector(Reactor& reactor, std::vector<SocketAddress> addresses,
                     std::optional<SocketAddress> local_address, Callback cb,
                     std::chrono::milliseconds fallback_delay = kFallbackDelay);
  ~DualStackConnector();
  DualStackConnector(const DualStackConnector&) = delete;
  DualStackConnector& operator=(const DualStackConnector&) = delete;

  void start();
  void cancel();

 private:
  void start_fallback();
  void on_result(bool primary, Result<SocketHandle> socket);
  // std::bad_alloc out of `step` ends the connect with no_memory_error().
  template <class F>
  void reporting_no_memory(F&& step);
  void finish(Result<SocketHandle> r);
  // A connector is not destroyed inside its own callback.
  void retire(std::unique_ptr<TcpConnector>& c);

  Reactor& reactor_;
  std::vector<SocketAddress> primaries_;
  std::vector<SocketAddress> fallbacks_;
  std::optional<SocketAddress> local_;
  Callback cb_;
  std::chrono::milliseconds fallback_delay_;
  std::unique_ptr<TcpConnector> primary_;
  std::unique_ptr<TcpConnector> fallback_;
  Reactor::TimerId timer_ = 0;
  bool primary_failed_ = false;
  bool fallback_failed_ = false;
  bool fallback_started_ = false;
  std::optional<Error> primary_error_;
  Liveness liveness_;
};

}  // namespace tlsc
