// Winsock for the platform's own Windows code: the headers in the order
// Windows wants them, and the one-time WSAStartup every socket call needs.
#pragma once

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
// clang-format off
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mswsock.h>
#include <windows.h>
// clang-format on

#include "platform/socket_address.h"

namespace tlsc {

// Starts Winsock 2.2 once per process (thread-safe); false if it refused.
bool ensure_winsock();

int to_native(const SocketAddress& a, sockaddr_storage& out);

// A non-blocking socket of the family (type SOCK_STREAM or SOCK_DGRAM), not
// inherited by child processes, as SOCK_NONBLOCK | SOCK_CLOEXEC on Linux;
// INVALID_SOCKET as a SocketHandle (kNoSocket) and error set on failure.
uintptr_t open_nonblocking_socket(IpFamily family, int type, int protocol, int& error);

}  // namespace tlsc
