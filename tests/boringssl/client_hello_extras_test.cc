// Patch 0023: ALPS on code point 17613 or 17513 (the spec chooses),
// record_size_limit (sent, and honoured when the peer answers),
// delegated_credentials (offered with the caller's list; a server that sends
// one is refused cleanly) and compress_certificate in the caller's order.
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/bytestring.h>
#include <openssl/ec_key.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pool.h>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

constexpr uint16_t kAlpsNew = TLSEXT_TYPE_application_settings;      // 17613
constexpr uint16_t kAlpsOld = TLSEXT_TYPE_application_settings_old;  // 17513
constexpr uint16_t kAlpn = TLSEXT_TYPE_application_layer_protocol_negotiation;

void set_alpn(SSL* ssl) {
  static const uint8_t kProtocols[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  REQUIRE(SSL_set_alpn_protos(ssl, kProtocols, sizeof(kProtocols)) == 0);
}

void add_alps(SSL* ssl, const std::string& settings) {
  REQUIRE(SSL_add_application_settings(ssl, reinterpret_cast<const uint8_t*>("h2"), 2,
                                       reinterpret_cast<const uint8_t*>(settings.data()), settings.size()));
}

std::vector<uint16_t> base_order(std::vector<uint16_t> extra) {
  std::vector<uint16_t> order = {
      TLSEXT_TYPE_server_name, TLSEXT_TYPE_supported_groups,       TLSEXT_TYPE_signature_algorithms,
      TLSEXT_TYPE_key_share,   TLSEXT_TYPE_psk_key_exchange_modes, TLSEXT_TYPE_supported_versions};
  order.insert(order.end(), extra.begin(), extra.end());
  return order;
}

void set_order(SSL* ssl, const std::vector<uint16_t>& order) {
  REQUIRE(SSL_set_client_hello_extension_order(ssl, order.data(), order.size(), 0));
}

std::string peer_settings(SSL* ssl) {
  const uint8_t* data;
  size_t len;
  SSL_get0_peer_application_settings(ssl, &data, &len);
  return std::string(reinterpret_cast<const char*>(data), len);
}

// Records of |type| in |stream|.
std::vector<size_t> record_sizes(const Bytes& stream, uint8_t type) {
  std::vector<size_t> out;
  for (const Record& r : parse_records(stream)) {
    if (r.type == type) out.push_back(r.body.size());
  }
  return out;
}

// Test "codecs" for certificate compression: algorithm |id| prepends one byte
// (its id) and otherwise copies. Counters show which one ran.
int g_compressed[4], g_decompressed[4];

template <int kId>
int test_compress(SSL*, CBB* out, const uint8_t* in, size_t in_len) {
  g_compressed[kId]++;
  return CBB_add_u8(out, kId) && CBB_add_bytes(out, in, in_len);
}

template <int kId>
int test_decompress(SSL*, CRYPTO_BUFFER** out, size_t uncompressed_len, const uint8_t* in, size_t in_len) {
  g_decompressed[kId]++;
  if (in_len != uncompressed_len + 1 || in[0] != kId) return 0;
  *out = CRYPTO_BUFFER_new(in + 1, uncompressed_len, nullptr);
  return *out != nullptr;
}

void add_codecs(SSL_CTX* ctx, bool compress, bool decompress, std::vector<uint16_t> ids = {1, 2, 3}) {
  for (uint16_t id : ids) {
    ssl_cert_compression_func_t c = nullptr;
    ssl_cert_decompression_func_t d = nullptr;
    if (id == 1) {
      c = test_compress<1>;
      d = test_decompress<1>;
    } else if (id == 2) {
      c = test_compress<2>;
      d = test_decompress<2>;
    } else {
      c = test_compress<3>;
      d = test_decompress<3>;
    }
    REQUIRE(SSL_CTX_add_cert_compression_alg(ctx, id, compress ? c : nullptr, decompress ? d : nullptr));
  }
}

}  // namespace

TEST_CASE("0023: ALPS goes on the code point the spec lists", "[boringssl][client_hello][0023]") {
  auto ctx = make_client_ctx();
  struct Case {
    const char* name;
    std::vector<uint16_t> order;  // empty: built-in order
    int use_new;                  // -1: not called
    uint16_t expect;
  };
  const Case cases[] = {
      {"spec lists 17613", base_order({kAlpn, kAlpsNew}), -1, kAlpsNew},
      {"spec lists 17513", base_order({kAlpn, kAlpsOld}), -1, kAlpsOld},
      {"spec decides over the flag", base_order({kAlpn, kAlpsOld}), 1, kAlpsOld},
      {"built-in order, default", {}, -1, kAlpsOld},
      {"built-in order, new code point", {}, 1, kAlpsNew},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    MemConn c = make_client(ctx.get());
    set_alpn(c.ssl.get());
    add_alps(c.ssl.get(), "client");
    if (!tc.order.empty()) set_order(c.ssl.get(), tc.order);
    if (tc.use_new >= 0) SSL_set_alps_use_new_codepoint(c.ssl.get(), tc.use_new);
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    const uint16_t other = tc.expect == kAlpsNew ? kAlpsOld : kAlpsNew;
    CHECK(ch.find(other) == nullptr);
    CHECK(protocol_list(ch.body(tc.expect)) == std::vector<std::string>{"h2"});
  }

  SECTION("both code points in one order are refused") {
    bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
    std::vector<uint16_t> order = base_order({kAlpn, kAlpsNew, kAlpsOld});
    CHECK(SSL_set_client_hello_extension_order(ssl.get(), order.data(), order.size(), 0) == 0);
    CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
  }
  SECTION("listed without ALPS configured: refused, not silently dropped") {
    MemConn c = make_client(ctx.get());
    set_alpn(c.ssl.get());
    set_order(c.ssl.get(), base_order({kAlpn, kAlpsNew}));
    CHECK(SSL_do_handshake(c.ssl.get()) != 1);
    CHECK(drain_errors().has_reason(SSL_R_CLIENT_HELLO_SPEC_EXTENSION_NOT_SENT));
  }
}

TEST_CASE("0023: ALPS negotiates on matching code points, both of them", "[boringssl][client_hello][0023]") {
  auto ctx = make_client_ctx();
  auto sctx = make_server_ctx();
  set_server_alpn(sctx.get());
  struct Case {
    uint16_t client;
    bool server_new;
    bool negotiated;
  };
  const Case cases[] = {
      {kAlpsNew, true, true}, {kAlpsOld, false, true}, {kAlpsNew, false, false}, {kAlpsOld, true, false}};
  for (const Case& tc : cases) {
    INFO("client " << tc.client << ", server new: " << tc.server_new);
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_alpn(c.ssl.get());
    add_alps(c.ssl.get(), "client settings");
    set_order(c.ssl.get(), base_order({kAlpn, tc.client}));
    add_alps(s.ssl.get(), "server settings");
    SSL_set_alps_use_new_codepoint(s.ssl.get(), tc.server_new);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_has_application_settings(c.ssl.get()) == tc.negotiated);
    CHECK(SSL_has_application_settings(s.ssl.get()) == tc.negotiated);
    if (tc.negotiated) {
      CHECK(peer_settings(c.ssl.get()) == "server settings");
      CHECK(peer_settings(s.ssl.get()) == "client settings");
    }
    std::string why;
    CHECK(exchange_data(c, s, 1000, &why));
    INFO(why);
  }
}

TEST_CASE("0023: record_size_limit is sent and honoured", "[boringssl][client_hello][0023]") {
  auto ctx = make_client_ctx();
  SECTION("on the wire where listed, with the caller's value") {
    MemConn c = make_client(ctx.get());
    set_order(c.ssl.get(), base_order({TLSEXT_TYPE_record_size_limit, TLSEXT_TYPE_encrypted_client_hello}));
    SSL_set_enable_ech_grease(c.ssl.get(), 1);
    REQUIRE(SSL_set_record_size_limit(c.ssl.get(), 0x4001));
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    std::vector<uint16_t> types = ch.extension_types();
    REQUIRE(types.size() >= 2);
    CHECK(types[types.size() - 2] == TLSEXT_TYPE_record_size_limit);
    CHECK(ch.body(TLSEXT_TYPE_record_size_limit) == Bytes{0x40, 0x01});
  }
  SECTION("limits out of range are refused") {
    bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
    CHECK(SSL_set_record_size_limit(ssl.get(), 63) == 0);
    CHECK(SSL_set_record_size_limit(ssl.get(), 16386) == 0);
    drain_errors();
    CHECK(SSL_set_record_size_limit(ssl.get(), 64) == 1);
    CHECK(SSL_set_record_size_limit(ssl.get(), 0) == 1);
  }

  struct Case {
    const char* name;
    uint16_t version;
    uint16_t client_limit, server_limit;
    size_t max_client_record, max_server_record;  // ciphertext bytes
  };
  // TLS 1.3: ciphertext = plaintext + 1 (type) + 16 (tag), and the limit
  // counts the type byte: limit + 16. TLS 1.2 AES-GCM: plaintext + 8 + 16.
  const Case cases[] = {
      {"TLS 1.3, server answers 256", TLS1_3_VERSION, 0x4001, 256, 256 + 16, 0x4001 + 16},
      {"TLS 1.3, client limit 128 honoured by the server", TLS1_3_VERSION, 128, 0x4001, 0x4000 + 17,
       128 + 16},
      {"TLS 1.2, server answers 512", TLS1_2_VERSION, 0x4000, 512, 512 + 24, 0x4000 + 24},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    auto sctx = make_server_ctx();
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), tc.version));
    REQUIRE(SSL_CTX_set_strict_cipher_list(sctx.get(), "ECDHE-ECDSA-AES128-GCM-SHA256"));
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_order(c.ssl.get(), base_order({TLSEXT_TYPE_record_size_limit, TLSEXT_TYPE_ec_point_formats}));
    REQUIRE(SSL_set_record_size_limit(c.ssl.get(), tc.client_limit));
    REQUIRE(SSL_set_record_size_limit(s.ssl.get(), tc.server_limit));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == tc.version);

    size_t c_before = c.written.size(), s_before = s.written.size();
    std::string why;
    REQUIRE(exchange_data(c, s, 6000, &why));
    Bytes c_out(c.written.begin() + c_before, c.written.end());
    Bytes s_out(s.written.begin() + s_before, s.written.end());
    std::vector<size_t> c_sizes = record_sizes(c_out, 23);
    std::vector<size_t> s_sizes = record_sizes(s_out, 23);
    REQUIRE(!c_sizes.empty());
    REQUIRE(!s_sizes.empty());
    for (size_t n : c_sizes) CHECK(n <= tc.max_client_record);
    for (size_t n : s_sizes) CHECK(n <= tc.max_server_record);
    // The limited side really split its 6000 bytes into small records.
    if (tc.max_client_record < 1000) CHECK(c_sizes.size() >= 6000 / tc.max_client_record);
    if (tc.max_server_record < 1000) CHECK(s_sizes.size() >= 6000 / tc.max_server_record);
    if (tc.version == TLS1_3_VERSION && tc.max_server_record < 1000) {
      // The server's encrypted handshake flight is limited too.
      for (size_t n : record_sizes(s.written, 23)) CHECK(n <= tc.max_server_record);
    }
  }

  SECTION("a server limit below 64 is refused") {
    MemConn c = make_client(ctx.get());
    REQUIRE(SSL_set_max_proto_version(c.ssl.get(), TLS1_2_VERSION));
    set_order(c.ssl.get(), {TLSEXT_TYPE_server_name, TLSEXT_TYPE_supported_groups,
                            TLSEXT_TYPE_signature_algorithms, TLSEXT_TYPE_record_size_limit});
    REQUIRE(SSL_set_record_size_limit(c.ssl.get(), 0x4000));
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    ScriptResult res = feed_client(
        c, server_hello_record(ch, 0xc02b, {ext_u16(TLSEXT_TYPE_record_size_limit, 63)}, false, true));
    INFO(res.error.text);
    CHECK(res.failed);
    CHECK(res.error.has_reason(SSL_R_ERROR_PARSING_EXTENSION));
  }
}

TEST_CASE("0023: delegated_credentials is offered; a server's is refused",
          "[boringssl][client_hello][0023]") {
  auto ctx = make_client_ctx();
  const std::vector<uint16_t> kFirefoxDc = {0x0403, 0x0503, 0x0603, 0x0203};
  const std::vector<uint16_t> order = base_order({TLSEXT_TYPE_delegated_credential});

  SECTION("on the wire") {
    MemConn c = make_client(ctx.get());
    set_order(c.ssl.get(), order);
    REQUIRE(SSL_set_client_hello_delegated_credentials(c.ssl.get(), kFirefoxDc.data(), kFirefoxDc.size()));
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    CHECK(ch.extension_types() == order);
    CHECK(u16_list(ch.body(TLSEXT_TYPE_delegated_credential)) == kFirefoxDc);
  }

  // A BoringSSL server with a delegated credential: a fresh P-256 key under
  // the ECDSA test certificate. (The server does not check the credential's
  // signature, so a dummy one is enough to make it send it.)
  bssl::UniquePtr<EC_KEY> ec(EC_KEY_new_by_curve_name(NID_X9_62_prime256v1));
  REQUIRE(EC_KEY_generate_key(ec.get()));
  bssl::UniquePtr<EVP_PKEY> dc_key(EVP_PKEY_new());
  REQUIRE(EVP_PKEY_set1_EC_KEY(dc_key.get(), ec.get()));
  bssl::ScopedCBB cbb;
  CBB spki, sig;
  REQUIRE(CBB_init(cbb.get(), 256));
  REQUIRE(CBB_add_u32(cbb.get(), 3600));    // valid_time
  REQUIRE(CBB_add_u16(cbb.get(), 0x0403));  // dc_cert_verify_algorithm
  REQUIRE(CBB_add_u24_length_prefixed(cbb.get(), &spki));
  REQUIRE(EVP_marshal_public_key(&spki, dc_key.get()));
  REQUIRE(CBB_add_u16(cbb.get(), 0x0403));  // algorithm
  REQUIRE(CBB_add_u16_length_prefixed(cbb.get(), &sig));
  REQUIRE(CBB_add_bytes(&sig, reinterpret_cast<const uint8_t*>("dummy"), 5));
  REQUIRE(CBB_flush(cbb.get()));
  bssl::UniquePtr<CRYPTO_BUFFER> dc(CRYPTO_BUFFER_new(CBB_data(cbb.get()), CBB_len(cbb.get()), nullptr));
  REQUIRE(dc != nullptr);
  auto sctx = make_server_ctx(KeyType::kEcdsaP256);
  auto set_dc = [&](SSL* ssl) {
    int ok = SSL_set1_delegated_credential(ssl, dc.get(), dc_key.get(), nullptr);
    INFO(drain_errors().text);
    REQUIRE(ok);
  };

  SECTION("a server that sends one fails the handshake cleanly") {
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_dc(s.ssl.get());
    set_order(c.ssl.get(), order);
    REQUIRE(SSL_set_client_hello_delegated_credentials(c.ssl.get(), kFirefoxDc.data(), kFirefoxDc.size()));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    CHECK_FALSE(r.ok);
    CHECK(r.client_error.has_reason(SSL_R_DELEGATED_CREDENTIAL_NOT_SUPPORTED));
    CHECK(SSL_delegated_credential_used(s.ssl.get()));
  }
  SECTION("the same server, not offered one, completes") {
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_dc(s.ssl.get());
    set_order(c.ssl.get(), base_order({}));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    CHECK(r.ok);
  }
  SECTION("offered with a list the credential does not match: completes") {
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_dc(s.ssl.get());
    set_order(c.ssl.get(), order);
    const uint16_t p384_only[] = {0x0503};
    REQUIRE(SSL_set_client_hello_delegated_credentials(c.ssl.get(), p384_only, 1));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    CHECK(r.ok);
  }
}

TEST_CASE("0023: compress_certificate in the caller's order", "[boringssl][client_hello][0023]") {
  auto ctx = make_client_ctx();
  add_codecs(ctx.get(), /*compress=*/false, /*decompress=*/true);
  const std::vector<uint16_t> order = base_order({TLSEXT_TYPE_cert_compression});

  SECTION("on the wire, in the spec's order, not the registration order") {
    for (std::vector<uint16_t> algs :
         {std::vector<uint16_t>{2, 1, 3}, std::vector<uint16_t>{3, 2}, std::vector<uint16_t>{2}}) {
      MemConn c = make_client(ctx.get());
      set_order(c.ssl.get(), order);
      REQUIRE(SSL_set_client_hello_cert_compression_algs(c.ssl.get(), algs.data(), algs.size()));
      ClientHello ch = parse_first_client_hello(client_first_flight(c));
      CHECK(u16_list_u8len(ch.body(TLSEXT_TYPE_cert_compression)) == algs);
    }
  }
  SECTION("each offered algorithm decompresses the server's certificate") {
    auto sctx = make_server_ctx();
    add_codecs(sctx.get(), /*compress=*/true, /*decompress=*/false);
    // The server prefers in its own registration order (1, 2, 3) among what
    // the client offers.
    struct Case {
      std::vector<uint16_t> offer;
      int expect;
    };
    for (const Case& tc : {Case{{3}, 3}, Case{{2, 3}, 2}, Case{{2, 1, 3}, 1}}) {
      memset(g_decompressed, 0, sizeof(g_decompressed));
      MemConn c = make_client(ctx.get());
      MemConn s = make_server(sctx.get());
      set_order(c.ssl.get(), order);
      REQUIRE(SSL_set_client_hello_cert_compression_algs(c.ssl.get(), tc.offer.data(), tc.offer.size()));
      HandshakeResult r = run_handshake(c, s);
      INFO(r.describe());
      REQUIRE(r.ok);
      CHECK(g_decompressed[tc.expect] == 1);
    }
  }
  SECTION("an algorithm the client cannot decompress is never offered") {
    auto only_brotli = make_client_ctx();
    add_codecs(only_brotli.get(), false, true, {2});
    MemConn c = make_client(only_brotli.get());
    set_order(c.ssl.get(), order);
    const uint16_t algs[] = {2, 3};
    REQUIRE(SSL_set_client_hello_cert_compression_algs(c.ssl.get(), algs, 2));
    CHECK(SSL_do_handshake(c.ssl.get()) != 1);
    ErrorInfo e = drain_errors();
    INFO(e.text);
    CHECK(e.has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
    CHECK(c.take_output().empty());
  }
  SECTION("duplicates are refused") {
    bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
    const uint16_t dup[] = {2, 1, 2};
    CHECK(SSL_set_client_hello_cert_compression_algs(ssl.get(), dup, 3) == 0);
    CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
  }
}
