#include "runtime/body_stream.h"

#include <algorithm>
#include <chrono>

#include "codec/decoder.h"
#include "http/response_builder.h"
#include "http/transaction.h"

namespace tlsc {
namespace {

size_t buffer_limit(size_t block_size) {
  constexpr size_t kMin = 64u << 10;
  constexpr size_t kMax = 16u << 20;
  const size_t chunks =
      block_size > kMax / BodyStream::kChunksBuffered ? kMax : block_size * BodyStream::kChunksBuffered;
  return std::clamp(chunks, kMin, kMax);
}

const std::vector<std::string>* envelope_header(const Response& r, std::string_view canonical) {
  if (!r.headers) return nullptr;
  for (const auto& [k, v] : *r.headers) {
    if (k == canonical) return &v;
  }
  return nullptr;
}

}  // namespace

BodyStream::BodyStream(Reactor& reactor, size_t block_size, bool is_byte_response, size_t max_all)
    : reactor_(reactor),
      block_size_(block_size > 0 ? block_size : kDefaultBlockSize),
      limit_(buffer_limit(block_size_)),
      is_byte_response_(is_byte_response),
      max_all_(max_all) {}

void BodyStream::attach(std::weak_ptr<Transaction> transaction) {
  std::lock_guard lock(mu_);
  transaction_ = std::move(transaction);
}

void BodyStream::on_head(Response envelope) {
  std::lock_guard lock(mu_);
  head_ = std::move(envelope);
  cv_.notify_all();
}

bool BodyStream::on_body(std::string_view bytes) {
  std::lock_guard lock(mu_);
  if (offset_ == buf_.size()) {
    buf_.clear();
    offset_ = 0;
  } else if (offset_ > buf_.size() / 2) {
    // Keep the buffer from creeping: what was read goes before it grows.
    buf_.erase(0, offset_);
    offset_ = 0;
  }
  if (ended_) return false;  // failed past max_all_; the cancel is on its way
  if (draining_ && bytes.size() > max_all_ - std::min(max_all_, buffered_locked())) {
    // read_all would hold more than a body request() may: the same limit.
    error_ = body_too_large_error(max_all_);
    ended_ = true;
    buf_ = std::string();
    offset_ = 0;
    cv_.notify_all();
    tell_locked();
    reactor_.post([weak = transaction_] {
      if (auto t = weak.lock()) t->cancel_by_caller();
    });
    return false;
  }
  buf_.append(bytes);
  cv_.notify_all();
  tell_locked();
  if (draining_ || buffered_locked() < limit_) return true;
  paused_ = true;
  return false;
}

void BodyStream::on_done(Response final_response) {
  std::lock_guard lock(mu_);
  if (ended_) return;  // already failed here (past max_all_)
  if (!head_) {
    failure_before_head_ = std::move(final_response);
  } else if (final_response.status == 0) {
    error_ =
        make_error(final_response.error_code.value_or(ErrorCode::internal), std::move(final_response.body));
  }
  ended_ = true;
  cv_.notify_all();
  tell_locked();
}

Response BodyStream::wait_head() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return head_ || failure_before_head_; });
  return head_ ? *head_ : *failure_before_head_;
}

void BodyStream::take_locked(size_t n, std::string& out) {
  out.assign(buf_, offset_, n);
  offset_ += n;
  if (paused_ && buffered_locked() <= limit_ / 2) {
    paused_ = false;
    post_resume_locked();
  }
}

void BodyStream::post_resume_locked() {
  reactor_.post([weak = transaction_] {
    if (auto t = weak.lock()) t->resume_body();
  });
}

BodyStream::Piece BodyStream::read(int timeout_ms) {
  std::unique_lock lock(mu_);
  if (notice_) notice_->read_begins();
  auto ready = [&] { return buffered_locked() > 0 || ended_; };
  if (timeout_ms < 0) {
    cv_.wait(lock, ready);
  } else if (timeout_ms > 0) {
    cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready);
  }
  Piece p;
  if (buffered_locked() > 0) {
    p.kind = Piece::Kind::chunk;
    take_locked(std::min(block_size_, buffered_locked()), p.bytes);
  } else if (ended_ && error_) {
    p.kind = Piece::Kind::error;
    p.bytes = error_->message;
  } else if (ended_) {
    p.kind = Piece::Kind::eof;
  }
  if (p.kind == Piece::Kind::eof || p.kind == Piece::Kind::error) {
    end_read_ = true;
    notice_.reset();  // the stream's id names nothing from now on
  }
  if (notice_) notice_->read_ends(readable_locked());
  return p;
}

void BodyStream::notify_with(std::unique_ptr<ReadyNotice> notice) {
  std::lock_guard lock(mu_);
  notice_ = std::move(notice);
  tell_locked();
}

Result<Response> BodyStream::read_all() {
  std::unique_lock lock(mu_);
  // Everything is wanted now: nothing may hold the transport back, and
  // this call answers for the rest of the stream (no more events).
  draining_ = true;
  notice_.reset();
  if (paused_) {
    paused_ = false;
    post_resume_locked();
  }
  cv_.wait(lock, [&] { return ended_; });
  if (error_) return *error_;
  Response r = head_ ? *head_ : Response{};
  std::string body = buf_.substr(offset_);
  buf_.clear();
  offset_ = 0;
  const auto* ct = envelope_header(r, "Content-Type");
  r.body =
      convert_body(std::move(body), ct && !ct->empty() ? std::string_view(ct->front()) : std::string_view(),
                   is_byte_response_);
  return r;
}

std::optional<ErrorCode> BodyStream::error_code() {
  std::lock_guard lock(mu_);
  if (!error_) return std::nullopt;
  return error_->code;
}

void BodyStream::cancel() {
  std::weak_ptr<Transaction> weak;
  {
    std::lock_guard lock(mu_);
    notice_.reset();  // the caller forgot the stream: no event names it
    if (ended_) return;
    weak = transaction_;
  }
  reactor_.post([weak] {
    if (auto t = weak.lock()) t->cancel_by_caller();
  });
}

}  // namespace tlsc
