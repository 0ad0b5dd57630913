// The Linux poller: level-triggered epoll, and an eventfd registered with
// it as the wake-up.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "platform/poller.h"

namespace tlsc {
namespace {

uint32_t to_epoll(uint32_t events) {
  uint32_t e = 0;
  if (events & kIoReadable) e |= EPOLLIN | EPOLLRDHUP;
  if (events & kIoWritable) e |= EPOLLOUT;
  return e;
}

class EpollPoller final : public Poller {
 public:
  EpollPoller(int epfd, int wake_fd) : epfd_(epfd), wake_fd_(wake_fd) {}
  ~EpollPoller() override {
    ::close(wake_fd_);
    ::close(epfd_);
  }

  bool add(SocketHandle s, uint32_t events) override { return ctl(EPOLL_CTL_ADD, s, to_epoll(events)); }
  bool modify(SocketHandle s, uint32_t events) override { return ctl(EPOLL_CTL_MOD, s, to_epoll(events)); }
  void remove(SocketHandle s) override { epoll_ctl(epfd_, EPOLL_CTL_DEL, s, nullptr); }

  void wait(int timeout_ms, std::vector<IoReady>& ready) override {
    std::array<epoll_event, 256> evs{};
    int n = epoll_wait(epfd_, evs.data(), static_cast<int>(evs.size()), timeout_ms);
    if (n <= 0) return;  // EINTR counts as a spurious wake-up
    for (int i = 0; i < n; ++i) {
      const auto& ev = evs[static_cast<size_t>(i)];
      if (ev.data.fd == wake_fd_) {
        uint64_t v;
        while (::read(wake_fd_, &v, sizeof v) > 0) {
        }
        continue;
      }
      uint32_t e = 0;
      if (ev.events & (EPOLLIN | EPOLLRDHUP)) e |= kIoReadable;
      if (ev.events & EPOLLOUT) e |= kIoWritable;
      if (ev.events & (EPOLLERR | EPOLLHUP)) e |= kIoHangup | kIoReadable;
      ready.push_back(IoReady{ev.data.fd, e});
    }
  }

  void wake() override {
    uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);
  }

  bool ctl(int op, int fd, uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    ev.data.fd = fd;
    return epoll_ctl(epfd_, op, fd, &ev) == 0;
  }

 private:
  int epfd_;
  int wake_fd_;
};

}  // namespace

std::unique_ptr<Poller> make_poller() {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return nullptr;
  int wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd < 0) {
    ::close(epfd);
    return nullptr;
  }
  auto p = std::make_unique<EpollPoller>(epfd, wake_fd);
  if (!p->ctl(EPOLL_CTL_ADD, wake_fd, EPOLLIN)) return nullptr;
  return p;
}

}  // namespace tlsc
