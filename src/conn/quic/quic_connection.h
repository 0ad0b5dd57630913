// One client QUIC connection as a browser opens it: ngtcp2 (packaging/ngtcp2,
// with our patches) over a connected UDP socket on the reactor, TLS by our
// BoringSSL with the profile's QUIC ClientHello (its http3.quic.tls, through
// the session's TlsContext like a TCP hello), the profile's transport
// parameters in its order with its GREASE (ngtcp2 patch 0001 hands TLS the
// bytes wire/quic_transport_parameters.h writes) and its connection-ID
// lengths. ngtcp2's timers (loss detection, idle, handshake timeout) are
// one reactor timer at ngtcp2's next expiry. Loop thread only.
//
// Its streams belong to a QuicApplication (HTTP/3: http/h3/H3Connection),
// which hears every stream event and offers the stream bytes to send; the
// connection packs them into datagrams as ngtcp2's congestion and flow
// control allow.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <openssl/ssl.h>

#include "conn/quic/quic_application.h"
#include "core/error.h"
#include "net/udp_socket.h"
#include "platform/socket_address.h"
#include "reactor/reactor.h"
#include "tls/tls_context.h"
#include "wire/quic_fingerprint.h"

struct ngtcp2_conn;
struct ngtcp2_ccerr;
struct ngtcp2_crypto_conn_ref;

namespace tlsc {

// What ngtcp2's client needs of an SSL_CTX (its QUIC method): a QUIC
// TlsContext's TlsOptions::prepare_context.
bool prepare_quic_context(SSL_CTX* ctx);

// The version of the ngtcp2 linked in ("1.24.0").
std::string ngtcp2_library_version();

struct QuicConnectOptions {
  SocketAddress peer;
  std::string host;  // SNI and the name verified (TlsContext's rules)
  uint16_t port = 443;
  QuicFingerprint fingerprint;
  // ngtcp2's handshake timeout (quic-go's HandshakeIdleTimeout is 5 s; the
  // request's own timeout still applies above).
  std::chrono::milliseconds handshake_timeout{10'000};
};

class QuicConnection final : public UdpSocketObserver {
 public:
  // Called once: nullopt when the handshake completed, else why it failed
  // (the connection is closed then).
  using HandshakeDone = std::function<void(std::optional<Error>)>;

  // tls: made with prepare_quic_context and the profile's QUIC ClientHello
  // as its spec. app: who runs on the streams (may be null: a connection
  // that only handshakes); it must outlive the connection. Sends the first
  // flight at once.
  static Result<std::unique_ptr<QuicConnection>> connect(Reactor& reactor, TlsContext& tls,
                                                         QuicConnectOptions options, HandshakeDone done,
                                                         QuicApplication* app = nullptr);
  ~QuicConnection();
  QuicConnection(const QuicConnection&) = delete;
  QuicConnection& operator=(const QuicConnection&) = delete;

  bool handshake_completed() const { return handshake_completed_; }
  bool closed() const { return closed_; }
  // The protocol the server chose ("h3").
  std::string alpn() const;
  const SocketAddress& local_address() const { return socket_->local(); }
  // Ends the connection: a CONNECTION_CLOSE goes out now, with the
  // application's code when given (HTTP/3's H3_NO_ERROR), else QUIC's
  // NO_ERROR. The application hears on_connection_closed.
  void close(std::optional<uint64_t> app_error_code = std::nullopt);

  // Streams (after the handshake). Errors: the peer allows no more now.
  Result<int64_t> open_bidi_stream();
  Result<int64_t> open_uni_stream();
  uint64_t bidi_streams_left() const;
  // The application used up `size` more bytes of the stream's data: the
  // peer may send that much more (MAX_STREAM_DATA and MAX_DATA follow).
  void consume(int64_t stream_id, size_t size);
  // Abandons the stream both ways: RESET_STREAM and STOP_SENDING.
  void reset_stream(int64_t stream_id, uint64_t app_error_code);
  // Asks the peer to stop sending on the stream (STOP_SENDING).
  void stop_reading(int64_t stream_id, uint64_t app_error_code);
  // The application has more to send: the connection writes once the
  // current turn of the loop is done (requests made together leave
  // together).
  void schedule_write();
  // Before an application callback returns false: why, and the
  // application error code the CONNECTION_CLOSE carries.
  void fail_application(Error error, uint64_t app_error_code);

  // UdpSocketObserver
  void on_datagram(const uint8_t* data, size_t size) override;
  void on_datagrams_done() override;
  void on_writable() override;
  void on_socket_error(Error error) override;

  // The largest datagram written (ngtcp2's default path limit is 1452).
  static constexpr size_t kMaxDatagram = 1500;
  // Datagrams written per call before the loop turns (and writes again).
  static constexpr int kDatagramsPerWrite = 64;
  // Pieces of stream data offered per packet.
  static constexpr size_t kOutgoingPieces = 16;

 private:
  friend struct QuicCallbacks;
  QuicConnection(Reactor& reactor, QuicConnectOptions options, HandshakeDone done);
  std::optional<Error> start(TlsContext& tls);
  uint64_t now_ns() const;
  void write();
  void schedule_timer();
  void on_timer();
  // ngtcp2's error (rv) as the connection's failure.
  void fail_ngtcp2(int rv);
  void fail(Error error);
  void report_handshake();
  // A CONNECTION_CLOSE with this reason, sent at once if the socket can.
  void send_connection_close(const ngtcp2_ccerr& ccerr);

  Reactor& reactor_;
  QuicConnectOptions options_;
  HandshakeDone done_;
  QuicApplication* app_ = nullptr;
  // Why a callback of ours refused what the peer sent (ngtcp2 then reports
  // NGTCP2_ERR_CALLBACK_FAILURE): the application's failure with the code
  // its CONNECTION_CLOSE carries, or our own (a pin mismatch) without one.
  struct LocalFailure {
    Error error;
    std::optional<uint64_t> app_error_code;
  };
  std::optional<LocalFailure> local_failure_;
  // The context whose pins the server's certificate must match once the
  // handshake is done (the session's, as over TCP); it outlives us.
  const TlsContext* tls_ = nullptr;
  std::unique_ptr<UdpSocket> socket_;
  NativeSocketAddress local_native_, peer_native_;
  bssl::UniquePtr<SSL> ssl_;
  ngtcp2_conn* conn_ = nullptr;
  // ngtcp2's way from an SSL back to its connection (the SSL's app data).
  std::unique_ptr<ngtcp2_crypto_conn_ref> conn_ref_;
  bool handshake_completed_ = false;
  bool handshake_reported_ = false;
  bool closed_ = false;
  bool write_scheduled_ = false;
  Reactor::TimerId timer_ = 0;
  std::unique_ptr<uint8_t[]> out_;
  Liveness liveness_;
};

}  // namespace tlsc
