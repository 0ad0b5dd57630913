// wire/quic_transport_parameters: the bytes for a fixed order, and for a
// browser's shuffled set with its GREASE parameter and GREASE version,
// read back parameter by parameter.
#include "wire/quic_transport_parameters.h"

#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

using tlsc::QuicTransportParameter;
using tlsc::QuicTransportParametersSpec;
using Kind = QuicTransportParameter::Kind;

namespace {

QuicTransportParameter varint(uint64_t id, uint64_t value) {
  QuicTransportParameter p;
  p.id = id;
  p.number = value;
  return p;
}

uint64_t read_varint(const std::string& s, size_t& pos) {
  REQUIRE(pos < s.size());
  const auto first = static_cast<uint8_t>(s[pos]);
  const size_t len = size_t{1} << (first >> 6);
  REQUIRE(pos + len <= s.size());
  uint64_t v = first & 0x3f;
  for (size_t i = 1; i < len; ++i) v = (v << 8) | static_cast<uint8_t>(s[pos + i]);
  pos += len;
  return v;
}

std::vector<std::pair<uint64_t, std::string>> decode(const std::string& s) {
  std::vector<std::pair<uint64_t, std::string>> out;
  for (size_t pos = 0; pos < s.size();) {
    const uint64_t id = read_varint(s, pos);
    const uint64_t len = read_varint(s, pos);
    REQUIRE(pos + len <= s.size());
    out.emplace_back(id, s.substr(pos, len));
    pos += len;
  }
  return out;
}

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

// Chromium 156's set (tests/data/browsers/chromium_156/quic_initial.jsonl).
QuicTransportParametersSpec chromium_156() {
  QuicTransportParametersSpec spec;
  spec.shuffled = true;
  for (auto [id, v] : std::vector<std::pair<uint64_t, uint64_t>>{{1, 30000},
                                                                 {3, 1472},
                                                                 {4, 15728640},
                                                                 {5, 6291456},
                                                                 {6, 6291456},
                                                                 {7, 6291456},
                                                                 {8, 100},
                                                                 {9, 103},
                                                                 {32, 65536}})
    spec.parameters.push_back(varint(id, v));
  QuicTransportParameter scid;
  scid.id = 15;
  scid.kind = Kind::initial_source_connection_id;
  spec.parameters.push_back(scid);
  QuicTransportParameter versions;
  versions.id = 17;
  versions.kind = Kind::version_information;
  versions.chosen_version = 1;
  versions.available_versions = {1u, std::nullopt};
  versions.shuffle_available_versions = true;
  spec.parameters.push_back(versions);
  QuicTransportParameter options;
  options.id = 0x3128;
  options.kind = Kind::bytes;
  options.bytes = "ORIG";
  spec.parameters.push_back(options);
  QuicTransportParameter grease;
  grease.grease_id = true;
  grease.kind = Kind::random_bytes;
  grease.min_bytes = 0;
  grease.max_bytes = 16;
  spec.parameters.push_back(grease);
  return spec;
}

}  // namespace

TEST_CASE("QUIC transport parameters: a fixed order, every varint length, the connection's source ID",
          "[quic][wire]") {
  QuicTransportParametersSpec spec;
  spec.parameters = {varint(1, 30000), varint(3, 1472), varint(8, 100), varint(9, 3),
                     varint(0x20, (1ull << 62) - 1)};
  QuicTransportParameter scid;
  scid.id = 15;
  scid.kind = Kind::initial_source_connection_id;
  spec.parameters.push_back(scid);
  int draws = 0;
  const std::string out = tlsc::encode_quic_transport_parameters(spec, "\x01\x02\x03", [&] {
    ++draws;
    return uint64_t{0};
  });
  CHECK(hex(out) ==
        "0104"
        "80007530"
        "0302"
        "45c0"
        "0802"
        "4064"
        "0901"
        "03"
        "2008"
        "ffffffffffffffff"
        "0f03"
        "010203");
  CHECK(draws == 0);  // nothing random in a fixed set
}

TEST_CASE("QUIC transport parameters: Chromium's set, shuffled per connection, GREASE id, bytes and version",
          "[quic][wire]") {
  const QuicTransportParametersSpec spec = chromium_156();
  std::mt19937_64 rng(20261205);
  const tlsc::RandomDraw draw = [&] { return rng(); };
  std::set<std::vector<uint64_t>> orders;
  std::set<uint64_t> grease_ids;
  std::set<size_t> grease_lengths;
  std::set<size_t> grease_version_positions;
  for (int connection = 0; connection < 200; ++connection) {
    const auto params = decode(tlsc::encode_quic_transport_parameters(spec, "", draw));
    REQUIRE(params.size() == spec.parameters.size());
    std::vector<uint64_t> order;
    std::map<uint64_t, std::string> by_id;
    for (const auto& [id, value] : params) {
      order.push_back(id);
      if (tlsc::is_reserved_transport_parameter_id(id)) {
        grease_ids.insert(id);
        grease_lengths.insert(value.size());
        CHECK(value.size() <= 16);
      } else {
        CHECK(by_id.emplace(id, value).second);
      }
    }
    orders.insert(order);
    CHECK(by_id.size() == spec.parameters.size() - 1);
    CHECK(hex(by_id.at(1)) == "80007530");
    CHECK(hex(by_id.at(4)) == "80f00000");
    CHECK(hex(by_id.at(9)) == "4067");
    CHECK(by_id.at(15).empty());
    CHECK(by_id.at(0x3128) == "ORIG");
    const std::string& vi = by_id.at(17);
    REQUIRE(vi.size() == 12);
    CHECK(hex(vi.substr(0, 4)) == "00000001");
    const bool v1_first = hex(vi.substr(4, 4)) == "00000001";
    const std::string grease_version = v1_first ? vi.substr(8, 4) : vi.substr(4, 4);
    CHECK(hex(v1_first ? vi.substr(4, 4) : vi.substr(8, 4)) == "00000001");
    uint32_t gv = 0;
    for (unsigned char c : grease_version) gv = (gv << 8) | c;
    CHECK(tlsc::is_reserved_quic_version(gv));
    grease_version_positions.insert(v1_first ? 1 : 0);
  }
  CHECK(orders.size() > 190);  // 13! orders: almost every connection its own
  CHECK(grease_ids.size() > 190);
  CHECK(grease_lengths.size() == 17);  // 0 to 16 bytes
  CHECK(grease_version_positions.size() == 2);
}

TEST_CASE("QUIC transport parameters: the reserved forms", "[quic][wire]") {
  CHECK(tlsc::is_reserved_transport_parameter_id(27));
  CHECK(tlsc::is_reserved_transport_parameter_id(31 * 1000 + 27));
  CHECK_FALSE(tlsc::is_reserved_transport_parameter_id(26));
  CHECK_FALSE(tlsc::is_reserved_transport_parameter_id(0x3128));
  CHECK(tlsc::is_reserved_quic_version(0xeaea4a5a));
  CHECK(tlsc::is_reserved_quic_version(0x0a0a0a0a));
  CHECK_FALSE(tlsc::is_reserved_quic_version(1));
}
