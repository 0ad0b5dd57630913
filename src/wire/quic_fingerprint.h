// What a QUIC client's first flight shows of it besides the ClientHello: the
// version, the connection-ID lengths of its Initial packets and its
// transport parameters (wire/quic_transport_parameters.h). A profile's
// http3.quic block (profiles/SCHEMA.md) is read into this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wire/quic_transport_parameters.h"

namespace tlsc {

struct QuicFingerprint {
  uint32_t version = 1;
  size_t dcid_length = 8;  // the Initial's destination connection ID, drawn per connection
  size_t scid_length = 0;  // the client's source connection ID
  QuicTransportParametersSpec transport_parameters;
};

}  // namespace tlsc
