#include "http/h2/h2_connection.h"

#include <cstring>
#include <new>
#include <optional>
#include <random>

#include "http/h2/h2_response_block.h"
#include "wire/header_canon.h"

namespace tlsc {
namespace {

// What may wait below us unsent before flush stops asking nghttp2 for
// more: a few uploads' worth of DATA in flight, and a bound on the memory
// a peer that never reads can make us hold.
constexpr size_t kWriteHighWater = 1 << 20;

// Go's http2 ErrCode names, for error texts that read like upstream's.
std::string error_code_name(uint32_t code) {
  static constexpr const char* kNames[] = {"NO_ERROR",
                                           "PROTOCOL_ERROR",
                                           "INTERNAL_ERROR",
                                           "FLOW_CONTROL_ERROR",
                                           "SETTINGS_TIMEOUT",
                                           "STREAM_CLOSED",
                                           "FRAME_SIZE_ERROR",
                                           "REFUSED_STREAM",
                                           "CANCEL",
                                           "COMPRESSION_ERROR",
                                           "CONNECT_ERROR",
                                           "ENHANCE_YOUR_CALM",
                                           "INADEQUATE_SECURITY",
                                           "HTTP_1_1_REQUIRED"};
  if (code < std::size(kNames)) return kNames[code];
  return "unknown error code 0x" + [&] {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%x", code);
    return std::string(buf);
  }();
}

// fhttp's StreamError: "stream error: stream ID 1; PROTOCOL_ERROR[; cause]".
// A reset the server sent has no cause.
std::string stream_error_text(int32_t stream_id, uint32_t code, std::string_view cause = {}) {
  std::string text = "stream error: stream ID " + std::to_string(stream_id) + "; " + error_code_name(code);
  if (!cause.empty()) {
    text += "; ";
    text += cause;
  }
  return text;
}

// fhttp's limit on informational (1xx) heads before the final one.
constexpr int kMaxInformational = 5;

// Go's strconv.ParseUint(v, 10, 63) for a Content-Length.
std::optional<int64_t> parse_content_length(std::string_view v) {
  if (v.empty()) return std::nullopt;
  uint64_t n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    if (n > (uint64_t{1} << 63) / 10) return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
    if (n >= (uint64_t{1} << 63)) return std::nullopt;
  }
  return static_cast<int64_t>(n);
}

}  // namespace

struct H2Connection::Exchange {
  ExchangeObserver* observer = nullptr;  // nullptr once cancelled
  std::optional<std::string> body;
  size_t body_offset = 0;
  bool head_request = false;  // a HEAD: DATA is not a body (fhttp's noBody)
  ResponseHead head;
  std::optional<H2ResponseBlock> block;  // the header block being received
  int informational = 0;                 // 1xx heads so far
  bool head_reported = false;
  bool remote_ended = false;
  bool received_any = false;
  bool paused = false;
  size_t unconsumed = 0;      // DATA bytes whose stream window is withheld
  int64_t bytes_remain = -1;  // what the Content-Length still allows; -1: no bound
  // Why we reset the stream ourselves (a response Go refuses); the
  // exchange ends with it when nghttp2 reports the stream closed.
  std::optional<Error> local_error;
};

// nghttp2's C callbacks, forwarding to the connection (user_data).
struct H2Connection::Callbacks {
  static H2Connection* self(void* user_data) { return static_cast<H2Connection*>(user_data); }

  static Exchange* exchange(H2Connection* c, int32_t stream_id) {
    auto it = c->exchanges_.find(stream_id);
    return it == c->exchanges_.end() ? nullptr : it->second.get();
  }

  static int on_begin_headers_body(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    H2Connection* c = self(user_data);
    if (Exchange* e = exchange(c, frame->hd.stream_id)) {
      e->received_any = true;
      e->block.emplace(c->limits_.max_header_bytes);
      if (!e->head_reported) e->head = ResponseHead{};
    }
    return 0;
  }

  static int on_header_body(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
                            const uint8_t* value, size_t valuelen, uint8_t, void* user_data) {
    H2Connection* c = self(user_data);
    Exchange* e = exchange(c, frame->hd.stream_id);
    if (e == nullptr || e->local_error || !e->block) return 0;
    std::string_view n(reinterpret_cast<const char*>(name), namelen);
    std::string_view v(reinterpret_cast<const char*>(value), valuelen);
    // Judged when the block ends (on_frame_recv); what fhttp would not
    // keep is not kept.
    if (!e->block->add(n, v)) return 0;
    if (e->head_reported || n.starts_with(":")) return 0;  // trailers are dropped, as upstream
    e->head.headers.emplace_back(canonical_header_key(n), std::string(v));
    return 0;
  }

  static int on_frame_recv_body(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    H2Connection* c = self(user_data);
    c->last_received_ = c->reactor_.now();
    c->ping_outstanding_ = false;
    switch (frame->hd.type) {
      case NGHTTP2_GOAWAY:
        c->going_away_ = true;
        c->goaway_last_stream_ = frame->goaway.last_stream_id;
        c->goaway_error_code_ = frame->goaway.error_code;
        c->goaway_debug_.assign(reinterpret_cast<const char*>(frame->goaway.opaque_data),
                                frame->goaway.opaque_data_len);
        c->retire();
        return 0;
      case NGHTTP2_HEADERS: {
        Exchange* e = exchange(c, frame->hd.stream_id);
        if (e == nullptr || e->local_error) return 0;
        c->on_header_block(frame->hd.stream_id, *e, (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0);
        return 0;
      }
      case NGHTTP2_DATA:
        if (Exchange* e = exchange(c, frame->hd.stream_id)) {
          if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) e->remote_ended = true;
        }
        return 0;
      case NGHTTP2_RST_STREAM:
        return 0;
      default:
        return 0;
    }
  }

  static int on_data_chunk_body(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data, size_t len,
                                void* user_data) {
    H2Connection* c = self(user_data);
    c->last_received_ = c->reactor_.now();
    // Window updates are ours to send (no_auto_window_update): the
    // connection's at once, the stream's unless its reader is paused. At
    // once is what nghttp2 would do by itself, so the frames on the wire
    // are the same as without the option.
    nghttp2_session_consume_connection(c->session_, len);
    Exchange* e = exchange(c, stream_id);
    if (e != nullptr && e->paused) {
      e->unconsumed += len;
    } else {
      nghttp2_session_consume_stream(c->session_, stream_id, len);
    }
    if (e == nullptr || e->observer == nullptr || e->local_error) return 0;
    e->received_any = true;
    if (e->head_request) return 0;  // fhttp gives a HEAD's response no body
    std::string_view bytes(reinterpret_cast<const char*>(data), len);
    bool over = false;
    if (e->bytes_remain >= 0) {
      // fhttp's transportResponseBody.Read: what the Content-Length
      // allows, then its error.
      over = static_cast<uint64_t>(e->bytes_remain) < len;
      if (over) bytes = bytes.substr(0, static_cast<size_t>(e->bytes_remain));
      e->bytes_remain -= static_cast<int64_t>(bytes.size());
    }
    if (!bytes.empty()) e->observer->on_response_body(bytes);
    if (over) {
      c->reset_stream(
          stream_id, *e,
          make_error(ErrorCode::http_protocol,
                     "net/http: server replied with more than declared Content-Length; truncated"));
    }
    return 0;
  }

  static int on_stream_close_body(nghttp2_session*, int32_t stream_id, uint32_t error_code, void* user_data) {
    H2Connection* c = self(user_data);
    Exchange* e = exchange(c, stream_id);
    if (e == nullptr) return 0;
    if (e->local_error) {
      c->finish_exchange(stream_id, e->local_error, false);
    } else if (error_code == NGHTTP2_NO_ERROR && e->remote_ended) {
      if (!e->head_reported) {
        c->finish_exchange(stream_id, make_error(ErrorCode::h2_protocol, "http2: no response headers"),
                           false);
      } else {
        c->finish_exchange(stream_id, std::nullopt, false);
      }
    } else if (error_code == NGHTTP2_REFUSED_STREAM) {
      // Never processed by the server: safe to send again.
      c->finish_exchange(stream_id,
                         make_error(ErrorCode::stream_reset, stream_error_text(stream_id, error_code)),
                         !e->received_any);
    } else if (error_code == NGHTTP2_NO_ERROR) {
      c->finish_exchange(stream_id, make_error(ErrorCode::connection_closed, "unexpected EOF"), false);
    } else {
      c->finish_exchange(
          stream_id, make_error(ErrorCode::stream_reset, stream_error_text(stream_id, error_code)), false);
    }
    return 0;
  }

  static int on_frame_send_body(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR) {
      // nghttp2 found a connection error in what the server sent and ends
      // the connection with it: fhttp's ConnectionError.
      self(user_data)->local_goaway_error_ = frame->goaway.error_code;
      return 0;
    }
    if ((frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) ||
        !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM)) {
      return 0;
    }
    Exchange* e = exchange(self(user_data), frame->hd.stream_id);
    if (e != nullptr && e->observer != nullptr) e->observer->on_request_sent();
    return 0;
  }

  static int on_frame_not_send_body(nghttp2_session*, const nghttp2_frame* frame, int lib_error_code,
                                    void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    H2Connection* c = self(user_data);
    if (exchange(c, frame->hd.stream_id) == nullptr) return 0;
    // The request never left: after a GOAWAY, or refused by nghttp2.
    bool retryable = lib_error_code == NGHTTP2_ERR_START_STREAM_NOT_ALLOWED ||
                     lib_error_code == NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE;
    c->finish_exchange(frame->hd.stream_id,
                       make_error(ErrorCode::h2_protocol,
                                  retryable ? "http2: client connection force closed via ClientConn.Close"
                                            : std::string("http2: ") + nghttp2_strerror(lib_error_code)),
                       retryable);
    return 0;
  }

  static ssize_t read_body(nghttp2_session*, int32_t stream_id, uint8_t* buf, size_t length,
                           uint32_t* data_flags, nghttp2_data_source*, void* user_data) {
    Exchange* e = exchange(self(user_data), stream_id);
    if (e == nullptr || !e->body) {
      *data_flags |= NGHTTP2_DATA_FLAG_EOF;
      return 0;
    }
    size_t left = e->body->size() - e->body_offset;
    size_t n = std::min(left, length);
    std::memcpy(buf, e->body->data() + e->body_offset, n);
    e->body_offset += n;
    if (e->body_offset == e->body->size()) *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
  // nghttp2 is C, built without unwind tables: an exception thrown through
  // its frames ends the process. Each callback runs its body here; one that
  // finds no memory fails the session (NGHTTP2_ERR_CALLBACK_FAILURE), and
  // the connection fails its requests with no_memory_error().
  template <class F>
  static int guarded(void* user_data, F&& body) noexcept {
    try {
      return body();
    } catch (...) {
      self(user_data)->callback_failed_ = true;
      return NGHTTP2_ERR_CALLBACK_FAILURE;
    }
  }
  static int on_begin_headers(nghttp2_session* s, const nghttp2_frame* frame, void* user_data) {
    return guarded(user_data, [&] { return on_begin_headers_body(s, frame, user_data); });
  }
  static int on_header(nghttp2_session* s, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
                       const uint8_t* value, size_t valuelen, uint8_t flags, void* user_data) {
    return guarded(user_data, [&] {
      return on_header_body(s, frame, name, namelen, value, valuelen, flags, user_data);
    });
  }
  static int on_frame_recv(nghttp2_session* s, const nghttp2_frame* frame, void* user_data) {
    return guarded(user_data, [&] { return on_frame_recv_body(s, frame, user_data); });
  }
  static int on_data_chunk(nghttp2_session* s, uint8_t flags, int32_t stream_id, const uint8_t* data,
                           size_t len, void* user_data) {
    return guarded(user_data, [&] { return on_data_chunk_body(s, flags, stream_id, data, len, user_data); });
  }
  static int on_stream_close(nghttp2_session* s, int32_t stream_id, uint32_t error_code, void* user_data) {
    return guarded(user_data, [&] { return on_stream_close_body(s, stream_id, error_code, user_data); });
  }
  static int on_frame_send(nghttp2_session* s, const nghttp2_frame* frame, void* user_data) {
    return guarded(user_data, [&] { return on_frame_send_body(s, frame, user_data); });
  }
  static int on_frame_not_send(nghttp2_session* s, const nghttp2_frame* frame, int lib_error_code,
                               void* user_data) {
    return guarded(user_data, [&] { return on_frame_not_send_body(s, frame, lib_error_code, user_data); });
  }
};

Result<std::shared_ptr<H2Connection>> H2Connection::create(Reactor& reactor, std::unique_ptr<Stream> stream,
                                                           std::string pool_key,
                                                           const H2Fingerprint& fingerprint, H2Limits limits,
                                                           Retired retired) {
  auto c = std::make_shared<H2Connection>(reactor, std::move(stream), std::move(pool_key), limits,
                                          std::move(retired));
  if (auto error = c->start(fingerprint)) {
    c->dead_ = true;
    return *error;
  }
  return c;
}

H2Connection::H2Connection(Reactor& reactor, std::unique_ptr<Stream> stream, std::string pool_key,
                           H2Limits limits, Retired retired)
    : reactor_(reactor),
      stream_(std::move(stream)),
      pool_key_(std::move(pool_key)),
      limits_(limits),
      retired_(std::move(retired)),
      last_received_(reactor_.now()) {}

H2Connection::~H2Connection() {
  if (idle_timer_) reactor_.cancel_timer(idle_timer_);
  if (health_timer_) reactor_.cancel_timer(health_timer_);
  if (stream_) {
    stream_->set_observer(nullptr);
    stream_->close();
  }
  if (session_) nghttp2_session_del(session_);
}

std::optional<Error> H2Connection::start(const H2Fingerprint& f) {
  nghttp2_session_callbacks* cbs = nullptr;
  if (nghttp2_session_callbacks_new(&cbs) != 0)
    return make_error(ErrorCode::internal, "http2: out of memory");
  nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, &Callbacks::on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cbs, &Callbacks::on_header);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, &Callbacks::on_frame_recv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, &Callbacks::on_data_chunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, &Callbacks::on_stream_close);
  nghttp2_session_callbacks_set_on_frame_not_send_callback(cbs, &Callbacks::on_frame_not_send);
  nghttp2_session_callbacks_set_on_frame_send_callback(cbs, &Callbacks::on_frame_send);
  nghttp2_option* opt = nullptr;
  nghttp2_option_new(&opt);
  nghttp2_option_set_no_auto_window_update(opt, 1);
  // Responses are judged as fhttp judges them (H2ResponseBlock, and the
  // Content-Length rule in on_data_chunk): nghttp2's own HTTP checks
  // refuse responses Go takes. Framing, flow control and HPACK stay its.
  nghttp2_option_set_no_http_messaging(opt, 1);
  int rv = nghttp2_session_client_new2(&session_, cbs, this, opt);
  nghttp2_option_del(opt);
  nghttp2_session_callbacks_del(cbs);
  if (rv != 0) return make_error(ErrorCode::internal, "http2: cannot create a session");

  std::vector<nghttp2_settings_entry> iv;
  iv.reserve(f.settings.size());
  std::optional<uint16_t> grease_id;  // one per connection, as Chrome draws it
  for (auto [id, value] : f.settings) {
    if (id == kGreaseSettingId) {
      if (!grease_id) grease_id = grease_setting_id(std::random_device{}());
      id = *grease_id;
    }
    iv.push_back({id, value});
  }
  if (nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, iv.data(), iv.size()) != 0) {
    return make_error(ErrorCode::invalid_input, "http2: the profile's SETTINGS are invalid");
  }
  if (f.connection_flow > 0 && nghttp2_submit_window_update(session_, NGHTTP2_FLAG_NONE, 0,
                                                            static_cast<int32_t>(f.connection_flow)) != 0) {
    return make_error(ErrorCode::invalid_input, "http2: the profile's connection flow is invalid");
  }
  for (const auto& p : f.priority_frames) {
    nghttp2_priority_spec spec;
    nghttp2_priority_spec_init(&spec, static_cast<int32_t>(p.priority.depends_on), p.priority.weight,
                               p.priority.exclusive ? 1 : 0);
    if (nghttp2_submit_priority(session_, NGHTTP2_FLAG_NONE, static_cast<int32_t>(p.stream_id), &spec) != 0) {
      return make_error(ErrorCode::invalid_input, "http2: the profile's PRIORITY frames are invalid");
    }
  }
  if (f.first_stream_id > 1 &&
      nghttp2_session_set_next_stream_id(session_, static_cast<int32_t>(f.first_stream_id)) != 0) {
    return make_error(ErrorCode::invalid_input, "http2: the profile's first stream id is invalid");
  }
  pseudo_header_order_ = f.pseudo_header_order;
  if (f.header_priority) {
    nghttp2_priority_spec spec;
    nghttp2_priority_spec_init(&spec, static_cast<int32_t>(f.header_priority->depends_on),
                               f.header_priority->weight, f.header_priority->exclusive ? 1 : 0);
    header_priority_ = spec;
  }
  stream_->set_observer(this);
  flush();
  arm_idle_timer();
  return std::nullopt;
}

bool H2Connection::accepts_requests() const {
  if (dead_ || going_away_ || retired_once_ || !session_ || !stream_ || !stream_->usable()) return false;
  if (limits_.single_use && requests_started_ > 0) return false;
  return nghttp2_session_check_request_allowed(session_) != 0;
}

Result<HttpConnection::ExchangeId> H2Connection::submit(const OutgoingRequest& request,
                                                        ExchangeObserver* observer) {
  const H1Request& m = request.message;
  H2Request req;
  req.method = m.method;
  req.scheme = request.scheme;
  req.authority = m.host;
  req.path = m.request_target;
  req.headers = m.headers;
  req.header_order = m.header_order;
  req.pseudo_header_order = pseudo_header_order_;
  req.add_accept_encoding = !m.extra_headers.empty();
  req.body = m.body;
  auto block = h2_header_block(req);
  if (!block) return block.error();
  return submit_block(*block, m.body, observer);
}

Result<HttpConnection::ExchangeId> H2Connection::submit_block(const H2HeaderBlock& headers,
                                                              std::optional<std::string> body,
                                                              ExchangeObserver* observer) {
  if (!accepts_requests()) {
    return make_error(ErrorCode::h2_protocol, "http2: client conn not usable");
  }
  std::vector<nghttp2_nv> nva;
  nva.reserve(headers.size());
  for (const auto& [name, value] : headers) {
    nva.push_back({reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                   reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                   NGHTTP2_NV_FLAG_NONE});
  }
  auto e = std::make_unique<Exchange>();
  e->observer = observer;
  for (const auto& [name, value] : headers) {
    if (name == ":method") e->head_request = value == "HEAD";
  }
  bool has_body = body && !body->empty();
  e->body = std::move(body);
  nghttp2_data_provider provider{};
  provider.read_callback = &Callbacks::read_body;
  const nghttp2_priority_spec* prio = header_priority_ ? &*header_priority_ : nullptr;
  int32_t id =
      nghttp2_submit_request(session_, prio, nva.data(), nva.size(), has_body ? &provider : nullptr, nullptr);
  if (id < 0) {
    return make_error(ErrorCode::h2_protocol, std::string("http2: ") + nghttp2_strerror(id));
  }
  try {
    exchanges_.emplace(id, std::move(e));
    arm_health_timer();
    schedule_flush();
  } catch (const std::bad_alloc&) {
    // Not submitted after all: the stream is reset before it leaves, and
    // nobody hears of it (the caller has the exception).
    exchanges_.erase(id);
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
    throw;
  }
  ++requests_started_;
  if (idle_timer_) {
    reactor_.cancel_timer(idle_timer_);
    idle_timer_ = 0;
  }
  return static_cast<ExchangeId>(id);
}

void H2Connection::cancel(ExchangeId id) {
  const auto stream_id = static_cast<int32_t>(id);
  auto it = exchanges_.find(stream_id);
  if (it == exchanges_.end()) return;
  it->second->observer = nullptr;
  // The exchange (and its body, which nghttp2 may still read) goes when
  // nghttp2 reports the stream closed or its HEADERS unsent.
  if (session_ && !dead_) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
    schedule_flush();
  } else {
    exchanges_.erase(it);
  }
}

void H2Connection::pause_body(ExchangeId id, bool paused) {
  auto it = exchanges_.find(static_cast<int32_t>(id));
  if (it == exchanges_.end() || it->second->paused == paused) return;
  Exchange& e = *it->second;
  e.paused = paused;
  if (paused || e.unconsumed == 0 || !session_ || dead_) return;
  nghttp2_session_consume_stream(session_, it->first, e.unconsumed);
  e.unconsumed = 0;
  schedule_flush();
}

void H2Connection::close(const Error& reason) {
  if (dead_) return;
  fail_all(reason, false);
}

void H2Connection::on_header_block(int32_t stream_id, Exchange& e, bool end_stream) {
  if (end_stream) e.remote_ended = true;
  if (!e.block) return;
  const H2ResponseBlock block = std::move(*e.block);
  e.block.reset();
  // readMetaFrame and checkPseudos: a stream error with Go's cause.
  if (auto cause = block.stream_error_cause()) {
    reset_stream(
        stream_id, e,
        make_error(ErrorCode::h2_protocol, stream_error_text(stream_id, NGHTTP2_PROTOCOL_ERROR, *cause)));
    return;
  }
  if (e.head_reported) {
    // Trailers (dropped, as upstream): fhttp's processTrailers ends the
    // connection on a block that does not end the stream or has pseudo
    // fields.
    if (!end_stream || block.has_pseudo())
      nghttp2_session_terminate_session(session_, NGHTTP2_PROTOCOL_ERROR);
    return;
  }
  auto status = block.status();
  if (!status) {
    reset_stream(stream_id, e, status.error());
    return;
  }
  if (*status >= 100 && *status <= 199) {
    // Informational heads are skipped, as fhttp does (a bounded number).
    if (++e.informational > kMaxInformational) {
      reset_stream(stream_id, e,
                   make_error(ErrorCode::h2_protocol, "http2: too many 1xx informational responses"));
    }
    return;
  }
  e.head_reported = true;
  e.head.status = *status;
  e.head.proto = "HTTP/2.0";
  e.head.status_text = std::to_string(*status);
  if (!end_stream && !e.head_request) {
    // fhttp's ContentLength: exactly one value that parses, else unknown.
    const std::string* length = nullptr;
    int count = 0;
    for (const auto& [name, value] : e.head.headers) {
      if (name == "Content-Length") {
        length = &value;
        ++count;
      }
    }
    if (count == 1) {
      if (auto n = parse_content_length(*length)) e.bytes_remain = *n;
    }
  }
  if (e.observer != nullptr) e.observer->on_response_head(e.head);
}

void H2Connection::reset_stream(int32_t stream_id, Exchange& e, Error error) {
  // The exchange ends with the error when nghttp2 reports the stream
  // closed (on_stream_close); nothing more of it reaches the observer.
  if (e.local_error) return;
  e.local_error = std::move(error);
  nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_PROTOCOL_ERROR);
  schedule_flush();
}

std::optional<Error> H2Connection::local_connection_error() const {
  if (!local_goaway_error_) return std::nullopt;
  // fhttp's ConnectionError.
  return make_error(ErrorCode::h2_protocol, "connection error: " + error_code_name(*local_goaway_error_));
}

void H2Connection::finish_exchange(int32_t stream_id, std::optional<Error> error, bool retryable) {
  auto it = exchanges_.find(stream_id);
  if (it == exchanges_.end()) return;
  std::unique_ptr<Exchange> e = std::move(it->second);
  exchanges_.erase(it);
  if (exchanges_.empty()) {
    // The request hears its end whatever this finds no memory for: then
    // the connection stays open without its idle timer until the session
    // ends, or is not closed early.
    try {
      if (limits_.single_use || retired_once_) {
        // Nothing more will use it (one request only, or after a GOAWAY).
        retire();
        close_when_unwound();
      } else {
        arm_idle_timer();
      }
    } catch (const std::bad_alloc&) {
    }
  }
  if (e->observer == nullptr) return;
  if (error) {
    e->observer->on_response_error(*error, retryable);
  } else {
    e->observer->on_response_complete();
  }
}

void H2Connection::on_stream_data(std::string_view data) {
  auto keep = shared_from_this();
  last_received_ = reactor_.now();
  ++callback_depth_;
  ssize_t rv = nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(data.data()), data.size());
  --callback_depth_;
  if (rv < 0) {
    fail_all(callback_failed_ ? no_memory_error()
                              : make_error(ErrorCode::h2_protocol,
                                           std::string("http2: ") + nghttp2_strerror(static_cast<int>(rv))),
             false);
  } else {
    flush();
  }
  release_later(std::move(keep));
}

void H2Connection::on_stream_closed(const Error* error) {
  auto keep = shared_from_this();
  if (going_away_) {
    // Requests above the GOAWAY's last stream were never processed.
    // fhttp's GoAwayError.
    std::string text = "http2: server sent GOAWAY and closed the connection; LastStreamID=" +
                       std::to_string(goaway_last_stream_) +
                       ", ErrCode=" + error_code_name(goaway_error_code_) +
                       ", debug=" + go_quote(goaway_debug_);
    // A graceful GOAWAY (NO_ERROR) that closes under a request is a
    // connection that went away; one with an error code, a protocol error.
    fail_all(make_error(goaway_error_code_ == NGHTTP2_NO_ERROR ? ErrorCode::connection_closed
                                                               : ErrorCode::h2_protocol,
                        text),
             true);
  } else if (auto local = local_connection_error()) {
    // We ended it (GOAWAY with an error); the server's close is the echo.
    fail_all(*local, false);
  } else {
    fail_all(error ? *error : make_error(ErrorCode::connection_closed, "unexpected EOF"), false);
  }
  release_later(std::move(keep));
}

void H2Connection::fail_all(const Error& error, bool retryable_if_unanswered) {
  if (dead_) return;
  dead_ = true;
  retire();
  if (stream_) {
    stream_->set_observer(nullptr);
    stream_->close();
  }
  auto exchanges = std::move(exchanges_);
  exchanges_.clear();
  for (auto& [id, e] : exchanges) {
    if (e->observer == nullptr) continue;
    bool unanswered =
        !e->received_any && (id > goaway_last_stream_ || !going_away_ || goaway_last_stream_ == 0);
    e->observer->on_response_error(error, retryable_if_unanswered && unanswered);
  }
}

void H2Connection::retire() {
  if (retired_once_) return;
  retired_once_ = true;
  if (idle_timer_) {
    reactor_.cancel_timer(idle_timer_);
    idle_timer_ = 0;
  }
  if (exchanges_.empty()) close_when_unwound();
  auto retired = std::move(retired_);
  retired_ = nullptr;
  if (retired) retired(this);
}

void H2Connection::schedule_flush() {
  // Requests started together (a burst, the waiters of a dial) leave in one
  // write instead of one TLS record and syscall each.
  if (flush_scheduled_) return;
  flush_scheduled_ = true;
  std::weak_ptr<H2Connection> weak = weak_from_this();
  reactor_.post([weak] {
    if (auto self = weak.lock()) {
      self->flush_scheduled_ = false;
      self->flush();
    }
  });
}

void H2Connection::close_when_unwound() {
  if (dead_ || !stream_) return;
  std::weak_ptr<H2Connection> weak = weak_from_this();
  reactor_.post([weak] {
    if (auto self = weak.lock(); self && self->exchanges_.empty())
      self->close(make_error(ErrorCode::connection_closed, "http2: connection closed"));
  });
}

void H2Connection::flush() {
  if (!session_ || !stream_ || dead_) return;
  if (callback_depth_ > 0) {
    // nghttp2 forbids mem_send inside its callbacks; the outer call sends.
    flush_pending_ = true;
    return;
  }
  auto keep = shared_from_this();  // a callback may drop the last owner
  do {
    flush_pending_ = false;
    out_.clear();
    ++callback_depth_;
    for (;;) {
      // Only what waits below counts: what we hold goes down first, so a
      // block always leaves bytes in the stream, whose drain resumes us.
      if (stream_->unsent_bytes() >= kWriteHighWater) {
        write_blocked_ = true;
        break;
      }
      const uint8_t* data = nullptr;
      ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n < 0) {
        --callback_depth_;
        fail_all(callback_failed_
                     ? no_memory_error()
                     : make_error(ErrorCode::h2_protocol,
                                  std::string("http2: ") + nghttp2_strerror(static_cast<int>(n))),
                 false);
        return;
      }
      if (n == 0 || dead_) break;
      out_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
      // Bounded batches keep one flush from copying a whole upload at once.
      if (out_.size() >= 256 * 1024) {
        stream_->write(out_);
        out_.clear();
        if (dead_) break;
      }
    }
    --callback_depth_;
    if (dead_) return;
    if (!out_.empty()) stream_->write(out_);
    out_.clear();
  } while (flush_pending_ && !dead_);
  if (!dead_ && nghttp2_session_want_read(session_) == 0 && nghttp2_session_want_write(session_) == 0) {
    // nghttp2 is done with this connection (GOAWAY both ways, or ours
    // after a connection error).
    if (auto local = local_connection_error()) {
      fail_all(*local, false);
    } else {
      fail_all(make_error(ErrorCode::connection_closed, "http2: connection closed"), going_away_);
    }
  }
  release_later(std::move(keep));
}

void H2Connection::on_stream_drained() {
  if (!write_blocked_) return;
  write_blocked_ = false;
  auto keep = shared_from_this();
  flush();
  release_later(std::move(keep));
}

void H2Connection::release_later(std::shared_ptr<H2Connection> keep) {
  // The last owner let go during the call: destroy after it unwinds (the
  // stream below may still be on the stack).
  if (keep.use_count() == 1) reactor_.post([keep = std::move(keep)] {});
}

void H2Connection::arm_idle_timer() {
  if (idle_timer_ || limits_.idle_timeout.count() <= 0 || dead_) return;
  std::weak_ptr<H2Connection> weak = weak_from_this();
  idle_timer_ = reactor_.add_timer(limits_.idle_timeout, [weak] {
    auto self = weak.lock();
    if (!self) return;
    self->idle_timer_ = 0;
    if (!self->exchanges_.empty()) return;
    self->retire();
    self->close(make_error(ErrorCode::connection_closed, "http2: idle connection closed"));
  });
}

void H2Connection::arm_health_timer() {
  if (health_timer_ || limits_.read_idle_timeout.count() <= 0 || dead_) return;
  std::weak_ptr<H2Connection> weak = weak_from_this();
  health_timer_ = reactor_.add_timer(limits_.read_idle_timeout, [weak] {
    if (auto self = weak.lock()) {
      self->health_timer_ = 0;
      self->on_health_check();
    }
  });
}

void H2Connection::on_health_check() {
  if (dead_ || exchanges_.empty()) return;
  auto since = reactor_.now() - last_received_;
  if (ping_outstanding_) {
    if (since >= limits_.ping_timeout) {
      fail_all(make_error(ErrorCode::connection_closed, "http2: client connection lost"), false);
      return;
    }
  } else if (since >= limits_.read_idle_timeout) {
    ping_outstanding_ = true;
    nghttp2_submit_ping(session_, NGHTTP2_FLAG_NONE, nullptr);
    flush();
    std::weak_ptr<H2Connection> weak = weak_from_this();
    health_timer_ = reactor_.add_timer(limits_.ping_timeout, [weak] {
      if (auto self = weak.lock()) {
        self->health_timer_ = 0;
        self->on_health_check();
      }
    });
    return;
  }
  arm_health_timer();
}

}  // namespace tlsc
