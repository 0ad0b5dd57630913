#include "http/transaction.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "http/cookie_jar.h"
#include "http/h1/request_writer.h"
#include "http/response_builder.h"
#include "tls/tls_stream.h"

namespace tlsc {
namespace {

constexpr int kMaxRedirects = 10;  // Go's default CheckRedirect
constexpr size_t kDefaultMaxHeaderBytes = 10 << 20;  // Go's Transport default

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

const std::string* find_header(const HeaderList& h, std::string_view name) {
  for (const auto& [k, v] : h) {
    if (ieq(k, name)) return &v;
  }
  return nullptr;
}

void erase_header(HeaderList& h, std::string_view name) {
  std::erase_if(h, [&](const auto& kv) { return ieq(kv.first, name); });
}

const std::string* response_header(const H1ResponseHead& head, std::string_view canonical) {
  for (const auto& [k, v] : head.headers) {
    if (k == canonical) return &v;
  }
  return nullptr;
}

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Go's url.Error Op: "Get", "Post", ...
std::string url_error_op(std::string_view method) {
  std::string op(method);
  for (size_t i = 1; i < op.size(); ++i) {
    if (op[i] >= 'A' && op[i] <= 'Z') op[i] = static_cast<char>(op[i] - 'A' + 'a');
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

void Transaction::start(TransactionContext ctx, std::shared_ptr<Session> session, RequestPlan plan,
                        Completion done) {
  auto t = std::make_shared<Transaction>(ctx, std::move(session), std::move(plan), std::move(done));
  t->self_ = t;
  if (t->session_->closed()) {
    t->fail("session closed");
    return;
  }
  t->session_->in_flight().insert(t.get());
  if (t->options_.timeout.count() > 0) {
    std::weak_ptr<Transaction> weak = t;
    t->timeout_timer_ = ctx.reactor.add_timer(t->options_.timeout, [weak] {
      auto self = weak.lock();
      if (!self) return;
      self->timeout_timer_ = 0;
      bool reading_body = self->phase_ == Phase::body;
      if (reading_body) {
        self->fail("context deadline exceeded (Client.Timeout or context cancellation while "
                   "reading body)",
                   false);
      } else {
        self->fail("context deadline exceeded (Client.Timeout exceeded while awaiting headers)");
      }
    });
  }
  // Upstream puts the caller's cookies into the jar when there is one, and
  // straight onto the request otherwise.
  if (t->options_.use_cookie_jar) {
    if (!t->plan_.request_cookies.empty()) {
      t->session_->with_jar([&](CookieJar& jar) {
        jar.set_cookies(t->url_.scheme, t->url_.host(), t->url_.decoded_path(), t->plan_.request_cookies,
                        unix_now());
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

Transaction::Transaction(TransactionContext ctx, std::shared_ptr<Session> session,
                         RequestPlan plan, Completion done)
    : ctx_(ctx),
      session_(std::move(session)),
      options_(session_->options()),
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
  if (timeout_timer_) ctx_.reactor.cancel_timer(timeout_timer_);
}

std::string Transaction::url_error_prefix() const {
  return url_error_op(plan_.method) + " \"" + redacted(url_) + "\": ";
}

void Transaction::cancel(const std::string& reason) { fail(reason); }

void Transaction::begin_hop() {
  phase_ = Phase::resolve;
  head_ = H1ResponseHead{};
  body_bytes_.clear();
  decoder_.reset();
  content_encoding_.reset();
  decode_error_.reset();
  following_redirect_ = false;
  redirect_to_.reset();
  reused_connection_ = false;

  if (url_.scheme != "http" && url_.scheme != "https") {
    fail("unsupported protocol scheme \"" + url_.scheme + "\"");
    return;
  }
  if (url_.hostname.empty()) {
    fail("http: no Host in request URL");
    return;
  }
  if (url_.effective_port() == 0) {
    fail("dial tcp: address " + url_.port + ": invalid port");
    return;
  }
  HeaderList headers = headers_;
  // The jar's cookies go after any Cookie header the caller set, as Go's
  // Request.AddCookie appends them.
  if (options_.use_cookie_jar) {
    auto cookies = session_->with_jar([&](CookieJar& jar) {
      return jar.cookies(url_.scheme, url_.host(), url_.decoded_path(), unix_now());
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
  auto bytes = write_h1_request(req);
  if (!bytes) {
    fail(bytes.error().message);
    return;
  }
  request_bytes_ = std::move(*bytes);

  if (!session_->ephemeral()) {
    if (auto conn = session_->pool().take(pool_key())) {
      send_on(std::move(conn), true);
      return;
    }
  }
  connect_new();
}

std::string Transaction::pool_key() const {
  std::string key = url_.scheme + "://" + url_.host();
  if (url_.port.empty()) key += ":" + std::to_string(url_.effective_port());
  if (options_.proxy) {
    key += " via " + options_.proxy->url + " #" + std::to_string(options_.proxy_generation);
  }
  return key;
}

void Transaction::connect_new() {
  phase_ = Phase::resolve;
  std::weak_ptr<Transaction> weak = weak_from_this();
  if (options_.proxy) {
    // Upstream dials every target through the proxy's tunnel, http:// ones
    // too (its transports have no Proxy function, only the proxy dialer).
    phase_ = Phase::connect;
    ProxyDialOptions o;
    o.families = options_.families;
    o.local_address = options_.local_address;
    o.connect_headers = options_.connect_headers;
    // The request's network as upstream's roundTripper names it.
    if (options_.families == AddressFamilies::ipv4_only) o.network = "tcp4";
    if (options_.families == AddressFamilies::ipv6_only && url_.scheme == "https") o.network = "tcp6";
    proxy_dialer_ = std::make_unique<ProxyDialer>(
        ctx_.reactor, ctx_.resolver, *options_.proxy, url_.hostname, url_.effective_port(), std::move(o),
        [weak](Result<std::unique_ptr<Stream>> stream) {
          auto self = weak.lock();
          if (!self) return;
          // Not destroyed inside its own callback.
          std::shared_ptr<ProxyDialer> doomed(std::move(self->proxy_dialer_));
          self->ctx_.reactor.post([doomed] {});
          if (self->phase_ != Phase::connect) return;
          if (!stream) {
            self->fail(stream.error().message);
            return;
          }
          self->on_transport(std::move(*stream));
        });
    proxy_dialer_->start();
    return;
  }
  ctx_.resolver.resolve(
      url_.hostname, url_.effective_port(), options_.families,
      [weak](Result<std::vector<SocketAddress>> addrs) {
        auto self = weak.lock();
        if (!self || self->phase_ != Phase::resolve) return;
        if (!addrs) {
          self->fail(addrs.error().message);
          return;
        }
        self->phase_ = Phase::connect;
        self->connector_ = std::make_unique<DualStackConnector>(
            self->ctx_.reactor, std::move(*addrs), self->options_.local_address,
            [weak](Result<int> fd) {
              if (auto s = weak.lock()) s->on_connected(std::move(fd));
            });
        self->connector_->start();
      });
}

void Transaction::on_connected(Result<int> fd) {
  // Destroyed later: we are inside the connector's own callback.
  if (connector_) {
    std::shared_ptr<DualStackConnector> doomed(std::move(connector_));
    ctx_.reactor.post([doomed] {});
  }
  if (phase_ != Phase::connect) {
    if (fd) ::close(*fd);
    return;
  }
  if (!fd) {
    fail(fd.error().message);
    return;
  }
  on_transport(std::make_unique<TcpStream>(ctx_.reactor, *fd));
}

void Transaction::on_transport(std::unique_ptr<Stream> transport) {
  std::string key = pool_key();
  if (url_.scheme == "http") {
    send_on(std::make_unique<H1Connection>(std::move(transport), key), false);
    return;
  }
  auto tls_ctx = session_->tls_context();
  if (!tls_ctx) {
    fail(tls_ctx.error().message);
    return;
  }
  auto ssl = (*tls_ctx)->new_connection(url_.hostname, url_.effective_port(), options_.proxy_generation);
  if (!ssl) {
    fail(ssl.error().message);
    return;
  }
  phase_ = Phase::tls;
  std::string verify_name = options_.server_name_overwrite.empty() ? url_.hostname
                                                                    : options_.server_name_overwrite;
  auto tls = std::make_unique<TlsStream>(ctx_.reactor, std::move(transport), std::move(*ssl), *tls_ctx,
                                         verify_name);
  TlsStream* raw = tls.get();
  // The stream waits in the transaction until its handshake is done.
  handshaking_stream_ = std::move(tls);
  std::weak_ptr<Transaction> weak = weak_from_this();
  raw->start_handshake([weak, key](std::optional<Error> error) {
    auto self = weak.lock();
    if (!self || self->phase_ != Phase::tls) return;
    std::unique_ptr<Stream> stream = std::move(self->handshaking_stream_);
    if (error) {
      // Not destroyed inside its own callback.
      std::shared_ptr<Stream> doomed(std::move(stream));
      self->ctx_.reactor.post([doomed] {});
      self->fail(error->message);
      return;
    }
    self->send_on(std::make_unique<H1Connection>(std::move(stream), key), false);
  });
}

void Transaction::send_on(std::unique_ptr<H1Connection> conn, bool reused) {
  conn_ = std::move(conn);
  reused_connection_ = reused;
  phase_ = Phase::headers;
  size_t max_header = options_.transport.max_response_header_bytes > 0
                          ? static_cast<size_t>(options_.transport.max_response_header_bytes)
                          : kDefaultMaxHeaderBytes;
  size_t read_buffer = options_.transport.read_buffer_size > 0
                           ? static_cast<size_t>(options_.transport.read_buffer_size)
                           : 0;
  conn_->start_exchange(request_bytes_, method_, max_header, read_buffer, this);
}

void Transaction::on_h1_head(const H1ResponseHead& head) {
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
      session_->with_jar([&](CookieJar& jar) {
        jar.set_cookies(url_.scheme, url_.host(), url_.decoded_path(), cookies, unix_now());
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
        fail("failed to parse Location header \"" + *loc + "\": " + ref.error().message);
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

void Transaction::on_h1_body(std::string_view bytes) {
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
  if (!conn_) return;
  std::unique_ptr<H1Connection> conn = std::move(conn_);
  if (reusable && !session_->ephemeral() && !session_->closed() && conn->reusable()) {
    session_->pool().put(std::move(conn));
    return;
  }
  // Not from inside the connection's own call stack.
  std::shared_ptr<H1Connection> doomed(std::move(conn));
  doomed->abandon();
  ctx_.reactor.post([doomed] {});
}

void Transaction::on_h1_complete() {
  release_connection(true);
  after_response();
}

void Transaction::on_h1_error(const Error& error, bool received_nothing) {
  bool retry = reused_connection_ && received_nothing && retries_ == 0;
  release_connection(false);
  if (retry) {
    ++retries_;
    connect_new();
    return;
  }
  if (phase_ == Phase::body) {
    // Upstream reads the body after Do returned, so a body error carries no
    // "failed to do request" prefix.
    fail(error.message == "EOF" ? "unexpected EOF" : error.message, false);
    return;
  }
  fail(error.message);
}

void Transaction::after_response() {
  if (!following_redirect_) {
    finish_with_body();
    return;
  }
  if (redirects_ >= kMaxRedirects) {
    url_ = *redirect_to_;
    fail("stopped after 10 redirects");
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
    fail(decode_error_->message, false);
    return;
  }
  Response base;
  base.id = plan_.id;
  if (!session_->ephemeral()) base.session_id = session_->id();
  std::optional<std::vector<Cookie>> jar_cookies;
  if (options_.use_cookie_jar) {
    jar_cookies = session_->with_jar([&](CookieJar& jar) {
      return jar.cookies(url_.scheme, url_.host(), url_.decoded_path(), unix_now());
    });
  }
  BodyDelivery delivery{plan_.is_byte_response, plan_.stream_output_path, plan_.stream_block_size,
                        plan_.stream_eof_symbol};
  auto r = build_response(std::move(base), head_, url_, std::move(body_bytes_), requested_compression_,
                          std::move(jar_cookies), delivery);
  if (!r) {
    fail(r.error().message, false);
    return;
  }
  complete(std::move(*r));
}

void Transaction::fail(const std::string& message, bool wrap_url) {
  if (phase_ == Phase::done) return;
  std::string m = wrap_url ? "failed to do request: " + url_error_prefix() + message : message;
  Response r = error_response(plan_.id,
                              session_->ephemeral() ? std::nullopt
                                                    : std::optional<std::string>(session_->id()),
                              std::move(m));
  complete(std::move(r));
}

void Transaction::complete(Response r) {
  if (phase_ == Phase::done) return;
  phase_ = Phase::done;
  auto keep = std::move(self_);  // released when this function returns
  if (timeout_timer_) {
    ctx_.reactor.cancel_timer(timeout_timer_);
    timeout_timer_ = 0;
  }
  if (connector_) {
    connector_->cancel();
    std::shared_ptr<DualStackConnector> doomed(std::move(connector_));
    ctx_.reactor.post([doomed] {});
  }
  if (proxy_dialer_) {
    std::shared_ptr<ProxyDialer> doomed(std::move(proxy_dialer_));
    ctx_.reactor.post([doomed] {});
  }
  if (handshaking_stream_) {
    handshaking_stream_->close();
    std::shared_ptr<Stream> doomed(std::move(handshaking_stream_));
    ctx_.reactor.post([doomed] {});
  }
  release_connection(false);
  session_->in_flight().erase(this);
  if (session_->ephemeral()) session_->pool().close_all();
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

}  // namespace tlsc
