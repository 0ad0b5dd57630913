#include "wire/quic_transport_parameters.h"

#include <utility>

#include "wire/quic_varint.h"

namespace tlsc {
namespace {

void put_u32(std::string& out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// A number in [0, n) from the caller's draw (n > 0; the bias of a 64-bit
// draw reduced this way is far below what a fingerprint can see).
uint64_t below(const RandomDraw& draw, uint64_t n) { return draw() % n; }

std::string value_of(const QuicTransportParameter& p, std::string_view scid, const RandomDraw& draw) {
  std::string v;
  switch (p.kind) {
    case QuicTransportParameter::Kind::varint:
      append_quic_varint(v, p.number & kMaxQuicVarint);
      break;
    case QuicTransportParameter::Kind::bytes:
      v = p.bytes;
      break;
    case QuicTransportParameter::Kind::initial_source_connection_id:
      v = std::string(scid);
      break;
    case QuicTransportParameter::Kind::version_information: {
      put_u32(v, p.chosen_version);
      std::vector<uint32_t> available;
      for (const auto& version : p.available_versions)
        available.push_back(version ? *version : (static_cast<uint32_t>(draw()) & 0xf0f0f0f0u) | 0x0a0a0a0au);
      if (p.shuffle_available_versions) {
        for (size_t i = available.size(); i > 1; --i) std::swap(available[i - 1], available[below(draw, i)]);
      }
      for (uint32_t version : available) put_u32(v, version);
      break;
    }
    case QuicTransportParameter::Kind::random_bytes: {
      const size_t span = p.max_bytes >= p.min_bytes ? p.max_bytes - p.min_bytes + 1 : 1;
      const size_t n = p.min_bytes + static_cast<size_t>(below(draw, span));
      for (size_t i = 0; i < n; ++i) v.push_back(static_cast<char>(draw()));
      break;
    }
  }
  return v;
}

}  // namespace

bool is_reserved_transport_parameter_id(uint64_t id) { return id >= 27 && (id - 27) % 31 == 0; }

bool is_reserved_quic_version(uint32_t version) { return (version & 0x0f0f0f0fu) == 0x0a0a0a0au; }

std::string encode_quic_transport_parameters(const QuicTransportParametersSpec& spec,
                                             std::string_view initial_source_connection_id,
                                             const RandomDraw& draw) {
  std::vector<const QuicTransportParameter*> order;
  order.reserve(spec.parameters.size());
  for (const auto& p : spec.parameters) order.push_back(&p);
  if (spec.shuffled) {  // Fisher-Yates
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[below(draw, i)]);
  }
  std::string out;
  for (const QuicTransportParameter* p : order) {
    // 31 * N + 27 below 2^62, N drawn.
    const uint64_t id =
        p->grease_id ? 31 * below(draw, (kMaxQuicVarint - 27) / 31) + 27 : p->id & kMaxQuicVarint;
    const std::string value = value_of(*p, initial_source_connection_id, draw);
    append_quic_varint(out, id);
    append_quic_varint(out, value.size());
    out += value;
  }
  return out;
}

}  // namespace tlsc
