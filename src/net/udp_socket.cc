#include "net/udp_socket.h"

#include "platform/udp.h"

namespace tlsc {

Result<std::unique_ptr<UdpSocket>> UdpSocket::connect(Reactor& reactor, const SocketAddress& peer,
                                                      UdpSocketObserver* observer) {
  int error = 0;
  const SocketHandle s = sock::open_udp(peer.family, error);
  if (s == kNoSocket) return make_error(ErrorCode::connect, "dial udp: socket: " + sock::error_text(error));
  if (sock::connect(s, peer, error) == sock::ConnectStart::failed) {
    sock::close(s);
    return make_error(ErrorCode::connect, "dial udp " + peer.to_string() + ": " + sock::connect_call_name() +
                                              ": " + sock::error_text(error));
  }
  const auto local = sock::local_address(s);
  if (!local) {
    sock::close(s);
    return make_error(ErrorCode::connect, "dial udp " + peer.to_string() + ": no local address");
  }
  std::unique_ptr<UdpSocket> u(new UdpSocket(reactor, s, peer, *local, observer));
  reactor.watch(s, kIoReadable, u.get());
  return u;
}

UdpSocket::UdpSocket(Reactor& reactor, SocketHandle socket, const SocketAddress& peer,
                     const SocketAddress& local, UdpSocketObserver* observer)
    : reactor_(reactor),
      socket_(socket),
      peer_(peer),
      local_(local),
      observer_(observer),
      buffer_(new char[kMaxDatagram]) {}

UdpSocket::~UdpSocket() { close_socket(); }

void UdpSocket::close_socket() {
  if (socket_ == kNoSocket) return;
  reactor_.unwatch(socket_);
  sock::close(socket_);
  socket_ = kNoSocket;
}

UdpSocket::Sent UdpSocket::send(const uint8_t* data, size_t size, Error* error) {
  if (socket_ == kNoSocket) {
    *error = make_error(ErrorCode::connection_closed, "write udp: use of closed network connection");
    return Sent::failed;
  }
  const sock::IoResult r = sock::send_datagram(socket_, reinterpret_cast<const char*>(data), size);
  if (r.status == sock::IoResult::ok) return Sent::sent;
  if (r.status == sock::IoResult::would_block) {
    kept_.assign(reinterpret_cast<const char*>(data), size);
    reactor_.set_events(socket_, kIoReadable | kIoWritable);
    return Sent::kept;
  }
  *error = make_error(ErrorCode::connection_closed, "write udp " + local_.to_string() + "->" +
                                                        peer_.to_string() + ": " + sock::error_text(r.error));
  return Sent::failed;
}

void UdpSocket::fail(int os_error, const char* call) {
  Error e =
      make_error(ErrorCode::connection_closed, std::string(call) + " udp " + local_.to_string() + "->" +
                                                   peer_.to_string() + ": " + sock::error_text(os_error));
  close_socket();
  observer_->on_socket_error(std::move(e));
}

void UdpSocket::on_io(uint32_t events) {
  const Liveness::Watch alive = liveness_.watch();
  if ((events & kIoWritable) && !kept_.empty()) {
    const sock::IoResult r = sock::send_datagram(socket_, kept_.data(), kept_.size());
    if (r.status == sock::IoResult::failed) return fail(r.error, "write");
    if (r.status == sock::IoResult::ok) {
      kept_.clear();
      reactor_.set_events(socket_, kIoReadable);
      observer_->on_writable();
      if (!alive || socket_ == kNoSocket) return;
    }
  }
  if (!(events & (kIoReadable | kIoHangup))) return;
  bool read_any = false;
  for (int i = 0; i < kReadsPerTurn; ++i) {
    const sock::IoResult r = sock::recv_datagram(socket_, buffer_.get(), kMaxDatagram);
    if (r.status == sock::IoResult::would_block) break;
    if (r.status == sock::IoResult::failed) {
      if (read_any) observer_->on_datagrams_done();
      if (!alive || socket_ == kNoSocket) return;
      return fail(r.error, "read");
    }
    read_any = true;
    observer_->on_datagram(reinterpret_cast<const uint8_t*>(buffer_.get()), r.bytes);
    if (!alive || socket_ == kNoSocket) return;
  }
  if (read_any) observer_->on_datagrams_done();
}

}  // namespace tlsc
