// TCP: a non-blocking connect over a list of addresses, then a Stream.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/stream.h"
#include "platform/socket.h"
#include "reactor/reactor.h"

namespace tlsc {

class TcpStream final : public Stream, public IoHandler {
 public:
  TcpStream(Reactor& reactor, SocketHandle socket);  // takes a connected socket
  ~TcpStream() override;

  void set_observer(StreamObserver* observer) override;
  void write(std::string_view bytes) override;
  size_t unsent_bytes() const override { return out_.size() - out_offset_; }
  void pause_reading(bool paused) override;
  bool usable() const override { return socket_ != kNoSocket && !peer_closed_; }
  void close() override;

  void on_io(uint32_t events) override;

 private:
  void update_interest();
  void flush();
  void fail(const Error& e);
  void fail_later(Error e);
  void close_socket();

  Reactor& reactor_;
  SocketHandle socket_;
  StreamObserver* observer_ = nullptr;
  std::string out_;
  size_t out_offset_ = 0;
  bool peer_closed_ = false;
  bool read_paused_ = false;
  Liveness liveness_;
};

// Connects to the addresses in order until one accepts (Go's dialer does the
// same for one address family; DualStackConnector races two families). The
// callback runs exactly once on the loop thread unless cancel() is called
// first; destroying the connector cancels it. A socket handed to the
// callback belongs to it.
class TcpConnector final : public IoHandler {
 public:
  using Callback = std::function<void(Result<SocketHandle> socket)>;

  TcpConnector(Reactor& reactor, std::vector<SocketAddress> addresses,
               std::optional<SocketAddress> local_address, Callback cb);
  ~TcpConnector();
  void start();
  void cancel();
  void on_io(uint32_t events) override;

 private:
  void try_next();
  void finish(Result<SocketHandle> r);
  // std::bad_alloc out of `step` ends the connect with no_memory_error().
  template <class F>
  void reporting_no_memory(F&& step);

  Reactor& reactor_;
  std::vector<SocketAddress> addresses_;
  std::optional<SocketAddress> local_;
  Callback cb_;
  size_t next_ = 0;
  SocketHandle socket_ = kNoSocket;
  std::string last_error_;
};

}  // namespace tlsc
