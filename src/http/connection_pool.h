// Idle keep-alive connections of one session, by origin. Loop thread only.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

#include "http/h1/h1_connection.h"
#include "reactor/reactor.h"

namespace tlsc {

struct PoolLimits {
  size_t max_idle_total = 100;    // Go's DefaultTransport MaxIdleConns
  size_t max_idle_per_host = 2;   // Go's DefaultMaxIdleConnsPerHost; raised below
  std::chrono::milliseconds idle_timeout{90000};
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

 private:
  struct Idle;
  void evict(const std::string& key, H1Connection* conn);

  Reactor& reactor_;
  PoolLimits limits_;
  std::unordered_map<std::string, std::deque<std::unique_ptr<Idle>>> idle_;
  size_t total_ = 0;
};

}  // namespace tlsc
