#include "http/transaction.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <new>
#include <random>

#include "cookies/cookie_jar.h"
#include "core/ascii.h"
#include "core/base64.h"
#include "http/file_sink.h"
#include "http/origin.h"
#include "http/response_builder.h"
#include "platform/clock.h"
#include "wire/header_canon.h"

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
// Bodies from this size on are converted off the loop thread (a copy and a
// pass over the bytes: about a millisecond per MiB).
constexpr size_t kConvertOnLoopBytes = 1 << 20;

// A decoder makes at most this much of a body per turn of the loop (about
// 2-5 ms of work): a few bytes of a decompression bomb must not keep every
// other request waiting while they become a GiB.
constexpr size_t kDecodeStep = size_t{4} << 20;
// A streamed body whose reader has taken nothing for this long while the
// sink is full ends with an error, so that a caller who neither reads nor
// cancels cannot hold a connection for ever (upstream gives up after the
// same 60 s).
constexpr std::chrono::seconds kStreamStallLimit{60};

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

std::string_view transaction_state_name(TransactionState s) {
  switch (s) {
    case TransactionState::starting:
      return "starting";
    case TransactionState::waiting_for_slot:
      return "waiting_for_slot";
    case TransactionState::waiting_for_shared_dial:
      return "waiting_for_shared_dial";
    case TransactionState::dialing:
      return "dialing";
    case TransactionState::waiting_to_retry:
      return "waiting_to_retry";
    case TransactionState::sending:
      return "sending";
    case TransactionState::awaiting_head:
      return "awaiting_head";
    case TransactionState::reading_body:
      return "reading_body";
    case TransactionState::redirecting:
      return "redirecting";
    case TransactionState::converting:
      return "converting";
    case TransactionState::writing_output:
      return "writing_output";
    case TransactionState::done:
      return "done";
  }
  return "done";
}

std::shared_ptr<Transaction> Transaction::start(std::shared_ptr<HttpClient> client, RequestPlan plan,
                                                Completion done) {
  // Made without its completion: if there is no memory for it, `done` is
  // still the caller's, who answers (the exception says so).
  auto t = std::make_shared<Transaction>(std::move(client), std::move(plan));
  // From here `done` is called exactly once, whatever fails to allocate.
  t->done_ = std::move(done);
  t->self_ = t;
  t->failing_on_no_memory([&] { t->begin(); });
  return t;
}

void Transaction::begin() {
  if (client_->closed()) {
    fail(make_error(ErrorCode::session_closed, "session closed"));
    return;
  }
  if (plan_.stream_output_path && !plan_.is_byte_response && !plan_.body_sink) {
    // streamOutputPath: the file grows as the body downloads, as upstream
    // writes it (a byte response writes no file there either).
    auto sink = std::make_shared<FileSink>(reactor_, *plan_.stream_output_path, plan_.stream_block_size,
                                           plan_.stream_eof_symbol.value_or(""), plan_.max_body_bytes);
    sink->attach(weak_from_this());
    plan_.body_sink = std::move(sink);
    writes_file_ = true;
  }
  client_->add(this);
  if (options_.debug) trace(plan_.method + " " + plan_.url.to_string());
  if (options_.timeout.count() > 0) {
    std::weak_ptr<Transaction> weak = weak_from_this();
    timeout_timer_ = reactor_.add_timer(options_.timeout, [weak] {
      auto self = weak.lock();
      if (!self) return;
      self->timeout_timer_ = 0;
      // Upstream reads the body after Do returned: its deadline error then
      // carries no "failed to do request" prefix.
      self->failing_on_no_memory([&] {
        if (self->state_ == TransactionState::reading_body || self->state_ == TransactionState::redirecting ||
            self->state_ == TransactionState::converting) {
          self->fail(make_error(ErrorCode::timeout,
                                "context deadline exceeded (Client.Timeout or context cancellation while "
                                "reading body)"),
                     false);
        } else {
          self->fail(
              make_error(ErrorCode::timeout,
                         "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"));
        }
      });
    });
  }
  // Upstream puts the caller's cookies into the jar when there is one, and
  // straight onto the request otherwise.
  if (options_.use_cookie_jar) {
    if (!plan_.request_cookies.empty()) {
      client_->with_jar([&](CookieJar& jar) {
        jar.set_cookies(url_.scheme, url_.host(), url_.decoded_path(), plan_.request_cookies, unix_seconds());
        return 0;
      });
    }
  } else if (!plan_.request_cookies.empty()) {
    std::string value = cookie_header_value(plan_.request_cookies);
    if (!value.empty()) {
      if (const std::string* existing = find_header(headers_, "Cookie")) {
        value = *existing + "; " + value;
        erase_header(headers_, "Cookie");
      }
      headers_.emplace_back("Cookie", value);
    }
  }
  begin_hop();
}

Transaction::Transaction(std::shared_ptr<HttpClient> client, RequestPlan plan)
    : client_(std::move(client)),
      reactor_(client_->reactor()),
      options_(client_->options()),
      plan_(std::move(plan)),
      started_(MonotonicClock::now()) {
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
  if (stall_timer_) reactor_.cancel_timer(stall_timer_);
}

std::string Transaction::url_error_prefix() const {
  return url_error_op(plan_.method) + " \"" + redacted(url_) + "\": ";
}

void Transaction::cancel(const Error& reason) {
  failing_on_no_memory([&] { fail(reason); });
}

void Transaction::cancel_by_caller() {
  // Go's request context: cancelled during Do, the error comes wrapped in
  // the url.Error; cancelled while the body is read, bare.
  const bool reading = state_ == TransactionState::reading_body || state_ == TransactionState::redirecting ||
                       state_ == TransactionState::writing_output;
  failing_on_no_memory([&] { fail(make_error(ErrorCode::cancelled, "context canceled"), !reading); });
}

void Transaction::set_state(TransactionState s) {
  if (state_ == s) return;
  state_ = s;
  trace(transaction_state_name(s));
}

// Callers that build the text test options_.debug first, so that a request
// without withDebug makes no trace strings.
void Transaction::trace(std::string_view what) const {
  if (!options_.debug) return;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(MonotonicClock::now() - started_).count();
  // One line per step, as upstream's debug logger prints one per event.
  std::fprintf(stderr, "tls-client debug: %s +%lldms %.*s\n", plan_.id.c_str(), static_cast<long long>(ms),
               static_cast<int>(what.size()), what.data());
}

void Transaction::begin_hop() {
  set_state(TransactionState::starting);
  head_ = ResponseHead{};
  response_body_.clear();
  decoder_.reset();
  content_encoding_.reset();
  decode_error_.reset();
  redirect_to_.reset();
  undecoded_.clear();
  decode_backlog_ = decoder_more_ = response_ended_ = false;

  if (url_.scheme != "http" && url_.scheme != "https") {
    // tls-client's round tripper words it so (fhttp never sees the request).
    fail(make_error(ErrorCode::invalid_input, "invalid URL scheme: [" + url_.scheme + "]"));
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
  // Go's Client.send: credentials in the URL become Basic auth unless the
  // request has an Authorization of its own (each hop's own URL decides).
  if (!url_.userinfo.empty() && find_header(headers, "Authorization") == nullptr) {
    headers.emplace_back("Authorization",
                         "Basic " + base64_encode(url_.username() + ":" + url_.password().value_or("")));
  }
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
  request_.message = std::move(req);
  request_.scheme = url_.scheme;
  request_.max_header_bytes = options_.transport.max_response_header_bytes > 0
                                  ? static_cast<size_t>(options_.transport.max_response_header_bytes)
                                  : kDefaultMaxHeaderBytes;
  request_.read_buffer_size =
      options_.transport.read_buffer_size > 0 ? static_cast<size_t>(options_.transport.read_buffer_size) : 0;

  std::string key = pool_key(url_, options_);
  if (!acquisition_ || acquisition_->key() != key) {
    // A redirect to another origin: the old hop's dial is not needed any
    // more (upstream's request context ends it with the hop).
    end_acquisition();
    TlsContext* tls = nullptr;
    if (url_.scheme == "https") {
      auto made = client_->tls_context();
      if (!made) {
        fail(made.error());
        return;
      }
      tls = *made;
    }
    AcquireOptions a;
    a.key = key;
    a.dial = dial_plan(url_, options_, tls);
    a.may_h2 = url_.scheme == "https" && !options_.force_http1;
    a.reuse = !client_->single_request();
    a.late_binding = !options_.transport.disable_keep_alives;
    if (options_.timeout.count() > 0) a.orphan_dial_bound = options_.timeout;
    a.h2 = options_.h2;
    a.h2_limits.idle_timeout = client_->pool().idle_timeout();
    if (options_.transport.max_response_header_bytes > 0) {
      a.h2_limits.max_header_bytes = static_cast<size_t>(options_.transport.max_response_header_bytes);
    }
    a.h2_limits.single_use = options_.transport.disable_keep_alives;
    if (may_use_h3(url_, options_)) {
      // withAltSvc: the origin's advertised HTTP/3 port while it lasts
      // (and no race without one); withProtocolRacing races either way.
      std::optional<uint16_t> alt_port;
      if (options_.alt_svc) {
        alt_port = client_->alt_svc().h3_port(alt_svc_origin(url_), std::chrono::steady_clock::now());
      }
      if (options_.protocol_racing || alt_port) {
        auto quic_tls = client_->tls_context_quic();
        if (!quic_tls) {
          fail(quic_tls.error());
          return;
        }
        a.h3 = h3_dial_plan(url_, options_, *quic_tls, alt_port);
        a.settling = options_.protocol_racing ? RaceSettling::first_winner : RaceSettling::until_broken;
      }
    }
    std::weak_ptr<Transaction> weak = weak_from_this();
    acquisition_ = client_->pool().begin(std::move(a), [weak](AcquireProgress p) {
      if (auto self = weak.lock()) self->on_acquire_progress(p);
    });
  }
  acquire();
}

void Transaction::acquire() {
  std::weak_ptr<Transaction> weak = weak_from_this();
  acquisition_->acquire([weak](Result<std::shared_ptr<HttpConnection>> conn) {
    if (auto self = weak.lock()) self->failing_on_no_memory([&] { self->on_connection(std::move(conn)); });
  });
}

void Transaction::on_acquire_progress(AcquireProgress p) {
  switch (p) {
    case AcquireProgress::waiting_for_slot:
      set_state(TransactionState::waiting_for_slot);
      return;
    case AcquireProgress::waiting_for_dial:
      set_state(TransactionState::waiting_for_shared_dial);
      return;
    case AcquireProgress::dialing:
      set_state(TransactionState::dialing);
      return;
  }
}

void Transaction::end_acquisition() {
  if (!acquisition_) return;
  acquisition_->abandon();
  // We may be inside its own call.
  reactor_.destroy_later(std::move(acquisition_));
}

void Transaction::on_connection(Result<std::shared_ptr<HttpConnection>> conn) {
  if (!conn) {
    fail(conn.error());
    return;
  }
  conn_ = std::move(*conn);
  set_state(TransactionState::sending);
  auto id = conn_->submit(request_, this);
  if (!id) {
    release_connection(false);
    fail(id.error());
    return;
  }
  exchange_ = *id;
}

void Transaction::on_request_sent() {
  if (state_ == TransactionState::sending) set_state(TransactionState::awaiting_head);
}

template <class F>
void Transaction::failing_on_no_memory(F&& step) {
  try {
    step();
  } catch (const std::bad_alloc&) {
    // This request fails alone; what it held goes first, so that the
    // answer itself can be made.
    response_body_.clear();
    std::string().swap(decoded_);
    decoder_.reset();
    fail(no_memory_error(), false);
  }
}

void Transaction::on_response_head(const ResponseHead& head) {
  failing_on_no_memory([&] { take_response_head(head); });
}

void Transaction::learn_alt_svc() {
  std::vector<std::string_view> values;
  for (const auto& [k, v] : head_.headers) {
    if (k == "Alt-Svc") values.push_back(v);
  }
  if (values.empty()) return;
  client_->alt_svc().learn(alt_svc_origin(url_), url_.hostname, values, std::chrono::steady_clock::now());
}

void Transaction::take_response_head(const ResponseHead& head) {
  head_ = head;
  set_state(TransactionState::reading_body);
  if (options_.debug) trace(head_.proto + " " + std::to_string(head_.status));
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
  if (options_.alt_svc && url_.scheme == "https") learn_alt_svc();
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
      redirect_to_ = resolve_reference(url_, *ref);
      set_state(TransactionState::redirecting);
      return;
    }
  }
  if (plan_.body_sink) {
    // requestStream: the envelope now, the body as it comes.
    if (const std::string* ce = response_header(head_, "Content-Encoding")) content_encoding_ = *ce;
    streaming_ = true;
    stream_envelope_ = build_final_response(BodyBuffer(), false);
    stream_envelope_.body.clear();
    plan_.body_sink->on_head(stream_envelope_);
    return;
  }
  // The decoder is made when the first body byte arrives: an empty body
  // (HEAD, 204, 304, or just empty) is no stream to decode, even where Go's
  // brotli reader would call it truncated.
  if (const std::string* ce = response_header(head_, "Content-Encoding")) content_encoding_ = *ce;
  // No body follows a HEAD request, a 204 or a 304, whatever the length says.
  const bool bodiless = method_ == "HEAD" || head_.status == 204 || head_.status == 304;
  const std::string* length =
      content_encoding_ || bodiless ? nullptr : response_header(head_, "Content-Length");
  uint64_t announced = 0;
  if (length != nullptr &&
      std::from_chars(length->data(), length->data() + length->size(), announced).ec == std::errc()) {
    // A body announced past the limit is refused before it is read.
    if (announced > plan_.max_body_bytes) {
      fail(body_too_large_error(plan_.max_body_bytes), false);
      return;
    }
    // Its room, at once (a 256 KiB body grew by doubling: six copies).
    response_body_.reserve(announced);
  }
}

void Transaction::on_response_body(std::string_view bytes) {
  failing_on_no_memory([&] { take_response_body(bytes); });
}

void Transaction::take_response_body(std::string_view bytes) {
  if (state_ != TransactionState::reading_body || decode_error_) return;
  if (!decoder_ && content_encoding_ && !bytes.empty()) {
    // A streamed body has no total to bound: it leaves as it comes.
    decoder_ =
        BodyDecoder::create(*content_encoding_, streaming_ ? BodyDecoder::kUnlimited : plan_.max_body_bytes);
    content_encoding_.reset();
  }
  if (!decoder_) {
    if (streaming_) {
      deliver_to_sink(bytes);
      return;
    }
    if (bytes.size() > plan_.max_body_bytes - response_body_.size()) {
      fail(body_too_large_error(plan_.max_body_bytes), false);
      return;
    }
    response_body_.append(bytes);
    return;
  }
  // Decoded in bounded steps. Bytes that come while a backlog waits (what
  // the connection had already read when it was paused) queue behind it.
  if (decode_backlog_) {
    undecoded_.append(bytes);
    return;
  }
  std::string_view in = bytes;
  if (!decode_step(in)) return;
  if (!decode_error_ && (!in.empty() || decoder_more_)) {
    undecoded_.assign(in);
    decode_backlog_ = true;
    update_conn_pause();
    schedule_decode();
  }
}

bool Transaction::decode_step(std::string_view& in) {
  decoded_.clear();
  auto e = decoder_->feed_some(in, decoded_, kDecodeStep, decoder_more_);
  if (streaming_) {
    deliver_to_sink(decoded_);
  } else {
    response_body_.append(decoded_);
  }
  if (!e) return true;
  decoder_more_ = false;
  in = std::string_view();
  // Past the limit the rest is not worth reading (a bomb would keep the
  // connection busy for nothing); a body that does not decode fails when
  // it ends, as Go's reader reports it then.
  if (e->code == ErrorCode::body_too_large) {
    fail(std::move(*e), false);
    return false;
  }
  decode_error_ = std::move(*e);
  return true;
}

void Transaction::schedule_decode() {
  // A full sink stops the decoding too; resume_body starts it again.
  if (decode_scheduled_ || body_paused_) return;
  decode_scheduled_ = true;
  std::weak_ptr<Transaction> weak = weak_from_this();
  reactor_.post([weak] {
    auto self = weak.lock();
    if (!self) return;
    self->decode_scheduled_ = false;
    self->failing_on_no_memory([&] { self->continue_decoding(); });
  });
}

void Transaction::continue_decoding() {
  if (!decode_backlog_ || state_ != TransactionState::reading_body || body_paused_) return;
  if (!decode_error_) {
    std::string_view in = undecoded_;
    if (!decode_step(in)) return;
    undecoded_.erase(0, undecoded_.size() - in.size());
    if (!decode_error_ && (!undecoded_.empty() || decoder_more_)) {
      schedule_decode();
      return;
    }
  }
  // Decoded (or broken: the rest of the body is read and dropped, and the
  // error comes when it ends).
  decode_backlog_ = false;
  std::string().swap(undecoded_);
  update_conn_pause();
  if (response_ended_) {
    response_ended_ = false;
    after_response();
  }
}

void Transaction::update_conn_pause() {
  const bool paused = body_paused_ || decode_backlog_;
  if (!conn_ || paused == conn_paused_) return;
  conn_paused_ = paused;
  conn_->pause_body(exchange_, paused);
}

void Transaction::deliver_to_sink(std::string_view bytes) {
  if (bytes.empty()) return;
  if (!plan_.body_sink->on_body(bytes)) pause_body();
}

void Transaction::pause_body() {
  if (body_paused_ || !conn_) return;
  body_paused_ = true;
  update_conn_pause();
  std::weak_ptr<Transaction> weak = weak_from_this();
  stall_timer_ = reactor_.add_timer(kStreamStallLimit, [weak] {
    auto self = weak.lock();
    if (!self) return;
    self->stall_timer_ = 0;
    self->failing_on_no_memory([&] {
      self->fail(make_error(ErrorCode::cancelled, "stream stalled: nothing was read from it for 60s"), false);
    });
  });
}

void Transaction::resume_body() {
  if (!body_paused_) return;
  body_paused_ = false;
  if (stall_timer_) {
    reactor_.cancel_timer(stall_timer_);
    stall_timer_ = 0;
  }
  update_conn_pause();
  if (decode_backlog_) schedule_decode();
}

void Transaction::release_connection(bool reusable) {
  if (!conn_) return;
  if (conn_paused_) {
    // The connection goes on without this body's reader (body_paused_ still
    // holds the decoding back while the sink is full).
    conn_paused_ = false;
    conn_->pause_body(exchange_, false);
  }
  std::shared_ptr<HttpConnection> conn = std::move(conn_);
  const HttpConnection::ExchangeId exchange = exchange_;
  exchange_ = 0;
  if (conn->multiplexed()) {
    // A stream still open is reset; a finished one is already forgotten.
    // The connection stays shared (or closes itself when nobody has it).
    conn->cancel(exchange);
  } else if (acquisition_) {
    acquisition_->release(std::move(conn), reusable && !client_->closed());
    return;
  } else {
    conn->cancel(exchange);
  }
  // Maybe the last owner, and maybe inside the connection's own call.
  reactor_.destroy_later(std::move(conn));
}

void Transaction::on_response_complete() {
  failing_on_no_memory([&] {
    release_connection(true);
    // All of it has come; what still waits to be decoded ends it later.
    if (decode_backlog_) {
      response_ended_ = true;
      return;
    }
    after_response();
  });
}

void Transaction::on_response_error(const Error& error, bool retryable) {
  failing_on_no_memory([&] { take_response_error(error, retryable); });
}

void Transaction::take_response_error(const Error& error, bool retryable) {
  const bool over_h2 = conn_ && conn_->multiplexed();
  const bool reading = state_ == TransactionState::reading_body || state_ == TransactionState::redirecting;
  bool retry = retryable && retries_ < kMaxRetries;
  release_connection(false);
  if (retry) {
    // As Go's transports: any connection of the origin will do, idle or
    // new; HTTP/2 waits between retries after the first.
    const int retry_number = retries_++;
    if (options_.debug) trace("retrying: " + error.message);
    if (!over_h2 || retry_number == 0) {
      acquire();
      return;
    }
    set_state(TransactionState::waiting_to_retry);
    std::weak_ptr<Transaction> weak = weak_from_this();
    retry_timer_ = reactor_.add_timer(h2_retry_backoff(retry_number), [weak] {
      auto self = weak.lock();
      if (!self) return;
      self->retry_timer_ = 0;
      if (self->state_ == TransactionState::waiting_to_retry)
        self->failing_on_no_memory([&] { self->acquire(); });
    });
    return;
  }
  if (reading) {
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
  if (!redirect_to_) {
    finish_with_body();
    return;
  }
  // Go's checkRedirect refuses the next request once 10 were made (this
  // response being the 10th), and its url.Error then names the Location as
  // the server wrote it, not the URL it resolves to.
  if (redirects_ + 1 >= kMaxRedirects) {
    const std::string* location = response_header(head_, "Location");
    const std::string named = location != nullptr ? *location : redacted(*redirect_to_);
    url_ = *redirect_to_;
    fail(make_error(ErrorCode::redirect_limit, "failed to do request: " + url_error_op(plan_.method) + " " +
                                                   go_quote(named) + ": stopped after 10 redirects"),
         false);
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
  if (options_.debug) trace("redirect to " + url_.to_string());
  begin_hop();
}

bool Transaction::finish_decoding(std::string& out) {
  if (decoder_ && !decode_error_) {
    if (auto e = decoder_->finish(out)) decode_error_ = std::move(*e);
  }
  if (!decode_error_) return true;
  fail(*decode_error_, false);
  return false;
}

void Transaction::finish_stream() {
  decoded_.clear();
  if (!finish_decoding(decoded_)) return;
  if (!decoded_.empty()) plan_.body_sink->on_body(decoded_);  // the end: no pause
  if (writes_file_) {
    // The body is read: the client timeout is over; what the disk still
    // has to take is the file's (as the state says).
    if (timeout_timer_) {
      reactor_.cancel_timer(timeout_timer_);
      timeout_timer_ = 0;
    }
    set_state(TransactionState::writing_output);
  }
  // The sink has had everything; the completion comes when it is through
  // with it, with the envelope (an empty body: the bytes went to the sink).
  std::weak_ptr<Transaction> weak = weak_from_this();
  plan_.body_sink->on_end([weak](std::optional<Error> error) {
    auto self = weak.lock();
    if (!self || self->state_ == TransactionState::done) return;
    if (error) {
      self->fail(std::move(*error), false);
      return;
    }
    self->complete(std::move(self->stream_envelope_));
  });
}

void Transaction::fail_by_sink(Error error) {
  failing_on_no_memory([&] { fail(std::move(error), false); });
}

Transaction::ResponseInputs Transaction::final_response_inputs(BodyBuffer body) {
  ResponseInputs in;
  in.base.id = plan_.id;
  in.base.session_id = plan_.session_id;
  if (options_.use_cookie_jar) {
    in.jar_cookies = client_->with_jar([&](CookieJar& jar) {
      return jar.cookies(url_.scheme, url_.host(), url_.decoded_path(), unix_seconds());
    });
  }
  in.head = head_;
  in.url = url_;
  in.body = std::move(body);
  // fhttp's HTTP/1 transport drops Content-Encoding and Content-Length of a
  // body it asked compression for; its HTTP/2 transport decodes and keeps
  // both.
  in.headers_dropped = requested_compression_ && head_.proto != "HTTP/2.0";
  return in;
}

Response Transaction::ResponseInputs::build(bool is_byte_response) && {
  return build_response(std::move(base), head, url, std::move(body), headers_dropped, std::move(jar_cookies),
                        is_byte_response);
}

Response Transaction::build_final_response(BodyBuffer body, bool is_byte_response) {
  return final_response_inputs(std::move(body)).build(is_byte_response);
}

void Transaction::finish_with_body() {
  if (streaming_) {
    finish_stream();
    return;
  }
  decoded_.clear();
  if (!finish_decoding(decoded_)) return;
  response_body_.append(decoded_);
  std::string().swap(decoded_);
  const bool is_byte_response = plan_.is_byte_response;
  if (response_body_.size() < kConvertOnLoopBytes) {
    complete(build_final_response(std::move(response_body_), is_byte_response));
    return;
  }
  // A large body is joined and converted (charset to UTF-8, or base64) on
  // the helper thread: on the loop it would hold back every other request's
  // bytes and timers. This request's timeout still runs meanwhile, as Go's
  // covers the charset reader.
  set_state(TransactionState::converting);
  auto inputs = std::make_shared<ResponseInputs>(final_response_inputs(std::move(response_body_)));
  response_body_.clear();
  auto built = std::make_shared<std::optional<Response>>();
  std::weak_ptr<Transaction> weak = weak_from_this();
  reactor_.run_blocking(
      [inputs, built, is_byte_response] {
        try {
          *built = std::move(*inputs).build(is_byte_response);
        } catch (const std::bad_alloc&) {
          built->reset();
        }
        inputs->body.clear();
      },
      [weak, built] {
        auto self = weak.lock();
        if (!self || self->state_ != TransactionState::converting)
          return;  // timed out or cancelled meanwhile
        if (!*built) {
          self->fail(no_memory_error(), false);
          return;
        }
        self->failing_on_no_memory([&] { self->complete(std::move(**built)); });
      });
}

void Transaction::fail(Error error, bool wrap_url) {
  if (state_ == TransactionState::done) return;
  if (wrap_url) error.message = "failed to do request: " + url_error_prefix() + error.message;
  if (options_.debug)
    trace(std::string("failed (") + std::string(error_code_name(error.code)) + "): " + error.message);
  Response r = error_response(plan_.id, plan_.session_id, std::move(error));
  r.error_state = std::string(transaction_state_name(state_));
  complete(std::move(r));
}

void Transaction::complete(Response r) {
  if (state_ == TransactionState::done) return;
  set_state(TransactionState::done);
  auto keep = std::move(self_);  // released when this function returns
  if (timeout_timer_) {
    reactor_.cancel_timer(timeout_timer_);
    timeout_timer_ = 0;
  }
  if (retry_timer_) {
    reactor_.cancel_timer(retry_timer_);
    retry_timer_ = 0;
  }
  if (stall_timer_) {
    reactor_.cancel_timer(stall_timer_);
    stall_timer_ = 0;
  }
  // Each step of the tidying up may find no memory (a connection that
  // cannot go back to the pool is closed instead); the answer goes out
  // regardless.
  auto quietly = [](auto&& step) {
    try {
      step();
    } catch (const std::bad_alloc&) {
    }
  };
  quietly([&] { release_connection(false); });
  // A dial still running ends with the request, as upstream's request
  // context ends it (unless another connection served the request: then
  // the pool keeps the dial, ConnectionPool::Acquisition).
  quietly([&] { end_acquisition(); });
  client_->remove(this);
  quietly([&] {
    if (client_->single_request()) client_->pool().close_all();
  });
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

}  // namespace tlsc
