// The async requests still running, by the id requestAsync returned, so
// that cancelRequest can end one. Whichever comes first under the lock,
// the completion or the cancel, decides the answer: a cancel that says
// success always gets a "cancelled" completion, and a request that already
// finished cannot be cancelled. Any thread unless marked.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "reactor/reactor.h"

namespace tlsc {

class Transaction;

class AsyncRequests {
 public:
  explicit AsyncRequests(Reactor& reactor);
  // Caller's thread, before the request is posted to the loop.
  void add(const std::string& id);
  // Loop thread, once the transaction exists.
  void attach(const std::string& id, const std::shared_ptr<Transaction>& transaction);
  // Loop thread, at the completion: false if the request was cancelled
  // meanwhile (its response must then say so).
  bool finish(const std::string& id);
  // True if the request was running: it ends now with errorCode cancelled.
  bool cancel(const std::string& id);

 private:
  Reactor& reactor_;
  std::mutex mu_;
  std::unordered_map<std::string, std::weak_ptr<Transaction>> running_;
  std::unordered_set<std::string> cancelled_;  // until their completion
};

}  // namespace tlsc
