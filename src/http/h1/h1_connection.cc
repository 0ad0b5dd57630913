#include "http/h1/h1_connection.h"

#include <new>

namespace tlsc {

H1Connection::H1Connection(std::unique_ptr<Stream> stream, std::string pool_key)
    : stream_(std::move(stream)), pool_key_(std::move(pool_key)) {}

H1Connection::~H1Connection() {
  if (stream_) stream_->close();
}

Result<HttpConnection::ExchangeId> H1Connection::submit(const OutgoingRequest& request,
                                                        ExchangeObserver* observer) {
  auto bytes = write_h1_request(request.message);
  if (!bytes) return bytes.error();
  const std::string& method = request.message.method.empty() ? std::string("GET") : request.message.method;
  auto parser =
      std::make_unique<H1ResponseParser>(method, request.max_header_bytes, request.read_buffer_size);
  lost_ = nullptr;
  observer_ = observer;
  parser_ = std::move(parser);
  received_any_ = false;
  head_reported_ = false;
  ++exchanges_;
  stream_->set_observer(this);
  try {
    stream_->write(*bytes);
  } catch (const std::bad_alloc&) {
    // Not submitted after all (part of it may have left): the caller hears
    // it from the exception, and the connection is not used again.
    cancel(exchanges_);
    throw;
  }
  // Handed to the transport; a reply may already have come back while we wrote.
  if (observer_ == observer) observer->on_request_sent();
  return exchanges_;
}

void H1Connection::cancel(ExchangeId) {
  observer_ = nullptr;
  broken_ = true;
  stream_->set_observer(nullptr);
  stream_->close();
}

void H1Connection::close(const Error& reason) {
  ExchangeObserver* obs = observer_;
  cancel(0);
  if (obs) obs->on_response_error(reason, false);
}

bool H1Connection::accepts_requests() const {
  if (observer_ != nullptr) return false;              // busy
  if (!parser_) return !broken_ && stream_->usable();  // never used: a new connection
  return !broken_ && parser_->message_complete() && parser_->keep_alive() && stream_->usable();
}

void H1Connection::park(std::function<void()> lost) {
  lost_ = std::move(lost);
  stream_->set_observer(this);
}

void H1Connection::unpark() {
  lost_ = nullptr;
  stream_->set_observer(nullptr);
}

void H1Connection::lose_parked() {
  broken_ = true;
  stream_->set_observer(nullptr);
  auto lost = std::move(lost_);
  lost_ = nullptr;
  if (lost) lost();
}

void H1Connection::on_stream_data(std::string_view data) {
  if (observer_ == nullptr || !parser_) {
    // Bytes nobody asked for: on an idle connection, the server's farewell.
    lose_parked();
    broken_ = true;
    return;
  }
  received_any_ = true;
  while (!data.empty()) {
    body_scratch_.clear();
    auto consumed = parser_->feed(data, body_scratch_);
    if (!consumed) {
      broken_ = true;
      ExchangeObserver* obs = observer_;
      observer_ = nullptr;
      stream_->set_observer(nullptr);
      obs->on_response_error(consumed.error(), false);
      return;
    }
    data.remove_prefix(std::min(*consumed, data.size()));
    if (!head_reported_ && parser_->head_complete()) {
      head_reported_ = true;
      observer_->on_response_head(parser_->head());
      if (observer_ == nullptr) return;  // observer gave up inside the call
    }
    if (!body_scratch_.empty()) {
      observer_->on_response_body(body_scratch_);
      if (observer_ == nullptr) return;
    }
    if (parser_->message_complete()) {
      // Bytes after a complete response were never asked for: this
      // connection's framing can no longer be trusted.
      if (!data.empty()) broken_ = true;
      ExchangeObserver* obs = observer_;
      observer_ = nullptr;
      stream_->set_observer(nullptr);
      obs->on_response_complete();
      return;
    }
    if (*consumed == 0) break;  // parser needs more bytes
  }
}

void H1Connection::on_stream_closed(const Error* error) {
  broken_ = true;
  if (lost_) {
    lose_parked();
    return;
  }
  ExchangeObserver* obs = observer_;
  observer_ = nullptr;
  if (obs == nullptr) return;
  const bool retryable = !received_any_ && exchanges_ > 1;
  if (error == nullptr && parser_) {
    std::optional<Error> eof_error = parser_->on_eof();
    if (!eof_error && parser_->head_complete() && !head_reported_) {
      head_reported_ = true;
      obs->on_response_head(parser_->head());
    }
    if (!eof_error && parser_->message_complete()) {
      obs->on_response_complete();
      return;
    }
    obs->on_response_error(
        eof_error ? *eof_error : make_error(ErrorCode::connection_closed, "unexpected EOF"), retryable);
    return;
  }
  obs->on_response_error(error ? *error : make_error(ErrorCode::connection_closed, "connection closed"),
                         retryable);
}

}  // namespace tlsc
