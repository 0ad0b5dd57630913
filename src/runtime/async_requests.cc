#include "runtime/async_requests.h"

#include "http/transaction.h"

namespace tlsc {

AsyncRequests::AsyncRequests(Reactor& reactor) : reactor_(reactor) {}

void AsyncRequests::add(const std::string& id) {
  std::lock_guard lock(mu_);
  running_.emplace(id, std::weak_ptr<Transaction>());
}

void AsyncRequests::attach(const std::string& id, const std::shared_ptr<Transaction>& transaction) {
  {
    std::lock_guard lock(mu_);
    if (auto it = running_.find(id); it != running_.end()) {
      it->second = transaction;
      return;
    }
    // Finished already (inside start), or cancelled before it began.
    if (!cancelled_.contains(id)) return;
  }
  transaction->cancel_by_caller();
}

bool AsyncRequests::finish(const std::string& id) {
  std::lock_guard lock(mu_);
  if (running_.erase(id) > 0) return true;
  cancelled_.erase(id);
  return false;
}

bool AsyncRequests::cancel(const std::string& id) {
  std::weak_ptr<Transaction> weak;
  {
    std::lock_guard lock(mu_);
    auto it = running_.find(id);
    if (it == running_.end()) return false;
    weak = std::move(it->second);
    running_.erase(it);
    cancelled_.insert(id);
  }
  // The loop ends it (attach does, if it has not started yet). The weak
  // pointer is only locked there: the last reference must not go on this
  // thread.
  reactor_.post([weak = std::move(weak)] {
    if (auto t = weak.lock()) t->cancel_by_caller();
  });
  return true;
}

}  // namespace tlsc
