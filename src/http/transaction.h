// One request from start to its single completion, as a state machine:
//
//   starting -> (waiting_for_slot | waiting_for_shared_dial | dialing)* ->
//   sending -> awaiting_head -> reading_body [-> converting] [-> writing_output] -> done
//                                 \-> redirecting -> starting (next hop)
//   a request the server never processed: -> waiting_to_retry -> dialing ...
//
// all under one client timeout. The state names every error's place
// (errorState) and, with withDebug, each step on stderr. Connections come
// from the client's pool (ConnectionPool::Acquisition) and are spoken to
// through HttpConnection, whichever protocol ALPN chose. Loop thread only,
// except the constructor.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "codec/decoder.h"
#include "core/url.h"
#include "http/body_buffer.h"
#include "http/client.h"
#include "http/connection_pool.h"
#include "http/http_connection.h"
#include "http/request_plan.h"
#include "http/response.h"
#include "http/response_builder.h"

namespace tlsc {

enum class TransactionState {
  starting,                 // checking the hop and building its request
  waiting_for_slot,         // maxConnsPerHost reached for the origin
  waiting_for_shared_dial,  // another request's dial may end in HTTP/2
  dialing,                  // DNS, TCP, proxy, TLS of a connection of its own
  waiting_to_retry,         // HTTP/2's backoff before sending again
  sending,                  // the request is being handed to the connection
  awaiting_head,            // sent; no response head yet
  reading_body,
  redirecting,     // reading a redirect's body before the next hop
  converting,      // a large body to UTF-8 or base64 (off the loop thread)
  writing_output,  // streamOutputPath: the body goes to the file (off the loop thread)
  done,
};

std::string_view transaction_state_name(TransactionState s);

class Transaction final : public ExchangeObserver,
                          public ClientRequest,
                          public std::enable_shared_from_this<Transaction> {
 public:
  using Completion = std::function<void(Response)>;

  // The transaction runs on its own until its completion; the pointer
  // returned is for cancel_by_caller and resume_body (keep it weak).
  // `done` is called exactly once, unless start throws std::bad_alloc: then
  // no memory was left for the transaction itself, `done` will never be
  // called, and the caller answers for it.
  static std::shared_ptr<Transaction> start(std::shared_ptr<HttpClient> client, RequestPlan plan,
                                            Completion done);
  // The client ended under us: finish now with an error.
  void cancel(const Error& reason) override;
  // cancelRequest / cancelStream: finish now with Go's "context canceled",
  // in whatever state (an HTTP/2 stream is reset, an HTTP/1.1 connection
  // closed; a dial in progress ends with the request).
  void cancel_by_caller();
  // The body sink has room again after it asked to pause.
  void resume_body();
  // The body sink failed (a file write): finish now with its error. Not
  // from inside a BodySink call: the transaction may be gone when it returns.
  void fail_by_sink(Error error);

  void on_request_sent() override;
  void on_response_head(const ResponseHead& head) override;
  void on_response_body(std::string_view bytes) override;
  void on_response_complete() override;
  void on_response_error(const Error& error, bool retryable) override;

  Transaction(std::shared_ptr<HttpClient> client, RequestPlan plan);
  ~Transaction();

 private:
  // Runs one step of the exchange; std::bad_alloc out of it fails this
  // request (internal, "out of memory") instead of the process.
  template <class F>
  void failing_on_no_memory(F&& step);
  void take_response_head(const ResponseHead& head);
  // withAltSvc: what the response's Alt-Svc says of the origin's HTTP/3.
  void learn_alt_svc();
  void take_response_body(std::string_view bytes);
  // One bounded step of the decoder over `in` (advanced past what it
  // used), its output to the sink or the body. False when it ended the
  // request (past maxResponseBodyBytes).
  bool decode_step(std::string_view& in);
  // The decode backlog goes on in the next turn of the loop.
  void schedule_decode();
  void continue_decoding();
  // Pauses the connection while the sink is full or a backlog waits, and
  // lets it go on when neither holds.
  void update_conn_pause();
  void take_response_error(const Error& error, bool retryable);
  // What start does once the transaction exists and owns its completion.
  void begin();
  void begin_hop();
  void acquire();
  void on_connection(Result<std::shared_ptr<HttpConnection>> conn);
  void on_acquire_progress(AcquireProgress p);
  void release_connection(bool reusable);
  void end_acquisition();
  void after_response();
  void finish_with_body();
  void finish_stream();
  // The decoder's last bytes appended to `out`; false when the body did not
  // decode (the request has then failed).
  bool finish_decoding(std::string& out);
  // What build_response needs, copied out of the transaction, so that a
  // large body can be converted on another thread.
  struct ResponseInputs {
    Response base;
    std::optional<std::vector<Cookie>> jar_cookies;
    ResponseHead head;
    Url url;
    BodyBuffer body;  // joined or checked where build runs (the helper thread, for large bodies)
    bool headers_dropped = false;
    Response build(bool is_byte_response) &&;
  };
  ResponseInputs final_response_inputs(BodyBuffer body);
  // The final response's envelope (status, headers, the jar's cookies) as
  // upstream builds it, with `body` converted (UTF-8, or a data URL).
  Response build_final_response(BodyBuffer body, bool is_byte_response);
  void deliver_to_sink(std::string_view bytes);
  void pause_body();
  void fail(Error error, bool wrap_url = true);
  void complete(Response r);
  void set_state(TransactionState s);
  void trace(std::string_view what) const;
  std::string url_error_prefix() const;

  std::shared_ptr<HttpClient> client_;
  Reactor& reactor_;
  ClientOptions options_;
  RequestPlan plan_;
  Completion done_;
  std::shared_ptr<Transaction> self_;  // alive until complete()
  TransactionState state_ = TransactionState::starting;
  Reactor::Clock::time_point started_;

  // Current hop.
  Url url_;
  std::string method_;
  std::optional<std::string> body_;
  HeaderList headers_;
  std::optional<std::string> host_;
  bool requested_compression_ = false;
  int retries_ = 0;
  int redirects_ = 0;
  OutgoingRequest request_;
  std::unique_ptr<ConnectionPool::Acquisition> acquisition_;
  std::shared_ptr<HttpConnection> conn_;
  HttpConnection::ExchangeId exchange_ = 0;
  Reactor::TimerId timeout_timer_ = 0;
  Reactor::TimerId retry_timer_ = 0;

  // Current response.
  ResponseHead head_;
  std::optional<Url> redirect_to_;
  std::optional<std::string> content_encoding_;
  std::unique_ptr<BodyDecoder> decoder_;  // made on the first body byte
  BodyBuffer response_body_;              // the body held in memory, as it arrives
  std::string decoded_;                   // scratch: a decoder's output before it goes on
  // requestStream: the final response's body goes to the sink, not to
  // response_body_; paused while the sink is full.
  bool streaming_ = false;
  // The envelope a streamed body's completion carries (built with the head).
  Response stream_envelope_;
  bool writes_file_ = false;  // streamOutputPath: the sink is a FileSink
  bool body_paused_ = false;  // the sink is full
  // Input a decoder has not taken yet (kDecodeStep per turn): the
  // connection is paused until it is decoded, and the response's end waits
  // for it.
  std::string undecoded_;
  bool decode_backlog_ = false;
  bool decoder_more_ = false;  // the decoder has output pending without input
  bool decode_scheduled_ = false;
  bool response_ended_ = false;
  bool conn_paused_ = false;  // we asked the connection to pause
  Reactor::TimerId stall_timer_ = 0;
  std::optional<Error> decode_error_;
};

}  // namespace tlsc
