// TCP sockets on POSIX systems (Linux, macOS).
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/ascii.h"
#include "platform/posix/native_address.h"
#include "platform/socket.h"

namespace tlsc::sock {
namespace {

#ifdef MSG_NOSIGNAL
constexpr int kSendFlags = MSG_NOSIGNAL;
#else
constexpr int kSendFlags = 0;  // macOS: SO_NOSIGPIPE is set on the socket instead
#endif

[[maybe_unused]] bool make_nonblocking_cloexec(int fd) {
  int fl = fcntl(fd, F_GETFL, 0);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0) return false;
  int fdfl = fcntl(fd, F_GETFD, 0);
  return fdfl >= 0 && fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC) == 0;
}

}  // namespace

int open_nonblocking_socket(IpFamily family, int type, int& error) {
  const int domain = family == IpFamily::v4 ? AF_INET : AF_INET6;
#ifdef SOCK_NONBLOCK
  const int fd = ::socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
  const int fd = ::socket(domain, type, 0);
  if (fd >= 0 && !make_nonblocking_cloexec(fd)) {
    error = errno;
    ::close(fd);
    return -1;
  }
#endif
  if (fd < 0) error = errno;
  return fd;
}

SocketHandle open_tcp(IpFamily family, int& error) {
  const int fd = open_nonblocking_socket(family, SOCK_STREAM, error);
#ifdef SO_NOSIGPIPE
  if (fd >= 0) {
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
  }
#endif
  return fd < 0 ? kNoSocket : fd;
}

bool bind(SocketHandle s, const SocketAddress& local, int& error) {
  sockaddr_storage ss;
  socklen_t len = to_native(local, ss);
  if (::bind(s, reinterpret_cast<const sockaddr*>(&ss), len) == 0) return true;
  error = errno;
  return false;
}

ConnectStart connect(SocketHandle s, const SocketAddress& peer, int& error) {
  sockaddr_storage ss;
  socklen_t len = to_native(peer, ss);
  if (::connect(s, reinterpret_cast<const sockaddr*>(&ss), len) == 0) return ConnectStart::connected;
  if (errno == EINPROGRESS) return ConnectStart::in_progress;
  error = errno;
  return ConnectStart::failed;
}

int connect_result(SocketHandle s) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
  return err == EINPROGRESS ? kStillConnecting : err;
}

void set_no_delay(SocketHandle s) {
  int one = 1;
  setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

IoResult send(SocketHandle s, const char* data, size_t size) {
  for (;;) {
    ssize_t n = ::send(s, data, size, kSendFlags);
    if (n >= 0) return {IoResult::ok, static_cast<size_t>(n), 0};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoResult::would_block, 0, 0};
    return {IoResult::failed, 0, errno};
  }
}

IoResult recv(SocketHandle s, char* data, size_t size) {
  for (;;) {
    ssize_t n = ::recv(s, data, size, 0);
    if (n > 0) return {IoResult::ok, static_cast<size_t>(n), 0};
    if (n == 0) return {IoResult::closed, 0, 0};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoResult::would_block, 0, 0};
    return {IoResult::failed, 0, errno};
  }
}

void close(SocketHandle s) {
  if (s >= 0) ::close(s);
}

std::string error_text(int error) {
  const char* text = std::strerror(error);
  std::string s = text == nullptr ? "error" : text;
  if (!s.empty()) s[0] = ascii_lower(s[0]);
  return s;
}

const char* connect_call_name() { return "connect"; }

}  // namespace tlsc::sock
