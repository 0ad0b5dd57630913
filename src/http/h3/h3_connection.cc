#include "http/h3/h3_connection.h"

#include <nghttp3/nghttp3.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "tls/crypto_primitives.h"
#include "wire/h3_control_stream.h"
#include "wire/header_canon.h"

namespace tlsc {

struct H3Connection::Exchange {
  ExchangeId id = 0;
  int64_t stream_id = -1;                // -1 while waiting for a stream the server allows
  H2HeaderBlock request_headers;         // until the stream is opened
  ExchangeObserver* observer = nullptr;  // nullptr once cancelled
  std::string body;                      // kept until the stream closes (nghttp3 sends from it)
  bool head_request = false;             // a HEAD: no body follows
  ResponseHead head;
  std::optional<H2ResponseBlock> block;  // the header block being received
  int informational = 0;
  bool head_reported = false;
  bool complete = false;  // the response ended (end_stream)
  bool paused = false;
  size_t unconsumed = 0;  // body bytes not yet given back to flow control
  std::optional<Error> local_error;
};

namespace {

// At most this many 1xx heads before a final one, as fhttp bounds them.
constexpr int kMaxInformational = 5;

uint64_t random_u64() {
  uint64_t v = 0;
  secure_random_bytes(reinterpret_cast<uint8_t*>(&v), sizeof v);
  return v;
}

std::string_view view(nghttp3_rcbuf* buf) {
  const nghttp3_vec v = nghttp3_rcbuf_get_buf(buf);
  return {reinterpret_cast<const char*>(v.base), v.len};
}

}  // namespace

// nghttp3's C callbacks, forwarding to the connection (its user data) and
// the exchange (the stream's).
struct H3Connection::Callbacks {
  static H3Connection* self(void* user_data) { return static_cast<H3Connection*>(user_data); }

  static nghttp3_ssize read_body(nghttp3_conn*, int64_t, nghttp3_vec* vec, size_t veccnt, uint32_t* flags,
                                 void*, void* stream_user_data) {
    auto* e = static_cast<Exchange*>(stream_user_data);
    *flags |= NGHTTP3_DATA_FLAG_EOF;
    if (veccnt == 0 || e->body.empty()) return 0;
    vec[0] = {reinterpret_cast<uint8_t*>(e->body.data()), e->body.size()};
    return 1;
  }

  static int begin_headers(nghttp3_conn*, int64_t, void* user_data, void* stream_user_data) {
    auto* e = static_cast<Exchange*>(stream_user_data);
    if (e != nullptr && !e->local_error) e->block.emplace(self(user_data)->limits_.max_header_bytes);
    return 0;
  }

  static int recv_header(nghttp3_conn*, int64_t, int32_t, nghttp3_rcbuf* name, nghttp3_rcbuf* value, uint8_t,
                         void*, void* stream_user_data) {
    auto* e = static_cast<Exchange*>(stream_user_data);
    if (e == nullptr || e->local_error || !e->block) return 0;
    const std::string_view n = view(name), v = view(value);
    if (!e->block->add(n, v)) return 0;
    if (e->head_reported || n.starts_with(":")) return 0;  // trailers are dropped, as upstream
    e->head.headers.emplace_back(canonical_header_key(n), std::string(v));
    return 0;
  }

  static int end_headers(nghttp3_conn*, int64_t stream_id, int, void* user_data, void* stream_user_data) {
    auto* e = static_cast<Exchange*>(stream_user_data);
    if (e != nullptr) self(user_data)->on_headers_end(stream_id, *e);
    return 0;
  }

  static int recv_data(nghttp3_conn*, int64_t stream_id, const uint8_t* data, size_t size, void* user_data,
                       void* stream_user_data) {
    H3Connection* c = self(user_data);
    auto* e = static_cast<Exchange*>(stream_user_data);
    if (e != nullptr && e->paused) {
      e->unconsumed += size;  // given back when the body is resumed
      return 0;
    }
    c->quic_->consume(stream_id, size);
    if (e == nullptr) return 0;
    if (e->local_error || e->observer == nullptr || !e->head_reported || e->head_request) return 0;
    e->observer->on_response_body(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
  }

  static int deferred_consume(nghttp3_conn*, int64_t stream_id, size_t consumed, void* user_data, void*) {
    self(user_data)->quic_->consume(stream_id, consumed);
    return 0;
  }

  static int end_stream(nghttp3_conn*, int64_t stream_id, void* user_data, void* stream_user_data) {
    auto* e = static_cast<Exchange*>(stream_user_data);
    if (e == nullptr || e->local_error) return 0;
    e->complete = true;
    H3Connection* c = self(user_data);
    if (!e->head_reported) {
      c->reset_exchange(stream_id, *e, make_error(ErrorCode::http_protocol, "http3: no response headers"));
      return 0;
    }
    c->finish_exchange(*e, std::nullopt);
    return 0;
  }

  static int stream_close(nghttp3_conn*, int64_t, uint64_t app_error_code, void* user_data,
                          void* stream_user_data) {
    auto* e = static_cast<Exchange*>(stream_user_data);
    H3Connection* c = self(user_data);
    if (e == nullptr) return 0;
    if (e->local_error) {
      c->finish_exchange(*e, e->local_error);
    } else if (!e->complete) {
      c->finish_exchange(*e, make_error(ErrorCode::stream_reset, "http3: stream reset by the server (code " +
                                                                     std::to_string(app_error_code) + ")"));
    }
    c->forget(*e);
    return 0;
  }

  static int stop_sending(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* user_data, void*) {
    self(user_data)->quic_->stop_reading(stream_id, app_error_code);
    return 0;
  }

  static int reset_stream(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* user_data, void*) {
    self(user_data)->quic_->reset_stream(stream_id, app_error_code);
    return 0;
  }

  static int shutdown(nghttp3_conn*, int64_t, void* user_data) {
    // The server's GOAWAY: open requests finish, no new ones.
    H3Connection* c = self(user_data);
    c->going_away_ = true;
    c->retire();
    return 0;
  }

  static nghttp3_callbacks table() {
    nghttp3_callbacks cb{};
    cb.stream_close = stream_close;
    cb.recv_data = recv_data;
    cb.deferred_consume = deferred_consume;
    cb.begin_headers = begin_headers;
    cb.recv_header = recv_header;
    cb.end_headers = end_headers;
    cb.begin_trailers = begin_headers;
    cb.recv_trailer = recv_header;
    cb.end_trailers = end_headers;
    cb.stop_sending = stop_sending;
    cb.end_stream = end_stream;
    cb.reset_stream = reset_stream;
    cb.shutdown = shutdown;
    return cb;
  }
};

Result<std::shared_ptr<H3Connection>> H3Connection::connect(Reactor& reactor, TlsContext& tls,
                                                            QuicConnectOptions options,
                                                            const H3Fingerprint& fingerprint, H3Limits limits,
                                                            std::string pool_key, Ready ready,
                                                            Retired retired) {
  std::shared_ptr<H3Connection> c(new H3Connection(reactor, fingerprint, limits, std::move(pool_key),
                                                   std::move(ready), std::move(retired)));
  std::weak_ptr<H3Connection> weak = c;
  auto quic = QuicConnection::connect(
      reactor, tls, std::move(options),
      [weak](std::optional<Error> error) {
        auto self = weak.lock();
        if (!self || self->ready_reported_) return;
        self->ready_reported_ = true;
        if (error) self->closed_ = true;
        Ready report = std::move(self->ready_);
        if (report) report(std::move(error));
      },
      c.get());
  if (!quic) return quic.error();
  c->quic_ = std::move(*quic);
  return c;
}

H3Connection::H3Connection(Reactor& reactor, const H3Fingerprint& fingerprint, H3Limits limits,
                           std::string pool_key, Ready ready, Retired retired)
    : reactor_(reactor),
      fingerprint_(fingerprint),
      limits_(limits),
      pool_key_(std::move(pool_key)),
      ready_(std::move(ready)),
      retired_(std::move(retired)) {}

H3Connection::~H3Connection() {
  // ngtcp2 calls into this object: it goes first.
  quic_.reset();
  nghttp3_conn_del(h3_);
}

bool H3Connection::on_handshake_completed() {
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  // nghttp3 acts on the settings the raw frame announces.
  for (const auto& [id, value] : fingerprint_.control.settings) {
    switch (id) {
      case kH3QpackMaxTableCapacity:
        settings.qpack_max_dtable_capacity = static_cast<size_t>(value);
        break;
      case kH3MaxFieldSectionSize:
        settings.max_field_section_size = value;
        break;
      case kH3QpackBlockedStreams:
        settings.qpack_blocked_streams = static_cast<size_t>(value);
        break;
      case kH3EnableConnectProtocol:
        settings.enable_connect_protocol = value != 0;
        break;
      default:
        break;
    }
  }
  const nghttp3_callbacks callbacks = Callbacks::table();
  int rv = nghttp3_conn_client_new(&h3_, &callbacks, &settings, nghttp3_mem_default(), this);
  if (rv != 0) return fail_nghttp3(rv);
  // The browser's control stream opens first (id 2), then QPACK's.
  auto control = quic_->open_uni_stream();
  auto encoder = control ? quic_->open_uni_stream() : control;
  auto decoder = encoder ? quic_->open_uni_stream() : encoder;
  if (!decoder) {
    quic_->fail_application(decoder.error(), kH3InternalError);
    return false;
  }
  if (!fingerprint_.control.settings.empty() || fingerprint_.control.grease_setting ||
      fingerprint_.control.grease_frame) {
    const std::string frames = encode_h3_control_frames(fingerprint_.control, [] { return random_u64(); });
    rv = nghttp3_conn_set_settings_raw(h3_, reinterpret_cast<const uint8_t*>(frames.data()), frames.size());
    if (rv != 0) return fail_nghttp3(rv);
  }
  rv = nghttp3_conn_bind_control_stream(h3_, *control);
  if (rv == 0) rv = nghttp3_conn_bind_qpack_streams(h3_, *encoder, *decoder);
  if (rv != 0) return fail_nghttp3(rv);
  return true;
}

bool H3Connection::fail_nghttp3(int rv) {
  quic_->fail_application(
      make_error(ErrorCode::connection_closed, std::string("http3: ") + nghttp3_strerror(rv)),
      nghttp3_err_infer_quic_app_error_code(rv));
  return false;
}

Result<HttpConnection::ExchangeId> H3Connection::submit(const OutgoingRequest& request,
                                                        ExchangeObserver* observer) {
  if (!accepts_requests()) return make_error(ErrorCode::connection_closed, "http3: client conn not usable");
  const H1Request& m = request.message;
  H2Request req;
  req.method = m.method;
  req.scheme = request.scheme;
  req.authority = m.host;
  req.path = m.request_target;
  req.headers = m.headers;
  req.header_order = m.header_order;
  req.pseudo_header_order = fingerprint_.pseudo_header_order;
  if (req.pseudo_header_order.empty())
    req.pseudo_header_order = {":method", ":scheme", ":authority", ":path"};
  req.add_accept_encoding = !m.extra_headers.empty();
  req.body = m.body;
  auto block = h2_header_block(req);
  if (!block) return block.error();
  if (fingerprint_.priority_param != 0 &&
      std::none_of(block->begin(), block->end(), [](const auto& f) { return f.first == "priority"; })) {
    // A request the caller gave no priority goes as upstream's HTTP/3
    // transport sends it for a profile with a priority parameter (and as
    // Chrome sends a navigation): urgent, incremental, header and
    // PRIORITY_UPDATE both.
    block->emplace_back("priority", "u=0, i");
  }

  auto e = std::make_unique<Exchange>();
  e->id = next_exchange_id_++;
  e->request_headers = std::move(*block);
  e->observer = observer;
  e->head_request = m.method == "HEAD";
  if (m.body) e->body = *m.body;
  const ExchangeId id = e->id;
  Exchange& exchange = *e;
  exchanges_.emplace(id, std::move(e));
  if (!pending_.empty() || quic_->bidi_streams_left() == 0) {
    // Beyond what the server allows at once: sent as streams free up, as
    // nghttp2 queues beyond MAX_CONCURRENT_STREAMS.
    pending_.push_back(id);
    return id;
  }
  if (auto error = start_exchange(exchange)) {
    exchanges_.erase(id);
    return *error;
  }
  quic_->schedule_write();
  return id;
}

std::optional<Error> H3Connection::start_exchange(Exchange& e) {
  auto stream = quic_->open_bidi_stream();
  if (!stream) return stream.error();
  const int64_t stream_id = *stream;
  std::vector<nghttp3_nv> nva;
  nva.reserve(e.request_headers.size());
  const std::string* priority = nullptr;
  for (const auto& [name, value] : e.request_headers) {
    nva.push_back({reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                   reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                   NGHTTP3_NV_FLAG_NONE});
    if (name == "priority") priority = &value;
  }
  const nghttp3_data_reader reader{Callbacks::read_body};
  const int rv = nghttp3_conn_submit_request(h3_, stream_id, nva.data(), nva.size(),
                                             e.body.empty() ? nullptr : &reader, &e);
  if (rv != 0) {
    quic_->reset_stream(stream_id, kH3RequestCancelled);
    return make_error(ErrorCode::internal, std::string("http3: ") + nghttp3_strerror(rv));
  }
  e.stream_id = stream_id;
  streams_[stream_id] = e.id;
  nghttp3_pri pri;
  if (fingerprint_.priority_param == kH3PriorityUpdateFrame && priority != nullptr &&
      nghttp3_http_parse_priority(&pri, reinterpret_cast<const uint8_t*>(priority->data()),
                                  priority->size()) == 0) {
    // Chrome follows the request with a PRIORITY_UPDATE saying the same.
    nghttp3_conn_set_stream_priority(h3_, stream_id, &pri);
  }
  e.request_headers.clear();
  return std::nullopt;
}

void H3Connection::start_pending() {
  bool started = false;
  while (!pending_.empty() && !closed_ && quic_->bidi_streams_left() > 0) {
    const ExchangeId id = pending_.front();
    pending_.pop_front();
    auto it = exchanges_.find(id);
    if (it == exchanges_.end()) continue;  // cancelled while it waited
    if (auto error = start_exchange(*it->second)) {
      ExchangeObserver* observer = it->second->observer;
      exchanges_.erase(it);
      if (observer != nullptr) observer->on_response_error(*error, false);
      continue;
    }
    started = true;
  }
  if (started) quic_->schedule_write();
}

void H3Connection::forget(Exchange& e) {
  if (e.stream_id >= 0) streams_.erase(e.stream_id);
  exchanges_.erase(e.id);
}

H3Connection::Exchange* H3Connection::exchange_on(int64_t stream_id) {
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) return nullptr;
  auto e = exchanges_.find(it->second);
  return e == exchanges_.end() ? nullptr : e->second.get();
}

void H3Connection::cancel(ExchangeId id) {
  auto it = exchanges_.find(id);
  if (it == exchanges_.end()) return;
  Exchange& e = *it->second;
  e.observer = nullptr;
  if (e.stream_id < 0) {
    exchanges_.erase(it);  // never sent; start_pending skips it
    return;
  }
  // The exchange stays until the stream closes: nghttp3 may still hold
  // pointers into its body.
  quic_->reset_stream(e.stream_id, kH3RequestCancelled);
}

void H3Connection::pause_body(ExchangeId id, bool paused) {
  auto it = exchanges_.find(id);
  if (it == exchanges_.end()) return;
  Exchange& e = *it->second;
  e.paused = paused;
  if (!paused && e.unconsumed > 0 && e.stream_id >= 0) {
    quic_->consume(e.stream_id, e.unconsumed);
    e.unconsumed = 0;
  }
}

bool H3Connection::accepts_requests() const {
  return !closed_ && !going_away_ && h3_ != nullptr && quic_ && quic_->handshake_completed();
}

void H3Connection::on_bidi_streams_allowed(uint64_t) {
  if (pending_.empty()) return;
  // Inside ngtcp2's packet processing: the waiting requests start after it.
  std::weak_ptr<H3Connection> weak = weak_from_this();
  reactor_.post([weak] {
    if (auto self = weak.lock()) self->start_pending();
  });
}

void H3Connection::close(const Error& reason) {
  if (closed_) return;
  closed_ = true;
  fail_all(reason);
  if (quic_) quic_->close(kH3NoError);
  retire();
}

void H3Connection::on_headers_end(int64_t stream_id, Exchange& e) {
  if (!e.block || e.local_error) return;
  const H2ResponseBlock block = std::move(*e.block);
  e.block.reset();
  if (auto cause = block.stream_error_cause()) {
    return reset_exchange(stream_id, e, make_error(ErrorCode::http_protocol, "http3: " + *cause));
  }
  if (e.head_reported) return;  // trailers: dropped, as upstream
  auto status = block.status();
  if (!status) return reset_exchange(stream_id, e, status.error());
  if (*status >= 100 && *status <= 199) {
    if (++e.informational > kMaxInformational) {
      reset_exchange(stream_id, e,
                     make_error(ErrorCode::http_protocol, "http3: too many 1xx informational responses"));
    }
    return;
  }
  e.head_reported = true;
  e.head.status = *status;
  e.head.proto = "HTTP/3.0";
  e.head.status_text = std::to_string(*status);
  if (e.observer != nullptr) e.observer->on_response_head(e.head);
}

void H3Connection::reset_exchange(int64_t stream_id, Exchange& e, Error error) {
  if (e.local_error) return;
  e.local_error = std::move(error);
  quic_->reset_stream(stream_id, kH3MessageError);
}

void H3Connection::finish_exchange(Exchange& e, std::optional<Error> error) {
  ExchangeObserver* observer = e.observer;
  e.observer = nullptr;
  if (observer == nullptr) return;
  // The exchange itself stays until its stream closes (nghttp3's pointers).
  if (error) {
    observer->on_response_error(*error, false);
  } else {
    observer->on_response_complete();
  }
}

void H3Connection::fail_all(const Error& error) {
  pending_.clear();
  std::vector<ExchangeObserver*> observers;
  for (auto& [id, e] : exchanges_) {
    if (e->observer != nullptr) observers.push_back(e->observer);
    e->observer = nullptr;
  }
  for (ExchangeObserver* o : observers) o->on_response_error(error, false);
}

void H3Connection::retire() {
  if (retired_once_) return;
  retired_once_ = true;
  // Later than the call that caused it: the pool may drop the last
  // reference, and ngtcp2 or nghttp3 may be on the stack.
  std::weak_ptr<H3Connection> weak = weak_from_this();
  reactor_.post([weak] {
    auto self = weak.lock();
    if (self && self->retired_) self->retired_(self.get());
  });
}

// --- QuicApplication ------------------------------------------------------

bool H3Connection::on_stream_data(int64_t stream_id, const uint8_t* data, size_t size, bool fin,
                                  size_t* consumed) {
  if (h3_ == nullptr) return true;
  const nghttp3_ssize n = nghttp3_conn_read_stream(h3_, stream_id, data, size, fin ? 1 : 0);
  if (n < 0) return fail_nghttp3(static_cast<int>(n));
  // DATA payloads are given back as the body is taken (recv_data).
  *consumed = static_cast<size_t>(n);
  return true;
}

bool H3Connection::on_stream_acked(int64_t stream_id, uint64_t size) {
  if (h3_ == nullptr) return true;
  const int rv = nghttp3_conn_add_ack_offset(h3_, stream_id, size);
  return rv == 0 || fail_nghttp3(rv);
}

bool H3Connection::on_stream_closed(int64_t stream_id, std::optional<uint64_t> app_error) {
  if (h3_ == nullptr) return true;
  const int rv = nghttp3_conn_close_stream(h3_, stream_id, app_error.value_or(kH3NoError));
  if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND) {
    // nghttp3 never knew it (closed before its first byte): forgotten here.
    if (Exchange* e = exchange_on(stream_id)) {
      finish_exchange(*e, make_error(ErrorCode::stream_reset, "http3: stream closed before the response"));
      forget(*e);
    }
    return true;
  }
  return rv == 0 || fail_nghttp3(rv);
}

bool H3Connection::on_stream_reset(int64_t stream_id, uint64_t) {
  if (h3_ == nullptr) return true;
  const int rv = nghttp3_conn_shutdown_stream_read(h3_, stream_id);
  return rv == 0 || fail_nghttp3(rv);
}

bool H3Connection::on_stream_unblocked(int64_t stream_id) {
  if (h3_ == nullptr) return true;
  const int rv = nghttp3_conn_unblock_stream(h3_, stream_id);
  return rv == 0 || fail_nghttp3(rv);
}

Result<QuicOutgoing> H3Connection::next_outgoing(QuicBytes* out, size_t max) {
  QuicOutgoing outgoing;
  if (h3_ == nullptr) return outgoing;
  nghttp3_vec vecs[QuicConnection::kOutgoingPieces];
  int fin = 0;
  const nghttp3_ssize n =
      nghttp3_conn_writev_stream(h3_, &outgoing.stream_id, &fin, vecs, std::min(max, std::size(vecs)));
  if (n < 0)
    return make_error(ErrorCode::connection_closed,
                      std::string("http3: ") + nghttp3_strerror(static_cast<int>(n)));
  outgoing.fin = fin != 0;
  outgoing.count = static_cast<size_t>(n);
  for (size_t i = 0; i < outgoing.count; ++i) out[i] = {vecs[i].base, vecs[i].len};
  return outgoing;
}

bool H3Connection::on_outgoing_written(int64_t stream_id, size_t size, bool fin) {
  const int rv = nghttp3_conn_add_write_offset(h3_, stream_id, size);
  if (rv != 0) return fail_nghttp3(rv);
  // The request's last byte left: from now on it waits for its answer.
  if (fin) {
    if (Exchange* e = exchange_on(stream_id); e != nullptr && e->observer != nullptr)
      e->observer->on_request_sent();
  }
  return true;
}

void H3Connection::on_outgoing_blocked(int64_t stream_id) { nghttp3_conn_block_stream(h3_, stream_id); }

void H3Connection::on_outgoing_shut(int64_t stream_id) { nghttp3_conn_shutdown_stream_write(h3_, stream_id); }

void H3Connection::on_connection_closed(const Error& error) {
  closed_ = true;
  fail_all(error);
  retire();
}

}  // namespace tlsc
