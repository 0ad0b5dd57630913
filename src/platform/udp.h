// Non-blocking UDP sockets, for QUIC: one socket per connection, connected
// to the server's address, so that the kernel drops datagrams from anyone
// else and an ICMP "port unreachable" comes back as the socket's error.
// Each OS has its own file (posix/udp_posix.cc, win/udp_win.cc).
#pragma once

#include <cstddef>
#include <optional>

#include "platform/socket.h"
#include "platform/socket_address.h"

namespace tlsc::sock {

// A UDP socket of the family, non-blocking and not inherited by child
// processes; kNoSocket (and error set) on failure. connect() (socket.h)
// gives it its peer; for UDP it completes at once.
SocketHandle open_udp(IpFamily family, int& error);

// One whole datagram out, or would_block. A datagram is never split: the
// kernel takes it whole or not at all.
IoResult send_datagram(SocketHandle s, const char* data, size_t size);
// One datagram in (cut to size: QUIC never receives more than it allows,
// max_udp_payload_size); ok with bytes 0 for an empty one, would_block when
// none waits, failed with the error an ICMP message left on the socket.
IoResult recv_datagram(SocketHandle s, char* data, size_t size);

// The address the OS gave the socket (after connect: the source address of
// its datagrams).
std::optional<SocketAddress> local_address(SocketHandle s);

}  // namespace tlsc::sock
