// Tells a caller that opted in (notifyOnData) that a stream or WebSocket
// has something to read, with an event in the process's completion queue:
// {"event":"readable","streamId":"..."} or
// {"event":"readable","connectionId":"..."} among waitNext's responses, and
// setNotify's callback as for them (abi/CONTRACT.md, "Notify for streams
// and WebSockets"). At most one event waits per stream, and none while a
// read is under way: a read takes the event back, and its end queues the
// next one if something is still there. So each event stands for one read
// that will not wait, and a reader that reads once per event never blocks
// and never misses data.
#pragma once

#include <string>

#include "reactor/completion_queue.h"

namespace tlsc {

class ReadyNotice {
 public:
  // `event_json`: the event as the ABI words it (abi/ makes the JSON).
  // Counts as a watcher of the queue until destroyed.
  ReadyNotice(CompletionQueue& queue, std::string event_json);
  ~ReadyNotice();
  ReadyNotice(const ReadyNotice&) = delete;
  ReadyNotice& operator=(const ReadyNotice&) = delete;

  // Under the owner's lock, whenever what a read would return may have
  // changed: queues the event if `readable` and none is waiting. No memory
  // for it: nothing is queued, and the next change tries again.
  void update(bool readable);
  // Under the owner's lock, as a read begins: the event (taken or not)
  // is used up, and nothing is queued until the read ends.
  void read_begins() {
    pending_ = false;
    reading_ = true;
  }
  // Under the owner's lock, as the read returns.
  void read_ends(bool readable) {
    reading_ = false;
    update(readable);
  }

 private:
  CompletionQueue& queue_;
  std::string event_json_;
  bool pending_ = false;
  bool reading_ = false;
};

}  // namespace tlsc
