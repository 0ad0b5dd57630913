// UDP sockets on POSIX systems (Linux, macOS).
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "platform/posix/native_address.h"
#include "platform/udp.h"

namespace tlsc::sock {

SocketHandle open_udp(IpFamily family, int& error) {
  const int domain = family == IpFamily::v4 ? AF_INET : AF_INET6;
#ifdef SOCK_NONBLOCK
  const int fd = ::socket(domain, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
  const int fd = ::socket(domain, SOCK_DGRAM, 0);
  if (fd >= 0) {
    const int fl = fcntl(fd, F_GETFL, 0);
    const int fdfl = fcntl(fd, F_GETFD, 0);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 || fdfl < 0 ||
        fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC) != 0) {
      error = errno;
      ::close(fd);
      return kNoSocket;
    }
  }
#endif
  if (fd < 0) {
    error = errno;
    return kNoSocket;
  }
  return fd;
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
