// Finished async responses, collected by whoever calls waitNext, plus the
// notifier thread behind setNotify. abi/CONTRACT.md ("Async semantics")
// states the contract this implements. Streams and WebSockets whose caller
// asked for it put readiness events in the same queue ("Notify for streams
// and WebSockets").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <thread>

namespace tlsc {

class CompletionQueue {
 public:
  using NotifyFn = void (*)(int pending);

  static constexpr size_t kMaxBatchCount = 512;
  static constexpr size_t kMaxBatchBytes = 16u << 20;

  CompletionQueue();
  ~CompletionQueue();

  // An async request was accepted; it will push exactly one response.
  // Takes the queue's room for that response now (it may throw
  // std::bad_alloc here, on the caller's thread), so that push needs none.
  void expect_one();
  // The request expect_one announced was not accepted after all.
  void forget_one();
  // Loop thread: a finished response, already serialised as JSON. Allocates
  // nothing: the last response of a process short of memory still arrives.
  void push(std::string response_json);
  // Caller threads: a JSON array of up to a batch of responses, oldest
  // first. Waits up to timeout_ms for the first one; -1 waits for ever,
  // except when nothing is queued and nothing is in flight (it returns at
  // once: it could never return otherwise).
  std::string wait_batch(int timeout_ms);
  // Any thread. After setNotify(NULL) returns no new call starts; a call
  // already started is not waited for (see the .cc for why).
  void set_notify(NotifyFn fn);

  // A stream or WebSocket that will put events in the queue opened, or
  // ended: while one is open, waitNext(-1) waits for its events as it waits
  // for requests in flight.
  void add_watcher();
  void remove_watcher();
  // Any thread: one event (a JSON object), queued like a response and
  // announced like one. May throw std::bad_alloc (nothing is queued then).
  void push_event(std::string event_json);

 private:
  void notifier_loop();
  void arm_locked();

  std::mutex mu_;
  std::condition_variable items_cv_;
  std::list<std::string> items_;
  // One node per request in flight, taken by expect_one and spliced into
  // items_ by push.
  std::list<std::string> room_;
  size_t in_flight_ = 0;
  size_t watchers_ = 0;

  std::condition_variable notify_cv_;
  NotifyFn notify_ = nullptr;
  bool armed_ = true;        // a callback is due when the queue fills
  bool notify_due_ = false;  // the notifier thread should call now
  bool stopping_ = false;
  std::thread notifier_;
};

}  // namespace tlsc
