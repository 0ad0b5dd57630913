// The QUIC ClientHello of chromium_156 and firefox_153 (their profiles'
// http3.quic.tls, applied by tls/spec_apply as the TCP hello is) from an
// ngtcp2 client, read out of its Initial packets by the capture server's
// reader, against the real browsers' Initial flights stored in
// tests/data/browsers/<name>/quic_initial.jsonl: the same JA4 (with QUIC's
// "q"), the same cipher suites in the same order, the same set of
// extensions in a new order per connection (both browsers permute), and
// every extension body that is not drawn per connection equal byte for
// byte; the key shares for the same groups with keys of the same sizes, the
// ECH GREASE of one of the sizes the browser sent. The transport
// parameters (extension 57) have their own test (transport_parameters_test).
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "boringssl/support/client_hello_parser.h"
#include "boringssl/support/tls_harness.h"
#include "profiles/registry.h"
#include "quic/ngtcp2_endpoint.h"
#include "quic/profile_client.h"
#include "servers/hello_fingerprint.h"

using namespace quictest;

namespace {

struct Captured {
  std::string ja4;
  bssltest::ClientHello hello;
};

std::vector<Captured> browser_hellos(const std::string& name) {
  std::vector<Captured> out;
  std::ifstream captures(std::string(TLSC_SOURCE_DIR) + "/tests/data/browsers/" + name +
                         "/quic_initial.jsonl");
  for (std::string line; std::getline(captures, line);) {
    if (line.empty()) continue;
    const auto record = nlohmann::json::parse(line);
    const std::string h = record.at("client_hello_hex").get<std::string>();
    Bytes message;
    for (size_t i = 0; i + 1 < h.size(); i += 2)
      message.push_back(static_cast<uint8_t>(std::stoul(h.substr(i, 2), nullptr, 16)));
    out.push_back({record.at("ja4").get<std::string>(),
                   bssltest::parse_client_hello_body(Bytes(message.begin() + 4, message.end()))});
  }
  return out;
}

std::string ja4_of(const Bytes& message) {
  hello_fp::HelloFields fields;
  REQUIRE(hello_fp::parse_client_hello(message.data(), message.size(), &fields));
  return hello_fp::of(fields, 'q').ja4;
}

std::multiset<uint16_t> type_set(const bssltest::ClientHello& hello) {
  const auto types = hello.extension_types();
  return {types.begin(), types.end()};
}

// Groups and key sizes of a key_share body.
std::vector<std::pair<uint16_t, size_t>> share_shapes(const Bytes& body) {
  std::vector<std::pair<uint16_t, size_t>> out;
  for (const auto& share : bssltest::key_shares(body))
    out.emplace_back(share.group, share.key_exchange.size());
  return out;
}

void compare_with_browser(const std::string& name) {
  const tlsc::Profile* profile = tlsc::lookup_profile(name);
  REQUIRE(profile != nullptr);
  REQUIRE(profile->quic_tls.has_value());
  const std::vector<Captured> browser = browser_hellos(name);
  REQUIRE(browser.size() >= 3);
  std::set<std::string> browser_ja4;
  std::set<size_t> browser_ech_sizes;
  for (const Captured& c : browser) {
    browser_ja4.insert(c.ja4);
    browser_ech_sizes.insert(c.hello.body(65037).size());
  }
  REQUIRE(browser_ja4.size() == 1);  // one browser, one fingerprint
  const bssltest::ClientHello& real = browser.front().hello;

  const LoopbackPath loopback;
  bssl::UniquePtr<SSL_CTX> ctx = profile_client_ctx();
  std::mt19937_64 rng(std::random_device{}());
  const tlsc::RandomDraw draw = [&] { return rng(); };
  std::set<std::vector<uint16_t>> orders;
  for (int connection = 0; connection < 6; ++connection) {
    INFO(name << ", connection " << connection);
    Endpoint client;
    // The captures were made against "localhost": the same name, the same
    // server_name body.
    start_profile_client(client, ctx.get(), *profile, loopback.path, draw, "localhost");
    const FirstFlight flight = read_first_flight(client);
    CHECK(ja4_of(flight.client_hello) == *browser_ja4.begin());
    const auto ours =
        bssltest::parse_client_hello_body(Bytes(flight.client_hello.begin() + 4, flight.client_hello.end()));
    CHECK(ours.cipher_suites == real.cipher_suites);
    CHECK(type_set(ours) == type_set(real));
    orders.insert(ours.extension_types());
    for (const auto& e : real.extensions) {
      INFO("extension " << e.type);
      REQUIRE(ours.find(e.type) != nullptr);
      const Bytes& body = ours.body(e.type);
      if (e.type == 51) {
        CHECK(share_shapes(body) == share_shapes(e.body));
      } else if (e.type == 65037) {
        CHECK(browser_ech_sizes.count(body.size()) == 1);
        CHECK(Bytes(body.begin(), body.begin() + 5) ==
              Bytes(e.body.begin(), e.body.begin() + 5));  // type, KDF, AEAD
      } else if (e.type != 57) {
        CHECK(body == e.body);
      }
    }
  }
  CHECK(orders.size() >= 2);  // permuted per connection, as the browser does
}

}  // namespace

TEST_CASE("chromium_156's QUIC ClientHello is Chromium 156's", "[quic]") {
  compare_with_browser("chromium_156");
}

TEST_CASE("firefox_153's QUIC ClientHello is Firefox ESR 153's", "[quic]") {
  compare_with_browser("firefox_153");
}
