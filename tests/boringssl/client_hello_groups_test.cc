// Patch 0022 (supported_groups and key_share decoupled and caller-chosen,
// signature_algorithms and supported_versions caller-chosen): the lists go on
// the wire as given (GREASE, groups BoringSSL cannot compute, duplicate and
// unknown signature algorithms); any number of key shares in the caller's
// order; a server choosing an unshared or unimplemented group in a
// HelloRetryRequest (or a TLS 1.2 ServerKeyExchange) is refused cleanly;
// only listed, implemented versions and signature algorithms are accepted.
#include <algorithm>
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
constexpr uint16_t kX25519 = SSL_CURVE_X25519;
constexpr uint16_t kP256 = SSL_CURVE_SECP256R1;
constexpr uint16_t kP384 = SSL_CURVE_SECP384R1;
constexpr uint16_t kP521 = SSL_CURVE_SECP521R1;
// X25519Kyber768Draft00: the hybrid this BoringSSL computes. Its share has
// the same size as X25519MLKEM768's (1216 bytes).
constexpr uint16_t kHybrid = SSL_CURVE_X25519KYBER768;
constexpr uint16_t kFfdhe2048 = 0x0100;
constexpr uint16_t kFfdhe3072 = 0x0101;

size_t share_size(uint16_t group) {
  switch (group) {
    case kX25519:
      return 32;
    case kP256:
      return 65;
    case kP384:
      return 97;
    case kP521:
      return 133;
    case kHybrid:
      return 32 + 1184;
  }
  return 1;  // GREASE
}

struct Spec {
  std::vector<uint16_t> groups, shares, sigalgs, versions;
};

void apply(SSL* ssl, const Spec& spec) {
  if (!spec.groups.empty()) REQUIRE(SSL_set_client_hello_groups(ssl, spec.groups.data(), spec.groups.size()));
  if (!spec.shares.empty())
    REQUIRE(SSL_set_client_hello_key_shares(ssl, spec.shares.data(), spec.shares.size()));
  if (!spec.sigalgs.empty())
    REQUIRE(SSL_set_client_hello_signature_algorithms(ssl, spec.sigalgs.data(), spec.sigalgs.size()));
  if (!spec.versions.empty())
    REQUIRE(SSL_set_client_hello_versions(ssl, spec.versions.data(), spec.versions.size()));
}

// |got| equals |want| with each GREASE placeholder in |want| matched by some
// GREASE value in |got|, all of them |grease| if given.
void check_list(const std::vector<uint16_t>& got, const std::vector<uint16_t>& want, uint16_t grease = 0) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); i++) {
    INFO("index " << i);
    if (want[i] == G) {
      CHECK(is_grease(got[i]));
      if (grease != 0) CHECK(got[i] == grease);
    } else {
      CHECK(got[i] == want[i]);
    }
  }
}

// Chrome 133 (u_parrots.go), with the hybrid it can compute here.
const Spec kChrome = {
    {G, kHybrid, kX25519, kP256, kP384},
    {G, kHybrid, kX25519},
    {0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601},
    {G, TLS1_3_VERSION, TLS1_2_VERSION},
};

// Firefox 120 (u_parrots.go): ffdhe offered, two shares, SHA-1 sigalgs.
const Spec kFirefox = {
    {kX25519, kP256, kP384, kP521, kFfdhe2048, kFfdhe3072},
    {kX25519, kP256},
    {0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201},
    {TLS1_3_VERSION, TLS1_2_VERSION},
};

// Safari 17: duplicates (0x0805 twice) and SHA-1 last.
const std::vector<uint16_t> kSafariSigalgs = {0x0403, 0x0804, 0x0401, 0x0503, 0x0203, 0x0805,
                                              0x0805, 0x0501, 0x0806, 0x0601, 0x0201};

ClientHello first_hello(SSL_CTX* ctx, const Spec& spec, MemConn* keep = nullptr) {
  MemConn c = make_client(ctx);
  apply(c.ssl.get(), spec);
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  if (keep != nullptr) *keep = std::move(c);
  return ch;
}

}  // namespace

TEST_CASE(
    "0022: groups, key shares, sigalgs and versions go on the wire as "
    "given",
    "[boringssl][client_hello][0022]") {
  auto ctx = make_client_ctx();
  for (const Spec* spec : {&kChrome, &kFirefox}) {
    ClientHello ch = first_hello(ctx.get(), *spec);
    std::vector<uint16_t> groups = u16_list(ch.body(TLSEXT_TYPE_supported_groups));
    std::vector<KeyShareEntry> ks = key_shares(ch.body(TLSEXT_TYPE_key_share));
    // The GREASE group is the same in supported_groups and key_share.
    uint16_t grease = 0;
    for (uint16_t g : groups) {
      if (is_grease(g)) grease = g;
    }
    check_list(groups, spec->groups, grease);
    REQUIRE(ks.size() == spec->shares.size());
    for (size_t i = 0; i < ks.size(); i++) {
      INFO("share " << i);
      if (spec->shares[i] == G) {
        CHECK(ks[i].group == grease);
        CHECK(ks[i].key_exchange == Bytes{0});
      } else {
        CHECK(ks[i].group == spec->shares[i]);
        CHECK(ks[i].key_exchange.size() == share_size(spec->shares[i]));
      }
    }
    CHECK(u16_list(ch.body(TLSEXT_TYPE_signature_algorithms)) == spec->sigalgs);
    check_list(u16_list_u8len(ch.body(TLSEXT_TYPE_supported_versions)), spec->versions);
  }

  SECTION("Safari's signature algorithms: duplicates and all") {
    Spec safari = {{}, {}, kSafariSigalgs, {}};
    ClientHello ch = first_hello(ctx.get(), safari);
    CHECK(u16_list(ch.body(TLSEXT_TYPE_signature_algorithms)) == kSafariSigalgs);
  }
  SECTION("a GREASE sigalg (patch 0027): fresh per connection, its own value") {
    // Chromium 156: GREASE first, then ML-DSA (unknown here) and the usual.
    Spec chromium = {
        {G, kX25519}, {G, kX25519}, {G, 0x0904, 0x0905, 0x0906, 0x0403, 0x0804, 0x0401}, {G, TLS1_3_VERSION}};
    std::set<uint16_t> seen;
    int same_as_group = 0;
    const int n = 32;
    for (int i = 0; i < n; i++) {
      ClientHello ch = first_hello(ctx.get(), chromium);
      std::vector<uint16_t> sigalgs = u16_list(ch.body(TLSEXT_TYPE_signature_algorithms));
      check_list(sigalgs, chromium.sigalgs);
      seen.insert(sigalgs[0]);
      same_as_group += sigalgs[0] == u16_list(ch.body(TLSEXT_TYPE_supported_groups))[0];
    }
    CHECK(seen.size() > 4);        // chosen per connection
    CHECK(same_as_group < n / 2);  // not the group's GREASE value
  }
  SECTION("any number of shares, in the caller's order") {
    Spec many = {{kP521, kX25519, kP384, kP256, kHybrid}, {kP521, kX25519, G, kP384, kP256, kHybrid}, {}, {}};
    ClientHello ch = first_hello(ctx.get(), many);
    std::vector<KeyShareEntry> ks = key_shares(ch.body(TLSEXT_TYPE_key_share));
    REQUIRE(ks.size() == 6);
    for (size_t i = 0; i < ks.size(); i++) {
      if (many.shares[i] == G) {
        CHECK(is_grease(ks[i].group));
      } else {
        CHECK(ks[i].group == many.shares[i]);
      }
      CHECK(ks[i].key_exchange.size() == share_size(many.shares[i]));
    }
  }
  SECTION("TLS 1.3 only: no TLS 1.2 extensions") {
    Spec v13 = {{}, {}, {}, {G, TLS1_3_VERSION}};
    ClientHello ch = first_hello(ctx.get(), v13);
    CHECK(ch.find(TLSEXT_TYPE_extended_master_secret) == nullptr);
    CHECK(ch.find(TLSEXT_TYPE_renegotiate) == nullptr);
  }
}

TEST_CASE("0022: malformed lists are refused when set", "[boringssl][client_hello][0022]") {
  auto ctx = make_client_ctx();
  bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
  auto refused = [](int ok) {
    ErrorInfo e = drain_errors();
    INFO(e.text);
    CHECK(ok == 0);
    CHECK(e.has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
  };
  const uint16_t ffdhe_share[] = {kX25519, kFfdhe2048};
  refused(SSL_set_client_hello_key_shares(ssl.get(), ffdhe_share, 2));
  const uint16_t dup_share[] = {kX25519, kP256, kX25519};
  refused(SSL_set_client_hello_key_shares(ssl.get(), dup_share, 3));
  const uint16_t two_grease[] = {G, kX25519, 0x2a2a};
  refused(SSL_set_client_hello_key_shares(ssl.get(), two_grease, 3));
  const uint16_t p256kyber[] = {SSL_CURVE_P256KYBER768};
  refused(SSL_set_client_hello_key_shares(ssl.get(), p256kyber, 1));
  const uint16_t only_ffdhe[] = {G, kFfdhe2048, kFfdhe3072};
  refused(SSL_set_client_hello_groups(ssl.get(), only_ffdhe, 3));
  const uint16_t unknown_sigalgs[] = {0x0809, 0x080a, 0xfefe};
  refused(SSL_set_client_hello_signature_algorithms(ssl.get(), unknown_sigalgs, 3));
  const uint16_t no_version[] = {G, 0x7f1c, 0x0300};
  refused(SSL_set_client_hello_versions(ssl.get(), no_version, 3));

  // Empty lists go back to the defaults.
  CHECK(SSL_set_client_hello_groups(ssl.get(), nullptr, 0) == 1);
  CHECK(SSL_set_client_hello_key_shares(ssl.get(), nullptr, 0) == 1);
  CHECK(SSL_set_client_hello_signature_algorithms(ssl.get(), nullptr, 0) == 1);
  CHECK(SSL_set_client_hello_versions(ssl.get(), nullptr, 0) == 1);
}

TEST_CASE("0022: handshakes work with each spec, HelloRetryRequest included",
          "[boringssl][client_hello][0022]") {
  auto ctx = make_client_ctx();
  struct Case {
    const char* name;
    const Spec* spec;
    const char* server_groups;  // nullptr: server default
    uint16_t expect_group;
    bool expect_hrr;
  };
  const Case cases[] = {
      {"Chrome, hybrid share taken", &kChrome, "X25519KYBER:X25519", kHybrid, false},
      {"Chrome, X25519 share taken", &kChrome, "X25519", kX25519, false},
      {"Chrome, HRR to P-384", &kChrome, "P-384", kP384, true},
      {"Firefox, P-256 share taken", &kFirefox, "P-256", kP256, false},
      {"Firefox, HRR to P-521", &kFirefox, "P-521", kP521, true},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    auto sctx = make_server_ctx(KeyType::kRsa2048);
    REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), tc.server_groups));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    apply(c.ssl.get(), *tc.spec);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == TLS1_3_VERSION);
    CHECK(SSL_get_curve_id(c.ssl.get()) == tc.expect_group);
    // The server signed with one of the listed, implemented algorithms.
    uint16_t sigalg = SSL_get_peer_signature_algorithm(c.ssl.get());
    CHECK(std::find(tc.spec->sigalgs.begin(), tc.spec->sigalgs.end(), sigalg) != tc.spec->sigalgs.end());

    Bytes all;
    for (const Bytes& f : r.client_flights) all.insert(all.end(), f.begin(), f.end());
    std::vector<ClientHello> hellos = parse_client_hellos(all);
    REQUIRE(hellos.size() == (tc.expect_hrr ? 2u : 1u));
    if (tc.expect_hrr) {
      // The second ClientHello: same groups (same GREASE), same versions and
      // sigalgs, one share for the group asked for.
      CHECK(hellos[1].body(TLSEXT_TYPE_supported_groups) == hellos[0].body(TLSEXT_TYPE_supported_groups));
      CHECK(hellos[1].body(TLSEXT_TYPE_supported_versions) == hellos[0].body(TLSEXT_TYPE_supported_versions));
      CHECK(hellos[1].body(TLSEXT_TYPE_signature_algorithms) ==
            hellos[0].body(TLSEXT_TYPE_signature_algorithms));
      std::vector<KeyShareEntry> ks = key_shares(hellos[1].body(TLSEXT_TYPE_key_share));
      REQUIRE(ks.size() == 1);
      CHECK(ks[0].group == tc.expect_group);
      CHECK(ks[0].key_exchange.size() == share_size(tc.expect_group));
    }
    std::string why;
    CHECK(exchange_data(c, s, 4000, &why));
    INFO(why);
  }

  SECTION("HelloRetryRequest to the hybrid") {
    auto sctx = make_server_ctx();
    REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), "X25519KYBER"));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    Spec spec = {{G, kX25519, kHybrid}, {G, kX25519}, {}, {}};
    apply(c.ssl.get(), spec);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_get_curve_id(c.ssl.get()) == kHybrid);
  }
  SECTION("TLS 1.2 server, ffdhe offered, ECDHE on a listed curve") {
    auto sctx = make_server_ctx();
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), TLS1_2_VERSION));
    REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), "P-384"));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    apply(c.ssl.get(), kFirefox);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == TLS1_2_VERSION);
    CHECK(SSL_get_curve_id(c.ssl.get()) == kP384);
  }
}

TEST_CASE(
    "0022: a server picking an unshared or unimplemented group is "
    "refused",
    "[boringssl][client_hello][0022]") {
  auto ctx = make_client_ctx();
  struct Case {
    const char* name;
    uint16_t group;  // 0: the GREASE group we sent
    bool hrr;
    int reason;
  };
  const Case cases[] = {
      {"HRR: ffdhe2048, offered but not computable", kFfdhe2048, true,
       SSL_R_SERVER_SELECTED_UNIMPLEMENTED_GROUP},
      {"HRR: P-521, not offered", kP521, true, SSL_R_WRONG_CURVE},
      {"HRR: X25519, already shared", kX25519, true, SSL_R_WRONG_CURVE},
      {"HRR: our GREASE group", 0, true, SSL_R_WRONG_CURVE},
      {"ServerHello: P-384 offered but not shared", kP384, false, SSL_R_WRONG_CURVE},
  };
  Spec spec = {{G, kX25519, kP256, kP384, kFfdhe2048}, {G, kX25519, kP256}, {}, {}};
  for (const Case& tc : cases) {
    INFO(tc.name);
    MemConn c = make_client(ctx.get());
    ClientHello ch = first_hello(ctx.get(), spec, &c);
    uint16_t group = tc.group;
    if (group == 0) group = key_shares(ch.body(TLSEXT_TYPE_key_share))[0].group;
    std::vector<Extension> exts = {ext_u16(TLSEXT_TYPE_supported_versions, 0x0304)};
    if (tc.hrr) {
      exts.push_back(ext_u16(TLSEXT_TYPE_key_share, group));
    } else {
      // A ServerHello key_share: group, then a (bogus) key.
      Extension ks;
      ks.type = TLSEXT_TYPE_key_share;
      ks.body = {static_cast<uint8_t>(group >> 8), static_cast<uint8_t>(group), 0, 97};
      ks.body.resize(4 + 97, 0x04);
      exts.push_back(ks);
    }
    ScriptResult res = feed_client(c, server_hello_record(ch, 0x1301, exts, tc.hrr));
    INFO(res.error.text);
    CHECK(res.failed);
    CHECK(res.error.has_reason(tc.reason));
  }
}

TEST_CASE(
    "0022: TLS 1.2 ServerKeyExchange on an offered ffdhe group is "
    "refused cleanly",
    "[boringssl][client_hello][0022]") {
  auto ctx = make_client_ctx();
  MemConn c = make_client(ctx.get());
  ClientHello ch = first_hello(ctx.get(), kFirefox, &c);
  // ServerHello (TLS 1.2, ECDHE-ECDSA-AES128-GCM), Certificate (the test
  // certificate, which the client trusts), ServerKeyExchange naming ffdhe2048.
  Bytes flight = server_hello_record(ch, 0xc02b, {}, /*hrr=*/false,
                                     /*fresh_session_id=*/true);
  uint8_t* der = nullptr;
  int der_len = i2d_X509(test_cert(KeyType::kEcdsaP256).cert.get(), &der);
  REQUIRE(der_len > 0);
  Bytes cert(der, der + der_len);
  OPENSSL_free(der);
  Bytes cert_msg;
  auto put_u24 = [](Bytes& b, size_t v) {
    b.push_back(static_cast<uint8_t>(v >> 16));
    b.push_back(static_cast<uint8_t>(v >> 8));
    b.push_back(static_cast<uint8_t>(v));
  };
  put_u24(cert_msg, cert.size() + 3);
  put_u24(cert_msg, cert.size());
  cert_msg.insert(cert_msg.end(), cert.begin(), cert.end());
  Bytes rec = handshake_record(11, cert_msg);
  flight.insert(flight.end(), rec.begin(), rec.end());
  Bytes ske = {3 /* named_curve */, kFfdhe2048 >> 8, kFfdhe2048 & 0xff, 1, 0};
  rec = handshake_record(12, ske);
  flight.insert(flight.end(), rec.begin(), rec.end());
  ScriptResult res = feed_client(c, flight);
  INFO(res.error.text);
  CHECK(res.failed);
  CHECK(res.error.has_reason(SSL_R_SERVER_SELECTED_UNIMPLEMENTED_GROUP));
}

TEST_CASE("0022: only listed versions and verifiable sigalgs are accepted",
          "[boringssl][client_hello][0022]") {
  auto ctx = make_client_ctx();
  SECTION("a TLS 1.3-only list refuses a TLS 1.2 server") {
    auto sctx = make_server_ctx();
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), TLS1_2_VERSION));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    Spec spec = {{}, {}, {}, {G, TLS1_3_VERSION}};
    apply(c.ssl.get(), spec);
    HandshakeResult r = run_handshake(c, s);
    CHECK_FALSE(r.ok);
  }
  SECTION("a listed TLS 1.2 works against a TLS 1.2 server") {
    auto sctx = make_server_ctx();
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), TLS1_2_VERSION));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    apply(c.ssl.get(), kChrome);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == TLS1_2_VERSION);
  }
  SECTION("a version not listed, though in range, is refused") {
    MemConn c = make_client(ctx.get());
    Spec spec = {{}, {}, {}, {TLS1_3_VERSION, TLS1_1_VERSION}};
    ClientHello ch = first_hello(ctx.get(), spec, &c);
    // A TLS 1.2 ServerHello (no supported_versions).
    ScriptResult res = feed_client(c, server_hello_record(ch, 0xc02b, {}, false, /*fresh_session_id=*/true));
    INFO(res.error.text);
    CHECK(res.failed);
    CHECK(res.error.has_reason(SSL_R_UNSUPPORTED_PROTOCOL));
  }
  SECTION("the GREASE version is never accepted") {
    MemConn c = make_client(ctx.get());
    ClientHello ch = first_hello(ctx.get(), kChrome, &c);
    uint16_t grease = u16_list_u8len(ch.body(TLSEXT_TYPE_supported_versions)).at(0);
    REQUIRE(is_grease(grease));
    ScriptResult res =
        feed_client(c, server_hello_record(ch, 0x1301, {ext_u16(TLSEXT_TYPE_supported_versions, grease)}));
    CHECK(res.failed);
    CHECK(res.error.has_reason(SSL_R_UNSUPPORTED_PROTOCOL));
  }
  SECTION("an unknown sigalg is sent but never used") {
    // RSA-PSS with PSS keys (0x0809) is not implemented; the RSA server has
    // nothing else in common with this list, so it must fail.
    auto sctx = make_server_ctx(KeyType::kRsa2048);
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    Spec spec = {{}, {}, {0x0809, 0x0403}, {}};
    apply(c.ssl.get(), spec);
    HandshakeResult r = run_handshake(c, s);
    CHECK_FALSE(r.ok);
    CHECK(r.server_error.has_reason(SSL_R_NO_COMMON_SIGNATURE_ALGORITHMS));
  }
  SECTION("a TLS 1.2 server signs with the only listed RSA algorithm") {
    auto sctx = make_server_ctx(KeyType::kRsa2048);
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), TLS1_2_VERSION));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    Spec spec = {{}, {}, {0xfefe, 0x0601, 0x0601, 0x0403}, {}};
    apply(c.ssl.get(), spec);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_get_peer_signature_algorithm(c.ssl.get()) == 0x0601);
  }
}
