#include "runtime/runtime.h"

#include <cstring>
#include <future>

#include "platform/process.h"

namespace tlsc {

char* ReturnedStrings::keep(const std::string& id, std::string text) {
  auto buf = std::make_unique<char[]>(text.size() + 1);
  std::memcpy(buf.get(), text.data(), text.size());
  buf[text.size()] = '\0';
  char* raw = buf.get();
  std::lock_guard lock(mu_);
  strings_[id] = std::move(buf);
  return raw;
}

void ReturnedStrings::release(const std::string& id) {
  std::unique_ptr<char[]> doomed;
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
