// Patch 0021 (caller-chosen cipher suite list): the list goes on the wire as
// given, TLS 1.3 suites in the caller's order, GREASE anywhere, code points
// BoringSSL does not implement included; a server choosing an offered but
// unimplemented suite, or one not offered, fails the handshake cleanly; real
// handshakes negotiate from the list.
#include <set>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

constexpr uint16_t G = SSL_CLIENT_HELLO_GREASE;

// Chrome 133 (from bogdanfinn/utls u_parrots.go).
const std::vector<uint16_t> kChromeCiphers = {G,      0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030,
                                              0xcca9, 0xcca8, 0xc013, 0xc014, 0x009c, 0x009d, 0x002f, 0x0035};

// Firefox 120: ChaCha20 before AES-256 in TLS 1.3, CBC ECDSA suites.
const std::vector<uint16_t> kFirefoxCiphers = {0x1301, 0x1303, 0x1302, 0xc02b, 0xc02f, 0xcca9,
                                               0xcca8, 0xc02c, 0xc030, 0xc00a, 0xc009, 0xc013,
                                               0xc014, 0x009c, 0x009d, 0x002f, 0x0035};

constexpr uint16_t kTls13Ccm = 0x1304;   // TLS_AES_128_CCM_SHA256
constexpr uint16_t kEcdsa3Des = 0xc008;  // ECDHE-ECDSA-3DES-EDE-CBC-SHA
constexpr uint16_t kRenegotiationScsv = 0x00ff;

ClientHello hello_with(SSL_CTX* ctx, const std::vector<uint16_t>& ciphers, MemConn* out_conn = nullptr) {
  MemConn c = make_client(ctx);
  REQUIRE(SSL_set_client_hello_cipher_suites(c.ssl.get(), ciphers.data(), ciphers.size()));
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  if (out_conn != nullptr) *out_conn = std::move(c);
  return ch;
}

bool has_alert(const Bytes& client_output) {
  for (const Record& r : parse_records(client_output)) {
    if (r.type == 21) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("0021: the cipher list goes on the wire as given", "[boringssl][client_hello][0021]") {
  auto ctx = make_client_ctx();
  SECTION("Chrome 133") {
    ClientHello ch = hello_with(ctx.get(), kChromeCiphers);
    REQUIRE(ch.cipher_suites.size() == kChromeCiphers.size());
    CHECK(is_grease(ch.cipher_suites[0]));
    CHECK(std::vector<uint16_t>(ch.cipher_suites.begin() + 1, ch.cipher_suites.end()) ==
          std::vector<uint16_t>(kChromeCiphers.begin() + 1, kChromeCiphers.end()));
  }
  SECTION("Firefox: TLS 1.3 suites in its own order, no GREASE") {
    ClientHello ch = hello_with(ctx.get(), kFirefoxCiphers);
    CHECK(ch.cipher_suites == kFirefoxCiphers);
  }
  SECTION("GREASE in the middle, unimplemented code points, SCSV") {
    const std::vector<uint16_t> list = {0x1302, kTls13Ccm, G,      kEcdsa3Des,
                                        0xc02b, 0x000a,    0x0033, kRenegotiationScsv};
    ClientHello ch = hello_with(ctx.get(), list);
    REQUIRE(ch.cipher_suites.size() == list.size());
    for (size_t i = 0; i < list.size(); i++) {
      if (list[i] == G) {
        CHECK(is_grease(ch.cipher_suites[i]));
      } else {
        CHECK(ch.cipher_suites[i] == list[i]);
      }
    }
  }
  SECTION("the GREASE value is this connection's, changing between them") {
    std::set<uint16_t> values;
    for (int i = 0; i < 12; i++) {
      values.insert(hello_with(ctx.get(), kChromeCiphers).cipher_suites[0]);
    }
    CHECK(values.size() > 1);
  }
  SECTION("an empty list goes back to the built-in one; GREASE alone is refused") {
    bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
    CHECK(SSL_set_client_hello_cipher_suites(ssl.get(), nullptr, 0) == 1);
    const uint16_t only_grease[] = {G, 0x1a1a};
    CHECK(SSL_set_client_hello_cipher_suites(ssl.get(), only_grease, 2) == 0);
    CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
  }
}

TEST_CASE(
    "0021: a server choosing an offered but unimplemented suite fails "
    "cleanly",
    "[boringssl][client_hello][0021]") {
  auto ctx = make_client_ctx();
  struct Case {
    const char* name;
    uint16_t max_version;
    uint16_t chosen;
    int reason;
  };
  const std::vector<uint16_t> list = {G, 0x1301, kTls13Ccm, 0xc02b, kEcdsa3Des};
  const Case cases[] = {
      {"TLS 1.3, offered, unimplemented", TLS1_3_VERSION, kTls13Ccm,
       SSL_R_SERVER_SELECTED_UNIMPLEMENTED_CIPHER},
      {"TLS 1.3, not offered", TLS1_3_VERSION, 0x1303, SSL_R_WRONG_CIPHER_RETURNED},
      {"TLS 1.2, offered, unimplemented", TLS1_2_VERSION, kEcdsa3Des,
       SSL_R_SERVER_SELECTED_UNIMPLEMENTED_CIPHER},
      {"TLS 1.2, not offered", TLS1_2_VERSION, 0xc02f, SSL_R_WRONG_CIPHER_RETURNED},
      {"TLS 1.2, a TLS 1.3 suite", TLS1_2_VERSION, 0x1301, SSL_R_WRONG_CIPHER_RETURNED},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    MemConn c = make_client(ctx.get());
    ClientHello ch = hello_with(ctx.get(), list, &c);
    std::vector<Extension> exts;
    if (tc.max_version == TLS1_3_VERSION) {
      exts.push_back(ext_u16(TLSEXT_TYPE_supported_versions, 0x0304));
    }
    ScriptResult res = feed_client(c, server_hello_record(ch, tc.chosen, exts));
    INFO(res.error.text);
    CHECK(res.failed);
    CHECK(res.error.has_reason(tc.reason));
    CHECK(has_alert(res.client_output));
  }
  SECTION("the GREASE value we sent is never a suite") {
    MemConn c = make_client(ctx.get());
    ClientHello ch = hello_with(ctx.get(), list, &c);
    ScriptResult res = feed_client(
        c, server_hello_record(ch, ch.cipher_suites[0], {ext_u16(TLSEXT_TYPE_supported_versions, 0x0304)}));
    CHECK(res.failed);
    CHECK(res.error.has_reason(SSL_R_WRONG_CIPHER_RETURNED));
  }
}

TEST_CASE("0021: real handshakes negotiate from the caller's list", "[boringssl][client_hello][0021]") {
  auto ctx = make_client_ctx();
  struct Case {
    const char* name;
    std::vector<uint16_t> list;
    uint16_t server_max;
    KeyType key;
    uint16_t expect;
  };
  const Case cases[] = {
      {"TLS 1.3 skips the unimplemented CCM suite",
       {G, kTls13Ccm, 0x1302},
       TLS1_3_VERSION,
       KeyType::kEcdsaP256,
       0x1302},
      {"TLS 1.3 ChaCha20 only", {0x1303, G}, TLS1_3_VERSION, KeyType::kEcdsaP256, 0x1303},
      {"TLS 1.2 past 3DES to ECDSA-GCM", {kEcdsa3Des, 0xc02b}, TLS1_2_VERSION, KeyType::kEcdsaP256, 0xc02b},
      {"TLS 1.2 RSA ChaCha20", {G, 0x1301, 0xcca8}, TLS1_2_VERSION, KeyType::kRsa2048, 0xcca8},
      {"TLS 1.2 plain RSA CBC", {0x002f}, TLS1_2_VERSION, KeyType::kRsa2048, 0x002f},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    auto sctx = make_server_ctx(tc.key);
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), tc.server_max));
    REQUIRE(SSL_CTX_set_strict_cipher_list(sctx.get(), "ALL"));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    // The built-in list would not offer this; the spec replaces it.
    REQUIRE(SSL_set_strict_cipher_list(c.ssl.get(), "ECDHE-ECDSA-AES256-GCM-SHA384"));
    REQUIRE(SSL_set_client_hello_cipher_suites(c.ssl.get(), tc.list.data(), tc.list.size()));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    const SSL_CIPHER* cipher = SSL_get_current_cipher(c.ssl.get());
    REQUIRE(cipher != nullptr);
    CHECK(SSL_CIPHER_get_protocol_id(cipher) == tc.expect);
    std::string why;
    CHECK(exchange_data(c, s, 5000, &why));
    INFO(why);
  }
}

TEST_CASE(
    "0021: the renegotiation SCSV lets the server answer "
    "renegotiation_info",
    "[boringssl][client_hello][0021]") {
  auto ctx = make_client_ctx();
  auto sctx = make_server_ctx();
  REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), TLS1_2_VERSION));
  MemConn c = make_client(ctx.get());
  MemConn s = make_server(sctx.get());
  const std::vector<uint16_t> ciphers = {0xc02b, kRenegotiationScsv};
  const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name, TLSEXT_TYPE_supported_groups,
                                       TLSEXT_TYPE_ec_point_formats, TLSEXT_TYPE_signature_algorithms};
  REQUIRE(SSL_set_client_hello_cipher_suites(c.ssl.get(), ciphers.data(), ciphers.size()));
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
  HandshakeResult r = run_handshake(c, s);
  INFO(r.describe());
  REQUIRE(r.ok);
  ClientHello ch = parse_first_client_hello(r.client_flights.at(0));
  CHECK(ch.find(TLSEXT_TYPE_renegotiate) == nullptr);
  CHECK(ch.cipher_suites == ciphers);
}
