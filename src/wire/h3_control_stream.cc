#include "wire/h3_control_stream.h"

#include "wire/quic_varint.h"

namespace tlsc {
namespace {

constexpr uint64_t kSettingsFrame = 0x04;

// 0x1f * N + 0x21 below 2^62, N drawn.
uint64_t reserved_code(const RandomDraw& draw) {
  return 0x1f * (draw() % ((kMaxQuicVarint - 0x21) / 0x1f)) + 0x21;
}

}  // namespace

bool is_reserved_h3_code(uint64_t v) { return v >= 0x21 && (v - 0x21) % 0x1f == 0; }

std::string encode_h3_control_frames(const H3ControlStreamSpec& spec, const RandomDraw& draw) {
  std::string payload;
  for (const auto& [id, value] : spec.settings) {
    append_quic_varint(payload, id);
    append_quic_varint(payload, value);
  }
  if (spec.grease_setting) {
    append_quic_varint(payload, reserved_code(draw));
    append_quic_varint(payload, static_cast<uint32_t>(draw()));
  }
  std::string out;
  append_quic_varint(out, kSettingsFrame);
  append_quic_varint(out, payload.size());
  out += payload;
  if (spec.grease_frame) {
    const size_t n = static_cast<size_t>(draw() % (spec.grease_frame_max_bytes + 1));
    append_quic_varint(out, reserved_code(draw));
    append_quic_varint(out, n);
    for (size_t i = 0; i < n; ++i) out.push_back(static_cast<char>(draw()));
  }
  return out;
}

}  // namespace tlsc
