#include "net/dns_resolver.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

#include <ares.h>

namespace tlsc {
namespace {

void init_ares_library_once() {
  static std::once_flag once;
  std::call_once(once, [] { ares_library_init(ARES_LIB_INIT_ALL); });
}

}  // namespace

namespace {

// Hands `cb` what `make` builds, or no_memory_error() when building it
// finds no memory ("out of memory" fits std::string's own buffer: that
// error needs none), so that a lookup always ends.
template <class Make>
void deliver(const DnsResolver::Callback& cb, Make&& make) {
  Result<std::vector<SocketAddress>> r = no_memory_error();
  try {
    r = make();
  } catch (const std::bad_alloc&) {
  }
  cb(std::move(r));
}

}  // namespace

struct DnsResolver::Impl final : IoHandler {
  struct Query {
    Impl* impl;
    std::string host;
    uint16_t port;
    AddressFamilies families;
    Callback cb;
  };

  Reactor& reactor;
  ares_channel channel = nullptr;
  std::string init_error;
  std::unordered_map<SocketHandle, uint32_t> sockets;
  Reactor::TimerId timer = 0;

  explicit Impl(Reactor& r) : reactor(r) {
    init_ares_library_once();
    ares_options opts{};
    int mask = ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES;
    opts.sock_state_cb = &Impl::sock_state;
    opts.sock_state_cb_data = this;
    opts.timeout = 2000;
    opts.tries = 2;
    // Tests point the resolver at a loopback name server this way, so that
    // no query ever leaves the machine.
    std::string resolv_conf;
    if (const char* p = std::getenv("TLS_CLIENT_RESOLV_CONF"); p != nullptr && *p != '\0') {
      resolv_conf = p;
      opts.resolvconf_path = resolv_conf.data();
      mask |= ARES_OPT_RESOLVCONF;
    }
    int rc = ares_init_options(&channel, &opts, mask);
    if (rc != ARES_SUCCESS) {
      init_error = ares_strerror(rc);
      channel = nullptr;
    }
  }

  ~Impl() {
    if (timer) reactor.cancel_timer(timer);
    // Runs every pending callback with ARES_EDESTRUCTION.
    if (channel) ares_destroy(channel);
    for (auto& [fd, ev] : sockets) reactor.unwatch(fd);
  }

  // c-ares is C: nothing may be thrown through it, so its callbacks catch
  // everything. A socket it could not be watched for is left to c-ares's
  // own timeout.
  static void sock_state(void* data, ares_socket_t fd, int readable, int writable) {
    try {
      watch_socket(static_cast<Impl*>(data), fd, readable, writable);
    } catch (...) {
    }
  }

  static void watch_socket(Impl* self, ares_socket_t fd, int readable, int writable) {
    uint32_t ev = (readable ? uint32_t{kIoReadable} : 0u) | (writable ? uint32_t{kIoWritable} : 0u);
    auto it = self->sockets.find(fd);
    if (ev == 0) {
      if (it != self->sockets.end()) {
        self->reactor.unwatch(fd);
        self->sockets.erase(it);
      }
      return;
    }
    if (it == self->sockets.end()) {
      self->sockets.emplace(fd, ev);
      self->reactor.watch(fd, ev, self);
    } else {
      it->second = ev;
      self->reactor.set_events(fd, ev);
    }
  }

  void on_io(uint32_t) override {
    // c-ares tells which sockets are ready only through ares_process_fd;
    // handing it every socket it watches is cheap (a handful at most).
    std::vector<std::pair<SocketHandle, uint32_t>> snapshot(sockets.begin(), sockets.end());
    for (auto& [fd, ev] : snapshot) {
      ares_process_fd(channel, (ev & kIoReadable) ? fd : ARES_SOCKET_BAD,
                      (ev & kIoWritable) ? fd : ARES_SOCKET_BAD);
    }
    rearm_timer();
  }

  void rearm_timer() {
    if (timer) {
      reactor.cancel_timer(timer);
      timer = 0;
    }
    if (!channel) return;
    timeval tv{};
    timeval* t = ares_timeout(channel, nullptr, &tv);
    if (t == nullptr) return;
    auto ms = std::chrono::milliseconds(t->tv_sec * 1000 + (t->tv_usec + 999) / 1000);
    timer = reactor.add_timer(ms, [this] {
      timer = 0;
      ares_process_fd(channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
      rearm_timer();
    });
  }

  static void on_result(void* arg, int status, int /*timeouts*/, ares_addrinfo* result) {
    std::unique_ptr<Query> q(static_cast<Query*>(arg));
    std::unique_ptr<ares_addrinfo, void (*)(ares_addrinfo*)> owned(result, &ares_freeaddrinfo);
    try {
      deliver(q->cb, [&] { return addresses_of(q.get(), status, owned.get()); });
    } catch (...) {
      // The caller's own failure is its to report; c-ares cannot unwind.
    }
  }

  static Result<std::vector<SocketAddress>> addresses_of(const Query* q, int status, ares_addrinfo* result) {
    std::vector<SocketAddress> addrs;
    if (status == ARES_SUCCESS && result != nullptr) {
      for (ares_addrinfo_node* n = result->nodes; n != nullptr; n = n->ai_next) {
        auto a = socket_address_from_native(n->ai_addr, n->ai_addrlen);
        if (!a) continue;
        if (a->is_v4() && q->families == AddressFamilies::ipv6_only) continue;
        if (!a->is_v4() && q->families == AddressFamilies::ipv4_only) continue;
        a->port = q->port;
        addrs.push_back(*a);
      }
    }
    std::string prefix = "lookup " + q->host;
    if (status == ARES_SUCCESS && addrs.empty()) {
      return make_error(ErrorCode::dns, prefix + ": no suitable address found");
    }
    if (status == ARES_SUCCESS) return addrs;
    // A name no DNS server could hold (a label over 63 bytes, a name over
    // 253): Go's resolver says "no such host" without asking anyone.
    if (status == ARES_ENOTFOUND || status == ARES_ENODATA || status == ARES_EBADNAME) {
      return make_error(ErrorCode::dns, prefix + ": no such host");
    }
    if (status == ARES_ETIMEOUT) return make_error(ErrorCode::dns, prefix + ": i/o timeout");
    return make_error(ErrorCode::dns, prefix + ": " + ares_strerror(status));
  }
};

DnsResolver::DnsResolver(Reactor& reactor) : impl_(std::make_unique<Impl>(reactor)) {}
DnsResolver::~DnsResolver() = default;

void DnsResolver::resolve(const std::string& host, uint16_t port, AddressFamilies families, Callback cb) {
  if (auto literal = SocketAddress::from_ip_literal(host, port)) {
    bool allowed = !((literal->is_v4() && families == AddressFamilies::ipv6_only) ||
                     (!literal->is_v4() && families == AddressFamilies::ipv4_only));
    impl_->reactor.post([cb = std::move(cb), literal = *literal, allowed, host]() {
      deliver(cb, [&]() -> Result<std::vector<SocketAddress>> {
        if (!allowed) return make_error(ErrorCode::dns, "address " + host + ": no suitable address found");
        return std::vector<SocketAddress>{literal};
      });
    });
    return;
  }
  if (!impl_->channel) {
    impl_->reactor.post([cb = std::move(cb), msg = impl_->init_error]() {
      deliver(cb, [&]() -> Result<std::vector<SocketAddress>> {
        return make_error(ErrorCode::dns, "resolver unavailable: " + msg);
      });
    });
    return;
  }
  if (host.empty() || host.size() > 253) {
    impl_->reactor.post([cb = std::move(cb), host]() {
      deliver(cb, [&]() -> Result<std::vector<SocketAddress>> {
        return make_error(ErrorCode::dns, "lookup " + host + ": no such host");
      });
    });
    return;
  }
  ares_addrinfo_hints hints{};
  hints.ai_family = families == AddressFamilies::ipv4_only   ? AF_INET
                    : families == AddressFamilies::ipv6_only ? AF_INET6
                                                             : AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  auto q = std::make_unique<Impl::Query>(Impl::Query{impl_.get(), host, port, families, std::move(cb)});
  // on_result takes ownership back, also when the channel is destroyed.
  ares_getaddrinfo(impl_->channel, host.c_str(), nullptr, &hints, &Impl::on_result, q.release());
  impl_->rearm_timer();
}

std::string cares_library_version() { return ares_version(nullptr); }

}  // namespace tlsc
