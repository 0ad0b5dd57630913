// One event loop thread that owns every socket and all protocol state.
// Other threads only post() closures to it; everything else here must be
// called on the loop thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <unordered_map>
#include <vector>

#include "reactor/io_backend.h"

namespace tlsc {

class IoHandler {
 public:
  virtual void on_io(uint32_t events) = 0;

 protected:
  ~IoHandler() = default;
};

class Reactor {
 public:
  using Clock = std::chrono::steady_clock;
  using TimerId = uint64_t;

  Reactor();
  ~Reactor();  // stops and joins the loop thread
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // Any thread. Tasks run on the loop thread in posting order.
  void post(std::function<void()> task);
  bool in_loop_thread() const { return std::this_thread::get_id() == thread_id_.load(); }

  // Loop thread only. A handler stays registered until unwatch(fd); it must
  // unwatch before it is destroyed or closes the fd.
  void watch(int fd, uint32_t events, IoHandler* handler);
  void set_events(int fd, uint32_t events);
  void unwatch(int fd);

  TimerId add_timer(std::chrono::milliseconds delay, std::function<void()> fn);
  void cancel_timer(TimerId id);
  Clock::time_point now() const { return now_; }

 private:
  void run();
  void run_due_timers();
  int next_timeout_ms() const;

  std::unique_ptr<IoBackend> backend_;
  int wake_fd_ = -1;
  std::mutex tasks_mu_;
  std::vector<std::function<void()>> tasks_;
  bool stopping_ = false;

  std::vector<IoHandler*> handlers_;  // by fd
  std::vector<uint32_t> watched_events_;

  struct TimerEntry {
    Clock::time_point when;
    TimerId id;
    bool operator>(const TimerEntry& o) const {
      return when != o.when ? when > o.when : id > o.id;
    }
  };
  std::priority_queue<TimerEntry, std::vector<TimerEntry>, std::greater<>> timer_heap_;
  std::unordered_map<TimerId, std::function<void()>> timers_;
  TimerId next_timer_id_ = 1;
  Clock::time_point now_;

  std::thread thread_;
  std::atomic<std::thread::id> thread_id_;
};

}  // namespace tlsc
