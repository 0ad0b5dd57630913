// Patch 0024 (ECH GREASE with the caller's candidate cipher suites and
// payload lengths): the GREASE encrypted_client_hello extension names one of
// the caller's HPKE suites and has one of its payload lengths (plus the
// 16-byte tag), picked per connection; the handshake still completes, and a
// second ClientHello after HelloRetryRequest repeats the extension.
#include <set>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/err.h>
#include <openssl/hpke.h>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

// HPKE's HKDF-SHA384 (RFC 9180); this BoringSSL names only HKDF-SHA256, and
// GREASE never computes with it.
constexpr uint16_t kHkdfSha384 = 0x0002;

struct EchGrease {
  uint8_t type = 0xff;
  uint16_t kdf = 0, aead = 0;
  uint8_t config_id = 0;
  Bytes enc;
  size_t payload_len = 0;
};

EchGrease parse_ech(const Bytes& body) {
  EchGrease e;
  Reader r(body);
  e.type = r.u8();
  e.kdf = r.u16();
  e.aead = r.u16();
  e.config_id = r.u8();
  e.enc = r.prefixed(2);
  e.payload_len = r.prefixed(2).size();
  r.expect_empty("encrypted_client_hello");
  return e;
}

EchGrease hello_ech(SSL_CTX* ctx, const std::vector<uint16_t>& suites, const std::vector<uint16_t>& lengths) {
  MemConn c = make_client(ctx);
  SSL_set_enable_ech_grease(c.ssl.get(), 1);
  if (!suites.empty()) {
    REQUIRE(SSL_set_client_hello_ech_grease(c.ssl.get(), suites.data(), suites.size() / 2, lengths.data(),
                                            lengths.size()));
  }
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  return parse_ech(ch.body(TLSEXT_TYPE_encrypted_client_hello));
}

// Firefox (u_parrots.go, HelloFirefox_120).
const std::vector<uint16_t> kFirefoxSuites = {EVP_HPKE_HKDF_SHA256, EVP_HPKE_AES_128_GCM,
                                              EVP_HPKE_HKDF_SHA256, EVP_HPKE_CHACHA20_POLY1305};

}  // namespace

TEST_CASE("0024: ECH GREASE uses the caller's suites and payload lengths",
          "[boringssl][client_hello][0024]") {
  auto ctx = make_client_ctx();
  SECTION("Firefox: two suites, 223 bytes") {
    std::set<uint16_t> aeads;
    for (int i = 0; i < 24; i++) {
      EchGrease e = hello_ech(ctx.get(), kFirefoxSuites, {223});
      CHECK(e.type == 0);  // outer
      CHECK(e.kdf == EVP_HPKE_HKDF_SHA256);
      CHECK(e.enc.size() == 32);
      CHECK(e.payload_len == 223 + 16);
      aeads.insert(e.aead);
    }
    CHECK(aeads == std::set<uint16_t>{EVP_HPKE_AES_128_GCM, EVP_HPKE_CHACHA20_POLY1305});
  }
  SECTION("several lengths, one suite") {
    std::set<size_t> lens;
    for (int i = 0; i < 24; i++) {
      EchGrease e = hello_ech(ctx.get(), {kHkdfSha384, EVP_HPKE_AES_256_GCM}, {128, 160});
      CHECK(e.kdf == kHkdfSha384);
      CHECK(e.aead == EVP_HPKE_AES_256_GCM);
      lens.insert(e.payload_len);
    }
    CHECK(lens == std::set<size_t>{144, 176});
  }
  SECTION("suites without lengths: BoringSSL's lengths") {
    for (int i = 0; i < 8; i++) {
      EchGrease e = hello_ech(ctx.get(), {EVP_HPKE_HKDF_SHA256, EVP_HPKE_AES_128_GCM}, {});
      CHECK(e.payload_len >= 128 + 16);
      CHECK(e.payload_len <= 224 + 16);
      CHECK((e.payload_len - 16) % 32 == 0);
    }
  }
  SECTION("no spec: BoringSSL's GREASE, unchanged") {
    EchGrease e = hello_ech(ctx.get(), {}, {});
    CHECK(e.kdf == EVP_HPKE_HKDF_SHA256);
    CHECK((e.aead == EVP_HPKE_AES_128_GCM || e.aead == EVP_HPKE_CHACHA20_POLY1305));
  }
  SECTION("bad input is refused") {
    bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
    const uint16_t bad_aead[] = {EVP_HPKE_HKDF_SHA256, 0x0004};
    const uint16_t len[] = {223};
    CHECK(SSL_set_client_hello_ech_grease(ssl.get(), bad_aead, 1, len, 1) == 0);
    CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
    const uint16_t zero[] = {0};
    CHECK(SSL_set_client_hello_ech_grease(ssl.get(), kFirefoxSuites.data(), 2, zero, 1) == 0);
    CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
    CHECK(SSL_set_client_hello_ech_grease(ssl.get(), nullptr, 0, nullptr, 0) == 1);
  }
}

TEST_CASE("0024: handshakes with ECH GREASE, HelloRetryRequest included", "[boringssl][client_hello][0024]") {
  auto ctx = make_client_ctx();
  auto sctx = make_server_ctx();
  REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), "P-384"));
  MemConn c = make_client(ctx.get());
  MemConn s = make_server(sctx.get());
  SSL_set_enable_ech_grease(c.ssl.get(), 1);
  const uint16_t len[] = {223};
  REQUIRE(SSL_set_client_hello_ech_grease(c.ssl.get(), kFirefoxSuites.data(), 2, len, 1));
  HandshakeResult r = run_handshake(c, s);
  INFO(r.describe());
  REQUIRE(r.ok);
  Bytes all;
  for (const Bytes& f : r.client_flights) all.insert(all.end(), f.begin(), f.end());
  std::vector<ClientHello> hellos = parse_client_hellos(all);
  REQUIRE(hellos.size() == 2);
  CHECK(hellos[0].body(TLSEXT_TYPE_encrypted_client_hello) ==
        hellos[1].body(TLSEXT_TYPE_encrypted_client_hello));
  CHECK(parse_ech(hellos[1].body(TLSEXT_TYPE_encrypted_client_hello)).payload_len == 239);
  CHECK(SSL_ech_accepted(c.ssl.get()) == 0);
  std::string why;
  CHECK(exchange_data(c, s, 1000, &why));
  INFO(why);
}
