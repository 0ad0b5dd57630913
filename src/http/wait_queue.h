// Requests waiting for something of an origin (a connection, a
// maxConnsPerHost slot), first come first served. A waiter is live until it
// is served (pop) or stops waiting (remove). Dead waiters are dropped from
// the front as they come up and swept out when they outnumber the live ones
// (remove cannot reach into the middle of a deque), so a queue holds at most
// about twice its live waiters plus a few, and pop and add are O(1)
// amortised. Loop thread only.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

namespace tlsc {

template <typename Fn>
class WaitQueues {
 public:
  struct Waiter {
    std::string key;
    Fn fn;  // released (reset) when the waiter dies
    bool live = true;
  };

  std::shared_ptr<Waiter> add(const std::string& key, Fn fn) {
    Queue& q = queues_[key];
    while (!q.waiters.empty() && !q.waiters.front()->live) q.waiters.pop_front();
    if (q.waiters.size() >= 2 * q.live + kSlack) {
      std::erase_if(q.waiters, [](const auto& w) { return !w->live; });
    }
    auto w = std::make_shared<Waiter>(Waiter{key, std::move(fn), true});
    q.waiters.push_back(w);
    ++q.live;
    return w;
  }

  // Idempotent; resets w.
  void remove(std::shared_ptr<Waiter>& w) {
    if (w && w->live) {
      w->live = false;
      w->fn = Fn();
      auto it = queues_.find(w->key);
      if (it != queues_.end() && --it->second.live == 0) queues_.erase(it);
    }
    w.reset();
  }

  // The longest-waiting live waiter of key, now dead, with its fn; or null.
  std::shared_ptr<Waiter> pop(const std::string& key) {
    auto it = queues_.find(key);
    if (it == queues_.end()) return nullptr;
    Queue& q = it->second;
    std::shared_ptr<Waiter> w;
    while (!q.waiters.empty() && !w) {
      if (q.waiters.front()->live) w = std::move(q.waiters.front());
      q.waiters.pop_front();
    }
    if (w) {
      w->live = false;
      --q.live;
    }
    if (q.live == 0) queues_.erase(it);
    return w;
  }

  // Every waiter dies.
  void clear() {
    for (auto& [key, q] : queues_) {
      for (auto& w : q.waiters) {
        w->live = false;
        w->fn = Fn();
      }
    }
    queues_.clear();
  }

  // Waiters held for key, dead ones included (for tests).
  size_t held(const std::string& key) const {
    auto it = queues_.find(key);
    return it == queues_.end() ? 0 : it->second.waiters.size();
  }

 private:
  static constexpr size_t kSlack = 32;
  struct Queue {
    std::deque<std::shared_ptr<Waiter>> waiters;
    size_t live = 0;
  };
  std::unordered_map<std::string, Queue> queues_;
};

}  // namespace tlsc
