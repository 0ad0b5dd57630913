// Non-blocking TCP sockets, the calls net/ makes of the OS. Each OS has its
// own implementation file (posix/socket_posix.cc; win/ for Winsock); what
// they share is this interface. Errors are OS error numbers, and
// error_text() gives the words Go prints for them ("connection refused").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "platform/socket_address.h"

namespace tlsc {

#ifdef _WIN32
using SocketHandle = uintptr_t;  // SOCKET
inline constexpr SocketHandle kNoSocket = ~uintptr_t{0};
#else
using SocketHandle = int;
inline constexpr SocketHandle kNoSocket = -1;
#endif

namespace sock {

// A TCP socket of the family, non-blocking and not inherited by child
// processes; kNoSocket (and error set) on failure.
SocketHandle open_tcp(IpFamily family, int& error);
bool bind(SocketHandle s, const SocketAddress& local, int& error);

enum class ConnectStart { connected, in_progress, failed };
ConnectStart connect(SocketHandle s, const SocketAddress& peer, int& error);
// After the socket became writable: 0 when connected, kStillConnecting
// while the connect is under way, else the error.
int connect_result(SocketHandle s);
inline constexpr int kStillConnecting = -1;

void set_no_delay(SocketHandle s);

struct IoResult {
  enum Status { ok, would_block, closed, failed } status;
  size_t bytes = 0;  // ok: how many
  int error = 0;     // failed: the OS error
};
// Never raises SIGPIPE.
IoResult send(SocketHandle s, const char* data, size_t size);
IoResult recv(SocketHandle s, char* data, size_t size);

void close(SocketHandle s);

// The system call Go names in a failed dial's text: "connect" on POSIX,
// "connectex" on Windows ("dial tcp 127.0.0.1:1: connectex: ...").
const char* connect_call_name();

// Go's words for an OS error: on POSIX strerror's text with a lower-case
// first letter ("connection refused", "network is unreachable"); on Windows
// the system's English message, as Go prints it.
std::string error_text(int error);

}  // namespace sock
}  // namespace tlsc
