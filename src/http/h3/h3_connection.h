// One HTTP/3 connection: an nghttp3 client over a QuicConnection, carrying
// many requests at once, each on its own bidirectional stream. The control
// stream's first frames (SETTINGS in the profile's order, its GREASE
// setting and frame: packaging/nghttp3 patch 0001), the pseudo-header order
// and the PRIORITY_UPDATE frames come from the profile's H3Fingerprint; the
// QUIC layer below (Initial, ClientHello, transport parameters) from its
// QuicFingerprint. Response header blocks are judged with the HTTP/2 rules
// (H2ResponseBlock): the same field rules and :status reading. Loop thread
// only.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "conn/quic/quic_application.h"
#include "conn/quic/quic_connection.h"
#include "http/h2/h2_request.h"
#include "http/h2/h2_response_block.h"
#include "http/h3/h3_fingerprint.h"
#include "http/http_connection.h"
#include "reactor/reactor.h"

struct nghttp3_conn;

namespace tlsc {

struct H3Limits {
  size_t max_header_bytes = size_t{10} << 20;
};

// HTTP/3's application error codes (RFC 9114 section 8.1) the client sends.
inline constexpr uint64_t kH3NoError = 0x100;
inline constexpr uint64_t kH3InternalError = 0x102;
inline constexpr uint64_t kH3RequestCancelled = 0x10c;
inline constexpr uint64_t kH3MessageError = 0x10e;

class H3Connection final : public HttpConnection,
                           public QuicApplication,
                           public std::enable_shared_from_this<H3Connection> {
 public:
  // Once: nullopt when the handshake completed and requests may be
  // submitted, else why the connection failed.
  using Ready = std::function<void(std::optional<Error>)>;
  // Once, later than the call that caused it: the connection can carry no
  // more requests (closed, failed, GOAWAY), so the pool forgets it.
  using Retired = std::function<void(H3Connection*)>;

  // Opens the QUIC connection (its first flight leaves now).
  static Result<std::shared_ptr<H3Connection>> connect(Reactor& reactor, TlsContext& tls,
                                                       QuicConnectOptions options,
                                                       const H3Fingerprint& fingerprint, H3Limits limits,
                                                       std::string pool_key, Ready ready, Retired retired);
  ~H3Connection() override;
  H3Connection(const H3Connection&) = delete;
  H3Connection& operator=(const H3Connection&) = delete;

  // The request as an HTTP/2 header block in the profile's pseudo-header
  // order (h2_header_block: the same field rules), on a new stream; beyond
  // the streams the server allows at once it waits for one.
  Result<ExchangeId> submit(const OutgoingRequest& request, ExchangeObserver* observer) override;
  // H3_REQUEST_CANCELLED both ways; no more observer calls.
  void cancel(ExchangeId id) override;
  // Paused: the stream's received bytes are not given back to the peer's
  // flow control, so it stops sending on that stream; others go on.
  void pause_body(ExchangeId id, bool paused) override;
  bool accepts_requests() const override;
  bool multiplexed() const override { return true; }
  const std::string& pool_key() const override { return pool_key_; }
  void attach_slot(std::shared_ptr<void> slot) override { slot_ = std::move(slot); }
  void park(std::function<void()>) override {}
  void unpark() override {}
  // CONNECTION_CLOSE with H3_NO_ERROR; open requests fail with `reason`.
  void close(const Error& reason) override;

  size_t open_requests() const { return exchanges_.size(); }
  // Requests waiting for the server to allow another stream.
  size_t waiting_requests() const { return pending_.size(); }
  QuicConnection& quic() { return *quic_; }

  // QuicApplication
  bool on_handshake_completed() override;
  bool on_stream_data(int64_t stream_id, const uint8_t* data, size_t size, bool fin,
                      size_t* consumed) override;
  bool on_stream_acked(int64_t stream_id, uint64_t size) override;
  bool on_stream_closed(int64_t stream_id, std::optional<uint64_t> app_error) override;
  bool on_stream_reset(int64_t stream_id, uint64_t app_error) override;
  bool on_stream_unblocked(int64_t stream_id) override;
  // Starts requests that waited for the server to allow more streams.
  void on_bidi_streams_allowed(uint64_t max_streams) override;
  Result<QuicOutgoing> next_outgoing(QuicBytes* out, size_t max) override;
  bool on_outgoing_written(int64_t stream_id, size_t size, bool fin) override;
  void on_outgoing_blocked(int64_t stream_id) override;
  void on_outgoing_shut(int64_t stream_id) override;
  void on_connection_closed(const Error& error) override;

 private:
  struct Exchange;
  struct Callbacks;

  H3Connection(Reactor& reactor, const H3Fingerprint& fingerprint, H3Limits limits, std::string pool_key,
               Ready ready, Retired retired);
  // nghttp3's failure (rv) as the connection's, with the code it implies.
  bool fail_nghttp3(int rv);
  // Opens the exchange's stream and hands nghttp3 its request.
  std::optional<Error> start_exchange(Exchange& e);
  void start_pending();
  Exchange* exchange_on(int64_t stream_id);
  void forget(Exchange& e);
  void on_headers_end(int64_t stream_id, Exchange& e);
  // The observer hears the end (once); the exchange stays until its
  // stream closes.
  void finish_exchange(Exchange& e, std::optional<Error> error);
  // Ends the stream both ways and the exchange with `error` (a response
  // Go would refuse).
  void reset_exchange(int64_t stream_id, Exchange& e, Error error);
  void fail_all(const Error& error);
  void retire();

  Reactor& reactor_;
  H3Fingerprint fingerprint_;
  H3Limits limits_;
  std::string pool_key_;
  Ready ready_;
  Retired retired_;
  std::shared_ptr<void> slot_;
  std::unique_ptr<QuicConnection> quic_;
  nghttp3_conn* h3_ = nullptr;
  std::unordered_map<ExchangeId, std::unique_ptr<Exchange>> exchanges_;
  std::unordered_map<int64_t, ExchangeId> streams_;  // open request streams
  std::deque<ExchangeId> pending_;                   // waiting for a stream
  ExchangeId next_exchange_id_ = 1;
  bool ready_reported_ = false;
  bool going_away_ = false;
  bool closed_ = false;
  bool retired_once_ = false;
};

}  // namespace tlsc
