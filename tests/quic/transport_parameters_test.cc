// Chromium 156's transport parameters from an ngtcp2 client: the QUIC
// connection hands TLS the bytes the chromium_156 profile's http3.quic block
// describes (wire/quic_transport_parameters.h) in place of ngtcp2's own
// (packaging/ngtcp2/patches/0001: ngtcp2_conn_set_local_transport_params_raw),
// and the Initial it sends, decrypted by the
// capture server's reader, carries the same parameters with the same values
// as every stored Chromium Initial flight (tests/data/browsers/chromium_156/
// quic_initial.jsonl), in a new order per connection, with a GREASE
// parameter and a GREASE version, and Chromium's connection-ID lengths.
#include <arpa/inet.h>
#include <netinet/in.h>

#include <array>
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
#include "servers/quic_initial.h"
#include "wire/quic_transport_parameters.h"

using namespace quictest;

namespace {

// ngtcp2's own view of the same values, so that it keeps to what the
// parameters promise the server.
void apply(const tlsc::QuicTransportParametersSpec& spec, ngtcp2_transport_params* p) {
  for (const auto& tp : spec.parameters) {
    if (tp.grease_id || tp.kind != tlsc::QuicTransportParameter::Kind::varint) continue;
    switch (tp.id) {
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
      case 0x20:
        p->max_datagram_frame_size = tp.number;
        break;
      default:
        break;
    }
  }
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
  const tlsc::QuicFingerprint& quic = *profile->quic;

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

  sockaddr_in local{}, remote{};
  local.sin_family = remote.sin_family = AF_INET;
  local.sin_port = htons(50001);
  remote.sin_port = htons(443);
  local.sin_addr.s_addr = remote.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ngtcp2_path path{{reinterpret_cast<sockaddr*>(&local), sizeof local},
                   {reinterpret_cast<sockaddr*>(&remote), sizeof remote},
                   nullptr};
  bssl::UniquePtr<SSL_CTX> ctx = bssltest::make_client_ctx();
  REQUIRE(ngtcp2_crypto_boringssl_configure_client_context(ctx.get()) == 0);
  std::mt19937_64 rng(std::random_device{}());
  const tlsc::RandomDraw draw = [&] { return rng(); };

  std::set<std::vector<uint64_t>> orders;
  for (int connection = 0; connection < 8; ++connection) {
    Endpoint client;
    client.ref = {conn_of, &client};
    client.ssl.reset(SSL_new(ctx.get()));
    SSL_set_app_data(client.ssl.get(), &client.ref);
    SSL_set_connect_state(client.ssl.get());
    SSL_set_tlsext_host_name(client.ssl.get(), bssltest::kTestHost);
    static const uint8_t kAlpn[] = {2, 'h', '3'};
    REQUIRE(SSL_set_alpn_protos(client.ssl.get(), kAlpn, sizeof kAlpn) == 0);
    const ngtcp2_cid dcid = random_cid(quic.dcid_length), scid = random_cid(quic.scid_length);
    const std::string transport_parameters = tlsc::encode_quic_transport_parameters(
        quic.transport_parameters, std::string(reinterpret_cast<const char*>(scid.data), scid.datalen), draw);
    ngtcp2_settings settings;
    ngtcp2_settings_default(&settings);
    settings.initial_ts = now_ns();
    ngtcp2_transport_params params;
    ngtcp2_transport_params_default(&params);
    apply(quic.transport_parameters, &params);
    ngtcp2_callbacks cb = callbacks(true);
    REQUIRE(ngtcp2_conn_client_new(&client.conn, &dcid, &scid, &path, quic.version, &cb, &settings, &params,
                                   nullptr, &client) == 0);
    ngtcp2_conn_set_tls_native_handle(client.conn, client.ssl.get());
    REQUIRE(ngtcp2_conn_set_local_transport_params_raw(
                client.conn, reinterpret_cast<const uint8_t*>(transport_parameters.data()),
                transport_parameters.size()) == 0);

    quic_initial::ClientInitialReader reader;
    std::array<uint8_t, 1500> buf{};
    for (int datagrams = 0; datagrams < 4 && !reader.client_hello(); ++datagrams) {
      const ngtcp2_ssize n =
          ngtcp2_conn_write_pkt(client.conn, nullptr, nullptr, buf.data(), buf.size(), now_ns());
      REQUIRE(n > 0);
      const quic_initial::Datagram d = reader.read(buf.data(), static_cast<size_t>(n));
      CHECK(d.error.empty());
      REQUIRE_FALSE(d.packets.empty());
      CHECK(d.packets[0].dcid.size() == 8);
      CHECK(d.packets[0].scid.empty());
    }
    const auto hello = reader.client_hello();
    REQUIRE(hello.has_value());
    const auto parsed = bssltest::parse_client_hello_body(bssltest::Bytes(hello->begin() + 4, hello->end()));
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
