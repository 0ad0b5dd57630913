#include "net/socket_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <array>
#include <cstring>

namespace tlsc {

std::string SocketAddress::to_string() const {
  std::array<char, INET6_ADDRSTRLEN> buf{};
  if (family() == AF_INET) {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(&storage);
    inet_ntop(AF_INET, &sin->sin_addr, buf.data(), buf.size());
    return std::string(buf.data()) + ":" + std::to_string(ntohs(sin->sin_port));
  }
  if (family() == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&storage);
    inet_ntop(AF_INET6, &sin6->sin6_addr, buf.data(), buf.size());
    // Appended piecewise: GCC 12 at -O3 raises a false -Wrestrict on
    // "literal" + std::string.
    std::string out;
    out.push_back('[');
    out.append(buf.data());
    out.append("]:");
    out.append(std::to_string(ntohs(sin6->sin6_port)));
    return out;
  }
  return "?";
}

bool SocketAddress::from_ip_literal(const std::string& ip, uint16_t port, SocketAddress& out) {
  out = SocketAddress{};
  auto* sin = reinterpret_cast<sockaddr_in*>(&out.storage);
  if (inet_pton(AF_INET, ip.c_str(), &sin->sin_addr) == 1) {
    sin->sin_family = AF_INET;
    sin->sin_port = htons(port);
    out.length = sizeof(sockaddr_in);
    return true;
  }
  auto* sin6 = reinterpret_cast<sockaddr_in6*>(&out.storage);
  if (inet_pton(AF_INET6, ip.c_str(), &sin6->sin6_addr) == 1) {
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(port);
    out.length = sizeof(sockaddr_in6);
    return true;
  }
  return false;
}

void SocketAddress::set_port(uint16_t port) {
  if (family() == AF_INET) reinterpret_cast<sockaddr_in*>(&storage)->sin_port = htons(port);
  if (family() == AF_INET6) reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port = htons(port);
}

}  // namespace tlsc
