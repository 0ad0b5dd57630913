#include "http/connection_pool.h"

#include <algorithm>

namespace tlsc {

// An idle connection watches its stream: the server closing it (or sending
// anything) removes it from the pool at once.
struct ConnectionPool::Idle final : StreamObserver {
  ConnectionPool* pool;
  std::unique_ptr<H1Connection> conn;
  Reactor::TimerId timer = 0;

  void on_stream_data(std::string_view) override { pool->evict(conn->pool_key(), conn.get()); }
  void on_stream_closed(const Error*) override { pool->evict(conn->pool_key(), conn.get()); }
};

// Slot accounting for maxConnsPerHost. Shared with the slot tokens, which
// connections may hold past the pool's end (their destruction is posted).
struct ConnectionPool::Slots {
  Reactor& reactor;
  size_t max;
  std::unordered_map<std::string, size_t> used;
  WaitQueues<std::function<bool()>> waiters;

  // Posted, so the waiter runs outside the caller's stack; a waiter that no
  // longer waits by then passes the wake-up on (Go's decConnsPerHost skips
  // them).
  static void wake_one(const std::shared_ptr<Slots>& self, const std::string& key) {
    auto w = self->waiters.pop(key);
    if (!w) return;
    std::weak_ptr<Slots> weak = self;
    self->reactor.post([weak, key, retry = std::move(w->fn)] {
      if (retry()) return;
      if (auto slots = weak.lock()) wake_one(slots, key);
    });
  }
};

ConnectionPool::ConnectionPool(Reactor& reactor, PoolLimits limits)
    : reactor_(reactor),
      limits_(limits),
      slots_(std::make_shared<Slots>(Slots{reactor, limits.max_conns_per_host, {}, {}})) {}

std::optional<ConnectionPool::Slot> ConnectionPool::try_reserve_slot(const std::string& key) {
  if (slots_->max == 0) return Slot{};
  size_t& used = slots_->used[key];
  if (used >= slots_->max) return std::nullopt;
  ++used;
  std::weak_ptr<Slots> weak = slots_;
  return Slot(static_cast<void*>(nullptr), [weak, key](void*) {
    auto slots = weak.lock();
    if (!slots) return;
    if (auto it = slots->used.find(key); it != slots->used.end() && --it->second == 0) slots->used.erase(it);
    Slots::wake_one(slots, key);
  });
}

std::shared_ptr<ConnectionPool::SlotWaiter> ConnectionPool::wait_for_slot(const std::string& key,
                                                                          std::function<bool()> retry) {
  return slots_->waiters.add(key, std::move(retry));
}

void ConnectionPool::stop_waiting(std::shared_ptr<SlotWaiter>& w) { slots_->waiters.remove(w); }

std::shared_ptr<ConnectionPool::H1Waiter> ConnectionPool::wait_for_h1(const std::string& key, H1Take take) {
  return h1_waiters_.add(key, std::move(take));
}

void ConnectionPool::stop_waiting(std::shared_ptr<H1Waiter>& w) { h1_waiters_.remove(w); }

ConnectionPool::~ConnectionPool() { close_all(); }

std::unique_ptr<H1Connection> ConnectionPool::take(const std::string& key) {
  auto it = idle_.find(key);
  if (it == idle_.end()) return nullptr;
  auto& list = it->second;
  while (!list.empty()) {
    std::unique_ptr<Idle> idle = std::move(list.back());
    list.pop_back();
    --total_;
    if (idle->timer) reactor_.cancel_timer(idle->timer);
    idle->conn->stream().set_observer(nullptr);
    if (idle->conn->stream().usable()) {
      if (list.empty()) idle_.erase(it);
      return std::move(idle->conn);
    }
  }
  idle_.erase(it);
  return nullptr;
}

void ConnectionPool::put(std::unique_ptr<H1Connection> conn) {
  if (!conn || !conn->reusable()) return;
  const std::string conn_key = conn->pool_key();
  // A request waiting for its own dial takes this one first (Go's
  // tryPutIdleConn hands it to idleConnWait before the idle limits).
  if (auto w = h1_waiters_.pop(conn_key)) {
    H1Take take = std::move(w->fn);
    w->fn = nullptr;
    take(std::move(conn));
    return;
  }
  auto& list = idle_[conn->pool_key()];
  if (list.size() >= limits_.max_idle_per_host || total_ >= limits_.max_idle_total) {
    if (list.empty()) idle_.erase(conn->pool_key());
    return;  // dropping it closes it
  }
  auto idle = std::make_unique<Idle>();
  idle->pool = this;
  idle->conn = std::move(conn);
  idle->conn->stream().set_observer(idle.get());
  if (limits_.idle_timeout.count() > 0) {
    H1Connection* raw = idle->conn.get();
    std::string key = raw->pool_key();
    idle->timer = reactor_.add_timer(limits_.idle_timeout, [this, key, raw] { evict(key, raw); });
  }
  list.push_back(std::move(idle));
  ++total_;
  // A request waiting for the origin's slots can take this one.
  Slots::wake_one(slots_, conn_key);
}

void ConnectionPool::evict(const std::string& key, H1Connection* conn) {
  auto it = idle_.find(key);
  if (it == idle_.end()) return;
  auto& list = it->second;
  auto pos = std::find_if(list.begin(), list.end(), [conn](const auto& i) { return i->conn.get() == conn; });
  if (pos == list.end()) return;
  if ((*pos)->timer) reactor_.cancel_timer((*pos)->timer);
  // Destroyed after the current callback returns: we may be inside the
  // stream's own call.
  std::shared_ptr<Idle> doomed(std::move(*pos));
  list.erase(pos);
  --total_;
  if (list.empty()) idle_.erase(it);
  doomed->conn->stream().set_observer(nullptr);
  reactor_.post([doomed] {});
}

std::shared_ptr<H2Connection> ConnectionPool::h2(const std::string& key) {
  auto it = h2_.find(key);
  if (it == h2_.end()) return nullptr;
  if (!it->second->accepts_requests()) {
    h2_.erase(it);
    return nullptr;
  }
  return it->second;
}

void ConnectionPool::add_h2(std::shared_ptr<H2Connection> conn) {
  std::string key = conn->pool_key();
  h2_[key] = std::move(conn);
}

void ConnectionPool::forget_h2(H2Connection* conn) {
  auto it = h2_.find(conn->pool_key());
  if (it != h2_.end() && it->second.get() == conn) {
    // Released after the current call: we may be inside the connection.
    std::shared_ptr<H2Connection> doomed = std::move(it->second);
    h2_.erase(it);
    reactor_.post([doomed] {});
  }
}

void ConnectionPool::end_dial(const std::string& key, const std::shared_ptr<H2Connection>& h2) {
  auto it = dials_.find(key);
  if (it == dials_.end()) return;
  std::vector<DialWaiter> waiters = std::move(it->second);
  dials_.erase(it);
  for (auto& w : waiters) w(h2);
}

void ConnectionPool::close_all() {
  auto h2 = std::move(h2_);
  h2_.clear();
  for (auto& [key, conn] : h2) conn->close("http2: connection closed");
  h1_waiters_.clear();
  slots_->waiters.clear();
  auto dials = std::move(dials_);
  dials_.clear();
  for (auto& [key, waiters] : dials) {
    for (auto& w : waiters) w(nullptr);
  }
  for (auto& [key, list] : idle_) {
    for (auto& idle : list) {
      if (idle->timer) reactor_.cancel_timer(idle->timer);
    }
  }
  idle_.clear();
  total_ = 0;
}

}  // namespace tlsc
