#include "http/connection_pool.h"

#include <algorithm>
#include <new>

#include "conn/chain_builder.h"
#include "http/h1/h1_connection.h"

namespace tlsc {
namespace {

// Chrome's head start for QUIC, which upstream's racer copies: the TCP leg
// begins 300 ms after the HTTP/3 one.
constexpr std::chrono::milliseconds kTcpLegDelay{300};

}  // namespace

// Slot accounting for maxConnsPerHost. Shared with the slot tokens, which
// connections may hold past the pool's end.
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

ConnectionPool::ConnectionPool(Reactor& reactor, DnsResolver& resolver, PoolLimits limits)
    : reactor_(reactor),
      resolver_(resolver),
      limits_(limits),
      slots_(std::make_shared<Slots>(Slots{reactor, limits.max_conns_per_host, {}, {}})) {}

ConnectionPool::~ConnectionPool() { close_all(); }

std::unique_ptr<ConnectionPool::Acquisition> ConnectionPool::begin(
    AcquireOptions options, std::function<void(AcquireProgress)> progress) {
  return std::unique_ptr<Acquisition>(new Acquisition(*this, std::move(options), std::move(progress)));
}

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

void ConnectionPool::tidy(const std::string& key) {
  auto it = origins_.find(key);
  if (it == origins_.end()) return;
  const Origin& o = it->second;
  if (o.idle.empty() && !o.shared && !o.dial_in_flight && o.dial_waiters.empty() && !o.speaks_http1) {
    origins_.erase(it);
  }
}

std::shared_ptr<HttpConnection> ConnectionPool::take_shared(const std::string& key) {
  auto it = origins_.find(key);
  if (it == origins_.end() || !it->second.shared) return nullptr;
  if (!it->second.shared->accepts_requests()) {
    // Released after the current call: we may be inside the connection.
    reactor_.destroy_later(std::move(it->second.shared));
    tidy(key);
    return nullptr;
  }
  return it->second.shared;
}

std::shared_ptr<HttpConnection> ConnectionPool::take_idle(const std::string& key) {
  auto it = origins_.find(key);
  if (it == origins_.end()) return nullptr;
  auto& list = it->second.idle;
  while (!list.empty()) {
    Idle idle = std::move(list.back());
    list.pop_back();
    --idle_total_;
    if (idle.timer) reactor_.cancel_timer(idle.timer);
    idle.conn->unpark();
    if (idle.conn->accepts_requests()) {
      tidy(key);
      return std::move(idle.conn);
    }
    discard(std::move(idle.conn));
  }
  tidy(key);
  return nullptr;
}

void ConnectionPool::discard(std::shared_ptr<HttpConnection> conn) {
  if (!conn) return;
  conn->cancel(0);
  // Not from inside the connection's own call stack.
  reactor_.destroy_later(std::move(conn));
}

void ConnectionPool::put(std::shared_ptr<HttpConnection> conn) {
  if (closed_ || !conn->accepts_requests()) {
    discard(std::move(conn));
    return;
  }
  const std::string key = conn->pool_key();
  // A request waiting for its own dial takes this one first (Go's
  // tryPutIdleConn hands it to idleConnWait before the idle limits).
  if (auto w = h1_waiters_.pop(key)) {
    H1Take take = std::move(w->fn);
    w->fn = nullptr;
    take(std::move(conn));
    return;
  }
  Origin& o = origin(key);
  if (o.idle.size() >= limits_.max_idle_per_host || idle_total_ >= limits_.max_idle_total) {
    discard(std::move(conn));
    return;
  }
  HttpConnection* raw = conn.get();
  conn->park([this, key, raw] { evict(key, raw); });
  Idle idle{std::move(conn), 0};
  if (limits_.idle_timeout.count() > 0) {
    idle.timer = reactor_.add_timer(limits_.idle_timeout, [this, key, raw] { evict(key, raw); });
  }
  o.idle.push_back(std::move(idle));
  ++idle_total_;
  // A request waiting for the origin's slots can take this one.
  Slots::wake_one(slots_, key);
}

void ConnectionPool::evict(const std::string& key, HttpConnection* conn) {
  auto it = origins_.find(key);
  if (it == origins_.end()) return;
  auto& list = it->second.idle;
  auto pos = std::find_if(list.begin(), list.end(), [conn](const Idle& i) { return i.conn.get() == conn; });
  if (pos == list.end()) return;
  if (pos->timer) reactor_.cancel_timer(pos->timer);
  std::shared_ptr<HttpConnection> doomed = std::move(pos->conn);
  list.erase(pos);
  --idle_total_;
  doomed->unpark();
  // We may be inside the connection's own call.
  discard(std::move(doomed));
  tidy(key);
}

void ConnectionPool::add_shared(const std::shared_ptr<HttpConnection>& conn) {
  if (closed_) return;
  origin(conn->pool_key()).shared = conn;
}

void ConnectionPool::forget_shared(HttpConnection* conn) {
  auto it = origins_.find(conn->pool_key());
  if (it == origins_.end() || it->second.shared.get() != conn) return;
  // Released after the current call: we may be inside the connection.
  reactor_.destroy_later(std::move(it->second.shared));
  tidy(conn->pool_key());
}

void ConnectionPool::end_shared_dial(const std::string& key, const std::shared_ptr<HttpConnection>& h2) {
  auto it = origins_.find(key);
  if (it == origins_.end() || !it->second.dial_in_flight) return;
  it->second.dial_in_flight = false;
  auto waiters = std::move(it->second.dial_waiters);
  it->second.dial_waiters.clear();
  tidy(key);
  for (auto& w : waiters) w(h2);
}

void ConnectionPool::adopt_dial(std::unique_ptr<ConnectionChain> chain, std::shared_ptr<DialSink> sink,
                                Slot slot, std::string key, std::chrono::milliseconds bound) {
  const uint64_t id = ++last_orphan_id_;
  *sink = [this, id](Result<Connected> r) { on_orphan_dialed(id, std::move(r)); };
  OrphanDial d{std::move(chain), std::move(sink), std::move(slot), std::move(key), 0};
  d.timer = reactor_.add_timer(bound, [this, id] {
    auto it = orphan_dials_.find(id);
    if (it == orphan_dials_.end()) return;
    it->second.timer = 0;
    *it->second.sink = nullptr;
    // Not from inside a step of the chain: timers run from the loop.
    orphan_dials_.erase(it);
  });
  orphan_dials_.emplace(id, std::move(d));
}

void ConnectionPool::on_orphan_dialed(uint64_t id, Result<Connected> dialed) {
  auto it = orphan_dials_.find(id);
  if (it == orphan_dials_.end()) return;
  OrphanDial d = std::move(it->second);
  orphan_dials_.erase(it);
  if (d.timer) reactor_.cancel_timer(d.timer);
  reactor_.destroy_later(std::move(d.chain));  // we are inside its callback
  if (!dialed) return;
  if (closed_ || dialed->alpn == "h2") {  // only HTTP/1.1 dials are left to the pool
    dialed->stream->close();
    reactor_.destroy_later(std::move(dialed->stream));
    return;
  }
  auto conn = std::make_shared<H1Connection>(std::move(dialed->stream), d.key);
  conn->attach_slot(std::move(d.slot));
  put(std::move(conn));
}

void ConnectionPool::close_all() {
  closed_ = true;
  auto orphans = std::move(orphan_dials_);
  orphan_dials_.clear();
  for (auto& [id, d] : orphans) {
    if (d.timer) reactor_.cancel_timer(d.timer);
    *d.sink = nullptr;  // nothing reaches the pool from the chain any more
    reactor_.destroy_later(std::move(d.chain));
  }
  h1_waiters_.clear();
  slots_->waiters.clear();
  auto origins = std::move(origins_);
  origins_.clear();
  for (auto& [key, o] : origins) {
    if (o.shared) o.shared->close(make_error(ErrorCode::connection_closed, "http2: connection closed"));
    for (auto& w : o.dial_waiters) w(nullptr);
    for (auto& idle : o.idle) {
      if (idle.timer) reactor_.cancel_timer(idle.timer);
      idle.conn->unpark();
      discard(std::move(idle.conn));
    }
  }
  idle_total_ = 0;
  auto h3 = std::move(h3_origins_);
  h3_origins_.clear();
  for (auto& [key, o] : h3) {
    if (o.conn) o.conn->close(make_error(ErrorCode::connection_closed, "http3: connection closed"));
    reactor_.destroy_later(std::move(o.conn));
    o.dial.reset();
    for (auto& w : o.waiters) {
      reactor_.post([w = std::move(w)] { w(make_error(ErrorCode::session_closed, "session closed")); });
    }
  }
}

std::optional<RacedProtocol> ConnectionPool::raced(const std::string& key) const {
  auto it = raced_.find(key);
  if (it == raced_.end()) return std::nullopt;
  return it->second;
}

std::shared_ptr<HttpConnection> ConnectionPool::take_h3(const std::string& key) {
  auto it = h3_origins_.find(key);
  if (it == h3_origins_.end() || !it->second.conn) return nullptr;
  if (!it->second.conn->accepts_requests()) {
    reactor_.destroy_later(std::move(it->second.conn));
    if (!it->second.dial) h3_origins_.erase(it);
    return nullptr;
  }
  return it->second.conn;
}

void ConnectionPool::join_h3_dial(const std::string& key, const H3DialPlan& plan, RaceSettling settling,
                                  H3Waiter waiter) {
  H3Origin& o = h3_origins_[key];
  o.waiters.push_back(std::move(waiter));
  if (o.dial) return;
  o.settling = settling;
  o.dial = dial_h3(
      reactor_, resolver_, plan, key,
      [this, key](Result<std::shared_ptr<HttpConnection>> r) { on_h3_dialed(key, std::move(r)); },
      [this, key, alive = liveness_.watch()](HttpConnection* conn) {
        if (alive) forget_h3(key, conn);
      });
  if (!o.dial) {
    // No HTTP/3 in this build (the transaction does not race then).
    auto waiters = std::move(o.waiters);
    h3_origins_.erase(key);
    for (auto& w : waiters) {
      reactor_.post(
          [w = std::move(w)] { w(make_error(ErrorCode::internal, "HTTP/3 is not in this build")); });
    }
  }
}

void ConnectionPool::on_h3_dialed(const std::string& key, Result<std::shared_ptr<HttpConnection>> r) {
  auto it = h3_origins_.find(key);
  if (it == h3_origins_.end()) return;
  H3Origin& o = it->second;
  reactor_.destroy_later(std::move(o.dial));  // we are inside its callback
  auto waiters = std::move(o.waiters);
  o.waiters.clear();
  if (r) {
    auto won = raced_.find(key);
    if (won == raced_.end() || won->second == RacedProtocol::h3) {
      // The connection serves every request of the origin from now on.
      o.conn = *r;
      raced_[key] = RacedProtocol::h3;
    }
  } else if (o.settling == RaceSettling::until_broken) {
    // An advertised alternative that fails is broken for the session.
    raced_[key] = RacedProtocol::tcp;
  } else {
    // A protocol that fails is forgotten, as upstream's clearProtocolCache.
    if (auto won = raced_.find(key); won != raced_.end() && won->second == RacedProtocol::h3)
      raced_.erase(won);
  }
  if (!o.conn) h3_origins_.erase(it);
  for (auto& w : waiters) w(r);
  // Nobody took it and the origin settled on TCP: it closes with its last
  // reference, here.
  if (r && r->use_count() == 1) (*r)->close(make_error(ErrorCode::cancelled, "context canceled"));
  if (r) reactor_.destroy_later(std::move(*r));
}

void ConnectionPool::forget_h3(const std::string& key, HttpConnection* conn) {
  auto it = h3_origins_.find(key);
  if (it == h3_origins_.end() || it->second.conn.get() != conn) return;
  reactor_.destroy_later(std::move(it->second.conn));
  if (!it->second.dial) h3_origins_.erase(it);
}

// --- Acquisition ---

ConnectionPool::Acquisition::Acquisition(ConnectionPool& pool, AcquireOptions options,
                                         std::function<void(AcquireProgress)> progress)
    : pool_(pool), options_(std::move(options)), progress_(std::move(progress)) {}

ConnectionPool::Acquisition::~Acquisition() { abandon(); }

void ConnectionPool::Acquisition::abandon() {
  // After this nothing here refers to the pool: an abandoned acquisition
  // may be destroyed after its pool (destroy_later).
  if (abandoned_) return;
  abandoned_ = true;
  cancel_race_timer();
  h3_waiting_ = false;
  // A dial still running with nobody waiting: the request took a
  // connection another one freed (deliver() took `take_`).
  const bool served_elsewhere = dial_ && !take_;
  take_ = nullptr;
  stop_waiting();
  if (served_elsewhere && options_.reuse && !pool_.closed_) {
    // Our dial goes on for the next request (see OrphanDial).
    pool_.adopt_dial(std::move(dial_), std::move(dial_sink_), std::move(dial_slot_), options_.key,
                     options_.orphan_dial_bound);
  }
  // Destroying the chain stops every step (we are never inside its call
  // here: on_dialed takes it first).
  dial_.reset();
  dial_sink_.reset();
  dial_slot_.reset();
  if (owns_shared_dial_) {
    owns_shared_dial_ = false;
    // Those waiting on our dial dial their own.
    pool_.end_shared_dial(options_.key, nullptr);
  }
}

void ConnectionPool::Acquisition::report(AcquireProgress p) {
  if (progress_) progress_(p);
}

void ConnectionPool::Acquisition::stop_waiting() {
  pool_.h1_waiters_.remove(h1_waiter_);
  pool_.slots_->waiters.remove(slot_waiter_);
  waiting_for_shared_dial_ = false;
}

void ConnectionPool::Acquisition::deliver(Result<std::shared_ptr<HttpConnection>> r, bool over_h3) {
  if (h3_waiting_ && !r) {
    // The TCP leg failed while HTTP/3 may still win: wait for it.
    tcp_error_ = r.error();
    stop_waiting();
    return;
  }
  if (r && !over_h3 && tcp_started_ && options_.h3 && options_.settling == RaceSettling::first_winner &&
      !pool_.raced(options_.key)) {
    // The race's TCP leg won.
    pool_.raced_[options_.key] = RacedProtocol::tcp;
  }
  h3_waiting_ = false;
  cancel_race_timer();
  auto take = std::move(take_);
  take_ = nullptr;
  stop_waiting();
  // Last: the request may end, and destroy us, inside the call.
  if (take) take(std::move(r));
}

void ConnectionPool::Acquisition::acquire(Take take) {
  if (abandoned_) return;
  take_ = std::move(take);
  find();
}

void ConnectionPool::Acquisition::find() {
  ++generation_;  // earlier slot wake-ups are stale
  pool_.slots_->waiters.remove(slot_waiter_);
  const std::string& key = options_.key;
  if (pool_.closed_) {
    h3_waiting_ = false;
    deliver(make_error(ErrorCode::session_closed, "session closed"));
    return;
  }
  if (options_.h3 && !tcp_started_ && race_h3()) return;
  if (options_.may_h2) {
    if (auto h2 = pool_.take_shared(key)) {
      deliver(std::move(h2));
      return;
    }
  }
  if (options_.reuse) {
    if (auto idle = pool_.take_idle(key)) {
      deliver(std::move(idle));
      return;
    }
  }
  auto found = pool_.origins_.find(key);
  Origin* o = found == pool_.origins_.end() ? nullptr : &found->second;
  const bool may_share_dial = options_.may_h2 && !(o && o->speaks_http1);
  if (may_share_dial && o && o->dial_in_flight && !owns_shared_dial_) {
    // Another request's dial may end in HTTP/2: share it, as Chrome does.
    waiting_for_shared_dial_ = true;
    o->dial_waiters.push_back([this, alive = liveness_.watch()](std::shared_ptr<HttpConnection> h2) {
      if (alive && waiting_for_shared_dial_) on_shared_dial_end(std::move(h2));
    });
    report(AcquireProgress::waiting_for_dial);
    return;
  }
  // HTTP/1.1: from here on this request also takes a connection that
  // another request frees before its own is ready.
  if (!may_share_dial && options_.reuse && options_.late_binding && !h1_waiter_) {
    h1_waiter_ = pool_.h1_waiters_.add(
        key, [this, alive = liveness_.watch(), pool = &pool_](std::shared_ptr<HttpConnection> conn) {
          if (alive && take_) {
            h1_waiter_.reset();
            deliver(std::move(conn));
          } else {
            pool->put(std::move(conn));
          }
        });
  }
  // A dial this request started for the origin (before a retry) still
  // runs: wait for it.
  if (dial_) {
    report(AcquireProgress::dialing);
    return;
  }
  auto slot = pool_.try_reserve_slot(key);
  if (!slot) {
    // maxConnsPerHost reached: wait for a connection to free up.
    slot_waiter_ =
        pool_.slots_->waiters.add(key, [this, alive = liveness_.watch(), generation = generation_] {
          if (!alive || !take_ || generation_ != generation) return false;
          slot_waiter_.reset();
          find();
          return true;
        });
    report(AcquireProgress::waiting_for_slot);
    return;
  }
  if (may_share_dial) {
    pool_.origin(key).dial_in_flight = true;
    owns_shared_dial_ = true;
  }
  start_dial(std::move(*slot));
}

bool ConnectionPool::Acquisition::race_h3() {
  const std::string& key = options_.key;
  const auto settled = pool_.raced(key);
  if (settled == RacedProtocol::tcp) return false;
  if (auto h3 = pool_.take_h3(key)) {
    deliver(std::move(h3), true);
    return true;
  }
  if (!h3_waiting_) {
    h3_waiting_ = true;
    pool_.join_h3_dial(key, *options_.h3, options_.settling,
                       [this, alive = liveness_.watch()](Result<std::shared_ptr<HttpConnection>> r) {
                         if (alive && h3_waiting_) on_h3_dialed(std::move(r));
                       });
  }
  // Settled on HTTP/3: it goes alone. Else TCP joins the race later.
  if (!settled && !race_timer_) {
    race_timer_ = pool_.reactor_.add_timer(kTcpLegDelay, [this, alive = liveness_.watch()] {
      if (!alive) return;
      race_timer_ = 0;
      start_tcp_leg();
    });
  }
  report(AcquireProgress::dialing);
  return true;
}

void ConnectionPool::Acquisition::on_h3_dialed(Result<std::shared_ptr<HttpConnection>> r) {
  h3_waiting_ = false;
  if (!take_) return;
  if (r) {
    // HTTP/3 won. A TCP dial of ours goes on for the pool, as when another
    // request's connection serves us (abandon).
    deliver(std::move(r), true);
    return;
  }
  Error failed{r.error().code, "HTTP/3 request failed: " + r.error().message};
  if (tcp_error_) {
    // Both failed: the later failure is the answer, as upstream's lastErr.
    deliver(std::move(failed));
    return;
  }
  // TCP now, or its leg, already running, decides.
  if (!tcp_started_) {
    cancel_race_timer();
    start_tcp_leg();
  }
}

void ConnectionPool::Acquisition::start_tcp_leg() {
  if (!take_ || tcp_started_) return;
  tcp_started_ = true;
  find();
}

void ConnectionPool::Acquisition::cancel_race_timer() {
  if (race_timer_) pool_.reactor_.cancel_timer(race_timer_);
  race_timer_ = 0;
}

void ConnectionPool::Acquisition::on_shared_dial_end(std::shared_ptr<HttpConnection> h2) {
  waiting_for_shared_dial_ = false;
  if (!take_) return;
  if (h2 && h2->accepts_requests()) {
    deliver(std::move(h2));
    return;
  }
  find();
}

void ConnectionPool::Acquisition::start_dial(Slot slot) {
  dial_slot_ = std::move(slot);
  report(AcquireProgress::dialing);
  dial_ = build_connection_chain(pool_.reactor_, pool_.resolver_, options_.dial);
  dial_sink_ = std::make_shared<DialSink>([this, alive = liveness_.watch()](Result<Connected> r) {
    if (alive) on_dialed(std::move(r));
  });
  dial_->start(Connected{}, [sink = dial_sink_](Result<Connected> r) {
    // Taken, not copied (a copy may need memory the dial's end cannot
    // wait for): the call may replace or free the sink, and a dial ends
    // once.
    DialSink to = std::move(*sink);
    *sink = nullptr;
    if (to) to(std::move(r));
  });
}

Result<std::shared_ptr<HttpConnection>> ConnectionPool::Acquisition::make_connection(Connected c) {
  if (c.alpn != "h2")
    return std::shared_ptr<HttpConnection>(std::make_shared<H1Connection>(std::move(c.stream), options_.key));
  ConnectionPool* pool = &pool_;
  auto h2 =
      H2Connection::create(pool_.reactor_, std::move(c.stream), options_.key, *options_.h2,
                           options_.h2_limits, [pool](H2Connection* conn) { pool->forget_shared(conn); });
  if (!h2) return h2.error();
  return std::shared_ptr<HttpConnection>(std::move(*h2));
}

void ConnectionPool::Acquisition::on_dialed(Result<Connected> r) {
  try {
    take_dialed(std::move(r));
  } catch (const std::bad_alloc&) {
    // No memory to make the connection of what the dial built: the dial's
    // waiters try again on their own, and the request fails (unless it
    // already has its answer).
    if (owns_shared_dial_) {
      owns_shared_dial_ = false;
      try {
        pool_.end_shared_dial(options_.key, nullptr);
      } catch (const std::bad_alloc&) {
      }
    }
    if (take_) deliver(no_memory_error());
  }
}

void ConnectionPool::Acquisition::take_dialed(Result<Connected> r) {
  pool_.reactor_.destroy_later(std::move(dial_));  // we are inside its callback
  dial_sink_.reset();
  Slot slot = std::move(dial_slot_);
  const std::string key = options_.key;
  ConnectionPool& pool = pool_;
  if (!take_) {
    // The request took a connection another one freed while this dial ran:
    // ours goes to the next waiter, or idle (Go's dialConnFor).
    if (owns_shared_dial_) {
      owns_shared_dial_ = false;
      pool.end_shared_dial(key, nullptr);  // nobody waits on a dial nobody uses
    }
    if (!r) return;
    if (r->alpn != "h2" && options_.reuse && !pool.closed_) {
      auto conn = make_connection(std::move(*r));
      if (!conn) return;
      (*conn)->attach_slot(std::move(slot));
      pool.put(std::move(*conn));
      return;
    }
    r->stream->close();
    pool.reactor_.destroy_later(std::move(r->stream));
    return;
  }
  const bool owned = owns_shared_dial_;
  owns_shared_dial_ = false;
  auto share = [&pool, &key, owned](const std::shared_ptr<HttpConnection>& h2) {
    if (owned) pool.end_shared_dial(key, h2);
  };
  if (!r) {
    share(nullptr);
    deliver(r.error());
    return;
  }
  if (r->alpn != "h2" && options_.may_h2) pool.origin(key).speaks_http1 = true;
  auto conn = make_connection(std::move(*r));
  if (!conn) {
    share(nullptr);
    deliver(conn.error());
    return;
  }
  std::shared_ptr<HttpConnection> c = std::move(*conn);
  c->attach_slot(std::move(slot));
  const bool shared = c->multiplexed() && options_.reuse && !options_.h2_limits.single_use;
  if (!c->multiplexed()) {
    share(nullptr);
    deliver(std::move(c));
    return;
  }
  if (shared) pool.add_shared(c);
  deliver(c);
  // After our own request went out: the waiters of this dial share the
  // connection. We may be gone by now; only locals are used.
  share(shared ? c : nullptr);
}

void ConnectionPool::Acquisition::release(std::shared_ptr<HttpConnection> conn, bool reusable) {
  if (!conn || conn->multiplexed()) return;
  if (abandoned_) {  // the pool may be gone: just close it
    conn->cancel(0);
    return;
  }
  if (reusable && options_.reuse) {
    pool_.put(std::move(conn));
    return;
  }
  pool_.discard(std::move(conn));
}

}  // namespace tlsc
