// A resolved endpoint: what connect() takes, printable as Go prints it.
#pragma once

#include <sys/socket.h>

#include <string>

namespace tlsc {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  int family() const { return storage.ss_family; }
  // "127.0.0.1:80" or "[::1]:80"
  std::string to_string() const;
  static bool from_ip_literal(const std::string& ip, uint16_t port, SocketAddress& out);
  void set_port(uint16_t port);
};

}  // namespace tlsc
