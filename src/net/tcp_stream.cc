#include "net/tcp_stream.h"

#include <array>
#include <new>

namespace tlsc {
namespace {

// One read buffer per loop thread: thousands of idle connections must not
// each hold a large buffer.
std::array<char, 256 * 1024>& read_buffer() {
  thread_local std::array<char, 256 * 1024> buf;
  return buf;
}

}  // namespace

TcpStream::TcpStream(Reactor& reactor, SocketHandle socket) : reactor_(reactor), socket_(socket) {
  sock::set_no_delay(socket_);
  reactor_.watch(socket_, kIoReadable, this);
}

TcpStream::~TcpStream() { close(); }

void TcpStream::set_observer(StreamObserver* observer) { observer_ = observer; }

void TcpStream::close_socket() {
  if (socket_ == kNoSocket) return;
  reactor_.unwatch(socket_);
  sock::close(socket_);
  socket_ = kNoSocket;
}

void TcpStream::close() {
  observer_ = nullptr;
  close_socket();
}

void TcpStream::pause_reading(bool paused) {
  if (read_paused_ == paused) return;
  read_paused_ = paused;
  update_interest();
}

void TcpStream::update_interest() {
  if (socket_ == kNoSocket) return;
  uint32_t ev = read_paused_ ? 0u : static_cast<uint32_t>(kIoReadable);
  if (out_offset_ < out_.size()) ev |= kIoWritable;
  reactor_.set_events(socket_, ev);
}

void TcpStream::write(std::string_view bytes) {
  if (socket_ == kNoSocket) return;
  if (out_offset_ == out_.size()) {
    out_.clear();
    out_offset_ = 0;
  }
  const bool had_unsent = out_offset_ < out_.size();
  out_.append(bytes);
  flush();
  if (had_unsent && out_offset_ == out_.size() && socket_ != kNoSocket) {
    // What waited went out inside this write: a writer that stopped for it
    // still wants to hear, but not from inside its own call.
    reactor_.post([alive = liveness_.watch(), this] {
      if (alive && observer_ != nullptr && out_offset_ == out_.size()) observer_->on_stream_drained();
    });
  }
}

void TcpStream::flush() {
  while (socket_ != kNoSocket && out_offset_ < out_.size()) {
    auto r = sock::send(socket_, out_.data() + out_offset_, out_.size() - out_offset_);
    if (r.status == sock::IoResult::ok) {
      out_offset_ += r.bytes;
      continue;
    }
    if (r.status == sock::IoResult::would_block) break;
    // Not from inside write(): the caller is in the middle of its own work.
    fail_later(make_error(ErrorCode::connection_closed, "write tcp: " + sock::error_text(r.error)));
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
  close_socket();
  reactor_.post([alive = liveness_.watch(), this, e = std::move(e)] {
    if (!alive) return;
    StreamObserver* obs = observer_;
    observer_ = nullptr;
    if (obs) obs->on_stream_closed(&e);
  });
}

void TcpStream::on_io(uint32_t events) {
  if (socket_ == kNoSocket) return;
  if (events & kIoWritable) {
    const bool had_unsent = out_offset_ < out_.size();
    flush();
    if (socket_ == kNoSocket) return;
    if (had_unsent && out_offset_ == out_.size() && observer_ != nullptr) {
      // The observer may close or destroy us from inside the call.
      auto alive = liveness_.watch();
      observer_->on_stream_drained();
      if (!alive || socket_ == kNoSocket) return;
    }
  }
  if (!(events & kIoReadable)) return;
  // Paused, the socket is not watched for reading, but the poller reports a
  // hang-up or error regardless (and again on every wait): read on then, to
  // find the closure, or the loop would spin. What is still buffered is
  // bounded by the kernel's receive buffer.
  if (read_paused_ && !(events & kIoHangup)) return;
  auto& buf = read_buffer();
  auto r = sock::recv(socket_, buf.data(), buf.size());
  switch (r.status) {
    case sock::IoResult::ok:
      if (observer_ == nullptr) {
        // Bytes on an idle connection: it cannot be reused.
        peer_closed_ = true;
        close();
        return;
      }
      // The observer may close or destroy us; it owns us, so nothing here
      // touches a member afterwards. Level-triggered: the loop calls again
      // if more is waiting, so one busy connection cannot starve the others.
      {
        auto alive = liveness_.watch();
        try {
          observer_->on_stream_data(std::string_view(buf.data(), r.bytes));
        } catch (const std::bad_alloc&) {
          // No memory for what came in, somewhere above: the connection
          // ends, and what it carried fails with it instead of waiting for
          // its timeout.
          if (alive && socket_ != kNoSocket) fail(no_memory_error());
        }
      }
      return;
    case sock::IoResult::closed: {
      peer_closed_ = true;
      StreamObserver* obs = observer_;
      close();
      if (obs) obs->on_stream_closed(nullptr);
      return;
    }
    case sock::IoResult::would_block:
      return;
    case sock::IoResult::failed:
      fail(make_error(ErrorCode::connection_closed, "read tcp: " + sock::error_text(r.error)));
      return;
  }
}

TcpConnector::TcpConnector(Reactor& reactor, std::vector<SocketAddress> addresses,
                           std::optional<SocketAddress> local_address, Callback cb)
    : reactor_(reactor), addresses_(std::move(addresses)), local_(local_address), cb_(std::move(cb)) {}

TcpConnector::~TcpConnector() { cancel(); }

void TcpConnector::cancel() {
  if (socket_ != kNoSocket) {
    reactor_.unwatch(socket_);
    sock::close(socket_);
    socket_ = kNoSocket;
  }
  cb_ = nullptr;
}

void TcpConnector::start() {
  reporting_no_memory([&] { try_next(); });
}

template <class F>
void TcpConnector::reporting_no_memory(F&& step) {
  try {
    step();
  } catch (const std::bad_alloc&) {
    // Only while the callback is still ours (finish takes it first): past
    // it, the allocation failed above us, which reports it.
    if (!cb_) return;
    if (socket_ != kNoSocket) {
      reactor_.unwatch(socket_);
      sock::close(socket_);
      socket_ = kNoSocket;
    }
    finish(no_memory_error());
  }
}

void TcpConnector::finish(Result<SocketHandle> r) {
  auto cb = std::move(cb_);
  cb_ = nullptr;
  if (cb) {
    cb(std::move(r));
  } else if (r) {
    sock::close(*r);
  }
}

void TcpConnector::try_next() {
  while (next_ < addresses_.size()) {
    const SocketAddress& addr = addresses_[next_++];
    std::string target = "dial tcp " + addr.to_string() + ": ";
    int error = 0;
    SocketHandle s = sock::open_tcp(addr.family, error);
    if (s == kNoSocket) {
      last_error_ = target + "socket: " + sock::error_text(error);
      continue;
    }
    // Held by socket_ from here, so that a failed allocation below closes it.
    socket_ = s;
    if (local_) {
      if (local_->family != addr.family) {
        last_error_ = target + "bind: address family mismatch with local address";
        sock::close(s);
        socket_ = kNoSocket;
        continue;
      }
      if (!sock::bind(s, *local_, error)) {
        last_error_ = target + "bind: " + sock::error_text(error);
        sock::close(s);
        socket_ = kNoSocket;
        continue;
      }
    }
    switch (sock::connect(s, addr, error)) {
      case sock::ConnectStart::connected:
        socket_ = kNoSocket;
        finish(s);
        return;
      case sock::ConnectStart::in_progress:
        last_error_ = target;
        reactor_.watch(socket_, kIoWritable, this);
        return;
      case sock::ConnectStart::failed:
        last_error_ = target + sock::connect_call_name() + std::string(": ") + sock::error_text(error);
        sock::close(s);
        socket_ = kNoSocket;
        break;
    }
  }
  finish(make_error(ErrorCode::connect, last_error_.empty() ? "dial tcp: no addresses" : last_error_));
}

void TcpConnector::on_io(uint32_t) {
  reporting_no_memory([&] {
    SocketHandle s = socket_;
    int err = sock::connect_result(s);
    if (err == sock::kStillConnecting) return;
    reactor_.unwatch(s);
    socket_ = kNoSocket;
    if (err == 0) {
      finish(s);
      return;
    }
    sock::close(s);
    last_error_ += sock::connect_call_name() + std::string(": ") + sock::error_text(err);
    try_next();
  });
}

}  // namespace tlsc
