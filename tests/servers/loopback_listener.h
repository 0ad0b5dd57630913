// What every test server binary here does to start: listen on 127.0.0.1 on
// a free port, print {"port":N} for itest::ChildServer, and exit when the
// test closes its stdin.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

namespace testserver {

// The listening socket, or -1.
inline int listen_on_loopback_and_announce(int backlog) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(s, backlog) != 0) return -1;
  socklen_t len = sizeof addr;
  getsockname(s, reinterpret_cast<sockaddr*>(&addr), &len);
  std::printf("{\"port\":%d}\n", ntohs(addr.sin_port));
  std::fflush(stdout);
  std::thread([] {  // stdin closed: the test is done with us
    char c;
    while (read(0, &c, 1) > 0) {
    }
    _exit(0);
  })
      .detach();
  return s;
}

}  // namespace testserver
