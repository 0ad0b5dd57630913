// id -> an object callers name by that id across calls: a streamed
// response (streamId, from requestStream until its end), a WebSocket
// (connectionId, from wsConnect until wsClose). Any thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tlsc {

template <class T>
class IdRegistry {
 public:
  void add(const std::string& id, std::shared_ptr<T> object) {
    std::lock_guard lock(mu_);
    objects_[id] = std::move(object);
  }
  std::shared_ptr<T> find(const std::string& id) {
    std::lock_guard lock(mu_);
    auto it = objects_.find(id);
    return it == objects_.end() ? nullptr : it->second;
  }
  std::shared_ptr<T> remove(const std::string& id) {
    std::lock_guard lock(mu_);
    auto it = objects_.find(id);
    if (it == objects_.end()) return nullptr;
    auto object = std::move(it->second);
    objects_.erase(it);
    return object;
  }
  std::vector<std::shared_ptr<T>> remove_all() {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<T>> all;
    all.reserve(objects_.size());
    for (auto& [id, object] : objects_) all.push_back(std::move(object));
    objects_.clear();
    return all;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<T>> objects_;
};

}  // namespace tlsc
