// What a QUIC client's first flight shows of it besides the ClientHello: the
// version, the connection-ID lengths of its Initial packets and its
// transport parameters (wire/quic_transport_parameters.h). A profile's
// http3.quic block (profiles/SCHEMA.md) is read into this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wire/quic_transport_parameters.h"

namespace tlsc {

// The largest UDP payload the client sends, per address family: an Initial
// datagram is padded to it (PADDING frames), and no datagram is larger.
// Browsers size it from one IP packet size, so IPv6's is IPv4's less the
// 20 bytes IPv6's header takes more (Chromium 1250/1230, Firefox
// 1252/1232). 0: ngtcp2's own sizing (Initial datagrams of 1200 bytes,
// path MTU discovery after the handshake).
struct QuicDatagramSize {
  size_t ipv4 = 0;
  size_t ipv6 = 0;
};

struct QuicFingerprint {
  uint32_t version = 1;
  size_t dcid_length = 8;  // the Initial's destination connection ID, drawn per connection
  size_t scid_length = 0;  // the client's source connection ID
  QuicDatagramSize max_datagram_size;
  QuicTransportParametersSpec transport_parameters;
};

}  // namespace tlsc
