#include "net/tcp_stream.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace tlsc {
namespace {

// One read buffer per loop thread: thousands of idle connections must not
// each hold a large buffer.
std::array<char, 256 * 1024>& read_buffer() {
  thread_local std::array<char, 256 * 1024> buf;
  return buf;
}

std::string errno_text(int err) {
  // Go prints the lowercase strerror text ("connection refused").
  return std::strerror(err) == nullptr ? "error" : [&] {
    std::string s = std::strerror(err);
    if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
    return s;
  }();
}

}  // namespace

TcpStream::TcpStream(Reactor& reactor, int fd) : reactor_(reactor), fd_(fd) {
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  reactor_.watch(fd_, kIoReadable, this);
}

TcpStream::~TcpStream() {
  *alive_ = false;
  close();
}

void TcpStream::set_observer(StreamObserver* observer) { observer_ = observer; }

void TcpStream::close() {
  observer_ = nullptr;
  if (fd_ < 0) return;
  reactor_.unwatch(fd_);
  ::close(fd_);
  fd_ = -1;
}

void TcpStream::update_interest() {
  if (fd_ < 0) return;
  uint32_t ev = kIoReadable;
  if (out_offset_ < out_.size()) ev |= kIoWritable;
  reactor_.set_events(fd_, ev);
}

void TcpStream::write(std::string_view bytes) {
  if (fd_ < 0) return;
  if (out_offset_ == out_.size()) {
    out_.clear();
    out_offset_ = 0;
  }
  out_.append(bytes);
  flush();
}

void TcpStream::flush() {
  while (fd_ >= 0 && out_offset_ < out_.size()) {
    ssize_t n = ::send(fd_, out_.data() + out_offset_, out_.size() - out_offset_, MSG_NOSIGNAL);
    if (n > 0) {
      out_offset_ += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n < 0 && errno == EINTR) continue;
    int err = errno;
    // Not from inside write(): the caller is in the middle of its own work.
    fail_later(make_error(ErrorCode::io, "write tcp: " + errno_text(err)));
    return;
  }
  if (out_offset_ == out_.size()) {
    out_.clear();
    out_offset_ = 0;
  }
  update_interest();
}

void TcpStream::fail(const Error& e) {
  StreamObserver* obs = observer_;
  peer_closed_ = true;
  close();
  if (obs) obs->on_stream_closed(&e);
}

void TcpStream::fail_later(Error e) {
  peer_closed_ = true;
  if (fd_ >= 0) {
    reactor_.unwatch(fd_);
    ::close(fd_);
    fd_ = -1;
  }
  reactor_.post([alive = alive_, this, e = std::move(e)] {
    if (!*alive) return;
    StreamObserver* obs = observer_;
    observer_ = nullptr;
    if (obs) obs->on_stream_closed(&e);
  });
}

void TcpStream::on_io(uint32_t events) {
  if (fd_ < 0) return;
  if (events & kIoWritable) {
    flush();
    if (fd_ < 0) return;
  }
  if (!(events & kIoReadable)) return;
  auto& buf = read_buffer();
  // Bounded so one busy connection cannot starve the others.
  for (int round = 0; round < 16 && fd_ >= 0; ++round) {
    ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
    if (n > 0) {
      if (observer_ == nullptr) {
        // Bytes on an idle connection: it cannot be reused.
        peer_closed_ = true;
        close();
        return;
      }
      // The observer may close or destroy us; it owns us, so stop touching
      // members if the fd was closed.
      observer_->on_stream_data(std::string_view(buf.data(), static_cast<size_t>(n)));
      return;  // level-triggered: the loop calls again if more is waiting
    }
    if (n == 0) {
      peer_closed_ = true;
      StreamObserver* obs = observer_;
      reactor_.unwatch(fd_);
      ::close(fd_);
      fd_ = -1;
      observer_ = nullptr;
      if (obs) obs->on_stream_closed(nullptr);
      return;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return;
    int err = errno;
    fail(make_error(ErrorCode::io, "read tcp: " + errno_text(err)));
    return;
  }
}

TcpConnector::TcpConnector(Reactor& reactor, std::vector<SocketAddress> addresses,
                           std::optional<SocketAddress> local_address, Callback cb)
    : reactor_(reactor), addresses_(std::move(addresses)), local_(local_address), cb_(std::move(cb)) {}

TcpConnector::~TcpConnector() { cancel(); }

void TcpConnector::cancel() {
  if (fd_ >= 0) {
    reactor_.unwatch(fd_);
    ::close(fd_);
    fd_ = -1;
  }
  cb_ = nullptr;
}

void TcpConnector::start() { try_next(); }

void TcpConnector::finish(Result<int> r) {
  auto cb = std::move(cb_);
  cb_ = nullptr;
  if (cb) cb(std::move(r));
}

void TcpConnector::try_next() {
  while (next_ < addresses_.size()) {
    const SocketAddress& addr = addresses_[next_++];
    std::string target = "dial tcp " + addr.to_string() + ": ";
    int fd = ::socket(addr.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      last_error_ = target + "socket: " + errno_text(errno);
      continue;
    }
    if (local_) {
      SocketAddress local = *local_;
      if (local.family() != addr.family()) {
        ::close(fd);
        last_error_ = target + "bind: address family mismatch with local address";
        continue;
      }
      if (::bind(fd, reinterpret_cast<const sockaddr*>(&local.storage), local.length) != 0) {
        last_error_ = target + "bind: " + errno_text(errno);
        ::close(fd);
        continue;
      }
    }
    int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr.storage), addr.length);
    if (rc == 0) {
      finish(fd);
      return;
    }
    if (errno == EINPROGRESS) {
      fd_ = fd;
      last_error_ = target;
      reactor_.watch(fd_, kIoWritable, this);
      return;
    }
    last_error_ = target + "connect: " + errno_text(errno);
    ::close(fd);
  }
  finish(make_error(ErrorCode::connect,
                    last_error_.empty() ? "dial tcp: no addresses" : last_error_));
}

void TcpConnector::on_io(uint32_t) {
  int fd = fd_;
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err == EINPROGRESS) return;
  reactor_.unwatch(fd);
  fd_ = -1;
  if (err == 0) {
    finish(fd);
    return;
  }
  last_error_ += "connect: " + errno_text(err);
  ::close(fd);
  try_next();
}

}  // namespace tlsc
