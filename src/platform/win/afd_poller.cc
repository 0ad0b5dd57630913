// The Windows poller: readiness through an I/O completion port, the way
// wepoll, libuv's uv_poll and Rust's mio get epoll's semantics on Windows.
// Each watched socket has one IOCTL_AFD_POLL request in flight on a helper
// socket, asking the AFD driver to complete it when the socket becomes
// readable, writable or fails; completions arrive on the port, and
// PostQueuedCompletionStatus is the wake-up. A poll completes once, so each
// wait() re-arms the sockets it reported: a socket that is still readable
// completes again at once, which is epoll's level-triggered behaviour.
#include <winternl.h>

#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

#include "platform/poller.h"
#include "platform/win/winsock.h"

namespace tlsc {
namespace {

// From the Windows driver kit's afd.h (not in the SDK or mingw-w64).
constexpr ULONG kIoctlAfdPoll = 0x00012024;
constexpr ULONG kAfdPollReceive = 0x0001;
constexpr ULONG kAfdPollReceiveExpedited = 0x0002;
constexpr ULONG kAfdPollSend = 0x0004;
constexpr ULONG kAfdPollDisconnect = 0x0008;
constexpr ULONG kAfdPollAbort = 0x0010;
constexpr ULONG kAfdPollLocalClose = 0x0020;
constexpr ULONG kAfdPollAccept = 0x0080;
constexpr ULONG kAfdPollConnectFail = 0x0100;

struct AfdPollHandleInfo {
  HANDLE handle;
  ULONG events;
  NTSTATUS status;
};
struct AfdPollInfo {
  LARGE_INTEGER timeout;
  ULONG number_of_handles;
  ULONG exclusive;
  AfdPollHandleInfo handles[1];
};

constexpr NTSTATUS kStatusPending = 0x00000103;
constexpr NTSTATUS kStatusCancelled = static_cast<NTSTATUS>(0xC0000120);
constexpr ULONG_PTR kWakeKey = 1;

ULONG to_afd(uint32_t events) {
  // Failures are always asked for: a connect that fails must end the wait
  // of a socket watched only for writing.
  ULONG e = kAfdPollAbort | kAfdPollConnectFail | kAfdPollLocalClose;
  if (events & kIoReadable)
    e |= kAfdPollReceive | kAfdPollReceiveExpedited | kAfdPollDisconnect | kAfdPollAccept;
  if (events & kIoWritable) e |= kAfdPollSend;
  return e;
}

uint32_t from_afd(ULONG e) {
  uint32_t out = 0;
  if (e & (kAfdPollReceive | kAfdPollReceiveExpedited | kAfdPollDisconnect | kAfdPollAccept))
    out |= kIoReadable;
  if (e & kAfdPollSend) out |= kIoWritable;
  if (e & (kAfdPollAbort | kAfdPollConnectFail)) out |= kIoHangup | kIoReadable | kIoWritable;
  return out;
}

// The socket the AFD driver knows: a layered service provider may wrap it.
SOCKET base_socket(SOCKET s) {
  SOCKET base = INVALID_SOCKET;
  DWORD bytes = 0;
  if (WSAIoctl(s, SIO_BASE_HANDLE, nullptr, 0, &base, sizeof base, &bytes, nullptr, nullptr) == 0 &&
      base != INVALID_SOCKET) {
    return base;
  }
  return s;
}

struct Watch {
  OVERLAPPED overlapped{};  // its Internal/InternalHigh are the request's IO_STATUS_BLOCK
  AfdPollInfo info{};
  SocketHandle socket = kNoSocket;
  SOCKET base = INVALID_SOCKET;
  uint32_t interest = 0;
  ULONG requested = 0;  // what the request in flight asks for
  bool in_flight = false;
  bool removed = false;  // freed when its request completes
};

class AfdPoller final : public Poller {
 public:
  AfdPoller(HANDLE port, SOCKET helper) : port_(port), helper_(helper) {}

  ~AfdPoller() override {
    // Requests in flight write into their Watch when they complete: cancel
    // them and wait (bounded) for the completions before freeing anything.
    size_t in_flight = 0;
    for (auto& [s, w] : watches_) {
      if (w->in_flight) {
        CancelIoEx(reinterpret_cast<HANDLE>(helper_), &w->overlapped);
        ++in_flight;
      }
    }
    in_flight += zombies_.size();
    for (int round = 0; in_flight > 0 && round < 100; ++round) {
      std::array<OVERLAPPED_ENTRY, 64> entries{};
      ULONG n = 0;
      if (!GetQueuedCompletionStatusEx(port_, entries.data(), static_cast<ULONG>(entries.size()), &n, 10,
                                       FALSE)) {
        continue;
      }
      for (ULONG i = 0; i < n; ++i) {
        if (entries[i].lpOverlapped != nullptr && in_flight > 0) --in_flight;
      }
    }
    closesocket(helper_);
    CloseHandle(port_);
    if (in_flight > 0) {
      // Never completed: leaking beats a write into freed memory.
      for (auto& [s, w] : watches_) (void)w.release();
      for (auto& w : zombies_) (void)w.release();
    }
  }

  bool add(SocketHandle s, uint32_t events) override {
    auto w = std::make_unique<Watch>();
    w->socket = s;
    w->base = base_socket(static_cast<SOCKET>(s));
    w->interest = events;
    Watch* raw = w.get();
    if (!watches_.emplace(s, std::move(w)).second) return false;
    rearm_.push_back(raw);
    return true;
  }

  bool modify(SocketHandle s, uint32_t events) override {
    auto it = watches_.find(s);
    if (it == watches_.end()) return false;
    Watch* w = it->second.get();
    w->interest = events;
    if (w->in_flight && w->requested != to_afd(events)) {
      // Asks for something else now: cancel, and re-arm on its completion.
      CancelIoEx(reinterpret_cast<HANDLE>(helper_), &w->overlapped);
    } else if (!w->in_flight) {
      rearm_.push_back(w);
    }
    return true;
  }

  void remove(SocketHandle s) override {
    auto it = watches_.find(s);
    if (it == watches_.end()) return;
    std::unique_ptr<Watch> w = std::move(it->second);
    watches_.erase(it);
    w->removed = true;
    std::erase(rearm_, w.get());
    if (w->in_flight) {
      CancelIoEx(reinterpret_cast<HANDLE>(helper_), &w->overlapped);
      zombies_.push_back(std::move(w));
    }
  }

  void wait(int timeout_ms, std::vector<IoReady>& ready) override {
    std::vector<Watch*> rearm;
    rearm.swap(rearm_);
    for (Watch* w : rearm) submit(w, ready);
    if (!ready.empty()) timeout_ms = 0;

    std::array<OVERLAPPED_ENTRY, 256> entries{};
    ULONG n = 0;
    DWORD timeout = timeout_ms < 0 ? INFINITE : static_cast<DWORD>(timeout_ms);
    if (!GetQueuedCompletionStatusEx(port_, entries.data(), static_cast<ULONG>(entries.size()), &n, timeout,
                                     FALSE)) {
      return;  // timed out
    }
    for (ULONG i = 0; i < n; ++i) {
      const OVERLAPPED_ENTRY& e = entries[i];
      if (e.lpOverlapped == nullptr) continue;              // wake()
      Watch* w = reinterpret_cast<Watch*>(e.lpOverlapped);  // overlapped is the first member
      w->in_flight = false;
      if (w->removed) {
        std::erase_if(zombies_, [w](const std::unique_ptr<Watch>& z) { return z.get() == w; });
        continue;
      }
      const auto status = static_cast<NTSTATUS>(w->overlapped.Internal);
      uint32_t events = 0;
      if (status == kStatusCancelled) {
        // modify() cancelled it; nothing happened to the socket.
      } else if (status < 0) {
        events = kIoHangup | kIoReadable | kIoWritable;
      } else if (w->info.number_of_handles > 0) {
        ULONG afd = w->info.handles[0].events;
        if (afd & kAfdPollLocalClose) continue;  // closed under us: remove() follows
        events = from_afd(afd);
      }
      // Failures are reported whatever was asked; the rest only if asked.
      events &= w->interest | kIoHangup | ((events & kIoHangup) ? (kIoReadable | kIoWritable) : 0u);
      if (events != 0) ready.push_back(IoReady{w->socket, events});
      rearm_.push_back(w);
    }
  }

  void wake() override { PostQueuedCompletionStatus(port_, 0, kWakeKey, nullptr); }

 private:
  void submit(Watch* w, std::vector<IoReady>& ready) {
    if (w->removed || w->in_flight || w->interest == 0) return;
    w->overlapped = OVERLAPPED{};
    w->info.timeout.QuadPart = INT64_MAX;
    w->info.number_of_handles = 1;
    w->info.exclusive = FALSE;
    w->info.handles[0].handle = reinterpret_cast<HANDLE>(w->base);
    w->info.handles[0].events = to_afd(w->interest);
    w->info.handles[0].status = 0;
    w->requested = w->info.handles[0].events;
    auto* iosb = reinterpret_cast<IO_STATUS_BLOCK*>(&w->overlapped.Internal);
    NTSTATUS st =
        NtDeviceIoControlFile(reinterpret_cast<HANDLE>(helper_), nullptr, nullptr, &w->overlapped, iosb,
                              kIoctlAfdPoll, &w->info, sizeof w->info, &w->info, sizeof w->info);
    if (st == kStatusPending || st >= 0) {
      w->in_flight = true;  // success too: the completion is still queued to the port
      return;
    }
    // The driver refused the socket (closed, not a socket): a hang-up, so
    // the owner reads, finds out, and closes it.
    ready.push_back(IoReady{w->socket, kIoHangup | kIoReadable | kIoWritable});
  }

  HANDLE port_;
  SOCKET helper_;  // the requests go through it; it is never connected
  std::unordered_map<SocketHandle, std::unique_ptr<Watch>> watches_;
  std::vector<std::unique_ptr<Watch>> zombies_;  // removed, request still in flight
  std::vector<Watch*> rearm_;                    // to (re)submit at the next wait
};

}  // namespace

std::unique_ptr<Poller> make_poller() {
  if (!ensure_winsock()) return nullptr;
  HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
  if (port == nullptr) return nullptr;
  SOCKET helper = WSASocketW(AF_INET, SOCK_STREAM, IPPROTO_TCP, nullptr, 0,
                             WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (helper == INVALID_SOCKET ||
      CreateIoCompletionPort(reinterpret_cast<HANDLE>(helper), port, 0, 0) == nullptr) {
    if (helper != INVALID_SOCKET) closesocket(helper);
    CloseHandle(port);
    return nullptr;
  }
  return std::make_unique<AfdPoller>(port, helper);
}

}  // namespace tlsc
