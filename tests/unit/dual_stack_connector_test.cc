// DualStackConnector on loopback: Go's fallback delay when the primary
// family hangs, an early fallback when it fails, the primary's error when
// both fail.
#include "net/dual_stack_connector.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>

#include <catch2/catch.hpp>

#include "reactor/reactor.h"

using namespace tlsc;
using namespace std::chrono_literals;

namespace {

// A listening socket on 127.0.0.1 or ::1; returns (fd, port).
std::pair<int, uint16_t> listener(int family, int backlog = 16) {
  int fd = ::socket(family, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);  // portable: macOS has no SOCK_CLOEXEC
  sockaddr_storage ss{};
  socklen_t len;
  if (family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    len = sizeof(sockaddr_in);
  } else {
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_loopback;
    len = sizeof(sockaddr_in6);
  }
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&ss), len) == 0);
  REQUIRE(::listen(fd, backlog) == 0);
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) == 0);
  uint16_t port = family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port)
                                    : ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
  return {fd, port};
}

SocketAddress addr(const char* ip, uint16_t port) {
  auto a = SocketAddress::from_ip_literal(ip, port);
  REQUIRE(a);
  return *a;
}

// A port on which nothing listens.
uint16_t closed_port(int family) {
  auto [fd, port] = listener(family);
  ::close(fd);
  return port;
}

struct Outcome {
  Result<SocketHandle> fd = make_error(ErrorCode::internal, "not run");
  std::chrono::milliseconds elapsed{0};
};

Outcome connect(std::vector<SocketAddress> addrs, std::chrono::milliseconds delay) {
  Reactor reactor;
  std::promise<Outcome> done;
  std::unique_ptr<DualStackConnector> c;
  auto t0 = std::chrono::steady_clock::now();
  reactor.post([&] {
    c = std::make_unique<DualStackConnector>(
        reactor, addrs, std::nullopt,
        [&](Result<SocketHandle> fd) {
          Outcome o;
          o.fd = std::move(fd);
          o.elapsed =
              std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
          done.set_value(std::move(o));
        },
        delay);
    c->start();
  });
  auto f = done.get_future();
  REQUIRE(f.wait_for(10s) == std::future_status::ready);
  Outcome o = f.get();
  std::promise<void> gone;
  reactor.post([&] {
    c.reset();
    gone.set_value();
  });
  gone.get_future().wait();
  return o;
}

int peer_family(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  return ss.ss_family;
}

}  // namespace

TEST_CASE("dual stack: a hanging primary family gives way after the fallback delay", "[net][dualstack]") {
  // A listener with a full accept queue drops further SYNs: connect hangs.
  auto [full, full_port] = listener(AF_INET, 0);
  std::vector<int> fillers;
  for (int i = 0; i < 4; ++i) {
    // Non-blocking as fcntl sets it (macOS has no SOCK_NONBLOCK).
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    ::fcntl(s, F_SETFL, ::fcntl(s, F_GETFL) | O_NONBLOCK);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(full_port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    fillers.push_back(s);
  }
  auto [v6, v6_port] = listener(AF_INET6);
  Outcome o = connect({addr("127.0.0.1", full_port), addr("::1", v6_port)}, 150ms);
  REQUIRE(o.fd.ok());
  CHECK(peer_family(*o.fd) == AF_INET6);
  CHECK(o.elapsed >= 140ms);
  CHECK(o.elapsed < 3000ms);
  ::close(*o.fd);
  for (int s : fillers) ::close(s);
  ::close(full);
  ::close(v6);
}

TEST_CASE("dual stack: a failing primary family falls back at once", "[net][dualstack]") {
  auto [v4, v4_port] = listener(AF_INET);
  Outcome o = connect({addr("::1", closed_port(AF_INET6)), addr("127.0.0.1", v4_port)}, 2000ms);
  REQUIRE(o.fd.ok());
  CHECK(peer_family(*o.fd) == AF_INET);
  CHECK(o.elapsed < 1000ms);
  ::close(*o.fd);
  ::close(v4);
}

TEST_CASE("dual stack: when both fail the primary's error is reported", "[net][dualstack]") {
  uint16_t p4 = closed_port(AF_INET), p6 = closed_port(AF_INET6);
  Outcome o = connect({addr("127.0.0.1", p4), addr("::1", p6)}, 100ms);
  REQUIRE_FALSE(o.fd.ok());
  CHECK(o.fd.error().message == "dial tcp 127.0.0.1:" + std::to_string(p4) + ": connect: connection refused");
  // One family only: TcpConnector's behaviour.
  auto [v4, v4_port] = listener(AF_INET);
  o = connect({addr("127.0.0.1", p4), addr("127.0.0.1", v4_port)}, 100ms);
  REQUIRE(o.fd.ok());
  ::close(*o.fd);
  ::close(v4);
}
