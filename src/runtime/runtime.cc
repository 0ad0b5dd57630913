#include "runtime/runtime.h"

#include <atomic>
#include <cstring>
#include <future>
#include <mutex>

#include "core/uuid.h"
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

namespace {

// Where the process's runtime is, and what fork() does to it. A child has
// only the thread that forked: the parent's loop thread, and whatever it
// or a caller held locked, are not there. So the child's first call builds
// a runtime of its own (no sessions, no requests in flight) and leaves the
// parent's copy untouched: freeing it could block on a lock that nobody
// will ever release. Its memory stays copy-on-write, its sockets are the
// parent's and are never used here.
struct RuntimeSlot {
  std::mutex create_mu;  // held across fork(), so a child never inherits it locked
  std::atomic<Runtime*> current{nullptr};
  std::atomic<bool> stale{false};  // set in a child: `current` is the parent's
};

RuntimeSlot& slot() {
  static RuntimeSlot* s = new RuntimeSlot();  // never destroyed, see header
  return *s;
}

void before_fork() { slot().create_mu.lock(); }
void after_fork_in_parent() { slot().create_mu.unlock(); }
void after_fork_in_child() {
  RuntimeSlot& s = slot();
  s.create_mu.unlock();
  if (s.current.load(std::memory_order_relaxed) != nullptr) s.stale.store(true, std::memory_order_release);
}

}  // namespace

Runtime& Runtime::get() {
  RuntimeSlot& s = slot();
  if (!s.stale.load(std::memory_order_acquire)) {
    if (Runtime* r = s.current.load(std::memory_order_acquire)) return *r;
  }
  std::lock_guard lock(s.create_mu);
  if (s.stale.load(std::memory_order_relaxed)) {
    // The ids a child makes must not repeat its siblings'.
    reseed_uuids();
    s.current.store(new Runtime(), std::memory_order_release);  // the parent's copy is left, see above
    s.stale.store(false, std::memory_order_release);
  } else if (s.current.load(std::memory_order_relaxed) == nullptr) {
    on_fork(before_fork, after_fork_in_parent, after_fork_in_child);
    keep_library_loaded();
    s.current.store(new Runtime(), std::memory_order_release);  // never destroyed, see header
  }
  return *s.current.load(std::memory_order_acquire);
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
