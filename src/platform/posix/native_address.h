// SocketAddress -> the OS's sockaddr, for the platform's own socket code.
#pragma once

#include <sys/socket.h>

#include "platform/socket_address.h"

namespace tlsc {

socklen_t to_native(const SocketAddress& a, sockaddr_storage& out);

}  // namespace tlsc
