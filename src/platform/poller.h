// The OS readiness mechanism behind the reactor, and its wake-up: epoll and
// an eventfd on Linux (linux/epoll_poller.cc); kqueue with EVFILT_USER on
// macOS and an IOCP port (readiness emulated, PostQueuedCompletionStatus as
// the wake-up) on Windows implement the same calls. Loop thread only, except
// wake().
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "platform/socket.h"

namespace tlsc {

enum IoEvents : uint32_t {
  kIoReadable = 1u << 0,
  kIoWritable = 1u << 1,
  kIoHangup = 1u << 2,  // error or peer hang-up: the handler reads to find out
};

struct IoReady {
  SocketHandle socket;
  uint32_t events;
};

class Poller {
 public:
  virtual ~Poller() = default;
  virtual bool add(SocketHandle s, uint32_t events) = 0;
  virtual bool modify(SocketHandle s, uint32_t events) = 0;
  virtual void remove(SocketHandle s) = 0;
  // Waits up to timeout_ms (-1: forever) and appends what is ready. Returns
  // early, with or without events, after wake().
  virtual void wait(int timeout_ms, std::vector<IoReady>& ready) = 0;
  // Any thread: makes a wait() in progress (or the next one) return.
  virtual void wake() = 0;
};

// This OS's poller; nullptr when the OS refuses one (out of descriptors).
std::unique_ptr<Poller> make_poller();

}  // namespace tlsc
