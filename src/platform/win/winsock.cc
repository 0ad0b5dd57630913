#include "platform/win/winsock.h"

#include <mutex>

namespace tlsc {

bool ensure_winsock() {
  // Never WSACleanup: the library stays loaded for the process's life (as
  // Go's c-shared DLLs do), and other code in the process may use Winsock.
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    WSADATA data;
    ok = WSAStartup(MAKEWORD(2, 2), &data) == 0;
  });
  return ok;
}

uintptr_t open_nonblocking_socket(IpFamily family, int type, int protocol, int& error) {
  if (!ensure_winsock()) {
    error = WSANOTINITIALISED;
    return INVALID_SOCKET;
  }
  SOCKET s = WSASocketW(family == IpFamily::v4 ? AF_INET : AF_INET6, type, protocol, nullptr, 0,
                        WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (s == INVALID_SOCKET) {
    error = WSAGetLastError();
    return INVALID_SOCKET;
  }
  u_long nonblocking = 1;
  if (ioctlsocket(s, FIONBIO, &nonblocking) != 0) {
    error = WSAGetLastError();
    closesocket(s);
    return INVALID_SOCKET;
  }
  return s;
}

}  // namespace tlsc
