// One event loop thread that owns every socket and all protocol state.
// Other threads only post() closures to it; everything else here must be
// called on the loop thread. README.md says how objects that callbacks may
// outlive are kept safe (Liveness, destroy_later).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <queue>
#include <thread>
#include <unordered_map>
#include <vector>

#include "platform/clock.h"
#include "platform/poller.h"

namespace tlsc {

class IoHandler {
 public:
  virtual void on_io(uint32_t events) = 0;

 protected:
  ~IoHandler() = default;
};

// A flag that an object owns and its deferred callbacks watch: the object
// lowers it when it dies, and a callback that finds it lowered does
// nothing. Loop thread only (like everything it guards).
class Liveness {
 public:
  class Watch {
   public:
    explicit operator bool() const { return flag_ && *flag_; }

   private:
    friend class Liveness;
    explicit Watch(std::shared_ptr<const bool> flag) : flag_(std::move(flag)) {}
    std::shared_ptr<const bool> flag_;
  };

  Liveness() = default;
  ~Liveness() { *flag_ = false; }
  Liveness(const Liveness&) = delete;
  Liveness& operator=(const Liveness&) = delete;

  Watch watch() const { return Watch(flag_); }
  // Callbacks made before this call stop working; the object lives on.
  void revoke() {
    *flag_ = false;
    flag_ = std::make_shared<bool>(true);
  }

 private:
  std::shared_ptr<bool> flag_ = std::make_shared<bool>(true);
};

class Reactor {
 public:
  using Clock = MonotonicClock;
  using TimerId = uint64_t;

  // manual: time stands still until advance_clock() moves it (tests drive
  // timers that way, without sleeping); real: the monotonic clock.
  enum class ClockMode { real, manual };

  explicit Reactor(ClockMode clock = ClockMode::real);
  ~Reactor();  // stops and joins the loop thread
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // Any thread. Tasks run on the loop thread in posting order.
  void post(std::function<void()> task);
  bool in_loop_thread() const { return std::this_thread::get_id() == thread_id_.load(); }

  // Loop thread only. A handler stays registered until unwatch(s); it must
  // unwatch before it is destroyed or closes the socket. An event for a
  // socket unwatched earlier in the same batch is dropped.
  void watch(SocketHandle s, uint32_t events, IoHandler* handler);
  void set_events(SocketHandle s, uint32_t events);
  void unwatch(SocketHandle s);

  TimerId add_timer(std::chrono::milliseconds delay, std::function<void()> fn);
  void cancel_timer(TimerId id);
  // Entries in the timer heap, cancelled ones included (a test's view of
  // how many cancelled timers are kept).
  size_t timer_heap_size() const { return timer_heap_.size(); }
  // The loop's time: read once per turn of the loop (and after each
  // advance_clock in manual mode). Code above the reactor asks this, never
  // a clock of its own.
  Clock::time_point now() const;
  // Manual clock only, any thread: moves time forward and runs the timers
  // that became due, on the loop thread, before returning.
  void advance_clock(std::chrono::milliseconds by);

  // Loop thread only. Keeps `object` until the current callback stack has
  // unwound (the end of this turn of the loop): for objects whose own call
  // is on the stack, such as a stream whose observer is finishing with it.
  // Needs no memory while the graveyard has room (kept ahead, and grown
  // when it can be); with none left the object is leaked rather than freed
  // now, which could free one whose call is on the stack.
  template <class T>
  void destroy_later(std::unique_ptr<T> object) {
    if (!object) return;
    if (!has_room(graveyard_)) {
      (void)object.release();
      return;
    }
    graveyard_.emplace_back(object.release(), [](void* p) { delete static_cast<T*>(p); });
  }
  template <class T>
  void destroy_later(std::shared_ptr<T> object) {
    if (!object) return;
    if (!has_room(shared_graveyard_)) {
      keep_for_ever(std::move(object));
      return;
    }
    shared_graveyard_.emplace_back(std::move(object));
  }

  // Runs `work` on a helper thread (blocking calls: file writes) and then
  // `then` on the loop thread, in submission order. Work items run one
  // after another.
  void run_blocking(std::function<void()> work, std::function<void()> then);

 private:
  void run();
  void run_due_timers();
  // Calls fn; an exception out of it is reported on stderr, not rethrown.
  template <class F>
  static void run_guarded(F&& fn);
  int next_timeout_ms() const;
  void worker_loop();

  const ClockMode clock_mode_;
  std::unique_ptr<Poller> poller_;
  std::mutex tasks_mu_;
  std::vector<std::function<void()>> tasks_;
  bool stopping_ = false;

  struct Watched {
    IoHandler* handler;
    uint32_t events;
  };
  std::unordered_map<SocketHandle, Watched> watched_;

  struct TimerEntry {
    Clock::time_point when;
    TimerId id;
    bool operator>(const TimerEntry& o) const { return when != o.when ? when > o.when : id > o.id; }
  };
  std::priority_queue<TimerEntry, std::vector<TimerEntry>, std::greater<>> timer_heap_;
  std::unordered_map<TimerId, std::function<void()>> timers_;
  TimerId next_timer_id_ = 1;
  Clock::time_point now_;
  Clock::time_point manual_now_;  // manual mode: the time advance_clock set

  // What destroy_later keeps until the turn ends, and the same vectors'
  // other halves, swapped in while the dead are freed (so both keep their
  // room from turn to turn).
  using Grave = std::unique_ptr<void, void (*)(void*)>;
  std::vector<Grave> graveyard_, dying_;
  std::vector<std::shared_ptr<void>> shared_graveyard_, shared_dying_;
  // Shared objects destroy_later had no room for (a process out of memory).
  std::array<std::shared_ptr<void>, 64> kept_for_ever_;
  size_t kept_count_ = 0;
  template <class V>
  static bool has_room(V& graves) {
    if (graves.size() < graves.capacity()) return true;
    try {
      graves.reserve(graves.capacity() * 2 + 64);
      return true;
    } catch (const std::bad_alloc&) {
      return false;
    }
  }
  void keep_for_ever(std::shared_ptr<void> object) {
    if (kept_count_ < kept_for_ever_.size()) kept_for_ever_[kept_count_++] = std::move(object);
  }
  void bury_the_dead();

  std::mutex work_mu_;
  std::condition_variable work_cv_;
  std::deque<std::pair<std::function<void()>, std::function<void()>>> work_;
  bool work_stopping_ = false;
  std::thread worker_;

  std::thread thread_;
  std::atomic<std::thread::id> thread_id_;
};

}  // namespace tlsc
