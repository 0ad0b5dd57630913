#include "reactor/reactor.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstring>

namespace tlsc {

Reactor::Reactor()
    : backend_(make_default_io_backend()),
      wake_fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      now_(Clock::now()) {
  backend_->add(wake_fd_, kIoReadable);
  thread_ = std::thread([this] {
    thread_id_.store(std::this_thread::get_id());
    run();
  });
}

Reactor::~Reactor() {
  {
    std::lock_guard lock(tasks_mu_);
    stopping_ = true;
  }
  uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
  close(wake_fd_);
}

void Reactor::post(std::function<void()> task) {
  bool was_empty;
  {
    std::lock_guard lock(tasks_mu_);
    was_empty = tasks_.empty();
    tasks_.push_back(std::move(task));
  }
  // One wake-up per batch: the loop drains every task it finds.
  if (was_empty) {
    uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof one);
  }
}

void Reactor::watch(int fd, uint32_t events, IoHandler* handler) {
  if (fd < 0) return;
  auto idx = static_cast<size_t>(fd);
  if (handlers_.size() <= idx) {
    handlers_.resize(idx + 1, nullptr);
    watched_events_.resize(idx + 1, 0);
  }
  handlers_[idx] = handler;
  watched_events_[idx] = events;
  backend_->add(fd, events);
}

void Reactor::set_events(int fd, uint32_t events) {
  auto idx = static_cast<size_t>(fd);
  if (fd < 0 || idx >= handlers_.size() || handlers_[idx] == nullptr) return;
  if (watched_events_[idx] == events) return;
  watched_events_[idx] = events;
  backend_->modify(fd, events);
}

void Reactor::unwatch(int fd) {
  auto idx = static_cast<size_t>(fd);
  if (fd < 0 || idx >= handlers_.size() || handlers_[idx] == nullptr) return;
  handlers_[idx] = nullptr;
  watched_events_[idx] = 0;
  backend_->remove(fd);
}

Reactor::TimerId Reactor::add_timer(std::chrono::milliseconds delay, std::function<void()> fn) {
  TimerId id = next_timer_id_++;
  timers_.emplace(id, std::move(fn));
  timer_heap_.push(TimerEntry{Clock::now() + delay, id});
  return id;
}

void Reactor::cancel_timer(TimerId id) { timers_.erase(id); }

int Reactor::next_timeout_ms() const {
  if (timer_heap_.empty()) return -1;
  auto d = timer_heap_.top().when - Clock::now();
  if (d <= Clock::duration::zero()) return 0;
  // Round up so a timer never fires early.
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(d).count());
}

void Reactor::run_due_timers() {
  now_ = Clock::now();
  while (!timer_heap_.empty() && timer_heap_.top().when <= now_) {
    TimerId id = timer_heap_.top().id;
    timer_heap_.pop();
    auto it = timers_.find(id);
    if (it == timers_.end()) continue;  // cancelled
    auto fn = std::move(it->second);
    timers_.erase(it);
    fn();
  }
}

void Reactor::run() {
  std::vector<IoReady> ready;
  std::vector<std::function<void()>> batch;
  for (;;) {
    ready.clear();
    backend_->wait(next_timeout_ms(), ready);
    now_ = Clock::now();
    for (const IoReady& r : ready) {
      if (r.fd == wake_fd_) {
        uint64_t v;
        while (read(wake_fd_, &v, sizeof v) > 0) {
        }
        continue;
      }
      auto idx = static_cast<size_t>(r.fd);
      // A handler earlier in this batch may have unwatched this fd.
      if (idx < handlers_.size() && handlers_[idx] != nullptr) handlers_[idx]->on_io(r.events);
    }
    {
      std::lock_guard lock(tasks_mu_);
      batch.swap(tasks_);
      if (stopping_ && batch.empty()) return;
    }
    for (auto& task : batch) task();
    batch.clear();
    run_due_timers();
  }
}

}  // namespace tlsc
