// TLS as a connection filter: a Stream over another Stream. BoringSSL runs
// over memory BIOs, so this file only moves bytes between the inner stream,
// the SSL object and the observer above. Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <openssl/ssl.h>

#include "net/stream.h"
#include "reactor/reactor.h"
#include "tls/handshake_error_text.h"

namespace tlsc {

class TlsContext;

class TlsStream final : public Stream, public StreamObserver {
 public:
  using HandshakeDone = std::function<void(std::optional<Error>)>;

  // `context` checks the session's certificate pins after the handshake;
  // nullptr checks none (the connection to an HTTPS proxy).
  TlsStream(Reactor& reactor, std::unique_ptr<Stream> inner, bssl::UniquePtr<SSL> ssl, TlsContext* context,
            std::string host);
  ~TlsStream() override;

  // Runs the handshake; `done` is called once, on success after the pins
  // were checked. Until then no observer sees data.
  void start_handshake(HandshakeDone done);
  std::string alpn() const;

  void set_observer(StreamObserver* observer) override { observer_ = observer; }
  void pause_reading(bool paused) override {
    if (inner_) inner_->pause_reading(paused);
  }
  void write(std::string_view bytes) override;
  // Records go below as soon as they are made: what waits is the inner
  // stream's.
  size_t unsent_bytes() const override { return inner_ ? inner_->unsent_bytes() : 0; }
  bool usable() const override { return !closed_ && inner_ && inner_->usable(); }
  void close() override;

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;
  void on_stream_drained() override {
    if (observer_ != nullptr && !handshaking_) observer_->on_stream_drained();
  }

 private:
  void advance();
  // Follows record boundaries in the bytes received, so that a close in the
  // middle of a record is "unexpected EOF" and between records "EOF", as
  // Go's crypto/tls says.
  void track_records(std::string_view data);
  // Appends to inbound_ what the socket brought and points in_bio_ at it;
  // false when there was no memory for it.
  bool take_inbound(std::string_view data);
  bool at_record_boundary() const { return header_have_ == 0 && body_left_ == 0; }
  bool flush_out();
  void fail(Error e);

  Reactor& reactor_;
  std::unique_ptr<Stream> inner_;
  // What the handshake showed, for the error text. Before ssl_, whose
  // message callback writes into it: destroyed after it.
  TlsTrace trace_;
  // The ciphertext received and not yet read by BoringSSL. ssl_ reads it
  // through in_bio_, a read-only memory BIO over these bytes (remade when
  // they grow), which moves a cursor; a read-write memory BIO moves what is
  // left to the front on every read, which for a 64 KiB socket read of
  // 16 KiB records was a tenth of a download's CPU. Before ssl_: destroyed
  // after it.
  std::string inbound_;
  bssl::UniquePtr<SSL> ssl_;
  BIO* in_bio_ = nullptr;   // owned by ssl_
  BIO* out_bio_ = nullptr;  // owned by ssl_
  TlsContext* context_;
  std::string host_;
  StreamObserver* observer_ = nullptr;
  HandshakeDone handshake_done_;
  bool handshaking_ = true;
  bool closed_ = false;
  bool peer_closed_ = false;
  uint8_t header_[5] = {};
  size_t header_have_ = 0;
  size_t body_left_ = 0;
  Liveness liveness_;
};

}  // namespace tlsc
