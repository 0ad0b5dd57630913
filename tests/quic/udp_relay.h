// A UDP relay on loopback for QUIC tests: the client talks to the relay's
// port, the relay to the server's, and it drops the client's first N
// datagrams (a lost first flight). One thread; every wait is bounded and
// the thread stops when the relay is destroyed.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>

namespace itest {

class UdpRelay {
 public:
  UdpRelay(uint16_t server_port, int drop_first_client_datagrams) : drop_(drop_first_client_datagrams) {
    client_side_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    server_side_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in any{};
    any.sin_family = AF_INET;
    any.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sockaddr_in server = any;
    server.sin_port = htons(server_port);
    socklen_t len = sizeof any;
    if (client_side_ < 0 || server_side_ < 0 ||
        bind(client_side_, reinterpret_cast<sockaddr*>(&any), len) != 0 ||
        getsockname(client_side_, reinterpret_cast<sockaddr*>(&any), &len) != 0 ||
        connect(server_side_, reinterpret_cast<sockaddr*>(&server), sizeof server) != 0) {
      throw std::runtime_error("udp relay: socket setup failed");
    }
    port_ = ntohs(any.sin_port);
    thread_ = std::thread([this] { run(); });
  }
  ~UdpRelay() {
    stop_ = true;
    thread_.join();
    close(client_side_);
    close(server_side_);
  }
  UdpRelay(const UdpRelay&) = delete;
  UdpRelay& operator=(const UdpRelay&) = delete;

  uint16_t port() const { return port_; }
  int dropped() const { return dropped_; }
  int forwarded() const { return forwarded_; }

 private:
  void run() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    sockaddr_in client{};
    socklen_t client_len = 0;
    char buf[65536];
    while (!stop_ && std::chrono::steady_clock::now() < deadline) {
      pollfd fds[2] = {{client_side_, POLLIN, 0}, {server_side_, POLLIN, 0}};
      if (poll(fds, 2, 50) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        socklen_t len = sizeof client;
        const ssize_t n =
            recvfrom(client_side_, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&client), &len);
        client_len = len;
        if (n > 0 && dropped_ < drop_) {
          ++dropped_;
        } else if (n > 0) {
          ++forwarded_;
          send(server_side_, buf, static_cast<size_t>(n), 0);
        }
      }
      if (fds[1].revents & POLLIN) {
        const ssize_t n = recv(server_side_, buf, sizeof buf, 0);
        if (n > 0 && client_len != 0)
          sendto(client_side_, buf, static_cast<size_t>(n), 0, reinterpret_cast<sockaddr*>(&client),
                 client_len);
      }
    }
  }

  int client_side_ = -1;
  int server_side_ = -1;
  uint16_t port_ = 0;
  const int drop_;
  std::atomic<int> dropped_{0};
  std::atomic<int> forwarded_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace itest
