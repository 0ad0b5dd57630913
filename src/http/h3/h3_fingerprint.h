// What an HTTP/3 client shows of itself above QUIC: its control stream's
// first frames (SETTINGS in its order, a GREASE setting, a GREASE frame:
// wire/h3_control_stream.h), the pseudo-header order of its requests and
// whether it sends PRIORITY_UPDATE frames. A profile's "http3" block
// (profiles/h3_block.h) fills it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wire/h3_control_stream.h"

namespace tlsc {

// The PRIORITY_UPDATE frame type for a request stream (RFC 9218), as
// upstream's h3PriorityParam and the captured profiles name it.
inline constexpr uint64_t kH3PriorityUpdateFrame = 0xf0700;

// HTTP/3's setting identifiers the connection acts on besides sending them.
inline constexpr uint64_t kH3QpackMaxTableCapacity = 0x1;
inline constexpr uint64_t kH3MaxFieldSectionSize = 0x6;
inline constexpr uint64_t kH3QpackBlockedStreams = 0x7;
inline constexpr uint64_t kH3EnableConnectProtocol = 0x8;
inline constexpr uint64_t kH3Datagram = 0x33;

struct H3Fingerprint {
  H3ControlStreamSpec control;
  std::vector<std::string> pseudo_header_order;  // empty: :method :scheme :authority :path
  // kH3PriorityUpdateFrame: each request whose `priority` header parses
  // (RFC 9218) is followed by a PRIORITY_UPDATE with it, as Chrome sends;
  // 0: none.
  uint64_t priority_param = 0;
};

}  // namespace tlsc
