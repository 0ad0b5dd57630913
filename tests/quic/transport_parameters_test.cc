// Chromium 156's transport parameters from an ngtcp2 client: the QUIC
// connection hands TLS the bytes the chromium_156 profile's http3.quic block
// describes (wire/quic_transport_parameters.h) in place of ngtcp2's own
// (packaging/ngtcp2/patches/0001: ngtcp2_conn_set_local_transport_params_raw),
// and the Initial it sends, decrypted by the
// capture server's reader, carries the same parameters with the same values
// as every stored Chromium Initial flight (tests/data/browsers/chromium_156/
// quic_initial.jsonl), in a new order per connection, with a GREASE
// parameter and a GREASE version, and Chromium's connection-ID lengths.
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "boringssl/support/tls_harness.h"
#include "profiles/registry.h"
#include "quic/ngtcp2_endpoint.h"
#include "quic/profile_client.h"
#include "servers/quic_initial.h"
#include "wire/quic_transport_parameters.h"

using namespace quictest;

namespace {

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

// A connection's parameters as the comparison reads them: id → value (hex),
// with the GREASE parameter and the GREASE version taken out and counted.
struct Seen {
  std::map<uint64_t, std::string> values;
  std::vector<uint64_t> order;
  int grease_parameters = 0;
  size_t grease_length = 0;
  int grease_versions = 0;
};

Seen seen_from(const std::vector<std::pair<uint64_t, std::string>>& params) {
  Seen s;
  for (const auto& [id, value_hex] : params) {
    s.order.push_back(id);
    if (tlsc::is_reserved_transport_parameter_id(id)) {
      ++s.grease_parameters;
      s.grease_length = value_hex.size() / 2;
      continue;
    }
    std::string v = value_hex;
    if (id == 17) {  // chosen version, then the available ones: GREASE ones written as "grease"
      std::string kept = v.substr(0, 8);
      std::vector<std::string> available;
      for (size_t i = 8; i + 8 <= v.size(); i += 8) {
        const uint32_t version = static_cast<uint32_t>(std::stoul(v.substr(i, 8), nullptr, 16));
        if (tlsc::is_reserved_quic_version(version)) {
          ++s.grease_versions;
        } else {
          available.push_back(v.substr(i, 8));
        }
      }
      for (const auto& a : available) kept += a;
      v = kept;
    }
    s.values[id] = v;
  }
  return s;
}

}  // namespace

TEST_CASE("chromium_156's transport parameters from ngtcp2 are Chromium 156's, shuffled per connection",
          "[quic]") {
  const tlsc::Profile* profile = tlsc::lookup_profile("chromium_156");
  REQUIRE(profile != nullptr);
  REQUIRE(profile->quic.has_value());

  std::vector<Seen> chromium;
  std::ifstream captures(std::string(TLSC_SOURCE_DIR) +
                         "/tests/data/browsers/chromium_156/quic_initial.jsonl");
  for (std::string line; std::getline(captures, line);) {
    if (line.empty()) continue;
    const auto record = nlohmann::json::parse(line);
    std::vector<std::pair<uint64_t, std::string>> params;
    for (const auto& tp : record.at("transport_parameters"))
      params.emplace_back(tp.at("id").get<uint64_t>(), tp.at("hex").get<std::string>());
    chromium.push_back(seen_from(params));
  }
  REQUIRE(chromium.size() >= 8);

  const LoopbackPath loopback;
  bssl::UniquePtr<SSL_CTX> ctx = profile_client_ctx();
  std::mt19937_64 rng(std::random_device{}());
  const tlsc::RandomDraw draw = [&] { return rng(); };

  std::set<std::vector<uint64_t>> orders;
  for (int connection = 0; connection < 8; ++connection) {
    Endpoint client;
    start_profile_client(client, ctx.get(), *profile, loopback.path, draw);
    const FirstFlight flight = read_first_flight(client);
    for (const auto& d : flight.datagrams) {
      CHECK(d.packets[0].dcid.size() == 8);
      CHECK(d.packets[0].scid.empty());
    }
    const auto& hello = flight.client_hello;
    const auto parsed = bssltest::parse_client_hello_body(bssltest::Bytes(hello.begin() + 4, hello.end()));
    const bssltest::Bytes& ext = parsed.body(57);
    const auto tps = quic_initial::transport_parameters(ext.data(), ext.size());
    REQUIRE(tps.has_value());
    std::vector<std::pair<uint64_t, std::string>> ours_raw;
    for (const auto& tp : *tps)
      ours_raw.emplace_back(tp.id, hex(std::string(tp.value.begin(), tp.value.end())));
    const Seen ours = seen_from(ours_raw);
    orders.insert(ours.order);

    CHECK(ours.grease_parameters == 1);
    CHECK(ours.grease_versions == 1);
    for (const Seen& real : chromium) {
      CHECK(ours.values == real.values);  // the same ids with the same values
      CHECK(real.grease_parameters == 1);
      CHECK(real.grease_versions == 1);
    }
    CHECK(ours.grease_length >= 4);
    CHECK(ours.grease_length <= 13);
  }
  CHECK(orders.size() >= 7);  // 13! orders: a repeat among 8 is all but impossible
}
