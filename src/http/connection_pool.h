// The connections of one client, by origin (pool key): idle HTTP/1.1
// keep-alive connections, and one shared HTTP/2 connection per origin (as
// a browser keeps one). A request gets its connection through one call,
// Acquisition::acquire, behind which sit the origin's connections, dial
// sharing, HTTP/1.1 late binding and maxConnsPerHost slots. Loop thread
// only.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "conn/connection_chain.h"
#include "conn/dial_plan.h"
#include "http/h2/h2_connection.h"
#include "http/h3/h3_dial.h"
#include "http/http_connection.h"
#include "http/wait_queue.h"
#include "net/dns_resolver.h"
#include "reactor/reactor.h"

namespace tlsc {

// The defaults are the library's own (abi/COMPAT.md): no cap on idle
// connections, so that N requests in flight keep about N connections
// instead of closing all but Go's 2 per host after every burst and dialing
// again. The pool still never holds more idle connections to a host than
// were in use at once within the idle timeout: a connection only becomes
// idle when a request gives it back, and each one closes after idle_timeout
// unused. Callers that send transportOptions get Go's values (client.cc).
struct PoolLimits {
  static constexpr size_t no_limit = SIZE_MAX;
  size_t max_idle_total = no_limit;
  size_t max_idle_per_host = no_limit;
  std::chrono::milliseconds idle_timeout{90000};
  size_t max_conns_per_host = 0;  // Go's MaxConnsPerHost; 0: no limit
};

// How a race settles an origin's protocol for the next requests.
enum class RaceSettling {
  // withProtocolRacing, as upstream's protocolCache: the first winner, TCP
  // or HTTP/3, is used alone from then on; a protocol that fails is
  // forgotten and the next request races again.
  first_winner,
  // withAltSvc alone, as Chrome treats an advertised alternative: a TCP win
  // settles nothing (an HTTP/3 connection that completes later serves the
  // next requests); an HTTP/3 failure marks the alternative broken, and
  // the origin stays on TCP for the session.
  until_broken,
};

// What one request asks the pool for.
struct AcquireOptions {
  std::string key;      // the origin's pool key (http/origin.h)
  DialPlan dial;        // how to make a new connection
  bool may_h2 = false;  // https without forceHttp1: ALPN may choose HTTP/2
  // A client kept across requests: idle connections are taken and given
  // back (not for a single-request client).
  bool reuse = true;
  // Keep-alive on: a connection another request frees before this one's
  // dial ends may be taken (Go's idleConnWait; not with disableKeepAlives).
  bool late_binding = true;
  // How long a dial this request leaves to the pool may still run (see
  // OrphanDial): the request's own timeout, so that a dial lasts no longer
  // than it would have with its request.
  std::chrono::milliseconds orphan_dial_bound{30000};
  // For an HTTP/2 connection this request's dial makes.
  std::shared_ptr<const H2Fingerprint> h2;  // never null when may_h2
  H2Limits h2_limits;
  // withProtocolRacing (upstream's protocolRacer): HTTP/3 is tried first
  // and TCP 300 ms later, the first connection ready wins and the winner is
  // remembered per origin (then used alone; forgotten when it fails). Set
  // by the transaction only where HTTP/3 may go: https, no proxy, a profile
  // with a QUIC fingerprint, a build with HTTP/3.
  std::optional<H3DialPlan> h3;
  RaceSettling settling = RaceSettling::first_winner;
};

// The protocol a race settled on for an origin (upstream's protocolCache).
enum class RacedProtocol { h3, tcp };

// Where a request that has no connection yet is.
enum class AcquireProgress { waiting_for_slot, waiting_for_dial, dialing };

class ConnectionPool {
 public:
  class Acquisition;
  using Slot = std::shared_ptr<void>;  // maxConnsPerHost; null: no limit

  ConnectionPool(Reactor& reactor, DnsResolver& resolver, PoolLimits limits);
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // One request's way to its connections; see Acquisition.
  std::unique_ptr<Acquisition> begin(AcquireOptions options,
                                     std::function<void(AcquireProgress)> progress = nullptr);

  // Closes every connection; later ones given back are closed.
  void close_all();
  size_t idle_count() const { return idle_total_; }
  std::chrono::milliseconds idle_timeout() const { return limits_.idle_timeout; }
  // Waiters held for the origin's HTTP/1.1 connections (for tests).
  size_t held_waiters(const std::string& key) const { return h1_waiters_.held(key); }

 private:
  struct Idle {
    std::shared_ptr<HttpConnection> conn;
    Reactor::TimerId timer = 0;
  };
  struct Origin {
    std::deque<Idle> idle;                   // HTTP/1.1, most recent last
    std::shared_ptr<HttpConnection> shared;  // HTTP/2
    bool dial_in_flight = false;             // a dial whose protocol is not known yet
    std::vector<std::function<void(std::shared_ptr<HttpConnection>)>> dial_waiters;
    bool speaks_http1 = false;  // ALPN chose HTTP/1.1 once: no dial sharing
  };
  struct Slots;
  using H3Waiter = std::function<void(Result<std::shared_ptr<HttpConnection>>)>;
  // An origin's HTTP/3 side: its connection, shared by every request, or
  // the one dial that opens it, which the requests racing for it wait on.
  struct H3Origin {
    std::shared_ptr<HttpConnection> conn;
    std::unique_ptr<H3Dial> dial;
    std::vector<H3Waiter> waiters;
    RaceSettling settling = RaceSettling::first_winner;  // the dial's, from the request that began it
  };
  using H1Take = std::function<void(std::shared_ptr<HttpConnection>)>;
  // Where a running dial's result goes: its acquisition, or the pool once
  // the acquisition has left the dial to it.
  using DialSink = std::function<void(Result<Connected>)>;
  // A dial whose request was served by a connection another request freed,
  // and then ended: it goes on, and its connection becomes idle (as Go's
  // dialConnFor puts a connection nobody took), instead of being cut off
  // mid-handshake while the next request dials again.
  struct OrphanDial {
    std::unique_ptr<ConnectionChain> chain;
    std::shared_ptr<DialSink> sink;
    Slot slot;
    std::string key;
    Reactor::TimerId timer = 0;  // the bound: the dial ends then
  };

  Origin& origin(const std::string& key) { return origins_[key]; }
  // Drops the key's entry once it holds nothing, so that keys that come
  // and go (a rotating proxy's generations) do not pile up.
  void tidy(const std::string& key);
  std::shared_ptr<HttpConnection> take_shared(const std::string& key);
  std::shared_ptr<HttpConnection> take_idle(const std::string& key);
  // A reusable HTTP/1.1 connection: to the longest-waiting request (before
  // the idle limits, as Go's tryPutIdleConn), else idle, else closed.
  void put(std::shared_ptr<HttpConnection> conn);
  void add_shared(const std::shared_ptr<HttpConnection>& conn);
  void forget_shared(HttpConnection* conn);
  void evict(const std::string& key, HttpConnection* conn);
  // The dial whose protocol was unknown ended; h2 null: failed or HTTP/1.1.
  void end_shared_dial(const std::string& key, const std::shared_ptr<HttpConnection>& h2);
  void adopt_dial(std::unique_ptr<ConnectionChain> chain, std::shared_ptr<DialSink> sink, Slot slot,
                  std::string key, std::chrono::milliseconds bound);
  void on_orphan_dialed(uint64_t id, Result<Connected> dialed);
  std::optional<Slot> try_reserve_slot(const std::string& key);
  void discard(std::shared_ptr<HttpConnection> conn);
  // What a race settled on for the origin, if one did.
  std::optional<RacedProtocol> raced(const std::string& key) const;
  std::shared_ptr<HttpConnection> take_h3(const std::string& key);
  // Waits for the origin's HTTP/3 dial, starting it if none runs; `waiter`
  // is called later, never from inside this call.
  void join_h3_dial(const std::string& key, const H3DialPlan& plan, RaceSettling settling, H3Waiter waiter);
  void on_h3_dialed(const std::string& key, Result<std::shared_ptr<HttpConnection>> r);
  void forget_h3(const std::string& key, HttpConnection* conn);

  Reactor& reactor_;
  DnsResolver& resolver_;
  PoolLimits limits_;
  std::unordered_map<std::string, Origin> origins_;
  size_t idle_total_ = 0;
  WaitQueues<H1Take> h1_waiters_;
  std::shared_ptr<Slots> slots_;  // outlives the pool while connections hold slots
  std::unordered_map<uint64_t, OrphanDial> orphan_dials_;
  uint64_t last_orphan_id_ = 0;
  std::unordered_map<std::string, H3Origin> h3_origins_;
  std::unordered_map<std::string, RacedProtocol> raced_;
  bool closed_ = false;
  // For what may call back after the pool is gone (an HTTP/3 connection a
  // request still holds says it retired).
  Liveness liveness_;
};

// One request's acquisition of connections for one origin (a hop; a
// redirect to another origin makes a new one). Destroying it stops every
// wait, and a dial of its own still running ends with it, as upstream's
// request context ends its dial; except when the request was served by a
// connection another one freed: then the dial is left to the pool, which
// keeps its connection idle (OrphanDial).
class ConnectionPool::Acquisition {
 public:
  using Take = std::function<void(Result<std::shared_ptr<HttpConnection>>)>;

  ~Acquisition();
  Acquisition(const Acquisition&) = delete;
  Acquisition& operator=(const Acquisition&) = delete;

  // Finds a connection: the origin's HTTP/2 one, an idle HTTP/1.1 one, a
  // dial in flight whose HTTP/2 it may share, one freed by another request
  // while waiting, or a dial of its own (within maxConnsPerHost). `take`
  // runs once, maybe from inside this call. Called again (a retry), a dial
  // this acquisition started earlier still counts.
  void acquire(Take take);
  // The request is done with the connection. A reusable HTTP/1.1 one goes
  // back to the pool; anything else is closed. HTTP/2 ones stay shared.
  void release(std::shared_ptr<HttpConnection> conn, bool reusable);
  // Stops every wait and a dial of its own, as destruction does; safe from
  // inside its own `take` (destroy it later then). Afterwards it no longer
  // refers to the pool, so it may outlive it.
  void abandon();
  const std::string& key() const { return options_.key; }

 private:
  friend class ConnectionPool;
  Acquisition(ConnectionPool& pool, AcquireOptions options, std::function<void(AcquireProgress)> progress);

  void find();
  void start_dial(Slot slot);
  void on_dialed(Result<Connected> dialed);
  void take_dialed(Result<Connected> dialed);
  void on_shared_dial_end(std::shared_ptr<HttpConnection> h2);
  Result<std::shared_ptr<HttpConnection>> make_connection(Connected c);
  void stop_waiting();
  // over_h3: the connection is the origin's HTTP/3 one (not the race's
  // TCP leg).
  void deliver(Result<std::shared_ptr<HttpConnection>> r, bool over_h3 = false);
  void report(AcquireProgress p);
  // withProtocolRacing: true when the request now waits for HTTP/3 (or
  // has its connection); false when it goes over TCP alone.
  bool race_h3();
  void on_h3_dialed(Result<std::shared_ptr<HttpConnection>> r);
  // The race's TCP leg: the request looks for a TCP connection too.
  void start_tcp_leg();
  void cancel_race_timer();

  ConnectionPool& pool_;
  AcquireOptions options_;
  std::function<void(AcquireProgress)> progress_;
  Take take_;  // set while acquiring
  std::shared_ptr<WaitQueues<H1Take>::Waiter> h1_waiter_;
  std::shared_ptr<WaitQueues<std::function<bool()>>::Waiter> slot_waiter_;
  uint64_t generation_ = 0;  // which find() a slot wake-up is for
  bool waiting_for_shared_dial_ = false;
  std::unique_ptr<ConnectionChain> dial_;
  std::shared_ptr<DialSink> dial_sink_;  // the running dial's callback goes through it
  Slot dial_slot_;
  bool owns_shared_dial_ = false;  // others wait on our dial
  // The race (AcquireOptions::h3): waiting for the origin's HTTP/3 dial,
  // the TCP leg started, its timer, and the TCP leg's failure while HTTP/3
  // may still win.
  bool h3_waiting_ = false;
  bool tcp_started_ = false;
  Reactor::TimerId race_timer_ = 0;
  std::optional<Error> tcp_error_;
  bool abandoned_ = false;
  Liveness liveness_;
};

}  // namespace tlsc
