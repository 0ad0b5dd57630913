#include "http/h1/h1_connection.h"

namespace tlsc {

H1Connection::H1Connection(std::unique_ptr<Stream> stream, std::string pool_key)
    : stream_(std::move(stream)), pool_key_(std::move(pool_key)) {}

H1Connection::~H1Connection() {
  if (stream_) stream_->close();
}

void H1Connection::start_exchange(std::string_view request_bytes, std::string_view method,
                                  size_t max_header_bytes, size_t read_buffer_size,
                                  ExchangeObserver* observer) {
  observer_ = observer;
  parser_ = std::make_unique<H1ResponseParser>(method, max_header_bytes, read_buffer_size);
  received_any_ = false;
  head_reported_ = false;
  ++exchanges_;
  stream_->set_observer(this);
  stream_->write(request_bytes);
}

void H1Connection::abandon() {
  observer_ = nullptr;
  broken_ = true;
  stream_->set_observer(nullptr);
  stream_->close();
}

bool H1Connection::reusable() const {
  if (!parser_) return !broken_ && stream_->usable();  // never used: a new connection
  return !broken_ && parser_ && parser_->message_complete() && parser_->keep_alive() &&
         stream_->usable();
}

void H1Connection::on_stream_data(std::string_view data) {
  if (observer_ == nullptr || !parser_) {
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
  ExchangeObserver* obs = observer_;
  observer_ = nullptr;
  if (obs == nullptr) return;
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
    obs->on_response_error(eof_error ? *eof_error : make_error(ErrorCode::connection_closed, "unexpected EOF"),
                     !received_any_ && exchanges_ > 1);
    return;
  }
  obs->on_response_error(error ? *error : make_error(ErrorCode::connection_closed, "connection closed"),
                   !received_any_ && exchanges_ > 1);
}

}  // namespace tlsc
