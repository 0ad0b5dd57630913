#include "tls/tls_stream.h"

#include <array>
#include <new>

#include <openssl/err.h>

#include "tls/tls_context.h"

namespace tlsc {

TlsStream::TlsStream(Reactor& reactor, std::unique_ptr<Stream> inner, bssl::UniquePtr<SSL> ssl,
                     TlsContext* context, std::string host)
    : reactor_(reactor),
      inner_(std::move(inner)),
      ssl_(std::move(ssl)),
      context_(context),
      host_(std::move(host)) {
  in_bio_ = BIO_new_mem_buf(inbound_.data(), 0);
  // Out of bytes is "retry later", as for a read-write memory BIO, not EOF.
  BIO_set_mem_eof_return(in_bio_, -1);
  out_bio_ = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl_.get(), in_bio_, out_bio_);
  tls_trace_attach(ssl_.get(), &trace_);
  inner_->set_observer(this);
}

TlsStream::~TlsStream() { close(); }

void TlsStream::start_handshake(HandshakeDone done) {
  handshake_done_ = std::move(done);
  advance();
}

std::string TlsStream::alpn() const {
  const uint8_t* p = nullptr;
  unsigned len = 0;
  SSL_get0_alpn_selected(ssl_.get(), &p, &len);
  return std::string(reinterpret_cast<const char*>(p), len);
}

void TlsStream::close() {
  observer_ = nullptr;
  handshake_done_ = nullptr;
  if (closed_) return;
  closed_ = true;
  if (inner_) {
    inner_->set_observer(nullptr);
    inner_->close();
  }
}

bool TlsStream::flush_out() {
  const uint8_t* data = nullptr;
  size_t len = 0;
  if (!BIO_mem_contents(out_bio_, &data, &len) || len == 0) return true;
  if (closed_ || !inner_) return false;
  inner_->write(std::string_view(reinterpret_cast<const char*>(data), len));
  BIO_reset(out_bio_);
  return true;
}

void TlsStream::write(std::string_view bytes) {
  if (closed_ || handshaking_) return;
  while (!bytes.empty()) {
    int chunk = static_cast<int>(std::min<size_t>(bytes.size(), 1 << 30));
    int n = SSL_write(ssl_.get(), bytes.data(), chunk);
    if (n <= 0) {
      int err = SSL_get_error(ssl_.get(), n);
      Error e = tls_handshake_error(ssl_.get(), err, host_, &trace_);
      // Reported from the loop, not from inside the caller's write().
      reactor_.post([alive = liveness_.watch(), this, e] {
        if (alive) fail(e);
      });
      return;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  flush_out();
}

void TlsStream::fail(Error e) {
  if (closed_) return;
  auto done = std::move(handshake_done_);
  StreamObserver* obs = observer_;
  close();
  if (done) {
    done(std::move(e));
  } else if (obs) {
    obs->on_stream_closed(&e);
  }
}

void TlsStream::track_records(std::string_view data) {
  while (!data.empty()) {
    if (body_left_ > 0) {
      size_t n = std::min(body_left_, data.size());
      body_left_ -= n;
      data.remove_prefix(n);
      continue;
    }
    header_[header_have_++] = static_cast<uint8_t>(data.front());
    data.remove_prefix(1);
    if (header_have_ == sizeof header_) {
      body_left_ = (size_t{header_[3]} << 8) | header_[4];
      header_have_ = 0;
    }
  }
}

void TlsStream::on_stream_data(std::string_view data) {
  if (closed_) return;
  track_records(data);
  tls_trace_received(trace_, data);
  if (!take_inbound(data)) {
    fail(no_memory_error());
    return;
  }
  advance();
}

bool TlsStream::take_inbound(std::string_view data) {
  // What BoringSSL read is dropped (usually everything: it reads a record
  // as far as it has come into its own buffer).
  const size_t unread = BIO_pending(in_bio_);
  try {
    inbound_.erase(0, inbound_.size() - unread);
    inbound_.append(data);
  } catch (const std::bad_alloc&) {
    return false;
  }
  BIO* view = BIO_new_mem_buf(inbound_.data(), static_cast<ossl_ssize_t>(inbound_.size()));
  if (view == nullptr) return false;
  BIO_set_mem_eof_return(view, -1);
  SSL_set0_rbio(ssl_.get(), view);  // frees the previous view
  in_bio_ = view;
  return true;
}

void TlsStream::on_stream_closed(const Error* error) {
  peer_closed_ = true;
  if (closed_) return;
  if (handshaking_) {
    fail(error                  ? *error
         : at_record_boundary() ? eof_error(ErrorCode::tls_handshake)
                                : make_error(ErrorCode::tls_handshake, "unexpected EOF"));
    return;
  }
  // Decrypt what is still buffered, then report the close.
  auto alive = liveness_.watch();
  advance();
  if (!alive || closed_) return;
  StreamObserver* obs = observer_;
  closed_ = true;
  observer_ = nullptr;
  if (obs) obs->on_stream_closed(error);
}

void TlsStream::advance() {
  auto alive = liveness_.watch();
  if (handshaking_) {
    int rc = SSL_do_handshake(ssl_.get());
    flush_out();
    if (rc != 1) {
      int err = SSL_get_error(ssl_.get(), rc);
      if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) return;
      fail(tls_handshake_error(ssl_.get(), err, host_, &trace_));
      return;
    }
    handshaking_ = false;
    // No context (a TLS proxy's connection): no pins to check.
    if (auto pin_error = context_ ? context_->check_pins(ssl_.get(), host_) : std::nullopt) {
      fail(*pin_error);
      return;
    }
    auto done = std::move(handshake_done_);
    handshake_done_ = nullptr;
    if (done) done(std::nullopt);
    if (!alive || closed_) return;
  }
  std::array<char, 16384> buf;
  for (;;) {
    int n = SSL_read(ssl_.get(), buf.data(), static_cast<int>(buf.size()));
    flush_out();  // post-handshake messages (tickets, key updates) may answer
    if (n > 0) {
      if (observer_ == nullptr) {
        closed_ = true;  // data on an idle connection: unusable
        return;
      }
      observer_->on_stream_data(std::string_view(buf.data(), static_cast<size_t>(n)));
      if (!alive || closed_) return;
      continue;
    }
    int err = SSL_get_error(ssl_.get(), n);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) return;
    if (err == SSL_ERROR_ZERO_RETURN) {  // close_notify
      StreamObserver* obs = observer_;
      close();
      if (obs) obs->on_stream_closed(nullptr);
      return;
    }
    fail(tls_handshake_error(ssl_.get(), err, host_, &trace_));
    return;
  }
}

}  // namespace tlsc
