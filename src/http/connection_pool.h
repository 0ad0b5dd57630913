// The connections of one session, by origin: idle HTTP/1.1 keep-alive
// connections, and one shared HTTP/2 connection per origin (as a browser
// keeps one). Loop thread only.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "http/h1/h1_connection.h"
#include "http/h2/h2_connection.h"
#include "http/wait_queue.h"
#include "reactor/reactor.h"

namespace tlsc {

struct PoolLimits {
  size_t max_idle_total = 100;    // Go's DefaultTransport MaxIdleConns
  size_t max_idle_per_host = 2;   // Go's DefaultMaxIdleConnsPerHost; raised below
  std::chrono::milliseconds idle_timeout{90000};
  size_t max_conns_per_host = 0;  // Go's MaxConnsPerHost; 0: no limit
};

class ConnectionPool {
 public:
  ConnectionPool(Reactor& reactor, PoolLimits limits);
  ~ConnectionPool();

  // Most recently used idle connection for the key that is still usable.
  std::unique_ptr<H1Connection> take(const std::string& key);
  // Keeps a reusable connection; closes it if over the limits.
  void put(std::unique_ptr<H1Connection> conn);
  void close_all();
  size_t idle_count() const { return total_; }
  std::chrono::milliseconds idle_timeout() const { return limits_.idle_timeout; }

  // maxConnsPerHost: every connection of an origin (dialing, busy or idle)
  // holds one of its slots, and gives it back when it is destroyed. nullopt:
  // the origin is full; wait_for_slot() calls back (later, on the loop)
  // when a slot or an idle connection frees up, first come first served.
  // retry returns false when its request no longer waits: the wake-up then
  // goes to the next waiter. A null Slot: no limit.
  using Slot = std::shared_ptr<void>;
  using SlotWaiter = WaitQueues<std::function<bool()>>::Waiter;
  std::optional<Slot> try_reserve_slot(const std::string& key);
  std::shared_ptr<SlotWaiter> wait_for_slot(const std::string& key, std::function<bool()> retry);
  // Idempotent; resets w.
  void stop_waiting(std::shared_ptr<SlotWaiter>& w);

  // HTTP/1.1 late binding, as Go's Transport (idleConnWait) and Chrome do:
  // a request that found no idle connection waits for whichever comes
  // first, the connection it dials or one that another request frees. put()
  // hands a freed connection to the longest-waiting live waiter, from inside
  // put() itself and before the idle limits apply; a live waiter's take
  // must accept it.
  using H1Take = std::function<void(std::unique_ptr<H1Connection>)>;
  using H1Waiter = WaitQueues<H1Take>::Waiter;
  std::shared_ptr<H1Waiter> wait_for_h1(const std::string& key, H1Take take);
  // Idempotent; resets w.
  void stop_waiting(std::shared_ptr<H1Waiter>& w);

  // The origin's HTTP/2 connection if it takes new requests.
  std::shared_ptr<H2Connection> h2(const std::string& key);
  void add_h2(std::shared_ptr<H2Connection> conn);
  void forget_h2(H2Connection* conn);

  // While a dial whose protocol is not known yet runs for an origin, other
  // requests for it wait: if it ends in HTTP/2 they share it, as Chrome
  // does, instead of each dialing a connection of its own.
  using DialWaiter = std::function<void(std::shared_ptr<H2Connection>)>;
  bool dial_in_flight(const std::string& key) const { return dials_.count(key) != 0; }
  void begin_dial(const std::string& key) { dials_[key]; }
  void wait_for_dial(const std::string& key, DialWaiter waiter) { dials_[key].push_back(std::move(waiter)); }
  // h2 null: the dial failed or ended in HTTP/1.1; waiters dial their own.
  void end_dial(const std::string& key, const std::shared_ptr<H2Connection>& h2);
  // The origin chose HTTP/1.1: later requests do not wait for its dials.
  void note_http1(const std::string& key) { http1_origins_[key] = true; }
  bool speaks_http1(const std::string& key) const { return http1_origins_.count(key) != 0; }

 private:
  struct Idle;
  void evict(const std::string& key, H1Connection* conn);
  struct Slots;

  Reactor& reactor_;
  PoolLimits limits_;
  std::unordered_map<std::string, std::deque<std::unique_ptr<Idle>>> idle_;
  size_t total_ = 0;
  std::unordered_map<std::string, std::shared_ptr<H2Connection>> h2_;
  std::unordered_map<std::string, std::vector<DialWaiter>> dials_;
  WaitQueues<H1Take> h1_waiters_;
  std::unordered_map<std::string, bool> http1_origins_;
  std::shared_ptr<Slots> slots_;  // outlives the pool while connections hold slots
};

}  // namespace tlsc
