// sessionId -> Session, shared by every caller thread.
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
  SessionRegistry(Reactor& reactor, DnsResolver& resolver) : reactor_(reactor), resolver_(resolver) {}

  // Upstream's getTlsClient: an existing session is reused (modified by
  // this request); otherwise a new one is made from `options` (its proxy URL
  // checked) and, when it has an id, remembered. An empty id makes a client
  // for one request, remembered nowhere.
  Result<std::shared_ptr<Session>> acquire(const std::string& id, const ClientOptions& options,
                                           const ClientModification& modification);
  std::shared_ptr<Session> find(const std::string& id);
  std::shared_ptr<Session> remove(const std::string& id);
  std::vector<std::shared_ptr<Session>> remove_all();

 private:
  Reactor& reactor_;
  DnsResolver& resolver_;
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<Session>> sessions_;
};

}  // namespace tlsc
