// Drives a ProxyHandshake over a connected Stream to the proxy: writes what
// the handshake says, feeds it what the proxy sends, and hands the same
// Stream back once the tunnel is open, ready to carry the target's bytes
// (a TlsStream to the target goes on top of it). Loop thread only.
#pragma once

#include <functional>
#include <memory>

#include "conn/proxy/proxy_handshake.h"
#include "net/stream.h"
#include "reactor/reactor.h"

namespace tlsc {

class ProxyTunnel final : public StreamObserver {
 public:
  using Done = std::function<void(Result<std::unique_ptr<Stream>>)>;

  // `done` runs once, later or from inside start(), unless the tunnel is
  // destroyed first (that closes the stream and drops the callback).
  ProxyTunnel(Reactor& reactor, std::unique_ptr<Stream> to_proxy,
              std::unique_ptr<ProxyHandshake> handshake, Done done);
  ~ProxyTunnel();
  ProxyTunnel(const ProxyTunnel&) = delete;
  ProxyTunnel& operator=(const ProxyTunnel&) = delete;

  void start();

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;

 private:
  void fail(Error e);
  void finish(Result<std::unique_ptr<Stream>> r);

  Reactor& reactor_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<ProxyHandshake> handshake_;
  Done done_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace tlsc
