#include "http/transaction.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "cookies/cookie_jar.h"
#include "conn/chain_builder.h"
#include "http/h2/h2_request.h"
#include "platform/clock.h"
#include "wire/header_canon.h"
#include "http/response_builder.h"
#include "core/ascii.h"

namespace tlsc {
namespace {

constexpr int kMaxRedirects = 10;  // Go's default CheckRedirect
// A request the server never processed (a reused HTTP/1.1 connection that
// died before answering, HTTP/2 REFUSED_STREAM or above a GOAWAY) goes out
// again: at most 7 times, as Go's http2 RoundTrip loop allows.
constexpr int kMaxRetries = 7;

// Go's http2 backoff before retry n >= 1: 2^(n-1) s plus up to 10% jitter.
std::chrono::milliseconds h2_retry_backoff(int retry) {
  thread_local std::minstd_rand rng{std::random_device{}()};
  double seconds = static_cast<double>(1u << (retry - 1));
  seconds += seconds * 0.1 * std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}
constexpr size_t kDefaultMaxHeaderBytes = 10 << 20;  // Go's Transport default

const std::string* find_header(const HeaderList& h, std::string_view name) {
  for (const auto& [k, v] : h) {
    if (equal_ascii_icase(k, name)) return &v;
  }
  return nullptr;
}

void erase_header(HeaderList& h, std::string_view name) {
  std::erase_if(h, [&](const auto& kv) { return equal_ascii_icase(kv.first, name); });
}

const std::string* response_header(const ResponseHead& head, std::string_view canonical) {
  for (const auto& [k, v] : head.headers) {
    if (k == canonical) return &v;
  }
  return nullptr;
}

// Go's url.Error Op: "Get", "Post", ...
std::string url_error_op(std::string_view method) {
  std::string op(method);
  for (size_t i = 1; i < op.size(); ++i) {
    op[i] = ascii_lower(op[i]);
  }
  return op;
}

// Go's urlStr: the URL with any password redacted.
std::string redacted(const Url& u) {
  Url copy = u;
  if (size_t colon = copy.userinfo.find(':'); colon != std::string::npos) {
    copy.userinfo = copy.userinfo.substr(0, colon) + ":xxxxx";
  }
  return copy.to_string();
}

}  // namespace

void Transaction::start(std::shared_ptr<HttpClient> client, RequestPlan plan, Completion done) {
  auto t = std::make_shared<Transaction>(std::move(client), std::move(plan), std::move(done));
  t->self_ = t;
  if (t->client_->closed()) {
    t->fail(make_error(ErrorCode::session_closed, "session closed"));
    return;
  }
  t->client_->add(t.get());
  if (t->options_.timeout.count() > 0) {
    std::weak_ptr<Transaction> weak = t;
    t->timeout_timer_ = t->reactor_.add_timer(t->options_.timeout, [weak] {
      auto self = weak.lock();
      if (!self) return;
      self->timeout_timer_ = 0;
      bool reading_body = self->phase_ == Phase::body;
      if (reading_body) {
        self->fail(make_error(ErrorCode::timeout,
                              "context deadline exceeded (Client.Timeout or context cancellation while "
                              "reading body)"),
                   false);
      } else {
        self->fail(make_error(ErrorCode::timeout,
                              "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"));
      }
    });
  }
  // Upstream puts the caller's cookies into the jar when there is one, and
  // straight onto the request otherwise.
  if (t->options_.use_cookie_jar) {
    if (!t->plan_.request_cookies.empty()) {
      t->client_->with_jar([&](CookieJar& jar) {
        jar.set_cookies(t->url_.scheme, t->url_.host(), t->url_.decoded_path(), t->plan_.request_cookies,
                        unix_seconds());
        return 0;
      });
    }
  } else if (!t->plan_.request_cookies.empty()) {
    std::string value = cookie_header_value(t->plan_.request_cookies);
    if (!value.empty()) {
      if (const std::string* existing = find_header(t->headers_, "Cookie")) {
        value = *existing + "; " + value;
        erase_header(t->headers_, "Cookie");
      }
      t->headers_.emplace_back("Cookie", value);
    }
  }
  t->begin_hop();
}

Transaction::Transaction(std::shared_ptr<HttpClient> client, RequestPlan plan, Completion done)
    : client_(std::move(client)),
      reactor_(client_->reactor()),
      options_(client_->options()),
      plan_(std::move(plan)),
      done_(std::move(done)) {
  url_ = plan_.url;
  method_ = plan_.method;
  body_ = plan_.body;
  headers_ = plan_.headers;
  host_ = plan_.host_override;
  if (headers_.empty()) {
    // Upstream means to send defaultHeaders when a request has none (its
    // check never fires through the C ABI; abi/COMPAT.md).
    for (const auto& [name, values] : options_.default_headers) {
      for (const auto& v : values) headers_.emplace_back(name, v);
    }
  }
}

Transaction::~Transaction() {
  if (timeout_timer_) reactor_.cancel_timer(timeout_timer_);
  if (retry_timer_) reactor_.cancel_timer(retry_timer_);
}

std::string Transaction::url_error_prefix() const {
  return url_error_op(plan_.method) + " \"" + redacted(url_) + "\": ";
}

void Transaction::cancel(const Error& reason) { fail(reason); }

void Transaction::begin_hop() {
  phase_ = Phase::connect;
  head_ = ResponseHead{};
  body_bytes_.clear();
  decoder_.reset();
  content_encoding_.reset();
  decode_error_.reset();
  following_redirect_ = false;
  redirect_to_.reset();

  if (url_.scheme != "http" && url_.scheme != "https") {
    fail(make_error(ErrorCode::invalid_input, "unsupported protocol scheme \"" + url_.scheme + "\""));
    return;
  }
  if (url_.hostname.empty()) {
    fail(make_error(ErrorCode::invalid_input, "http: no Host in request URL"));
    return;
  }
  if (url_.effective_port() == 0) {
    fail(make_error(ErrorCode::invalid_input, "dial tcp: address " + url_.port + ": invalid port"));
    return;
  }
  HeaderList headers = headers_;
  // The jar's cookies go after any Cookie header the caller set, as Go's
  // Request.AddCookie appends them.
  if (options_.use_cookie_jar) {
    auto cookies = client_->with_jar([&](CookieJar& jar) {
      return jar.cookies(url_.scheme, url_.host(), url_.decoded_path(), unix_seconds());
    });
    if (!cookies.empty()) {
      std::string value = cookie_header_value(cookies);
      if (const std::string* existing = find_header(headers, "Cookie")) {
        value = *existing + "; " + value;
        erase_header(headers, "Cookie");
      }
      headers.emplace_back("Cookie", value);
    }
  }
  // The caller does not frame the body; the writer does.
  erase_header(headers, "Content-Length");
  erase_header(headers, "Transfer-Encoding");

  H1Request req;
  req.method = method_;
  req.request_target = url_.request_uri();
  req.headers = std::move(headers);
  req.header_order = plan_.header_order;
  req.host = host_ ? *host_ : url_.host();
  req.body = body_;
  req.close = options_.transport.disable_keep_alives;
  // fhttp's transport asks for compression itself unless told not to, and
  // then owns the decoding (it also drops Content-Encoding and
  // Content-Length from the response).
  const std::string* accept = find_header(req.headers, "Accept-Encoding");
  requested_compression_ = false;
  if (!options_.transport.disable_compression && accept == nullptr &&
      find_header(req.headers, "Range") == nullptr && method_ != "HEAD") {
    requested_compression_ = true;
    req.extra_headers.emplace_back("Accept-Encoding", "gzip, deflate, br");
  }
  if (!options_.transport.disable_compression && accept != nullptr &&
      accept->find("gzip") != std::string::npos) {
    requested_compression_ = true;
  }
  // Checked now, as Go's roundTrip does before it takes a connection; the
  // bytes are written only if the connection speaks HTTP/1.1.
  if (auto error = check_h1_request(req)) {
    fail(*error);
    return;
  }
  h1_request_ = std::move(req);
  origin_ = pool_key(url_, options_);
  acquire_connection();
}

void Transaction::acquire_connection() {
  phase_ = Phase::connect;
  ++wait_generation_;  // earlier slot wake-ups are stale
  ConnectionPool& pool = client_->pool();
  if (slot_wait_) pool.stop_waiting(slot_wait_);
  if (dialer_ && dial_key_ != origin_) {
    // A redirect to another origin: that dial is not needed any more
    // (upstream's request context ends it with the hop).
    drop_dial();
  }
  if (h1_wait_ && h1_wait_->key != origin_) pool.stop_waiting(h1_wait_);
  const bool may_h2 = url_.scheme == "https" && !options_.force_http1;
  if (may_h2) {
    if (auto h2 = pool.h2(origin_)) {
      stop_waiting();
      send_on_h2(std::move(h2));
      return;
    }
  }
  if (!client_->single_request()) {
    if (auto conn = pool.take(origin_)) {
      stop_waiting();
      send_on(std::move(conn));
      return;
    }
  }
  const bool may_share_dial = may_h2 && !pool.speaks_http1(origin_);
  if (may_share_dial && pool.dial_in_flight(origin_) && !owns_dial_) {
    stop_waiting();
    std::weak_ptr<Transaction> weak = weak_from_this();
    pool.wait_for_dial(origin_, [weak](std::shared_ptr<H2Connection> h2) {
      if (auto self = weak.lock()) self->on_dial_shared(std::move(h2));
    });
    return;
  }
  // HTTP/1.1: from here on this request also takes a connection that
  // another request frees before its own is ready (Go's idleConnWait; not
  // with keep-alives off, as Go's queueForIdleConn).
  if (!may_share_dial && !client_->single_request() && !options_.transport.disable_keep_alives && !h1_wait_) {
    std::weak_ptr<Transaction> weak = weak_from_this();
    h1_wait_ = pool.wait_for_h1(origin_, [weak, &pool](std::unique_ptr<H1Connection> conn) {
      auto self = weak.lock();
      if (self && self->phase_ == Phase::connect) {
        self->h1_wait_.reset();
        self->stop_waiting();  // for a slot
        self->send_on(std::move(conn));
      } else {
        pool.put(std::move(conn));
      }
    });
  }
  // A dial this request started for the origin (before a retry) still
  // runs: wait for it.
  if (dialer_) return;
  auto slot = pool.try_reserve_slot(origin_);
  if (!slot) {
    // maxConnsPerHost reached: wait for a connection to free up.
    std::weak_ptr<Transaction> weak = weak_from_this();
    slot_wait_ = pool.wait_for_slot(origin_, [weak, generation = wait_generation_] {
      auto self = weak.lock();
      if (!self || self->phase_ != Phase::connect || self->wait_generation_ != generation) return false;
      self->slot_wait_.reset();
      self->acquire_connection();
      return true;
    });
    return;
  }
  slot_ = std::move(*slot);
  if (may_share_dial) {
    pool.begin_dial(origin_);
    owns_dial_ = true;
  }
  connect_new();
}

void Transaction::stop_waiting() {
  if (h1_wait_) client_->pool().stop_waiting(h1_wait_);
  if (slot_wait_) client_->pool().stop_waiting(slot_wait_);
}

void Transaction::drop_dial() {
  // Never from inside the chain's own callback (on_dialed takes it first):
  // destroying it stops every step at once.
  dialer_.reset();
  end_own_dial(nullptr);
  slot_.reset();
}

void Transaction::on_dial_shared(std::shared_ptr<H2Connection> h2) {
  if (phase_ != Phase::connect) return;
  if (h2 && h2->accepts_requests()) {
    send_on_h2(std::move(h2));
    return;
  }
  acquire_connection();
}

void Transaction::end_own_dial(const std::shared_ptr<H2Connection>& h2) {
  if (!owns_dial_) return;
  owns_dial_ = false;
  client_->pool().end_dial(dial_key_, h2);
}

void Transaction::connect_new() {
  phase_ = Phase::connect;
  dial_key_ = origin_;
  TlsContext* tls = nullptr;
  if (url_.scheme == "https") {
    auto made = client_->tls_context();
    if (!made) {
      end_own_dial(nullptr);
      fail(made.error());
      return;
    }
    tls = *made;
  }
  std::weak_ptr<Transaction> weak = weak_from_this();
  dialer_ = build_connection_chain(reactor_, client_->resolver(), dial_plan(url_, options_, tls));
  dialer_->start(Connected{}, [weak](Result<Connected> dialed) {
    if (auto self = weak.lock()) self->on_dialed(std::move(dialed));
  });
}

void Transaction::on_dialed(Result<Connected> dialed) {
  reactor_.destroy_later(std::move(dialer_));  // we are inside its callback
  if (phase_ != Phase::connect) {
    // This request took a connection another one freed while we dialed:
    // ours goes to the next waiter, or idle (Go's dialConnFor).
    ConnectionPool::Slot slot = std::move(slot_);
    if (!dialed) return;
    if (dialed->alpn != "h2" && !client_->closed() && !client_->single_request()) {
      auto conn = std::make_unique<H1Connection>(std::move(dialed->stream), dial_key_);
      conn->attach_slot(std::move(slot));
      client_->pool().put(std::move(conn));
      return;
    }
    // Closed after the dialer's call returns.
    std::shared_ptr<Stream> doomed(std::move(dialed->stream));
    doomed->close();
    reactor_.post([doomed] {});
    return;
  }
  stop_waiting();
  if (!dialed) {
    end_own_dial(nullptr);
    fail(dialed.error());
    return;
  }
  if (dialed->alpn != "h2") {
    if (url_.scheme == "https") client_->pool().note_http1(origin_);
    end_own_dial(nullptr);
    auto conn = std::make_unique<H1Connection>(std::move(dialed->stream), origin_);
    conn->attach_slot(std::move(slot_));
    send_on(std::move(conn));
    return;
  }
  const H2Fingerprint* fingerprint = &options_.h2;
  H2Limits limits;
  limits.idle_timeout = client_->pool().idle_timeout();
  if (options_.transport.max_response_header_bytes > 0) {
    limits.max_header_bytes = static_cast<size_t>(options_.transport.max_response_header_bytes);
  }
  limits.single_use = options_.transport.disable_keep_alives;
  ConnectionPool* pool = &client_->pool();
  auto h2 = H2Connection::create(reactor_, std::move(dialed->stream), origin_, *fingerprint, limits,
                                 [pool](H2Connection* c) { pool->forget_h2(c); });
  if (!h2) {
    end_own_dial(nullptr);
    fail(h2.error());
    return;
  }
  std::shared_ptr<H2Connection> conn = std::move(*h2);
  conn->attach_slot(std::move(slot_));
  if (!client_->single_request() && !limits.single_use) client_->pool().add_h2(conn);
  send_on_h2(conn);
  // Requests that waited for this dial share the connection.
  end_own_dial(limits.single_use ? nullptr : conn);
}

void Transaction::send_on(std::unique_ptr<H1Connection> conn) {
  conn_ = std::move(conn);
  phase_ = Phase::headers;
  size_t max_header = options_.transport.max_response_header_bytes > 0
                          ? static_cast<size_t>(options_.transport.max_response_header_bytes)
                          : kDefaultMaxHeaderBytes;
  size_t read_buffer = options_.transport.read_buffer_size > 0
                           ? static_cast<size_t>(options_.transport.read_buffer_size)
                           : 0;
  auto bytes = write_h1_request(h1_request_);
  if (!bytes) {
    fail(bytes.error());
    return;
  }
  conn_->start_exchange(*bytes, method_, max_header, read_buffer, this);
}

void Transaction::send_on_h2(std::shared_ptr<H2Connection> conn) {
  const H2Fingerprint* fingerprint = &options_.h2;
  H2Request req;
  req.method = method_;
  req.scheme = url_.scheme;
  req.authority = h1_request_.host;
  req.path = url_.request_uri();
  req.headers = h1_request_.headers;
  req.header_order = h1_request_.header_order;
  req.pseudo_header_order = fingerprint->pseudo_header_order;
  req.add_accept_encoding = !h1_request_.extra_headers.empty();
  req.body = body_;
  auto block = h2_header_block(req);
  if (!block) {
    fail(block.error());
    return;
  }
  h2_ = std::move(conn);
  phase_ = Phase::headers;
  auto id = h2_->submit(*block, body_, this);
  if (!id) {
    h2_.reset();
    fail(id.error());
    return;
  }
  h2_stream_ = *id;
}

void Transaction::on_response_head(const ResponseHead& head) {
  head_ = head;
  phase_ = Phase::body;
  // Cookies are stored as soon as the headers arrive, for every hop, as Go's
  // Client.send does.
  if (options_.use_cookie_jar) {
    std::vector<Cookie> cookies;
    for (const auto& [k, v] : head_.headers) {
      if (k != "Set-Cookie") continue;
      if (auto c = parse_set_cookie(v)) cookies.push_back(std::move(*c));
    }
    if (!cookies.empty()) {
      client_->with_jar([&](CookieJar& jar) {
        jar.set_cookies(url_.scheme, url_.host(), url_.decoded_path(), cookies, unix_seconds());
        return 0;
      });
    }
  }
  // Redirects, as Go's redirectBehavior decides them.
  int s = head_.status;
  if (options_.follow_redirects && (s == 301 || s == 302 || s == 303 || s == 307 || s == 308)) {
    const std::string* loc = response_header(head_, "Location");
    if (loc != nullptr && !loc->empty()) {
      auto ref = parse_url(*loc);
      if (!ref) {
        fail(make_error(ErrorCode::http_protocol,
                        "failed to parse Location header \"" + *loc + "\": " + ref.error().message));
        return;
      }
      following_redirect_ = true;
      redirect_to_ = resolve_reference(url_, *ref);
      return;
    }
  }
  // The decoder is made when the first body byte arrives: an empty body
  // (HEAD, 204, 304, or just empty) is no stream to decode, even where Go's
  // brotli reader would call it truncated.
  if (const std::string* ce = response_header(head_, "Content-Encoding")) content_encoding_ = *ce;
}

void Transaction::on_response_body(std::string_view bytes) {
  if (following_redirect_ || decode_error_) return;
  if (!decoder_ && content_encoding_ && !bytes.empty()) {
    decoder_ = BodyDecoder::create(*content_encoding_);
    content_encoding_.reset();
  }
  if (!decoder_) {
    body_bytes_.append(bytes);
    return;
  }
  if (auto e = decoder_->feed(bytes, body_bytes_)) decode_error_ = std::move(*e);
}

void Transaction::release_connection(bool reusable) {
  if (h2_) {
    // A stream still open is reset; a finished one is already forgotten.
    std::shared_ptr<H2Connection> h2 = std::move(h2_);
    h2->cancel(h2_stream_);
    h2_stream_ = 0;
    return;
  }
  if (!conn_) return;
  std::unique_ptr<H1Connection> conn = std::move(conn_);
  if (reusable && !client_->single_request() && !client_->closed() && conn->reusable()) {
    client_->pool().put(std::move(conn));
    return;
  }
  // Not from inside the connection's own call stack.
  std::shared_ptr<H1Connection> doomed(std::move(conn));
  doomed->abandon();
  reactor_.post([doomed] {});
}

void Transaction::on_response_complete() {
  release_connection(true);
  after_response();
}

void Transaction::on_response_error(const Error& error, bool retryable) {
  const bool over_h2 = h2_ != nullptr;
  bool retry = retryable && retries_ < kMaxRetries;
  release_connection(false);
  if (retry) {
    // As Go's transports: any connection of the origin will do, idle or
    // new; HTTP/2 waits between retries after the first.
    const int retry_number = retries_++;
    phase_ = Phase::connect;
    if (!over_h2 || retry_number == 0) {
      acquire_connection();
      return;
    }
    std::weak_ptr<Transaction> weak = weak_from_this();
    retry_timer_ = reactor_.add_timer(h2_retry_backoff(retry_number), [weak] {
      auto self = weak.lock();
      if (!self) return;
      self->retry_timer_ = 0;
      if (self->phase_ == Phase::connect) self->acquire_connection();
    });
    return;
  }
  if (phase_ == Phase::body) {
    // Upstream reads the body after Do returned, so a body error carries no
    // "failed to do request" prefix.
    Error e = error;
    if (e.eof) e = make_error(ErrorCode::connection_closed, "unexpected EOF");
    fail(std::move(e), false);
    return;
  }
  fail(error);
}

void Transaction::after_response() {
  if (!following_redirect_) {
    finish_with_body();
    return;
  }
  if (redirects_ >= kMaxRedirects) {
    url_ = *redirect_to_;
    fail(make_error(ErrorCode::redirect_limit, "stopped after 10 redirects"));
    return;
  }
  ++redirects_;
  Url previous = url_;
  Url next = *redirect_to_;
  int s = head_.status;
  if (s == 301 || s == 302 || s == 303) {
    if (method_ != "GET" && method_ != "HEAD") method_ = "GET";
    body_.reset();
  }
  // Sensitive headers do not follow to another domain.
  if (!is_domain_or_subdomain(next.hostname, plan_.url.hostname)) {
    for (const char* h : {"Authorization", "Www-Authenticate", "Cookie", "Cookie2"}) {
      erase_header(headers_, h);
    }
  }
  // Go keeps a caller's Host override only through relative redirects.
  if (host_ && !redirect_to_->scheme.empty() && next.hostname != previous.hostname) host_.reset();
  // Go sets Referer to the previous URL unless that would leak https to http.
  erase_header(headers_, "Referer");
  if (!(previous.scheme == "https" && next.scheme == "http")) {
    Url ref = previous;
    ref.userinfo.clear();
    ref.fragment.clear();
    headers_.emplace_back("Referer", ref.to_string());
  }
  url_ = next;
  retries_ = 0;
  begin_hop();
}

void Transaction::finish_with_body() {
  if (decoder_ && !decode_error_) {
    if (auto e = decoder_->finish(body_bytes_)) decode_error_ = std::move(*e);
  }
  if (decode_error_) {
    fail(*decode_error_, false);
    return;
  }
  Response base;
  base.id = plan_.id;
  base.session_id = plan_.session_id;
  std::optional<std::vector<Cookie>> jar_cookies;
  if (options_.use_cookie_jar) {
    jar_cookies = client_->with_jar([&](CookieJar& jar) {
      return jar.cookies(url_.scheme, url_.host(), url_.decoded_path(), unix_seconds());
    });
  }
  BodyDelivery delivery{plan_.is_byte_response, plan_.stream_output_path, plan_.stream_block_size,
                        plan_.stream_eof_symbol};
  // fhttp's HTTP/1 transport drops Content-Encoding and Content-Length of a
  // body it asked compression for; its HTTP/2 transport decodes and keeps
  // both.
  const bool headers_dropped = requested_compression_ && head_.proto != "HTTP/2.0";
  auto r = build_response(std::move(base), head_, url_, std::move(body_bytes_), headers_dropped,
                          std::move(jar_cookies), delivery);
  if (!r) {
    fail(r.error(), false);
    return;
  }
  complete(std::move(*r));
}

void Transaction::fail(Error error, bool wrap_url) {
  if (phase_ == Phase::done) return;
  if (wrap_url) error.message = "failed to do request: " + url_error_prefix() + error.message;
  Response r = error_response(plan_.id, plan_.session_id, std::move(error));
  complete(std::move(r));
}

void Transaction::complete(Response r) {
  if (phase_ == Phase::done) return;
  phase_ = Phase::done;
  auto keep = std::move(self_);  // released when this function returns
  if (timeout_timer_) {
    reactor_.cancel_timer(timeout_timer_);
    timeout_timer_ = 0;
  }
  if (retry_timer_) {
    reactor_.cancel_timer(retry_timer_);
    retry_timer_ = 0;
  }
  // A dial still running ends with the request, as upstream's request
  // context ends it.
  drop_dial();
  stop_waiting();
  release_connection(false);
  client_->remove(this);
  if (client_->single_request()) client_->pool().close_all();
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

}  // namespace tlsc
