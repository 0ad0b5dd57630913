#include "conn/quic/ngtcp2_transport_params.h"

namespace tlsc {

void apply_transport_parameters(const QuicTransportParametersSpec& spec, ngtcp2_transport_params* p) {
  for (const auto& tp : spec.parameters) {
    if (tp.grease_id || tp.kind != QuicTransportParameter::Kind::varint) continue;
    switch (tp.id) {  // RFC 9000 section 18.2, RFC 9221
      case 0x01:
        p->max_idle_timeout = tp.number * NGTCP2_MILLISECONDS;
        break;
      case 0x03:
        p->max_udp_payload_size = tp.number;
        break;
      case 0x04:
        p->initial_max_data = tp.number;
        break;
      case 0x05:
        p->initial_max_stream_data_bidi_local = tp.number;
        break;
      case 0x06:
        p->initial_max_stream_data_bidi_remote = tp.number;
        break;
      case 0x07:
        p->initial_max_stream_data_uni = tp.number;
        break;
      case 0x08:
        p->initial_max_streams_bidi = tp.number;
        break;
      case 0x09:
        p->initial_max_streams_uni = tp.number;
        break;
      case 0x0a:
        p->ack_delay_exponent = tp.number;
        break;
      case 0x0b:
        p->max_ack_delay = tp.number * NGTCP2_MILLISECONDS;
        break;
      case 0x0e:
        p->active_connection_id_limit = tp.number;
        break;
      case 0x20:
        p->max_datagram_frame_size = tp.number;
        break;
      default:
        break;
    }
  }
}

}  // namespace tlsc
