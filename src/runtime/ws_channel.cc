#include "runtime/ws_channel.h"

#include <chrono>
#include <future>

namespace tlsc {

void WsChannel::attach(std::weak_ptr<WsConnection> connection) {
  std::lock_guard lock(mu_);
  connection_ = std::move(connection);
}

void WsChannel::on_ws_open() {
  std::lock_guard lock(mu_);
  opened_ = true;
  cv_.notify_all();
}

bool WsChannel::on_ws_message(WsOpcode type, std::string payload) {
  std::lock_guard lock(mu_);
  inbox_bytes_ += payload.size();
  inbox_.push_back(Message{static_cast<int>(type), std::move(payload)});
  cv_.notify_all();
  tell_locked();
  if (inbox_bytes_ < kInboxLimit) return true;
  paused_ = true;
  return false;
}

void WsChannel::on_ws_failed(Error error) {
  std::lock_guard lock(mu_);
  if (!failure_) failure_ = std::move(error);
  cv_.notify_all();
  tell_locked();
}

std::optional<Error> WsChannel::wait_open() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return opened_ || failure_; });
  if (opened_) return std::nullopt;
  return failure_;
}

void WsChannel::post_resume_locked() {
  reactor_.post([weak = connection_] {
    if (auto c = weak.lock()) c->pause_reading(false);
  });
}

Result<WsChannel::Message> WsChannel::read(int64_t timeout_ms) {
  std::unique_lock lock(mu_);
  if (notice_) notice_->read_begins();
  auto ready = [&] { return !inbox_.empty() || failure_ || closed_; };
  if (timeout_ms <= 0) {
    cv_.wait(lock, ready);
  } else if (!cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready)) {
    if (notice_) notice_->read_ends(readable_locked());
    return make_error(ErrorCode::timeout, "i/o timeout");
  }
  // Messages that arrived before the end are still read, in order.
  if (!inbox_.empty()) {
    Message m = std::move(inbox_.front());
    inbox_.pop_front();
    inbox_bytes_ -= m.data.size();
    if (paused_ && inbox_bytes_ <= kInboxLimit / 2) {
      paused_ = false;
      post_resume_locked();
    }
    if (notice_) notice_->read_ends(readable_locked());
    return m;
  }
  if (closed_) {
    if (notice_) notice_->read_ends(false);
    return make_error(ErrorCode::connection_closed, "use of closed network connection");
  }
  // The failure is told once; later reads return it at once anyway.
  failure_read_ = true;
  notice_.reset();
  return *failure_;
}

void WsChannel::notify_with(std::unique_ptr<ReadyNotice> notice) {
  std::lock_guard lock(mu_);
  notice_ = std::move(notice);
  tell_locked();
}

std::optional<Error> WsChannel::write(int type, std::string data) {
  std::weak_ptr<WsConnection> weak;
  {
    std::lock_guard lock(mu_);
    if (closed_) return make_error(ErrorCode::connection_closed, "use of closed network connection");
    weak = connection_;
  }
  auto result = std::make_shared<std::promise<std::optional<Error>>>();
  auto answer = result->get_future();
  reactor_.post([weak, type, data = std::move(data), result] {
    auto c = weak.lock();
    if (!c) {
      result->set_value(make_error(ErrorCode::connection_closed, "use of closed network connection"));
      return;
    }
    result->set_value(c->send(type, data));
  });
  return answer.get();
}

void WsChannel::close() {
  std::weak_ptr<WsConnection> weak;
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
    notice_.reset();  // the caller forgot the connection: no event names it
    weak = connection_;
    cv_.notify_all();
  }
  reactor_.post([weak] {
    if (auto c = weak.lock()) c->close();
  });
}

}  // namespace tlsc
