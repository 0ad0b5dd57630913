// The first frames of a client's HTTP/3 control stream as a browser writes
// them (RFC 9114 section 7.2.4): its SETTINGS with its identifiers in its
// order, a GREASE setting where the browser adds one (an identifier of the
// reserved form 0x1f * N + 0x21 and a random 32-bit value, Chrome), and a
// GREASE frame after it (a reserved frame type and a few random bytes,
// Chrome and Firefox). nghttp3 writes only its own settings in its own
// order, so the HTTP/3 connection hands it these bytes (packaging/nghttp3
// patch 0001). Spec in, bytes out; the randomness comes from the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "wire/quic_transport_parameters.h"

namespace tlsc {

struct H3ControlStreamSpec {
  std::vector<std::pair<uint64_t, uint64_t>> settings;  // (identifier, value) in order
  bool grease_setting = false;        // one more setting, last: reserved identifier, random 32-bit value
  bool grease_frame = false;          // a reserved frame type after SETTINGS
  size_t grease_frame_max_bytes = 3;  // its payload: 0 to this many random bytes
};

// The bytes after the control stream's type: SETTINGS, then the GREASE frame.
std::string encode_h3_control_frames(const H3ControlStreamSpec& spec, const RandomDraw& draw);

// HTTP/3's reserved identifiers and frame types: 0x1f * N + 0x21.
bool is_reserved_h3_code(uint64_t v);

}  // namespace tlsc
