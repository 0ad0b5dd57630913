#include "runtime/ready_notice.h"

#include <new>
#include <utility>

namespace tlsc {

ReadyNotice::ReadyNotice(CompletionQueue& queue, std::string event_json)
    : queue_(queue), event_json_(std::move(event_json)) {
  queue_.add_watcher();
}

ReadyNotice::~ReadyNotice() { queue_.remove_watcher(); }

void ReadyNotice::update(bool readable) {
  if (!readable || pending_ || reading_) return;
  try {
    queue_.push_event(event_json_);
    pending_ = true;
  } catch (const std::bad_alloc&) {
    // Not queued: pending_ stays false, the next change queues it.
  }
}

}  // namespace tlsc
