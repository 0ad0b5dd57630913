// Patch 0020 (caller-chosen ClientHello extension order): the extensions are
// sent in the spec's order, GREASE and padding where the spec puts them,
// unknown code points from raw bytes, unlisted ones not at all; Chrome-style
// permutation keeps the fixed places; a second ClientHello after a
// HelloRetryRequest keeps the order and GREASE values; and the handshake still
// completes.
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

constexpr uint16_t G = SSL_CLIENT_HELLO_GREASE;
constexpr uint16_t kUnknownExt = 0x3a4b;  // not a code point BoringSSL knows

void set_alpn(SSL* ssl) {
  static const uint8_t kAlpn[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  REQUIRE(SSL_set_alpn_protos(ssl, kAlpn, sizeof(kAlpn)) == 0);
}

std::vector<uint16_t> without_grease(const std::vector<uint16_t>& v) {
  std::vector<uint16_t> out;
  for (uint16_t x : v) {
    if (!is_grease(x)) out.push_back(x);
  }
  return out;
}

const std::vector<uint16_t> kOrder = {
    G,
    TLSEXT_TYPE_server_name,
    TLSEXT_TYPE_extended_master_secret,
    TLSEXT_TYPE_renegotiate,
    TLSEXT_TYPE_supported_groups,
    TLSEXT_TYPE_ec_point_formats,
    TLSEXT_TYPE_session_ticket,
    TLSEXT_TYPE_application_layer_protocol_negotiation,
    TLSEXT_TYPE_signature_algorithms,
    kUnknownExt,
    TLSEXT_TYPE_key_share,
    TLSEXT_TYPE_psk_key_exchange_modes,
    TLSEXT_TYPE_supported_versions,
    G,
};

}  // namespace

TEST_CASE("0020: extensions go in the spec's order, GREASE and raw included",
          "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  MemConn c = make_client(ctx.get());
  set_alpn(c.ssl.get());
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), kOrder.data(), kOrder.size(), 0));
  const uint8_t raw[] = {0x01, 0x02, 0x03};
  REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, raw, sizeof(raw)));

  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  std::vector<uint16_t> types = ch.extension_types();
  REQUIRE(types.size() == kOrder.size());
  REQUIRE(without_grease(types) == without_grease(kOrder));
  // GREASE at both ends: the first empty, the last with one zero byte, and
  // two different values.
  CHECK(is_grease(types.front()));
  CHECK(is_grease(types.back()));
  CHECK(types.front() != types.back());
  CHECK(ch.extensions.front().body.empty());
  CHECK(ch.extensions.back().body == Bytes{0x00});
  CHECK(ch.body(kUnknownExt) == Bytes(raw, raw + sizeof(raw)));
  CHECK(server_name(ch.body(TLSEXT_TYPE_server_name)) == kTestHost);
  // Not listed, so not sent, although BoringSSL would send them.
  CHECK(ch.find(TLSEXT_TYPE_padding) == nullptr);
  // The rest of the hello is BoringSSL's own.
  CHECK(ch.legacy_version == 0x0303);
  CHECK(ch.compression_methods == Bytes{0});
}

TEST_CASE("0020: an extension the spec omits is not sent", "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  MemConn c = make_client(ctx.get());
  const std::vector<uint16_t> order = {TLSEXT_TYPE_supported_versions, TLSEXT_TYPE_key_share,
                                       TLSEXT_TYPE_supported_groups, TLSEXT_TYPE_signature_algorithms,
                                       TLSEXT_TYPE_server_name};
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  CHECK(ch.extension_types() == order);
}

TEST_CASE("0020: a built-in extension body can be replaced", "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  MemConn c = make_client(ctx.get());
  const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name,          TLSEXT_TYPE_ec_point_formats,
                                       TLSEXT_TYPE_supported_groups,     TLSEXT_TYPE_key_share,
                                       TLSEXT_TYPE_signature_algorithms, TLSEXT_TYPE_supported_versions};
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
  // Three point formats (uncompressed, ansiX962_compressed_prime, _char2).
  const uint8_t formats[] = {3, 0, 1, 2};
  REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), TLSEXT_TYPE_ec_point_formats, formats,
                                             sizeof(formats)));
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  CHECK(ch.body(TLSEXT_TYPE_ec_point_formats) == Bytes(formats, formats + sizeof(formats)));

  // And the handshake (TLS 1.2 server, which answers ec_point_formats) works.
  auto sctx = make_server_ctx();
  REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), TLS1_2_VERSION));
  MemConn c2 = make_client(ctx.get());
  MemConn s = make_server(sctx.get());
  REQUIRE(SSL_set_client_hello_extension_order(c2.ssl.get(), order.data(), order.size(), 0));
  REQUIRE(SSL_set_client_hello_raw_extension(c2.ssl.get(), TLSEXT_TYPE_ec_point_formats, formats,
                                             sizeof(formats)));
  HandshakeResult r = run_handshake(c2, s);
  INFO(r.describe());
  REQUIRE(r.ok);
  CHECK(SSL_version(c2.ssl.get()) == TLS1_2_VERSION);
}

TEST_CASE("0020: malformed specs are refused when set", "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
  auto refuse = [&](std::vector<uint16_t> order, uint32_t flags = 0) {
    int ok = SSL_set_client_hello_extension_order(ssl.get(), order.data(), order.size(), flags);
    ErrorInfo e = drain_errors();
    INFO(e.text);
    CHECK(ok == 0);
    CHECK(e.has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
  };
  refuse({TLSEXT_TYPE_server_name, TLSEXT_TYPE_server_name});
  refuse({G, TLSEXT_TYPE_server_name, 0x1a1a, 0x2a2a});
  refuse({TLSEXT_TYPE_pre_shared_key, TLSEXT_TYPE_server_name});
  refuse({TLSEXT_TYPE_early_data, TLSEXT_TYPE_server_name});
  refuse({TLSEXT_TYPE_ech_outer_extensions});
  refuse({TLSEXT_TYPE_server_name}, 0x80);

  const uint8_t body[] = {0};
  for (uint16_t t : {uint16_t{TLSEXT_TYPE_key_share}, uint16_t{TLSEXT_TYPE_pre_shared_key},
                     uint16_t{TLSEXT_TYPE_supported_versions}, uint16_t{TLSEXT_TYPE_padding}, G}) {
    INFO("raw type " << t);
    CHECK(SSL_set_client_hello_raw_extension(ssl.get(), t, body, 1) == 0);
    CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
  }

  // Allowed: two GREASE, pre_shared_key last, early_data with it.
  const std::vector<uint16_t> good = {G, TLSEXT_TYPE_server_name, G, TLSEXT_TYPE_early_data,
                                      TLSEXT_TYPE_pre_shared_key};
  CHECK(SSL_set_client_hello_extension_order(ssl.get(), good.data(), good.size(), 0) == 1);
  // An empty list goes back to the built-in order.
  CHECK(SSL_set_client_hello_extension_order(ssl.get(), nullptr, 0, 0) == 1);
}

TEST_CASE("0020: the handshake fails cleanly if the spec cannot be honoured",
          "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  SECTION("unknown code point without a raw body") {
    MemConn c = make_client(ctx.get());
    const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name, kUnknownExt};
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
    CHECK(SSL_do_handshake(c.ssl.get()) != 1);
    ErrorInfo e = drain_errors();
    INFO(e.text);
    CHECK(e.has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
    CHECK(c.take_output().empty());
  }
  SECTION("a listed built-in extension the SSL is not configured to send") {
    MemConn c = make_client(ctx.get());
    // status_request needs SSL_enable_ocsp_stapling; ALPN needs protocols.
    for (uint16_t missing : {uint16_t{TLSEXT_TYPE_status_request},
                             uint16_t{TLSEXT_TYPE_application_layer_protocol_negotiation}}) {
      MemConn c2 = make_client(ctx.get());
      const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name, missing, TLSEXT_TYPE_key_share};
      REQUIRE(SSL_set_client_hello_extension_order(c2.ssl.get(), order.data(), order.size(), 0));
      CHECK(SSL_do_handshake(c2.ssl.get()) != 1);
      ErrorInfo e = drain_errors();
      INFO(e.text);
      CHECK(e.has_reason(SSL_R_CLIENT_HELLO_SPEC_EXTENSION_NOT_SENT));
      CHECK(e.text.find("extension " + std::to_string(missing)) != std::string::npos);
    }
  }
}

TEST_CASE("0020: padding goes where the spec puts it, by BoringSSL's rule",
          "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  // A raw extension sized so that the hello lands between 256 and 511 bytes.
  const Bytes filler(150, 0x61);
  auto hello_with = [&](const std::vector<uint16_t>& order, size_t fill) {
    MemConn c = make_client(ctx.get());
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
    REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, filler.data(), fill));
    return parse_first_client_hello(client_first_flight(c));
  };

  SECTION("padding last") {
    const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name,
                                         kUnknownExt,
                                         TLSEXT_TYPE_supported_groups,
                                         TLSEXT_TYPE_key_share,
                                         TLSEXT_TYPE_supported_versions,
                                         TLSEXT_TYPE_signature_algorithms,
                                         TLSEXT_TYPE_padding};
    ClientHello ch = hello_with(order, filler.size());
    REQUIRE(ch.find(TLSEXT_TYPE_padding) != nullptr);
    CHECK(ch.extension_types() == order);
    CHECK(ch.body_length + 4 == 512);  // the whole handshake message
    for (uint8_t b : ch.body(TLSEXT_TYPE_padding)) CHECK(b == 0);
  }
  SECTION("padding in the middle: the extensions after it count too") {
    const std::vector<uint16_t> order = {
        TLSEXT_TYPE_server_name,         TLSEXT_TYPE_padding,   kUnknownExt,
        TLSEXT_TYPE_supported_groups,    TLSEXT_TYPE_key_share, TLSEXT_TYPE_supported_versions,
        TLSEXT_TYPE_signature_algorithms};
    ClientHello ch = hello_with(order, filler.size());
    CHECK(ch.extension_types() == order);
    CHECK(ch.body_length + 4 == 512);
  }
  SECTION("no padding outside 256..511 bytes, though listed") {
    const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name,        kUnknownExt,
                                         TLSEXT_TYPE_supported_groups,   TLSEXT_TYPE_key_share,
                                         TLSEXT_TYPE_supported_versions, TLSEXT_TYPE_padding};
    ClientHello small = hello_with(order, 0);
    CHECK(small.body_length + 4 < 256);
    CHECK(small.find(TLSEXT_TYPE_padding) == nullptr);
    const Bytes big_filler(600, 0x62);
    MemConn c = make_client(ctx.get());
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
    REQUIRE(
        SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, big_filler.data(), big_filler.size()));
    ClientHello big = parse_first_client_hello(client_first_flight(c));
    CHECK(big.body_length + 4 > 512);
    CHECK(big.find(TLSEXT_TYPE_padding) == nullptr);
  }
}

TEST_CASE("0020: Chrome-style permutation keeps the fixed places", "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  std::vector<uint16_t> order = kOrder;
  order.insert(order.end() - 1, TLSEXT_TYPE_padding);
  std::set<std::vector<uint16_t>> seen;
  for (int i = 0; i < 16; i++) {
    MemConn c = make_client(ctx.get());
    set_alpn(c.ssl.get());
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(),
                                                 SSL_CLIENT_HELLO_PERMUTE_EXTENSIONS));
    const uint8_t raw[] = {9};
    REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, raw, 1));
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    std::vector<uint16_t> types = ch.extension_types();
    // GREASE first and last; the rest the same set as listed.
    REQUIRE(is_grease(types.front()));
    REQUIRE(is_grease(types.back()));
    std::vector<uint16_t> middle(types.begin() + 1, types.end() - 1);
    std::multiset<uint16_t> got(middle.begin(), middle.end());
    std::multiset<uint16_t> want(order.begin() + 1, order.end() - 1);
    // Padding is only present if the hello needs it.
    want.erase(TLSEXT_TYPE_padding);
    got.erase(TLSEXT_TYPE_padding);
    CHECK(got == want);
    seen.insert(middle);
  }
  // 12 movable extensions: 16 identical shuffles would be a broken shuffle.
  CHECK(seen.size() > 1);
}

TEST_CASE("0020: after HelloRetryRequest the order and GREASE values are kept",
          "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  auto sctx = make_server_ctx();
  // The server only takes P-384, which the client does not send a share for.
  REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), "P-384"));
  for (int i = 0; i < 4; i++) {
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_alpn(c.ssl.get());
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), kOrder.data(), kOrder.size(),
                                                 SSL_CLIENT_HELLO_PERMUTE_EXTENSIONS));
    const uint8_t raw[] = {7, 7};
    REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, raw, 2));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_get_curve_id(c.ssl.get()) == SSL_CURVE_SECP384R1);

    Bytes all;
    for (const Bytes& f : r.client_flights) all.insert(all.end(), f.begin(), f.end());
    std::vector<ClientHello> hellos = parse_client_hellos(all);
    REQUIRE(hellos.size() == 2);
    CHECK(hellos[0].extension_types() == hellos[1].extension_types());
    CHECK(hellos[0].body(kUnknownExt) == hellos[1].body(kUnknownExt));
    std::vector<KeyShareEntry> ks = key_shares(hellos[1].body(TLSEXT_TYPE_key_share));
    REQUIRE(ks.size() == 1);
    CHECK(ks[0].group == SSL_CURVE_SECP384R1);
    CHECK(hellos[0].random == hellos[1].random);

    std::string why;
    CHECK(exchange_data(c, s, 3000, &why));
    INFO(why);
  }
}

TEST_CASE("0020: a server answering an extension we sent raw is refused", "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  MemConn c = make_client(ctx.get());
  REQUIRE(SSL_set_max_proto_version(c.ssl.get(), TLS1_2_VERSION));
  const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name, TLSEXT_TYPE_supported_groups,
                                       TLSEXT_TYPE_signature_algorithms, kUnknownExt};
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
  REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, nullptr, 0));
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  CHECK(ch.body(kUnknownExt).empty());
  Extension answer;
  answer.type = kUnknownExt;
  // A TLS 1.2 server that starts a new session does not echo the client's
  // session ID (0026 makes it non-empty; echoing it would be refused first).
  ScriptResult res = feed_client(c, server_hello_record(ch, 0xc02b /* ECDHE-ECDSA-AES128-GCM */, {answer},
                                                        /*hrr=*/false, /*fresh_session_id=*/true));
  INFO(res.error.text);
  CHECK(res.failed);
  CHECK(res.error.has_reason(SSL_R_UNEXPECTED_EXTENSION));
}

TEST_CASE("0020: a full handshake with an ordered spec", "[boringssl][client_hello][0020]") {
  auto ctx = make_client_ctx();
  for (uint16_t max : {uint16_t{TLS1_3_VERSION}, uint16_t{TLS1_2_VERSION}}) {
    auto sctx = make_server_ctx(KeyType::kRsa2048);
    REQUIRE(SSL_CTX_set_max_proto_version(sctx.get(), max));
    set_server_alpn(sctx.get());
    MemConn c = make_client(ctx.get());
    MemConn s = make_server(sctx.get());
    set_alpn(c.ssl.get());
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), kOrder.data(), kOrder.size(),
                                                 SSL_CLIENT_HELLO_PERMUTE_EXTENSIONS));
    REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), kUnknownExt, nullptr, 0));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == max);
    const uint8_t* proto;
    unsigned proto_len;
    SSL_get0_alpn_selected(c.ssl.get(), &proto, &proto_len);
    CHECK(std::string(reinterpret_cast<const char*>(proto), proto_len) == "h2");
    std::string why;
    CHECK(exchange_data(c, s, 20000, &why));
    INFO(why);
  }
}

TEST_CASE("0026: a spec's TLS 1.2-only hello carries a random 32-byte session ID, as Go's",
          "[boringssl][client_hello][0026]") {
  auto ctx = make_client_ctx();
  const std::vector<uint16_t> order = {TLSEXT_TYPE_server_name, TLSEXT_TYPE_supported_groups,
                                       TLSEXT_TYPE_ec_point_formats, TLSEXT_TYPE_signature_algorithms};
  Bytes first;
  for (int i = 0; i < 2; ++i) {
    MemConn c = make_client(ctx.get());
    REQUIRE(SSL_set_max_proto_version(c.ssl.get(), TLS1_2_VERSION));
    REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
    ClientHello ch = parse_first_client_hello(client_first_flight(c));
    CHECK(ch.session_id.size() == 32);
    CHECK(ch.session_id != first);  // random per connection
    first = ch.session_id;
  }
  // Without a spec, BoringSSL's own behaviour: none in TLS 1.2.
  MemConn plain = make_client(ctx.get());
  REQUIRE(SSL_set_max_proto_version(plain.ssl.get(), TLS1_2_VERSION));
  CHECK(parse_first_client_hello(client_first_flight(plain)).session_id.empty());
  // A TLS 1.2 handshake with the synthetic ID completes (the server does
  // not echo it).
  auto sctx = make_server_ctx();
  MemConn c = make_client(ctx.get());
  MemConn s = make_server(sctx.get());
  REQUIRE(SSL_set_max_proto_version(c.ssl.get(), TLS1_2_VERSION));
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
  CHECK(run_handshake(c, s).ok);
}
