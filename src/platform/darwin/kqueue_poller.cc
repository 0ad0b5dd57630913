// The macOS poller: kqueue, with a read filter and a write filter per
// socket, and an EVFILT_USER event as the wake-up. kqueue filters are
// level-triggered unless EV_CLEAR is asked for, as epoll is used on Linux:
// a socket still readable after its handler ran is reported again.
#include <fcntl.h>
#include <sys/event.h>
#include <sys/time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <unordered_map>

#include "platform/poller.h"

namespace tlsc {
namespace {

// EVFILT_USER identifiers are a namespace of their own, not descriptors.
constexpr uintptr_t kWakeIdent = 1;
constexpr uint32_t kFilters = kIoReadable | kIoWritable;

class KqueuePoller final : public Poller {
 public:
  explicit KqueuePoller(int kq) : kq_(kq) {}
  ~KqueuePoller() override { ::close(kq_); }

  // A socket added again after its descriptor was closed and reused had its
  // filters removed by close(): nothing is registered for it yet.
  bool add(SocketHandle s, uint32_t events) override { return change(s, 0, events & kFilters); }

  bool modify(SocketHandle s, uint32_t events) override {
    auto it = registered_.find(s);
    return change(s, it == registered_.end() ? 0 : it->second, events & kFilters);
  }

  void remove(SocketHandle s) override {
    auto it = registered_.find(s);
    if (it == registered_.end()) return;
    change(s, it->second, 0);
  }

  void wait(int timeout_ms, std::vector<IoReady>& ready) override {
    std::array<struct kevent, 256> evs{};
    timespec ts{};
    timespec* timeout = nullptr;
    if (timeout_ms >= 0) {
      ts.tv_sec = timeout_ms / 1000;
      ts.tv_nsec = static_cast<long>(timeout_ms % 1000) * 1000000L;
      timeout = &ts;
    }
    const int n = kevent(kq_, nullptr, 0, evs.data(), static_cast<int>(evs.size()), timeout);
    if (n <= 0) return;  // EINTR counts as a spurious wake-up
    const size_t first = ready.size();
    for (int i = 0; i < n; ++i) {
      const struct kevent& ev = evs[static_cast<size_t>(i)];
      if (ev.filter == EVFILT_USER) continue;  // the wake-up; EV_CLEAR re-arms it
      uint32_t e = 0;
      if (ev.flags & EV_ERROR) {
        e = kIoHangup | kIoReadable;
      } else if (ev.filter == EVFILT_READ) {
        // EV_EOF: the peer's FIN (what is left is still read first), or the
        // socket's error in fflags: the handler's read finds out which.
        e = kIoReadable;
        if ((ev.flags & EV_EOF) && ev.fflags != 0) e |= kIoHangup;
      } else if (ev.filter == EVFILT_WRITE) {
        // EV_EOF on the write side: nothing can be sent any more (epoll's
        // EPOLLHUP/EPOLLERR), a failed connect among them.
        e = kIoWritable;
        if (ev.flags & EV_EOF) e |= kIoHangup | kIoReadable;
      } else {
        continue;
      }
      const auto s = static_cast<SocketHandle>(ev.ident);
      // One entry per socket per wait, as epoll gives: the read and the
      // write filter of a socket come as two events.
      bool merged = false;
      for (size_t j = first; j < ready.size(); ++j) {
        if (ready[j].socket == s) {
          ready[j].events |= e;
          merged = true;
          break;
        }
      }
      if (!merged) ready.push_back(IoReady{s, e});
    }
  }

  void wake() override {
    struct kevent ev;
    EV_SET(&ev, kWakeIdent, EVFILT_USER, 0, NOTE_TRIGGER, 0, nullptr);
    (void)kevent(kq_, &ev, 1, nullptr, 0, nullptr);
  }

  bool arm_wake() {
    struct kevent ev;
    EV_SET(&ev, kWakeIdent, EVFILT_USER, EV_ADD | EV_CLEAR, NOTE_FFNOP, 0, nullptr);
    return kevent(kq_, &ev, 1, nullptr, 0, nullptr) == 0;
  }

 private:
  // Adds the filters `after` has and `before` had not, deletes the others
  // `before` had. EV_RECEIPT answers each change on its own, so one that
  // fails does not hide the others. Deleting a filter the kernel already
  // dropped (the descriptor was closed) is not a failure.
  bool change(SocketHandle s, uint32_t before, uint32_t after) {
    std::array<struct kevent, 2> changes{};
    int n = 0;
    const auto ident = static_cast<uintptr_t>(s);
    for (auto [bit, filter] : {std::pair{kIoReadable, EVFILT_READ}, std::pair{kIoWritable, EVFILT_WRITE}}) {
      const bool had = (before & bit) != 0, wants = (after & bit) != 0;
      if (had == wants) continue;
      struct kevent* c = &changes[static_cast<size_t>(n++)];
      EV_SET(c, ident, filter, (wants ? EV_ADD | EV_ENABLE : EV_DELETE) | EV_RECEIPT, 0, 0, nullptr);
    }
    bool ok = true;
    if (n > 0) {
      std::array<struct kevent, 2> receipts{};
      const int got = kevent(kq_, changes.data(), n, receipts.data(), n, nullptr);
      if (got < 0) {
        ok = false;
      } else {
        for (int i = 0; i < got; ++i) {
          const struct kevent& r = receipts[static_cast<size_t>(i)];
          if ((r.flags & EV_ERROR) != 0 && r.data != 0 && !(r.data == ENOENT || r.data == EBADF)) ok = false;
        }
      }
    }
    if (after == 0) {
      registered_.erase(s);
    } else {
      registered_[s] = after;
    }
    return ok;
  }

  int kq_;
  // The filters each socket has, so that a modify knows which to delete.
  std::unordered_map<SocketHandle, uint32_t> registered_;
};

}  // namespace

std::unique_ptr<Poller> make_poller() {
  const int kq = kqueue();
  if (kq < 0) return nullptr;
  // Not inherited by fork() children anyway; nor by a program exec'd.
  (void)fcntl(kq, F_SETFD, FD_CLOEXEC);
  auto p = std::make_unique<KqueuePoller>(kq);
  if (!p->arm_wake()) return nullptr;
  return p;
}

}  // namespace tlsc
