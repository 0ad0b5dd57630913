// The OS readiness mechanism behind the reactor. epoll on Linux; kqueue and
// IOCP (through a readiness emulation) implement the same four calls.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace tlsc {

enum IoEvents : uint32_t {
  kIoReadable = 1u << 0,
  kIoWritable = 1u << 1,
  kIoHangup = 1u << 2,  // error or peer hang-up: the handler reads to find out
};

struct IoReady {
  int fd;
  uint32_t events;
};

class IoBackend {
 public:
  virtual ~IoBackend() = default;
  virtual bool add(int fd, uint32_t events) = 0;
  virtual bool modify(int fd, uint32_t events) = 0;
  virtual void remove(int fd) = 0;
  // Waits up to timeout_ms (-1: forever) and appends what is ready.
  virtual void wait(int timeout_ms, std::vector<IoReady>& ready) = 0;
};

std::unique_ptr<IoBackend> make_default_io_backend();

}  // namespace tlsc
