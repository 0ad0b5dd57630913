// The whole ClientHello spec (patches 0020-0023, with 0011's X25519MLKEM768)
// for a Chrome 133-like and a Firefox-like client: every field of the
// ClientHello checked on the wire, then full in-memory handshakes against a
// BoringSSL server, HelloRetryRequest and TLS 1.2 included.
//
// The values come from bogdanfinn/utls u_parrots.go (HelloChrome_133 and
// HelloFirefox_120).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/bytestring.h>
#include <openssl/err.h>
#include <openssl/pool.h>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

constexpr uint16_t G = SSL_CLIENT_HELLO_GREASE;
#if defined(SSL_CURVE_X25519MLKEM768)
constexpr uint16_t kHybrid = SSL_CURVE_X25519MLKEM768;  // 0x11ec (patch 0011)
#else
constexpr uint16_t kHybrid = SSL_CURVE_X25519KYBER768;  // same share size
#endif

struct BrowserSpec {
  std::vector<uint16_t> ciphers, extensions, groups, key_shares, sigalgs, versions, cert_compression,
      delegated_credentials;
  bool permute = false;
  uint16_t record_size_limit = 0;
  bool alps = false;
};

const BrowserSpec& chrome133() {
  static const BrowserSpec spec = {
      /*ciphers=*/{G, 0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0xc013, 0xc014,
                   0x009c, 0x009d, 0x002f, 0x0035},
      /*extensions=*/
      {G, 0, 23, 65281, 10, 11, 35, 16, 5, 13, 18, 51, 45, 43, 27, 17613, 65037, G},
      /*groups=*/{G, kHybrid, SSL_CURVE_X25519, SSL_CURVE_SECP256R1, SSL_CURVE_SECP384R1},
      /*key_shares=*/{G, kHybrid, SSL_CURVE_X25519},
      /*sigalgs=*/{0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601},
      /*versions=*/{G, TLS1_3_VERSION, TLS1_2_VERSION},
      /*cert_compression=*/{TLSEXT_cert_compression_brotli},
      /*delegated_credentials=*/{},
      /*permute=*/true,
      /*record_size_limit=*/0,
      /*alps=*/true,
  };
  return spec;
}

const BrowserSpec& firefox() {
  static const BrowserSpec spec = {
      /*ciphers=*/{0x1301, 0x1303, 0x1302, 0xc02b, 0xc02f, 0xcca9, 0xcca8, 0xc02c, 0xc030, 0xc00a, 0xc009,
                   0xc013, 0xc014, 0x009c, 0x009d, 0x002f, 0x0035},
      /*extensions=*/
      {0, 23, 65281, 10, 11, 35, 16, 5, 34, 51, 43, 13, 45, 28, 65037},
      /*groups=*/
      {SSL_CURVE_X25519, SSL_CURVE_SECP256R1, SSL_CURVE_SECP384R1, SSL_CURVE_SECP521R1, 0x0100, 0x0101},
      /*key_shares=*/{SSL_CURVE_X25519, SSL_CURVE_SECP256R1},
      /*sigalgs=*/{0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201},
      /*versions=*/{TLS1_3_VERSION, TLS1_2_VERSION},
      /*cert_compression=*/{},
      /*delegated_credentials=*/{0x0403, 0x0503, 0x0603, 0x0203},
      /*permute=*/false,
      /*record_size_limit=*/0x4001,
      /*alps=*/false,
  };
  return spec;
}

// Certificate "compression" for the tests: id 2 (brotli's id) prepends a
// marker byte. The real codecs are the library's business; what is tested
// here is that the spec's algorithm is offered and used.
int g_decompressions = 0;
int fake_compress(SSL*, CBB* out, const uint8_t* in, size_t in_len) {
  return CBB_add_u8(out, 0xb7) && CBB_add_bytes(out, in, in_len);
}
int fake_decompress(SSL*, CRYPTO_BUFFER** out, size_t uncompressed_len, const uint8_t* in, size_t in_len) {
  g_decompressions++;
  if (in_len != uncompressed_len + 1 || in[0] != 0xb7) return 0;
  *out = CRYPTO_BUFFER_new(in + 1, uncompressed_len, nullptr);
  return *out != nullptr;
}

bssl::UniquePtr<SSL_CTX> browser_ctx() {
  auto ctx = make_client_ctx();
  REQUIRE(
      SSL_CTX_add_cert_compression_alg(ctx.get(), TLSEXT_cert_compression_brotli, nullptr, fake_decompress));
  return ctx;
}

void configure(SSL* ssl, const BrowserSpec& spec) {
  static const uint8_t kAlpn[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  REQUIRE(SSL_set_alpn_protos(ssl, kAlpn, sizeof(kAlpn)) == 0);
  SSL_enable_ocsp_stapling(ssl);
  SSL_enable_signed_cert_timestamps(ssl);
  SSL_set_enable_ech_grease(ssl, 1);
  if (spec.alps) {
    REQUIRE(SSL_add_application_settings(ssl, reinterpret_cast<const uint8_t*>("h2"), 2, nullptr, 0));
  }
  REQUIRE(SSL_set_client_hello_cipher_suites(ssl, spec.ciphers.data(), spec.ciphers.size()));
  REQUIRE(SSL_set_client_hello_extension_order(ssl, spec.extensions.data(), spec.extensions.size(),
                                               spec.permute ? SSL_CLIENT_HELLO_PERMUTE_EXTENSIONS : 0));
  REQUIRE(SSL_set_client_hello_groups(ssl, spec.groups.data(), spec.groups.size()));
  REQUIRE(SSL_set_client_hello_key_shares(ssl, spec.key_shares.data(), spec.key_shares.size()));
  REQUIRE(SSL_set_client_hello_signature_algorithms(ssl, spec.sigalgs.data(), spec.sigalgs.size()));
  REQUIRE(SSL_set_client_hello_versions(ssl, spec.versions.data(), spec.versions.size()));
  REQUIRE(SSL_set_client_hello_cert_compression_algs(ssl, spec.cert_compression.data(),
                                                     spec.cert_compression.size()));
  REQUIRE(SSL_set_client_hello_delegated_credentials(ssl, spec.delegated_credentials.data(),
                                                     spec.delegated_credentials.size()));
  REQUIRE(SSL_set_record_size_limit(ssl, spec.record_size_limit));
}

size_t share_size(uint16_t group) {
  switch (group) {
    case SSL_CURVE_X25519:
      return 32;
    case SSL_CURVE_SECP256R1:
      return 65;
    case SSL_CURVE_SECP384R1:
      return 97;
    case SSL_CURVE_SECP521R1:
      return 133;
    case kHybrid:
      return 1216;
  }
  return 0;
}

// Replaces GREASE values by G, for comparing lists with placeholders.
std::vector<uint16_t> placeholders(std::vector<uint16_t> v) {
  for (uint16_t& x : v) {
    if (is_grease(x)) x = G;
  }
  return v;
}

// Every GREASE value a ClientHello carries, by where it is.
struct GreaseValues {
  uint16_t cipher = 0, ext_first = 0, ext_last = 0, group = 0, share = 0, version = 0;
  bool operator==(const GreaseValues& o) const {
    return cipher == o.cipher && ext_first == o.ext_first && ext_last == o.ext_last && group == o.group &&
           version == o.version;
  }
};

GreaseValues grease_of(const ClientHello& ch) {
  GreaseValues g;
  for (uint16_t c : ch.cipher_suites)
    if (is_grease(c)) g.cipher = c;
  std::vector<uint16_t> types = ch.extension_types();
  for (size_t i = 0; i < types.size(); i++) {
    if (!is_grease(types[i])) continue;
    (g.ext_first == 0 ? g.ext_first : g.ext_last) = types[i];
  }
  for (uint16_t x : u16_list(ch.body(TLSEXT_TYPE_supported_groups)))
    if (is_grease(x)) g.group = x;
  for (const KeyShareEntry& e : key_shares(ch.body(TLSEXT_TYPE_key_share)))
    if (is_grease(e.group)) g.share = e.group;
  for (uint16_t x : u16_list_u8len(ch.body(TLSEXT_TYPE_supported_versions)))
    if (is_grease(x)) g.version = x;
  return g;
}

void check_common_hello(const ClientHello& ch, const BrowserSpec& spec) {
  CHECK(ch.legacy_version == 0x0303);
  CHECK(ch.session_id.size() == 32);
  CHECK(ch.compression_methods == Bytes{0});
  CHECK(placeholders(ch.cipher_suites) == spec.ciphers);
  CHECK(server_name(ch.body(TLSEXT_TYPE_server_name)) == kTestHost);
  CHECK(ch.body(TLSEXT_TYPE_extended_master_secret).empty());
  CHECK(ch.body(TLSEXT_TYPE_renegotiate) == Bytes{0});
  CHECK(placeholders(u16_list(ch.body(TLSEXT_TYPE_supported_groups))) == spec.groups);
  CHECK(ch.body(TLSEXT_TYPE_ec_point_formats) == (Bytes{1, 0}));
  CHECK(ch.body(TLSEXT_TYPE_session_ticket).empty());
  CHECK(protocol_list(ch.body(TLSEXT_TYPE_application_layer_protocol_negotiation)) ==
        (std::vector<std::string>{"h2", "http/1.1"}));
  CHECK(ch.body(TLSEXT_TYPE_status_request) == (Bytes{1, 0, 0, 0, 0}));
  CHECK(u16_list(ch.body(TLSEXT_TYPE_signature_algorithms)) == spec.sigalgs);
  std::vector<KeyShareEntry> ks = key_shares(ch.body(TLSEXT_TYPE_key_share));
  REQUIRE(ks.size() == spec.key_shares.size());
  for (size_t i = 0; i < ks.size(); i++) {
    INFO("key share " << i);
    if (spec.key_shares[i] == G) {
      CHECK(is_grease(ks[i].group));
      CHECK(ks[i].key_exchange == Bytes{0});
    } else {
      CHECK(ks[i].group == spec.key_shares[i]);
      CHECK(ks[i].key_exchange.size() == share_size(spec.key_shares[i]));
    }
  }
  CHECK(placeholders(u16_list_u8len(ch.body(TLSEXT_TYPE_supported_versions))) == spec.versions);
  CHECK(ch.body(TLSEXT_TYPE_psk_key_exchange_modes) == (Bytes{1, 1}));
  // ECH GREASE: an outer ClientHello extension (type byte 0).
  REQUIRE(!ch.body(TLSEXT_TYPE_encrypted_client_hello).empty());
  CHECK(ch.body(TLSEXT_TYPE_encrypted_client_hello)[0] == 0);
  CHECK(ch.find(TLSEXT_TYPE_padding) == nullptr);
  CHECK(ch.find(TLSEXT_TYPE_pre_shared_key) == nullptr);
}

}  // namespace

TEST_CASE("Chrome 133 spec: the ClientHello on the wire", "[boringssl][client_hello][chrome]") {
  auto ctx = browser_ctx();
  const BrowserSpec& spec = chrome133();
  std::set<std::vector<uint16_t>> orders;
  for (int i = 0; i < 8; i++) {
    MemConn c = make_client(ctx.get());
    configure(c.ssl.get(), spec);
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    check_common_hello(ch, spec);

    // The extensions: GREASE first and last, the rest Chrome's set, shuffled.
    std::vector<uint16_t> types = ch.extension_types();
    REQUIRE(types.size() == spec.extensions.size());
    CHECK(is_grease(types.front()));
    CHECK(is_grease(types.back()));
    CHECK(ch.extensions.front().body.empty());
    CHECK(ch.extensions.back().body == Bytes{0});
    std::multiset<uint16_t> got(types.begin() + 1, types.end() - 1);
    std::multiset<uint16_t> want(spec.extensions.begin() + 1, spec.extensions.end() - 1);
    CHECK(got == want);
    orders.insert(types);

    // One GREASE value per list; the group's is the key share's.
    GreaseValues g = grease_of(ch);
    CHECK(is_grease(g.cipher));
    CHECK(is_grease(g.group));
    CHECK(g.share == g.group);
    CHECK(is_grease(g.version));
    CHECK(g.ext_first != g.ext_last);

    CHECK(ch.body(TLSEXT_TYPE_certificate_timestamp).empty());
    CHECK(u16_list_u8len(ch.body(TLSEXT_TYPE_cert_compression)) == spec.cert_compression);
    CHECK(protocol_list(ch.body(TLSEXT_TYPE_application_settings)) == std::vector<std::string>{"h2"});
    CHECK(ch.find(TLSEXT_TYPE_application_settings_old) == nullptr);
    CHECK(ch.find(TLSEXT_TYPE_record_size_limit) == nullptr);
    CHECK(ch.find(TLSEXT_TYPE_delegated_credential) == nullptr);
  }
  CHECK(orders.size() > 1);  // permuted per connection
}

TEST_CASE("Firefox spec: the ClientHello on the wire", "[boringssl][client_hello][firefox]") {
  auto ctx = browser_ctx();
  const BrowserSpec& spec = firefox();
  MemConn c = make_client(ctx.get());
  configure(c.ssl.get(), spec);
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  check_common_hello(ch, spec);
  CHECK(ch.extension_types() == spec.extensions);  // Firefox does not permute
  // No GREASE anywhere.
  GreaseValues g = grease_of(ch);
  CHECK(g.cipher == 0);
  CHECK(g.ext_first == 0);
  CHECK(g.group == 0);
  CHECK(g.version == 0);
  CHECK(u16_list(ch.body(TLSEXT_TYPE_delegated_credential)) == spec.delegated_credentials);
  CHECK(ch.body(TLSEXT_TYPE_record_size_limit) == (Bytes{0x40, 0x01}));
  CHECK(ch.find(TLSEXT_TYPE_certificate_timestamp) == nullptr);
  CHECK(ch.find(TLSEXT_TYPE_cert_compression) == nullptr);
  CHECK(ch.find(TLSEXT_TYPE_application_settings) == nullptr);
  CHECK(ch.find(TLSEXT_TYPE_application_settings_old) == nullptr);
}

TEST_CASE("Browser specs: full handshakes, HelloRetryRequest and TLS 1.2",
          "[boringssl][client_hello][chrome][firefox]") {
  auto ctx = browser_ctx();
  struct Case {
    const char* name;
    const BrowserSpec* spec;
    const char* server_groups;
    uint16_t server_max;
    KeyType key;
    uint16_t expect_group;
    bool expect_hrr;
  };
  const Case cases[] = {
      {"Chrome, hybrid", &chrome133(), nullptr, TLS1_3_VERSION, KeyType::kEcdsaP256, kHybrid, false},
      {"Chrome, HRR to P-256", &chrome133(), "P-256", TLS1_3_VERSION, KeyType::kRsa2048, SSL_CURVE_SECP256R1,
       true},
      {"Chrome, TLS 1.2", &chrome133(), "P-256", TLS1_2_VERSION, KeyType::kRsa2048, SSL_CURVE_SECP256R1,
       false},
      {"Firefox, X25519", &firefox(), "X25519", TLS1_3_VERSION, KeyType::kEcdsaP256, SSL_CURVE_X25519, false},
      {"Firefox, HRR to P-384", &firefox(), "P-384", TLS1_3_VERSION, KeyType::kRsa2048, SSL_CURVE_SECP384R1,
       true},
      {"Firefox, TLS 1.2", &firefox(), "P-521", TLS1_2_VERSION, KeyType::kEcdsaP256, SSL_CURVE_SECP521R1,
       false},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    auto sctx = make_server_ctx(tc.key);
    set_server_alpn(sctx.get());
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), tc.server_max));
    if (tc.server_groups != nullptr) {
      REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), tc.server_groups));
    } else {
      const std::string groups = std::string(SSL_get_curve_name(kHybrid)) + ":X25519";
      REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), groups.c_str()));
    }
    REQUIRE(
        SSL_CTX_add_cert_compression_alg(sctx.get(), TLSEXT_cert_compression_brotli, fake_compress, nullptr));
    SSL_CTX_enable_ocsp_stapling(sctx.get());
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    configure(c.ssl.get(), *tc.spec);
    // The server answers ALPS on the new code point, as Google's do.
    REQUIRE(SSL_add_application_settings(s.ssl.get(), reinterpret_cast<const uint8_t*>("h2"), 2,
                                         reinterpret_cast<const uint8_t*>("settings"), 8));
    SSL_set_alps_use_new_codepoint(s.ssl.get(), 1);
    REQUIRE(SSL_set_record_size_limit(s.ssl.get(), 0x4001));
    g_decompressions = 0;

    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == tc.server_max);
    CHECK(SSL_get_curve_id(c.ssl.get()) == tc.expect_group);
    const uint8_t* proto;
    unsigned proto_len;
    SSL_get0_alpn_selected(c.ssl.get(), &proto, &proto_len);
    CHECK(std::string(reinterpret_cast<const char*>(proto), proto_len) == "h2");
    const bool tls13 = tc.server_max == TLS1_3_VERSION;
    CHECK(SSL_has_application_settings(c.ssl.get()) == (tls13 && tc.spec->alps));
    CHECK(g_decompressions == (tls13 && !tc.spec->cert_compression.empty() ? 1 : 0));
    const SSL_CIPHER* cipher = SSL_get_current_cipher(c.ssl.get());
    REQUIRE(cipher != nullptr);
    CHECK(std::find(tc.spec->ciphers.begin(), tc.spec->ciphers.end(), SSL_CIPHER_get_protocol_id(cipher)) !=
          tc.spec->ciphers.end());

    Bytes all;
    for (const Bytes& f : r.client_flights) all.insert(all.end(), f.begin(), f.end());
    std::vector<ClientHello> hellos = parse_client_hellos(all);
    REQUIRE(hellos.size() == (tc.expect_hrr ? 2u : 1u));
    if (tc.expect_hrr) {
      const ClientHello& h1 = hellos[0];
      const ClientHello& h2 = hellos[1];
      // Same order (same permutation), same GREASE values, same random and
      // session ID, same lists; one key share, for the group asked for.
      CHECK(h1.extension_types() == h2.extension_types());
      CHECK(grease_of(h1) == grease_of(h2));
      CHECK(h1.random == h2.random);
      CHECK(h1.session_id == h2.session_id);
      CHECK(h1.cipher_suites == h2.cipher_suites);
      for (uint16_t type : h1.extension_types()) {
        if (type == TLSEXT_TYPE_key_share || type == TLSEXT_TYPE_encrypted_client_hello) {
          continue;
        }
        INFO("extension " << type);
        CHECK(h1.body(type) == h2.body(type));
      }
      std::vector<KeyShareEntry> ks = key_shares(h2.body(TLSEXT_TYPE_key_share));
      REQUIRE(ks.size() == 1);
      CHECK(ks[0].group == tc.expect_group);
      CHECK(ks[0].key_exchange.size() == share_size(tc.expect_group));
    }
    std::string why;
    CHECK(exchange_data(c, s, 50000, &why));
    INFO(why);
  }
}

namespace {
bssl::UniquePtr<SSL_SESSION> g_session;
int keep_session(SSL*, SSL_SESSION* session) {
  g_session.reset(session);
  return 1;
}
}  // namespace

TEST_CASE("Browser specs: a resumed connection sends pre_shared_key last",
          "[boringssl][client_hello][chrome]") {
  auto ctx = browser_ctx();
  SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_CLIENT);
  SSL_CTX_sess_set_new_cb(ctx.get(), keep_session);
  g_session.reset();
  auto sctx = make_server_ctx();
  set_server_alpn(sctx.get());
  // Chrome's list with pre_shared_key at the end (a *_PSK profile).
  BrowserSpec spec = chrome133();
  spec.extensions.push_back(TLSEXT_TYPE_pre_shared_key);

  MemConn c1 = make_client(ctx.get());
  MemConn s1 = make_server(sctx.get());
  configure(c1.ssl.get(), spec);
  HandshakeResult r1 = run_handshake(c1, s1);
  INFO(r1.describe());
  REQUIRE(r1.ok);
  std::string why;
  REQUIRE(exchange_data(c1, s1, 100, &why));  // reads the tickets
  bssl::UniquePtr<SSL_SESSION> session = std::move(g_session);
  REQUIRE(session != nullptr);
  REQUIRE(SSL_SESSION_is_resumable(session.get()));

  MemConn c2 = make_client(ctx.get());
  MemConn s2 = make_server(sctx.get());
  configure(c2.ssl.get(), spec);
  REQUIRE(SSL_set_session(c2.ssl.get(), session.get()));
  HandshakeResult r2 = run_handshake(c2, s2);
  INFO(r2.describe());
  REQUIRE(r2.ok);
  CHECK(SSL_session_reused(c2.ssl.get()));
  ClientHello ch = parse_first_client_hello(r2.client_flights.at(0));
  std::vector<uint16_t> types = ch.extension_types();
  CHECK(types.back() == TLSEXT_TYPE_pre_shared_key);
  CHECK(is_grease(types[types.size() - 2]));
}
