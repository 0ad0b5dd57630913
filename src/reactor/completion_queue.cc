#include "reactor/completion_queue.h"

#include <chrono>

namespace tlsc {

CompletionQueue::CompletionQueue() : notifier_([this] { notifier_loop(); }) {}

CompletionQueue::~CompletionQueue() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  notify_cv_.notify_all();
  if (notifier_.joinable()) notifier_.join();
}

void CompletionQueue::expect_one() {
  std::lock_guard lock(mu_);
  ++in_flight_;
}

void CompletionQueue::arm_locked() {
  if (notify_ != nullptr && armed_ && !items_.empty()) {
    armed_ = false;
    notify_due_ = true;
    notify_cv_.notify_one();
  }
}

void CompletionQueue::push(std::string response_json) {
  std::lock_guard lock(mu_);
  items_.push_back(std::move(response_json));
  if (in_flight_ > 0) --in_flight_;
  items_cv_.notify_one();
  arm_locked();
}

std::string CompletionQueue::wait_batch(int timeout_ms) {
  std::unique_lock lock(mu_);
  auto ready = [this] { return !items_.empty() || in_flight_ == 0; };
  if (timeout_ms < 0) {
    items_cv_.wait(lock, ready);
  } else if (timeout_ms > 0) {
    items_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready);
  }
  std::string out = "[";
  size_t count = 0;
  while (!items_.empty() && count < kMaxBatchCount &&
         (count == 0 || out.size() + items_.front().size() <= kMaxBatchBytes)) {
    if (count) out.push_back(',');
    out.append(items_.front());
    items_.pop_front();
    ++count;
  }
  out.push_back(']');
  // A waitNext ends the notification period; what is still queued starts
  // a new one.
  armed_ = true;
  arm_locked();
  return out;
}

void CompletionQueue::set_notify(NotifyFn fn) {
  std::unique_lock lock(mu_);
  notify_ = fn;
  if (fn == nullptr) {
    notify_due_ = false;
    if (std::this_thread::get_id() != notifier_.get_id()) {
      callback_done_cv_.wait(lock, [this] { return !in_callback_; });
    }
    return;
  }
  armed_ = true;
  arm_locked();
}

void CompletionQueue::notifier_loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    notify_cv_.wait(lock, [this] { return stopping_ || (notify_due_ && notify_ != nullptr); });
    if (stopping_) return;
    notify_due_ = false;
    NotifyFn fn = notify_;
    int pending = static_cast<int>(items_.size());
    in_callback_ = true;
    lock.unlock();
    fn(pending);
    lock.lock();
    in_callback_ = false;
    callback_done_cv_.notify_all();
  }
}

}  // namespace tlsc
