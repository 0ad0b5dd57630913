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
  room_.emplace_back();
  ++in_flight_;
}

void CompletionQueue::forget_one() {
  std::lock_guard lock(mu_);
  if (!room_.empty()) room_.pop_back();
  if (in_flight_ > 0) --in_flight_;
  if (in_flight_ == 0 && watchers_ == 0) items_cv_.notify_all();
}

void CompletionQueue::add_watcher() {
  std::lock_guard lock(mu_);
  ++watchers_;
}

void CompletionQueue::remove_watcher() {
  std::lock_guard lock(mu_);
  if (watchers_ > 0) --watchers_;
  if (in_flight_ == 0 && watchers_ == 0) items_cv_.notify_all();
}

void CompletionQueue::push_event(std::string event_json) {
  std::lock_guard lock(mu_);
  items_.push_back(std::move(event_json));
  items_cv_.notify_one();
  arm_locked();
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
  if (room_.empty()) {
    items_.push_back(std::move(response_json));  // pushed without expect_one
  } else {
    items_.splice(items_.end(), room_, room_.begin());
    items_.back() = std::move(response_json);
  }
  if (in_flight_ > 0) --in_flight_;
  // The last one in flight: every waiter must return, the one that takes it
  // and those that then find nothing queued and nothing to wait for.
  if (in_flight_ == 0 && watchers_ == 0) {
    items_cv_.notify_all();
  } else {
    items_cv_.notify_one();
  }
  arm_locked();
}

std::string CompletionQueue::wait_batch(int timeout_ms) {
  std::unique_lock lock(mu_);
  if (timeout_ms < 0) {
    // For ever, unless nothing is in flight and no stream or WebSocket
    // will send events: then it could never return.
    items_cv_.wait(lock, [this] { return !items_.empty() || (in_flight_ == 0 && watchers_ == 0); });
  } else if (timeout_ms > 0) {
    // Its whole time even with nothing in flight (a request may start
    // meanwhile): a thread that polls with a timeout must not spin.
    items_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return !items_.empty(); });
  }
  // The batch is measured first and its string made in one allocation:
  // if that fails, nothing has left the queue, and the next call takes it.
  size_t count = 0;
  size_t bytes = 2;  // "[]"
  for (auto it = items_.begin(); it != items_.end() && count < kMaxBatchCount; ++it) {
    const size_t more = it->size() + (count > 0 ? 1 : 0);
    if (count > 0 && bytes + more > kMaxBatchBytes) break;
    bytes += more;
    ++count;
  }
  std::string out;
  out.reserve(bytes);
  out.push_back('[');
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out.push_back(',');
    out.append(items_.front());
    items_.pop_front();
  }
  out.push_back(']');
  // A batch limit left some behind: the next waiter takes them.
  if (!items_.empty()) items_cv_.notify_one();
  // A waitNext ends the notification period; what is still queued starts
  // a new one. A call that was due for what this waitNext just took is
  // dropped: it would announce an empty queue.
  if (items_.empty()) notify_due_ = false;
  armed_ = true;
  arm_locked();
  return out;
}

void CompletionQueue::set_notify(NotifyFn fn) {
  std::lock_guard lock(mu_);
  notify_ = fn;
  if (fn == nullptr) {
    // No new call starts after this returns. A call already in progress is
    // not waited for: under koffi it is parked until the JavaScript thread
    // runs it, and that thread may be the one calling us (a deadlock).
    notify_due_ = false;
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
    if (items_.empty()) {
      armed_ = true;  // taken by a waitNext in the meantime: nothing to announce
      continue;
    }
    NotifyFn fn = notify_;
    int pending = static_cast<int>(items_.size());
    lock.unlock();
    fn(pending);
    lock.lock();
  }
}

}  // namespace tlsc
