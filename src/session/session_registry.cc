#include "session/session_registry.h"

namespace tlsc {

Result<std::shared_ptr<Session>> SessionRegistry::acquire(const std::string& id, const ClientOptions& options,
                                                          const ClientModification& modification) {
  if (!id.empty()) {
    std::lock_guard lock(mu_);
    if (auto it = sessions_.find(id); it != sessions_.end()) {
      it->second->client()->modify(modification);
      return it->second;
    }
  }
  // A new client fails on a bad proxy URL; an existing one keeps its proxy.
  ClientOptions checked = options;
  if (auto e = set_proxy(checked, checked.proxy_url)) return *e;
  // The client's pool, TLS state and connections belong to the loop thread,
  // so the client is destroyed there, whichever thread lets go of it last
  // (a caller's destroySession, a request returning after its session was
  // destroyed).
  Reactor* reactor = &reactor_;
  std::shared_ptr<HttpClient> client(new HttpClient(reactor_, resolver_, std::move(checked), id.empty()),
                                     [reactor](HttpClient* c) {
                                       if (reactor->in_loop_thread()) {
                                         delete c;
                                       } else {
                                         reactor->post([c] { delete c; });
                                       }
                                     });
  auto session = std::make_shared<Session>(id, std::move(client));
  if (!id.empty()) {
    std::lock_guard lock(mu_);
    // Two threads may race to create the same session: the first one wins.
    auto [it, inserted] = sessions_.emplace(id, session);
    if (!inserted) {
      it->second->client()->modify(modification);
      return it->second;
    }
  }
  return session;
}

std::shared_ptr<Session> SessionRegistry::find(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second;
}

std::shared_ptr<Session> SessionRegistry::remove(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  auto s = std::move(it->second);
  sessions_.erase(it);
  return s;
}

std::vector<std::shared_ptr<Session>> SessionRegistry::remove_all() {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<Session>> all;
  all.reserve(sessions_.size());
  for (auto& [id, s] : sessions_) all.push_back(std::move(s));
  sessions_.clear();
  return all;
}

}  // namespace tlsc
