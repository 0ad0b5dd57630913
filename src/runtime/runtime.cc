#include "runtime/runtime.h"

#include <cstring>
#include <future>

#include "platform/process.h"

namespace tlsc {

char* ReturnedStrings::keep(const std::string& id, std::string text) {
  // The string itself is kept (a response of megabytes is not copied once
  // more); its heap buffer does not move while the map owns it. A buffer
  // that grew well past its text (escapes outgrew the reserve) is trimmed,
  // since the caller may hold it for long.
  if (text.capacity() - text.size() > text.size() / 4) text.shrink_to_fit();
  auto owned = std::make_unique<std::string>(std::move(text));
  char* raw = owned->data();
  std::lock_guard lock(mu_);
  strings_[id] = std::move(owned);
  return raw;
}

void ReturnedStrings::release(const std::string& id) {
  std::unique_ptr<std::string> doomed;  // freed after the lock is let go
  std::lock_guard lock(mu_);
  auto it = strings_.find(id);
  if (it == strings_.end()) return;
  doomed = std::move(it->second);
  strings_.erase(it);
}

size_t ReturnedStrings::size() {
  std::lock_guard lock(mu_);
  return strings_.size();
}

Runtime& Runtime::get() {
  static Runtime* runtime = new Runtime();  // never destroyed, see header
  return *runtime;
}

Runtime::Runtime() {
  // As upstream's library does on load (Go's runtime).
  raise_open_file_limit();
  // c-ares state belongs to the loop thread: create it there.
  std::promise<void> ready;
  reactor_.post([this, &ready] {
    resolver_ = std::make_unique<DnsResolver>(reactor_);
    ready.set_value();
  });
  ready.get_future().wait();
  sessions_ = std::make_unique<SessionRegistry>(reactor_, *resolver_);
}

}  // namespace tlsc
