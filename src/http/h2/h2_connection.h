// One HTTP/2 connection: an nghttp2 client session over a Stream, carrying
// many requests at once. The preface (SETTINGS, connection WINDOW_UPDATE,
// PRIORITY frames) and every HEADERS frame's priority and first stream id
// come from the profile's H2Fingerprint. nghttp2 keeps requests beyond the
// server's MAX_CONCURRENT_STREAMS queued until a stream closes, and does
// flow control; this class moves bytes and tells each request's observer.
// Loop thread only.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include <nghttp2/nghttp2.h>

#include "http/h2/h2_fingerprint.h"
#include "http/h2/h2_request.h"
#include "http/http_connection.h"
#include "net/stream.h"
#include "reactor/reactor.h"

namespace tlsc {

struct H2Limits {
  // Closed after this long without a request; 0: never.
  std::chrono::milliseconds idle_timeout{90000};
  // With requests open and nothing received for this long, a PING is sent;
  // no answer within ping_timeout means the connection is dead.
  std::chrono::milliseconds read_idle_timeout{30000};
  std::chrono::milliseconds ping_timeout{15000};
  size_t max_header_bytes = size_t{10} << 20;
  bool single_use = false;  // disableKeepAlives: one request, then close
};

class H2Connection final : public HttpConnection,
                           public StreamObserver,
                           public std::enable_shared_from_this<H2Connection> {
 public:
  // Told once when the connection can carry no more requests (closed,
  // failed, GOAWAY, idle timeout), so the pool forgets it.
  using Retired = std::function<void(H2Connection*)>;

  // Sends the preface. Fails when nghttp2 refuses the profile's values.
  static Result<std::shared_ptr<H2Connection>> create(Reactor& reactor, std::unique_ptr<Stream> stream,
                                                      std::string pool_key, const H2Fingerprint& fingerprint,
                                                      H2Limits limits, Retired retired);
  ~H2Connection() override;

  // The request as fhttp's encodeHeaders writes it (the profile's
  // pseudo-header order), then submit_block.
  Result<ExchangeId> submit(const OutgoingRequest& request, ExchangeObserver* observer) override;
  // The request's owner gives up: RST_STREAM(CANCEL), no more calls.
  void cancel(ExchangeId stream_id) override;
  // The connection's window is always given back at once; only the
  // stream's is withheld while paused.
  void pause_body(ExchangeId stream_id, bool paused) override;
  // No GOAWAY seen, not failed, stream ids left.
  bool accepts_requests() const override;
  bool multiplexed() const override { return true; }
  const std::string& pool_key() const override { return pool_key_; }
  void attach_slot(std::shared_ptr<void> slot) override { slot_ = std::move(slot); }
  // Never parked: an idle HTTP/2 connection watches itself (idle timeout,
  // GOAWAY) and tells the pool through Retired.
  void park(std::function<void()>) override {}
  void unpark() override {}
  // Closes now; open requests fail.
  void close(const Error& reason) override;

  // Starts a request from its header block. The observer hears about it
  // until the response completes or fails, or until cancel(id).
  Result<ExchangeId> submit_block(const H2HeaderBlock& headers, std::optional<std::string> body,
                                  ExchangeObserver* observer);
  size_t open_requests() const { return exchanges_.size(); }

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;
  void on_stream_drained() override;

  H2Connection(Reactor& reactor, std::unique_ptr<Stream> stream, std::string pool_key, H2Limits limits,
               Retired retired);

 private:
  struct Exchange;
  struct Callbacks;

  std::optional<Error> start(const H2Fingerprint& fingerprint);
  void flush();
  void schedule_flush();
  void release_later(std::shared_ptr<H2Connection> keep);
  void fail_all(const Error& error, bool retryable_if_unanswered);
  void finish_exchange(int32_t stream_id, std::optional<Error> error, bool retryable);
  // A response header block has ended: judged (H2ResponseBlock), then a
  // head reported, a 1xx skipped, trailers dropped, or the stream reset.
  void on_header_block(int32_t stream_id, Exchange& e, bool end_stream);
  // Resets the stream (PROTOCOL_ERROR) for a response Go refuses; the
  // exchange ends with `error`.
  void reset_stream(int32_t stream_id, Exchange& e, Error error);
  // "connection error: CODE" once nghttp2 has ended the connection for
  // something the server sent.
  std::optional<Error> local_connection_error() const;
  void retire();
  // Closes after the current call returns, if no request is open by then.
  void close_when_unwound();
  void arm_idle_timer();
  void arm_health_timer();
  void on_health_check();

  Reactor& reactor_;
  std::unique_ptr<Stream> stream_;
  std::string pool_key_;
  std::shared_ptr<void> slot_;
  H2Limits limits_;
  Retired retired_;
  nghttp2_session* session_ = nullptr;
  std::optional<nghttp2_priority_spec> header_priority_;
  std::vector<std::string> pseudo_header_order_;
  std::unordered_map<int32_t, std::unique_ptr<Exchange>> exchanges_;
  int callback_depth_ = 0;  // nghttp2 forbids mem_send inside its callbacks
  bool flush_pending_ = false;
  // flush stopped with the stream's unsent bytes above kWriteHighWater;
  // on_stream_drained goes on. nghttp2 keeps what it could not send, and
  // its outbound-flood guard ends a peer that floods and never reads.
  bool write_blocked_ = false;
  bool flush_scheduled_ = false;
  bool going_away_ = false;
  bool dead_ = false;
  bool retired_once_ = false;
  int32_t goaway_last_stream_ = 0;
  uint32_t goaway_error_code_ = 0;
  std::string goaway_debug_;
  std::optional<uint32_t> local_goaway_error_;  // our GOAWAY's code, when not NO_ERROR
  bool callback_failed_ = false;                // a callback of ours found no memory
  size_t requests_started_ = 0;
  std::string out_;
  Reactor::TimerId idle_timer_ = 0;
  Reactor::TimerId health_timer_ = 0;
  Reactor::Clock::time_point last_received_;
  bool ping_outstanding_ = false;
};

}  // namespace tlsc
