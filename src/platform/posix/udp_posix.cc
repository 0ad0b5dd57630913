// UDP sockets on POSIX systems (Linux, macOS).
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>

#include "platform/posix/native_address.h"
#include "platform/udp.h"

namespace tlsc::sock {

SocketHandle open_udp(IpFamily family, int& error) {
  const int fd = open_nonblocking_socket(family, SOCK_DGRAM, error);
  return fd < 0 ? kNoSocket : fd;
}

IoResult send_datagram(SocketHandle s, const char* data, size_t size) {
  for (;;) {
    const ssize_t n = ::send(s, data, size, 0);
    if (n >= 0) return {IoResult::ok, static_cast<size_t>(n), 0};
    if (errno == EINTR) continue;
    // ENOBUFS: the interface's queue is full (Linux drops rather than
    // blocks a UDP socket); as for a full socket buffer, try again later.
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) return {IoResult::would_block, 0, 0};
    return {IoResult::failed, 0, errno};
  }
}

IoResult recv_datagram(SocketHandle s, char* data, size_t size) {
  for (;;) {
    const ssize_t n = ::recv(s, data, size, 0);
    if (n >= 0) return {IoResult::ok, static_cast<size_t>(n), 0};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoResult::would_block, 0, 0};
    return {IoResult::failed, 0, errno};
  }
}

std::optional<SocketAddress> local_address(SocketHandle s) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (::getsockname(s, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return std::nullopt;
  return socket_address_from_native(&ss, len);
}

}  // namespace tlsc::sock
