// A connected UDP socket on the reactor: whole datagrams out and in, for
// QUIC. Reading is bounded per turn of the loop (the poller is
// level-triggered, so what is left is reported again), and a datagram the
// kernel cannot take now is kept (one at most) until the socket is
// writable; the observer hears of it then, to go on writing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"
#include "platform/socket_address.h"
#include "reactor/reactor.h"

namespace tlsc {

class UdpSocketObserver {
 public:
  virtual void on_datagram(const uint8_t* data, size_t size) = 0;
  // After a turn's datagrams: the place to write what they called for.
  virtual void on_datagrams_done() = 0;
  // A kept datagram went out: room to send more.
  virtual void on_writable() = 0;
  // The socket failed (an ICMP error, for one); it is closed.
  virtual void on_socket_error(Error error) = 0;

 protected:
  ~UdpSocketObserver() = default;
};

class UdpSocket final : public IoHandler {
 public:
  // Opens a socket of the peer's family, connected to it, and watches it.
  static Result<std::unique_ptr<UdpSocket>> connect(Reactor& reactor, const SocketAddress& peer,
                                                    UdpSocketObserver* observer);
  ~UdpSocket();
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  enum class Sent { sent, kept, failed };
  // kept: the kernel had no room; the datagram waits here and goes out when
  // the socket is writable (on_writable follows). Call only while nothing
  // is kept (has_kept() false). failed: *error says why.
  Sent send(const uint8_t* data, size_t size, Error* error);
  bool has_kept() const { return !kept_.empty(); }

  // Stops watching and closes the socket now (the object may be destroyed
  // later: Reactor::destroy_later); reads and sends after it do nothing.
  void close() { close_socket(); }

  const SocketAddress& peer() const { return peer_; }
  const SocketAddress& local() const { return local_; }

  void on_io(uint32_t events) override;

  // The largest datagram read; more is cut off (QUIC's own limit is lower).
  static constexpr size_t kMaxDatagram = 65527;
  // Datagrams read per readiness report before the loop turns.
  static constexpr int kReadsPerTurn = 64;

 private:
  UdpSocket(Reactor& reactor, SocketHandle socket, const SocketAddress& peer, const SocketAddress& local,
            UdpSocketObserver* observer);
  void fail(int os_error, const char* call);
  void close_socket();

  Reactor& reactor_;
  SocketHandle socket_;
  SocketAddress peer_, local_;
  UdpSocketObserver* observer_;
  std::string kept_;
  std::unique_ptr<char[]> buffer_;
  Liveness liveness_;
};

}  // namespace tlsc
