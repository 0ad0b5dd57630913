#include "http/ws/ws_connection.h"

#include <array>

#include "charset/go_text.h"
#include "conn/chain_builder.h"
#include "http/origin.h"
#include "tls/crypto_primitives.h"

namespace tlsc {
namespace {

constexpr int kCloseProtocolError = 1002;
constexpr int kCloseInvalidPayload = 1007;
constexpr int kCloseMessageTooBig = 1009;

bool is_data(int t) { return t == 1 || t == 2; }
bool is_control(int t) { return t == 8 || t == 9 || t == 10; }

// Codes a peer may send (gorilla's validReceivedCloseCodes).
bool valid_received_close_code(int code) {
  if (code >= 1000 && code <= 1003) return true;
  if (code >= 1007 && code <= 1013) return true;
  return code >= 3000 && code <= 4999;
}

}  // namespace

std::shared_ptr<WsConnection> WsConnection::start(std::shared_ptr<HttpClient> client,
                                                  WsUpgradeRequest request, Options options,
                                                  std::shared_ptr<WsEvents> events) {
  std::shared_ptr<WsConnection> c(
      new WsConnection(std::move(client), std::move(request), options, std::move(events)));
  c->self_ = c;
  c->begin();
  return c;
}

WsConnection::WsConnection(std::shared_ptr<HttpClient> client, WsUpgradeRequest request, Options options,
                           std::shared_ptr<WsEvents> events)
    : reactor_(client->reactor()),
      client_(std::move(client)),
      request_(std::move(request)),
      options_(options),
      events_(std::move(events)),
      frames_(options.max_message) {}

WsConnection::~WsConnection() {
  if (handshake_timer_) reactor_.cancel_timer(handshake_timer_);
  if (stream_) stream_->close();
}

void WsConnection::begin() {
  const ClientOptions o = client_->options();
  TlsContext* tls = nullptr;
  if (request_.url.scheme == "https") {
    auto ctx = client_->tls_context_http1();
    if (!ctx) {
      // Post it: the caller learns of a failure as of any other, later.
      reactor_.post([weak = weak_from_this(), e = ctx.error()] {
        if (auto self = weak.lock()) self->fail(e);
      });
      return;
    }
    tls = *ctx;
  }
  if (options_.handshake_timeout.count() > 0) {
    handshake_timer_ = reactor_.add_timer(options_.handshake_timeout, [this, alive = liveness_.watch()] {
      if (!alive) return;
      handshake_timer_ = 0;
      fail(make_error(ErrorCode::timeout, "i/o timeout"));
    });
  }
  chain_ = build_connection_chain(reactor_, client_->resolver(), dial_plan(request_.url, o, tls));
  chain_->start(Connected{}, [this, alive = liveness_.watch()](Result<Connected> r) {
    if (alive) on_connected(std::move(r));
  });
}

void WsConnection::on_connected(Result<Connected> result) {
  reactor_.destroy_later(std::move(chain_));
  if (!result) {
    fail(result.error());
    return;
  }
  stream_ = std::move(result->stream);
  stream_->set_observer(this);
  stream_->write(request_.bytes);
}

void WsConnection::fail(Error error) {
  if (failed_) return;
  failed_ = true;
  if (handshake_timer_) {
    reactor_.cancel_timer(handshake_timer_);
    handshake_timer_ = 0;
  }
  if (!open_) {
    // Nothing of a failed handshake is kept.
    if (chain_) reactor_.destroy_later(std::move(chain_));
    if (stream_) {
      stream_->close();
      reactor_.destroy_later(std::move(stream_));
    }
  }
  auto events = events_;
  events->on_ws_failed(std::move(error));
  if (!open_) release();
}

void WsConnection::release() {
  // The last reference may be this one: it goes after the current call.
  if (self_) reactor_.destroy_later(std::move(self_));
}

void WsConnection::on_stream_data(std::string_view data) {
  auto keep = self_;  // a handler may close us
  if (!open_) {
    std::string ignored;
    auto used = head_parser_.feed(data, ignored);
    if (!used) {
      fail(used.error());
      return;
    }
    if (!head_parser_.head_complete()) return;
    auto deflate = check_ws_upgrade_response(head_parser_.head(), request_);
    if (!deflate) {
      fail(deflate.error());
      return;
    }
    if (*deflate) {
      const WsDeflateParams& p = **deflate;
      frames_.allow_compression();
      inflater_ = std::make_unique<WsInflater>(p.server_no_context_takeover);
      // zlib writes no 8-bit window: with that limit messages go uncompressed.
      if (p.client_max_window_bits >= 9)
        deflater_ = std::make_unique<WsDeflater>(p.client_max_window_bits, p.client_no_context_takeover);
    }
    open_ = true;
    if (handshake_timer_) {
      reactor_.cancel_timer(handshake_timer_);
      handshake_timer_ = 0;
    }
    events_->on_ws_open();
    data.remove_prefix(*used);
  }
  if (failed_ || !stream_ || data.empty()) return;
  if (auto e = frames_.feed(data, *this)) {
    if (frames_.protocol_error()) {
      protocol_close(kCloseProtocolError, e->message.substr(std::string_view("websocket: ").size()));
    } else {
      protocol_close(kCloseMessageTooBig, "");
    }
    fail(*e);
  }
}

void WsConnection::on_stream_closed(const Error* error) {
  auto keep = self_;
  if (!open_) {
    if (error) {
      fail(*error);
    } else if (auto e = head_parser_.on_eof()) {
      fail(*e);
    } else {
      fail(make_error(ErrorCode::connection_closed, "unexpected EOF"));
    }
    return;
  }
  // gorilla: the end of the stream in a frame or between frames is 1006.
  if (error && !error->eof) {
    fail(*error);
  } else {
    fail(make_error(ErrorCode::connection_closed, ws_close_text(1006, "unexpected EOF")));
  }
}

void WsConnection::on_ws_message(WsOpcode type, std::string payload, bool compressed) {
  if (failed_) return;
  if (compressed) {
    auto inflated = inflater_->inflate(payload, options_.max_message);
    if (!inflated) {
      protocol_failure(inflater_->limit_exceeded() ? kCloseMessageTooBig : kCloseInvalidPayload,
                       inflated.error());
      return;
    }
    payload = std::move(*inflated);
  }
  // RFC 6455 section 8.1: a text message that is not UTF-8 fails the
  // connection (gorilla passes it on; abi/COMPAT.md).
  if (type == WsOpcode::text && !charset::detail::valid_utf8(payload)) {
    protocol_failure(kCloseInvalidPayload,
                     make_error(ErrorCode::websocket, "websocket: invalid utf8 payload in text message"));
    return;
  }
  if (!events_->on_ws_message(type, std::move(payload)) && stream_) stream_->pause_reading(true);
}

void WsConnection::protocol_failure(int code, Error error) {
  protocol_close(code, code == kCloseMessageTooBig
                           ? std::string_view()
                           : std::string_view(error.message).substr(std::string_view("websocket: ").size()));
  fail(std::move(error));
}

void WsConnection::on_ws_control(WsOpcode type, std::string_view payload) {
  if (failed_) return;
  if (type == WsOpcode::ping) {
    // gorilla's default ping handler: the same payload back, best effort.
    if (!close_sent_) write_frame(WsOpcode::pong, true, payload);
    return;
  }
  if (type != WsOpcode::close) return;  // pongs are ignored
  int code = 1005;
  std::string_view reason;
  if (payload.size() >= 2) {
    code = (static_cast<uint8_t>(payload[0]) << 8) | static_cast<uint8_t>(payload[1]);
    reason = payload.substr(2);
    if (!valid_received_close_code(code)) {
      const std::string text = "bad close code " + std::to_string(code);
      protocol_close(kCloseProtocolError, text);
      fail(make_error(ErrorCode::websocket, "websocket: " + text));
      return;
    }
    if (!charset::detail::valid_utf8(reason)) {
      const std::string text = "invalid utf8 payload in close frame";
      protocol_close(kCloseProtocolError, text);
      fail(make_error(ErrorCode::websocket, "websocket: " + text));
      return;
    }
  }
  // gorilla's default close handler echoes the code alone.
  if (!close_sent_) {
    write_frame(WsOpcode::close, true, ws_close_payload(code, ""));
    close_sent_ = true;
  }
  fail(make_error(ErrorCode::websocket, ws_close_text(code, reason)));
}

void WsConnection::protocol_close(int code, std::string_view text) {
  if (close_sent_ || !stream_) return;
  std::string data = ws_close_payload(code, text);
  if (data.size() > kWsMaxControlPayload) data.resize(kWsMaxControlPayload);
  write_frame(WsOpcode::close, true, data);
  close_sent_ = true;
}

void WsConnection::write_frame(WsOpcode op, bool fin, std::string_view payload, bool rsv1) {
  if (!stream_) return;
  std::array<uint8_t, 4> mask{};
  secure_random_bytes(mask.data(), mask.size());
  stream_->write(ws_encode_frame(op, fin, payload, mask, rsv1));
}

std::optional<Error> WsConnection::send(int message_type, std::string_view payload) {
  if (!is_data(message_type) && !is_control(message_type))
    return make_error(ErrorCode::invalid_input, "websocket: bad write message type");
  if (close_sent_) return make_error(ErrorCode::websocket, "websocket: close sent");
  if (!stream_ || !stream_->usable())
    return make_error(ErrorCode::connection_closed, "use of closed network connection");
  const auto op = static_cast<WsOpcode>(message_type);
  if (is_control(message_type)) {
    // gorilla refuses a control payload that does not fit one frame.
    if (payload.size() > kWsMaxControlPayload || payload.size() > options_.write_buffer_size)
      return make_error(ErrorCode::invalid_input, "websocket: invalid control frame");
    write_frame(op, true, payload);
    if (op == WsOpcode::close) close_sent_ = true;
    return std::nullopt;
  }
  // With permessage-deflate every non-empty message goes compressed, RSV1
  // on its first frame (an empty one is sent as it is, which RFC 7692
  // allows message by message).
  std::optional<std::string> deflated;
  if (deflater_ && !payload.empty()) deflated = deflater_->deflate(payload);
  if (deflated) payload = *deflated;
  // One frame per write buffer's worth, the last one final, as gorilla's
  // messageWriter flushes (an empty message is one empty frame).
  const size_t block = options_.write_buffer_size;
  size_t off = 0;
  bool first = true;
  do {
    const size_t n = std::min(block, payload.size() - off);
    const bool fin = off + n == payload.size();
    write_frame(first ? op : WsOpcode::continuation, fin, payload.substr(off, n), first && deflated);
    first = false;
    off += n;
  } while (off < payload.size());
  return std::nullopt;
}

void WsConnection::pause_reading(bool paused) {
  if (stream_) stream_->pause_reading(paused);
}

void WsConnection::close() {
  failed_ = true;  // no report follows a close by the caller
  if (handshake_timer_) {
    reactor_.cancel_timer(handshake_timer_);
    handshake_timer_ = 0;
  }
  if (chain_) reactor_.destroy_later(std::move(chain_));
  if (stream_) {
    stream_->close();
    reactor_.destroy_later(std::move(stream_));
  }
  release();
}

}  // namespace tlsc
