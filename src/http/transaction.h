// One request from start to its single completion: per hop
// connect → send → head → body, then cookies, redirect or finish, all under
// one client timeout. A hop goes over the origin's HTTP/2 connection, an
// idle HTTP/1.1 one, or a new one (ALPN decides which protocol it speaks).
// Loop thread only, except the constructor.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/url.h"
#include "conn/connection_chain.h"
#include "http/origin.h"
#include "cookies/cookie.h"
#include "codec/decoder.h"
#include "http/h1/h1_connection.h"
#include "wire/h1_request_writer.h"
#include "http/h2/h2_connection.h"
#include "http/response.h"
#include "net/dns_resolver.h"
#include "http/client.h"
#include "http/request_plan.h"

namespace tlsc {

class Transaction final : public ExchangeObserver,
                          public ClientRequest,
                          public std::enable_shared_from_this<Transaction> {
 public:
  using Completion = std::function<void(Response)>;

  static void start(std::shared_ptr<HttpClient> client, RequestPlan plan, Completion done);
  // The client ended under us: finish now with an error.
  void cancel(const Error& reason) override;

  void on_response_head(const ResponseHead& head) override;
  void on_response_body(std::string_view bytes) override;
  void on_response_complete() override;
  void on_response_error(const Error& error, bool retryable) override;

  Transaction(std::shared_ptr<HttpClient> client, RequestPlan plan, Completion done);
  ~Transaction();

 private:
  enum class Phase { connect, headers, body, done };

  void begin_hop();
  void acquire_connection();
  void connect_new();
  void on_dialed(Result<Connected> dialed);
  void on_dial_shared(std::shared_ptr<H2Connection> h2);
  void end_own_dial(const std::shared_ptr<H2Connection>& h2);
  void stop_waiting();
  void drop_dial();
  void send_on(std::unique_ptr<H1Connection> conn);
  void send_on_h2(std::shared_ptr<H2Connection> conn);
  void release_connection(bool reusable);
  void after_response();
  void finish_with_body();
  void fail(Error error, bool wrap_url = true);
  void complete(Response r);
  std::string url_error_prefix() const;

  std::shared_ptr<HttpClient> client_;
  Reactor& reactor_;
  ClientOptions options_;
  RequestPlan plan_;
  Completion done_;
  std::shared_ptr<Transaction> self_;  // alive until complete()

  // Current hop.
  Url url_;
  std::string method_;
  std::optional<std::string> body_;
  HeaderList headers_;
  std::optional<std::string> host_;
  Phase phase_ = Phase::connect;
  bool requested_compression_ = false;
  int retries_ = 0;
  int redirects_ = 0;
  std::string origin_;           // pool key of the hop's origin
  H1Request h1_request_;         // the hop's request, as the HTTP/1.1 writer takes it
  std::unique_ptr<H1Connection> conn_;
  std::shared_ptr<H2Connection> h2_;
  int32_t h2_stream_ = 0;
  std::unique_ptr<ConnectionChain> dialer_;
  std::string dial_key_;         // origin_ when dialer_ started; it may outlive the wait (late binding)
  std::shared_ptr<ConnectionPool::H1Waiter> h1_wait_;  // takes a connection another request frees
  std::shared_ptr<ConnectionPool::SlotWaiter> slot_wait_;  // maxConnsPerHost: waits for a slot
  uint64_t wait_generation_ = 0;  // which acquire_connection a slot wake-up is for
  bool owns_dial_ = false;       // other requests for the origin wait on our dial
  ConnectionPool::Slot slot_;    // maxConnsPerHost slot of our dial, until a connection takes it
  Reactor::TimerId timeout_timer_ = 0;
  Reactor::TimerId retry_timer_ = 0;  // HTTP/2 backoff before a retry

  // Current response.
  ResponseHead head_;
  bool following_redirect_ = false;
  std::optional<Url> redirect_to_;
  std::optional<std::string> content_encoding_;
  std::unique_ptr<BodyDecoder> decoder_;  // made on the first body byte
  std::string body_bytes_;
  std::optional<Error> decode_error_;
};

}  // namespace tlsc
