#include "reactor/reactor.h"

#include <cstdio>
#include <cstdlib>
#include <future>
#include <new>

namespace tlsc {

Reactor::Reactor(ClockMode clock)
    : clock_mode_(clock), poller_(make_poller()), now_(Clock::now()), manual_now_(now_) {
  if (!poller_) {
    // Without a poller nothing can ever complete; there is no error path
    // from a process-wide constructor to the caller.
    std::fputs("tls-client: cannot create the event loop (out of file descriptors?)\n", stderr);
    std::abort();
  }
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
  poller_->wake();
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(work_mu_);
    work_stopping_ = true;
  }
  work_cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void Reactor::post(std::function<void()> task) {
  bool was_empty;
  {
    std::lock_guard lock(tasks_mu_);
    was_empty = tasks_.empty();
    tasks_.push_back(std::move(task));
  }
  // One wake-up per batch: the loop drains every task it finds.
  if (was_empty) poller_->wake();
}

void Reactor::watch(SocketHandle s, uint32_t events, IoHandler* handler) {
  if (s == kNoSocket) return;
  watched_[s] = Watched{handler, events};
  poller_->add(s, events);
}

void Reactor::set_events(SocketHandle s, uint32_t events) {
  auto it = watched_.find(s);
  if (it == watched_.end() || it->second.events == events) return;
  it->second.events = events;
  poller_->modify(s, events);
}

void Reactor::unwatch(SocketHandle s) {
  auto it = watched_.find(s);
  if (it == watched_.end()) return;
  watched_.erase(it);
  poller_->remove(s);
}

Reactor::Clock::time_point Reactor::now() const { return now_; }

Reactor::TimerId Reactor::add_timer(std::chrono::milliseconds delay, std::function<void()> fn) {
  TimerId id = next_timer_id_++;
  timers_.emplace(id, std::move(fn));
  Clock::time_point base = clock_mode_ == ClockMode::manual ? manual_now_ : Clock::now();
  timer_heap_.push(TimerEntry{base + delay, id});
  return id;
}

void Reactor::cancel_timer(TimerId id) {
  timers_.erase(id);
  // A cancelled entry stays in the heap until its deadline; with long
  // timeouts (an hour) every keep-alive request would leave one behind.
  // When the dead outnumber the live, the heap is rebuilt from the live.
  if (timer_heap_.size() > 64 && timer_heap_.size() > 2 * timers_.size()) {
    std::vector<TimerEntry> live;
    try {
      live.reserve(timers_.size());
    } catch (const std::bad_alloc&) {
      return;  // compacted at a later cancel (this runs in destructors)
    }
    while (!timer_heap_.empty()) {
      if (timers_.contains(timer_heap_.top().id)) live.push_back(timer_heap_.top());
      timer_heap_.pop();
    }
    timer_heap_ = decltype(timer_heap_)(std::greater<>(), std::move(live));
  }
}

void Reactor::advance_clock(std::chrono::milliseconds by) {
  std::promise<void> done;
  post([this, by, &done] {
    manual_now_ += by;
    run_due_timers();
    done.set_value();
  });
  done.get_future().wait();
}

int Reactor::next_timeout_ms() const {
  if (!graveyard_.empty() || !shared_graveyard_.empty()) return 0;
  if (timer_heap_.empty() || clock_mode_ == ClockMode::manual) return -1;
  auto d = timer_heap_.top().when - Clock::now();
  if (d <= Clock::duration::zero()) return 0;
  // Round up so a timer never fires early.
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(d).count());
}

template <class F>
void Reactor::run_guarded(F&& fn) {
  // The last line of defence: an exception that got this far (no memory in
  // a callback that does not catch it itself) must not end the host
  // process through std::terminate. What the callback was doing is lost;
  // its request still ends through its own timeout.
  try {
    fn();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tls-client: loop thread: %s (ignored)\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "tls-client: loop thread: unknown exception (ignored)\n");
  }
}

void Reactor::run_due_timers() {
  now_ = clock_mode_ == ClockMode::manual ? manual_now_ : Clock::now();
  while (!timer_heap_.empty() && timer_heap_.top().when <= now_) {
    TimerId id = timer_heap_.top().id;
    timer_heap_.pop();
    auto it = timers_.find(id);
    if (it == timers_.end()) continue;  // cancelled
    auto fn = std::move(it->second);
    timers_.erase(it);
    run_guarded(fn);
  }
}

void Reactor::run() {
  std::vector<IoReady> ready;
  std::vector<std::function<void()>> batch;
  for (;;) {
    ready.clear();
    poller_->wait(next_timeout_ms(), ready);
    now_ = clock_mode_ == ClockMode::manual ? manual_now_ : Clock::now();
    for (const IoReady& r : ready) {
      // A handler earlier in this batch may have unwatched this socket.
      auto it = watched_.find(r.socket);
      if (it != watched_.end()) run_guarded([&] { it->second.handler->on_io(r.events); });
    }
    {
      std::lock_guard lock(tasks_mu_);
      batch.swap(tasks_);
      if (stopping_ && batch.empty()) {
        bury_the_dead();
        return;
      }
    }
    for (auto& task : batch) run_guarded(task);
    batch.clear();
    run_due_timers();
    bury_the_dead();
  }
}

void Reactor::bury_the_dead() {
  // Everything handed to destroy_later during this turn: no callback of
  // theirs is on the stack any more. Destructors may add more.
  while (!graveyard_.empty() || !shared_graveyard_.empty()) {
    graveyard_.swap(dying_);
    shared_graveyard_.swap(shared_dying_);
    dying_.clear();
    shared_dying_.clear();
  }
}

void Reactor::run_blocking(std::function<void()> work, std::function<void()> then) {
  {
    std::lock_guard lock(work_mu_);
    work_.emplace_back(std::move(work), std::move(then));
    if (!worker_.joinable()) worker_ = std::thread([this] { worker_loop(); });
  }
  work_cv_.notify_one();
}

void Reactor::worker_loop() {
  for (;;) {
    std::pair<std::function<void()>, std::function<void()>> item;
    {
      std::unique_lock lock(work_mu_);
      work_cv_.wait(lock, [&] { return work_stopping_ || !work_.empty(); });
      if (work_.empty()) return;
      item = std::move(work_.front());
      work_.pop_front();
    }
    run_guarded(item.first);
    post(std::move(item.second));
  }
}

}  // namespace tlsc
