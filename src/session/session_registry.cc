#include "session/session_registry.h"

namespace tlsc {

Result<std::shared_ptr<Session>> SessionRegistry::acquire(const RequestInput& in) {
  // Upstream rejects conflicting input before it looks for the session.
  auto options = client_options_from_input(in);
  if (!options) return options.error();
  // A new client fails on a bad proxy URL; an existing one keeps its proxy
  // (update_from_request).
  auto new_options = [&]() -> Result<ClientOptions> {
    ClientOptions o = *options;
    if (auto e = set_proxy(o, o.proxy_url)) return *e;
    return o;
  };
  std::string id = in.session_id.value_or("");
  if (!id.empty()) {
    std::lock_guard lock(mu_);
    if (auto it = sessions_.find(id); it != sessions_.end()) {
      it->second->update_from_request(in);
      return it->second;
    }
  }
  auto checked = new_options();
  if (!checked) return checked.error();
  auto session = std::make_shared<Session>(id, std::move(*checked), reactor_);
  if (!id.empty()) {
    std::lock_guard lock(mu_);
    // Two threads may race to create the same session: the first one wins.
    auto [it, inserted] = sessions_.emplace(id, session);
    if (!inserted) {
      it->second->update_from_request(in);
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
