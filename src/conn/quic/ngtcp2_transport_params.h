// A profile's transport parameters in ngtcp2's own terms: the values ngtcp2
// must keep to (its flow-control windows, stream limits, idle timeout,
// datagram size) are the ones the raw bytes sent to the server promise
// (wire/quic_transport_parameters.h writes those bytes).
#pragma once

#include <ngtcp2/ngtcp2.h>

#include "wire/quic_transport_parameters.h"

namespace tlsc {

void apply_transport_parameters(const QuicTransportParametersSpec& spec, ngtcp2_transport_params* params);

}  // namespace tlsc
