// UDP sockets on Winsock: non-blocking, as on POSIX; the IOCP poller
// (afd_poller.cc) reports their readiness as it does a TCP socket's.
#include <climits>

#include "platform/udp.h"
#include "platform/win/winsock.h"

namespace tlsc::sock {

SocketHandle open_udp(IpFamily family, int& error) {
  return static_cast<SocketHandle>(open_nonblocking_socket(family, SOCK_DGRAM, IPPROTO_UDP, error));
}

IoResult send_datagram(SocketHandle s, const char* data, size_t size) {
  const int n = ::send(static_cast<SOCKET>(s), data, static_cast<int>(size > INT_MAX ? INT_MAX : size), 0);
  if (n >= 0) return {IoResult::ok, static_cast<size_t>(n), 0};
  const int e = WSAGetLastError();
  if (e == WSAEWOULDBLOCK || e == WSAENOBUFS) return {IoResult::would_block, 0, 0};
  return {IoResult::failed, 0, e};
}

IoResult recv_datagram(SocketHandle s, char* data, size_t size) {
  const int n = ::recv(static_cast<SOCKET>(s), data, static_cast<int>(size > INT_MAX ? INT_MAX : size), 0);
  if (n >= 0) return {IoResult::ok, static_cast<size_t>(n), 0};
  const int e = WSAGetLastError();
  if (e == WSAEWOULDBLOCK) return {IoResult::would_block, 0, 0};
  // A datagram longer than the buffer: its first size bytes, as on POSIX.
  if (e == WSAEMSGSIZE) return {IoResult::ok, size, 0};
  // Windows reports an ICMP port unreachable for a connected UDP socket as
  // a reset on the next recv; Linux, as ECONNREFUSED. The same refusal, in
  // the same words (QUIC to a host without it fails at once on both).
  if (e == WSAECONNRESET) return {IoResult::failed, 0, WSAECONNREFUSED};
  return {IoResult::failed, 0, e};
}

std::optional<SocketAddress> local_address(SocketHandle s) {
  sockaddr_storage ss{};
  int len = sizeof ss;
  if (::getsockname(static_cast<SOCKET>(s), reinterpret_cast<sockaddr*>(&ss), &len) != 0) return std::nullopt;
  return socket_address_from_native(&ss, static_cast<size_t>(len));
}

}  // namespace tlsc::sock
