// What the POSIX socket files share: SocketAddress -> the OS's sockaddr, and
// opening a socket the way the library wants every socket.
#pragma once

#include <sys/socket.h>

#include "platform/socket_address.h"

namespace tlsc {

socklen_t to_native(const SocketAddress& a, sockaddr_storage& out);

namespace sock {
// A non-blocking socket of the family (type SOCK_STREAM or SOCK_DGRAM), not
// inherited by child processes; -1 and error set on failure.
int open_nonblocking_socket(IpFamily family, int type, int& error);
}  // namespace sock

}  // namespace tlsc
