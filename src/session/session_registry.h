// sessionId → Session, shared by every caller thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "session/session.h"

namespace tlsc {

class SessionRegistry {
 public:
  explicit SessionRegistry(Reactor& reactor) : reactor_(reactor) {}

  // Upstream's getTlsClient: an existing session is reused (its proxy and
  // redirect policy updated from this request); otherwise a new one is built
  // from the request and, when it has an id, remembered.
  Result<std::shared_ptr<Session>> acquire(const RequestInput& in);
  std::shared_ptr<Session> find(const std::string& id);
  std::shared_ptr<Session> remove(const std::string& id);
  std::vector<std::shared_ptr<Session>> remove_all();

 private:
  Reactor& reactor_;
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<Session>> sessions_;
};

}  // namespace tlsc
