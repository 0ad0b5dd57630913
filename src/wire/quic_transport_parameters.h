// The QUIC transport parameters a client puts into its ClientHello
// (extension 57; RFC 9000 section 18), written as a browser writes them:
// the browser's set, values and order, or its set shuffled anew for each
// connection (Chrome), with its GREASE parameter (an id of the reserved
// form 31 * N + 27 and random bytes) and its version_information (RFC 9368)
// with a GREASE version where the browser puts one. ngtcp2 writes only its
// own set in its own order, so the QUIC connection hands these bytes to TLS
// itself. Spec in, bytes out; the randomness comes from the caller.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlsc {

struct QuicTransportParameter {
  enum class Kind {
    varint,                        // value: one variable-length integer
    bytes,                         // value: these bytes
    initial_source_connection_id,  // value: the connection's source connection ID
    version_information,           // value: chosen version, then the available ones
    random_bytes,                  // value: random bytes, their count drawn from [min, max]
  };
  // true: a new id of the reserved form 31 * N + 27 for each connection.
  bool grease_id = false;
  uint64_t id = 0;
  Kind kind = Kind::varint;
  uint64_t number = 0;  // varint's value
  std::string bytes;    // bytes' value
  uint32_t chosen_version = 1;
  // The available versions in order; nullopt: a GREASE version
  // (0x?a?a?a?a, drawn per connection).
  std::vector<std::optional<uint32_t>> available_versions;
  bool shuffle_available_versions = false;
  size_t min_bytes = 0, max_bytes = 0;  // random_bytes' count
};

struct QuicTransportParametersSpec {
  std::vector<QuicTransportParameter> parameters;
  bool shuffled = false;  // a new order for each connection, drawn from this set
};

// A uniformly random 64-bit number for each call.
using RandomDraw = std::function<uint64_t()>;

// Extension 57's body for one connection.
std::string encode_quic_transport_parameters(const QuicTransportParametersSpec& spec,
                                             std::string_view initial_source_connection_id,
                                             const RandomDraw& draw);

// The reserved forms: transport parameter ids 31 * N + 27, versions
// 0x?a?a?a?a.
bool is_reserved_transport_parameter_id(uint64_t id);
bool is_reserved_quic_version(uint32_t version);

}  // namespace tlsc
