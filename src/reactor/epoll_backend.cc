#include <sys/epoll.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "reactor/io_backend.h"

namespace tlsc {
namespace {

uint32_t to_epoll(uint32_t events) {
  uint32_t e = 0;
  if (events & kIoReadable) e |= EPOLLIN | EPOLLRDHUP;
  if (events & kIoWritable) e |= EPOLLOUT;
  return e;
}

class EpollBackend final : public IoBackend {
 public:
  EpollBackend() : epfd_(epoll_create1(EPOLL_CLOEXEC)) {}
  ~EpollBackend() override {
    if (epfd_ >= 0) close(epfd_);
  }

  bool add(int fd, uint32_t events) override { return ctl(EPOLL_CTL_ADD, fd, events); }
  bool modify(int fd, uint32_t events) override { return ctl(EPOLL_CTL_MOD, fd, events); }
  void remove(int fd) override { epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr); }

  void wait(int timeout_ms, std::vector<IoReady>& ready) override {
    std::array<epoll_event, 256> evs{};
    int n = epoll_wait(epfd_, evs.data(), static_cast<int>(evs.size()), timeout_ms);
    if (n <= 0) return;  // EINTR counts as a spurious wake-up
    for (int i = 0; i < n; ++i) {
      uint32_t e = 0;
      const auto& ev = evs[static_cast<size_t>(i)];
      if (ev.events & (EPOLLIN | EPOLLRDHUP)) e |= kIoReadable;
      if (ev.events & EPOLLOUT) e |= kIoWritable;
      if (ev.events & (EPOLLERR | EPOLLHUP)) e |= kIoHangup | kIoReadable;
      ready.push_back(IoReady{ev.data.fd, e});
    }
  }

 private:
  bool ctl(int op, int fd, uint32_t events) {
    epoll_event ev{};
    ev.events = to_epoll(events);
    ev.data.fd = fd;
    return epoll_ctl(epfd_, op, fd, &ev) == 0;
  }

  int epfd_;
};

}  // namespace

std::unique_ptr<IoBackend> make_default_io_backend() { return std::make_unique<EpollBackend>(); }

}  // namespace tlsc
