#include "runtime/stream_registry.h"

namespace tlsc {

void StreamRegistry::add(const std::string& id, std::shared_ptr<BodyStream> stream) {
  std::lock_guard lock(mu_);
  streams_[id] = std::move(stream);
}

std::shared_ptr<BodyStream> StreamRegistry::find(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(id);
  return it == streams_.end() ? nullptr : it->second;
}

std::shared_ptr<BodyStream> StreamRegistry::remove(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(id);
  if (it == streams_.end()) return nullptr;
  auto s = std::move(it->second);
  streams_.erase(it);
  return s;
}

std::vector<std::shared_ptr<BodyStream>> StreamRegistry::remove_all() {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<BodyStream>> all;
  all.reserve(streams_.size());
  for (auto& [id, s] : streams_) all.push_back(std::move(s));
  streams_.clear();
  return all;
}

}  // namespace tlsc
