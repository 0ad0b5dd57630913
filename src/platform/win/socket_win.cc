// TCP sockets on Winsock: non-blocking, as on POSIX. The IOCP poller
// (afd_poller.cc) reports their readiness, so send and recv stay the plain
// non-blocking calls and nothing above the platform changes.
#include <climits>
#include <string>

#include "platform/socket.h"
#include "platform/win/winsock.h"

namespace tlsc::sock {

SocketHandle open_tcp(IpFamily family, int& error) {
  return static_cast<SocketHandle>(open_nonblocking_socket(family, SOCK_STREAM, IPPROTO_TCP, error));
}

bool bind(SocketHandle s, const SocketAddress& local, int& error) {
  sockaddr_storage ss;
  int len = to_native(local, ss);
  if (::bind(static_cast<SOCKET>(s), reinterpret_cast<const sockaddr*>(&ss), len) == 0) return true;
  error = WSAGetLastError();
  return false;
}

ConnectStart connect(SocketHandle s, const SocketAddress& peer, int& error) {
  sockaddr_storage ss;
  int len = to_native(peer, ss);
  if (::connect(static_cast<SOCKET>(s), reinterpret_cast<const sockaddr*>(&ss), len) == 0) {
    return ConnectStart::connected;
  }
  int e = WSAGetLastError();
  if (e == WSAEWOULDBLOCK || e == WSAEINPROGRESS) return ConnectStart::in_progress;
  error = e;
  return ConnectStart::failed;
}

int connect_result(SocketHandle s) {
  // The poller reports a finished connect as writable and a failed one as a
  // hang-up; SO_ERROR then holds the failure (0 once connected).
  int err = 0;
  int len = sizeof err;
  if (getsockopt(static_cast<SOCKET>(s), SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&err), &len) != 0) {
    return WSAGetLastError();
  }
  return err;
}

void set_no_delay(SocketHandle s) {
  BOOL one = TRUE;
  setsockopt(static_cast<SOCKET>(s), IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&one),
             sizeof one);
}

IoResult send(SocketHandle s, const char* data, size_t size) {
  int n = ::send(static_cast<SOCKET>(s), data, static_cast<int>(size > INT_MAX ? INT_MAX : size), 0);
  if (n >= 0) return {IoResult::ok, static_cast<size_t>(n), 0};
  int e = WSAGetLastError();
  if (e == WSAEWOULDBLOCK) return {IoResult::would_block, 0, 0};
  return {IoResult::failed, 0, e};
}

IoResult recv(SocketHandle s, char* data, size_t size) {
  int n = ::recv(static_cast<SOCKET>(s), data, static_cast<int>(size > INT_MAX ? INT_MAX : size), 0);
  if (n > 0) return {IoResult::ok, static_cast<size_t>(n), 0};
  if (n == 0) return {IoResult::closed, 0, 0};
  int e = WSAGetLastError();
  if (e == WSAEWOULDBLOCK) return {IoResult::would_block, 0, 0};
  return {IoResult::failed, 0, e};
}

void close(SocketHandle s) {
  if (s != kNoSocket) closesocket(static_cast<SOCKET>(s));
}

std::string error_text(int error) {
  // Go's syscall.Errno.Error on Windows: the system's English message,
  // without the trailing line break ("No connection could be made because
  // the target machine actively refused it.").
  char buf[512];
  DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                           static_cast<DWORD>(error), MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), buf,
                           sizeof buf, nullptr);
  if (n == 0) {
    n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                       static_cast<DWORD>(error), 0, buf, sizeof buf, nullptr);
  }
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) --n;
  if (n == 0) return "winapi error #" + std::to_string(error);
  return std::string(buf, n);
}

const char* connect_call_name() { return "connectex"; }

}  // namespace tlsc::sock
