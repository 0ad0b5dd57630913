// Patch 0028: the early_data indication. A ClientHello spec that lists
// early_data sends it in every initial ClientHello, as utls does; 0-RTT is
// offered for real when the session allows it, but no early data is ever
// written, and accepted, declined, HelloRetryRequest and TLS 1.2 answers all
// complete the handshake. Without a real offer, a server that accepts is
// refused cleanly.
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

// A Firefox-like order: early_data in the middle, pre_shared_key last.
const std::vector<uint16_t> kOrder = {TLSEXT_TYPE_server_name,        TLSEXT_TYPE_supported_groups,
                                      TLSEXT_TYPE_early_data,         TLSEXT_TYPE_signature_algorithms,
                                      TLSEXT_TYPE_key_share,          TLSEXT_TYPE_psk_key_exchange_modes,
                                      TLSEXT_TYPE_supported_versions, TLSEXT_TYPE_pre_shared_key};

bssl::UniquePtr<SSL_SESSION> g_last_session;

int keep_session(SSL*, SSL_SESSION* session) {
  g_last_session.reset(session);
  return 1;
}

// A client context that keeps the tickets it gets (g_last_session).
bssl::UniquePtr<SSL_CTX> make_resuming_client_ctx() {
  auto ctx = make_client_ctx();
  SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL);
  SSL_CTX_sess_set_new_cb(ctx.get(), keep_session);
  return ctx;
}

// A server context that issues tickets allowing 0-RTT and accepts it.
bssl::UniquePtr<SSL_CTX> make_0rtt_server_ctx() {
  auto ctx = make_server_ctx();
  SSL_CTX_set_early_data_enabled(ctx.get(), 1);
  return ctx;
}

// A full handshake with |sctx| that leaves a 0-RTT-capable TLS 1.3 session.
bssl::UniquePtr<SSL_SESSION> get_session(SSL_CTX* cctx, SSL_CTX* sctx) {
  g_last_session.reset();
  MemConn c = make_client(cctx);
  MemConn s = make_server(sctx);
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), kOrder.data(), kOrder.size(), 0));
  HandshakeResult r = run_handshake(c, s);
  INFO(r.describe());
  REQUIRE(r.ok);
  std::string why;
  REQUIRE(exchange_data(c, s, 100, &why));  // the client reads the ticket
  REQUIRE(g_last_session != nullptr);
  REQUIRE(SSL_SESSION_early_data_capable(g_last_session.get()));
  return std::move(g_last_session);
}

// A client for a resumption: the order above, the indication (if |indicate|)
// and 0-RTT enabled (if |enable|), |session| offered.
MemConn resuming_client(SSL_CTX* cctx, SSL_SESSION* session, bool indicate, bool enable) {
  MemConn c = make_client(cctx);
  SSL_set_client_hello_early_data_indication(c.ssl.get(), indicate ? 1 : 0);
  SSL_set_early_data_enabled(c.ssl.get(), enable ? 1 : 0);
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), kOrder.data(), kOrder.size(), 0));
  REQUIRE(SSL_set_session(c.ssl.get(), session));
  return c;
}

std::vector<uint8_t> record_types(const Bytes& stream) {
  std::vector<uint8_t> out;
  for (const Record& r : parse_records(stream)) out.push_back(r.type);
  return out;
}

size_t index_of(const std::vector<uint16_t>& v, uint16_t x) {
  for (size_t i = 0; i < v.size(); i++) {
    if (v[i] == x) return i;
  }
  return v.size();
}

}  // namespace

TEST_CASE(
    "0028: the early_data indication is sent empty, where listed, "
    "with no session and without pre_shared_key",
    "[boringssl][client_hello][0028]") {
  auto ctx = make_client_ctx();
  const std::vector<uint16_t> order = {G,
                                       TLSEXT_TYPE_server_name,
                                       TLSEXT_TYPE_early_data,
                                       TLSEXT_TYPE_supported_groups,
                                       TLSEXT_TYPE_key_share,
                                       TLSEXT_TYPE_supported_versions};
  MemConn c = make_client(ctx.get());
  SSL_set_client_hello_early_data_indication(c.ssl.get(), 1);
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), order.data(), order.size(), 0));
  ClientHello ch = parse_first_client_hello(client_first_flight(c));
  std::vector<uint16_t> types = ch.extension_types();
  REQUIRE(types.size() == order.size());
  CHECK(types[2] == TLSEXT_TYPE_early_data);
  CHECK(ch.body(TLSEXT_TYPE_early_data).empty());

  // Without the indication, such an order is refused.
  MemConn d = make_client(ctx.get());
  CHECK(SSL_set_client_hello_extension_order(d.ssl.get(), order.data(), order.size(), 0) == 0);
  CHECK(drain_errors().has_reason(SSL_R_INVALID_CLIENT_HELLO_SPEC));
}

TEST_CASE(
    "0028: 0-RTT is offered without writing early data; a server that "
    "accepts gets EndOfEarlyData and the handshake completes",
    "[boringssl][client_hello][0028]") {
  auto cctx = make_resuming_client_ctx();
  auto sctx = make_0rtt_server_ctx();
  auto session = get_session(cctx.get(), sctx.get());

  SECTION("without the indication BoringSSL returns early, to write 0-RTT") {
    MemConn c = resuming_client(cctx.get(), session.get(), false, true);
    CHECK(SSL_do_handshake(c.ssl.get()) == 1);
    CHECK(SSL_in_early_data(c.ssl.get()) == 1);
  }

  MemConn c = resuming_client(cctx.get(), session.get(), true, true);
  MemConn s = make_server(sctx.get());
  HandshakeResult r = run_handshake(c, s);
  INFO(r.describe());
  REQUIRE(r.ok);
  CHECK(SSL_in_init(c.ssl.get()) == 0);
  CHECK(SSL_session_reused(c.ssl.get()) == 1);
  CHECK(SSL_early_data_accepted(c.ssl.get()) == 1);
  CHECK(SSL_get_early_data_reason(c.ssl.get()) == ssl_early_data_accepted);

  // The first flight is the ClientHello alone: no ChangeCipherSpec, nothing
  // under the early keys.
  REQUIRE(!r.client_flights.empty());
  CHECK(record_types(r.client_flights[0]) == std::vector<uint8_t>{22});
  ClientHello ch = parse_first_client_hello(r.client_flights[0]);
  std::vector<uint16_t> types = ch.extension_types();
  CHECK(index_of(types, TLSEXT_TYPE_early_data) == 2);
  CHECK(ch.body(TLSEXT_TYPE_early_data).empty());
  CHECK(types.back() == TLSEXT_TYPE_pre_shared_key);

  // The server reads EndOfEarlyData and Finished, then application data.
  std::string why;
  CHECK(exchange_data(c, s, 3000, &why));
  INFO(why);
  CHECK(SSL_early_data_accepted(s.ssl.get()) == 1);
  CHECK(SSL_in_init(s.ssl.get()) == 0);
}

TEST_CASE(
    "0028: a server that declines 0-RTT, sends a HelloRetryRequest or "
    "speaks TLS 1.2 completes the handshake",
    "[boringssl][client_hello][0028]") {
  auto cctx = make_resuming_client_ctx();
  auto sctx = make_0rtt_server_ctx();
  auto session = get_session(cctx.get(), sctx.get());

  SECTION("declined") {
    MemConn c = resuming_client(cctx.get(), session.get(), true, true);
    MemConn s = make_server(sctx.get());
    SSL_set_early_data_enabled(s.ssl.get(), 0);
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_session_reused(c.ssl.get()) == 1);
    CHECK(SSL_early_data_accepted(c.ssl.get()) == 0);
    CHECK(SSL_get_early_data_reason(c.ssl.get()) == ssl_early_data_peer_declined);
    CHECK(record_types(r.client_flights[0]) == std::vector<uint8_t>{22});
    std::string why;
    CHECK(exchange_data(c, s, 100, &why));
  }
  SECTION("HelloRetryRequest: the second ClientHello has no early_data") {
    MemConn c = resuming_client(cctx.get(), session.get(), true, true);
    REQUIRE(SSL_set1_curves_list(c.ssl.get(), "X25519:P-256"));
    MemConn s = make_server(sctx.get());
    REQUIRE(SSL_set1_curves_list(s.ssl.get(), "P-256"));
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_used_hello_retry_request(c.ssl.get()) == 1);
    CHECK(SSL_early_data_accepted(c.ssl.get()) == 0);
    std::vector<ClientHello> hellos = parse_client_hellos(c.written);
    REQUIRE(hellos.size() == 2);
    CHECK(hellos[0].find(TLSEXT_TYPE_early_data) != nullptr);
    CHECK(hellos[1].find(TLSEXT_TYPE_early_data) == nullptr);
    // The ChangeCipherSpec goes right before the second ClientHello.
    REQUIRE(r.client_flights.size() >= 2);
    std::vector<uint8_t> second = record_types(r.client_flights[1]);
    REQUIRE(second.size() >= 2);
    CHECK(second[0] == 20);
    CHECK(second[1] == 22);
    std::string why;
    CHECK(exchange_data(c, s, 100, &why));
  }
  SECTION("a TLS 1.2 server") {
    auto sctx12 = make_server_ctx();
    REQUIRE(SSL_CTX_set_max_proto_version(sctx12.get(), TLS1_2_VERSION));
    for (bool indicate : {false, true}) {
      INFO("indication " << indicate);
      MemConn c = resuming_client(cctx.get(), session.get(), indicate, true);
      MemConn s = make_server(sctx12.get());
      if (!indicate) {
        // BoringSSL's own 0-RTT: the early return, then the version error.
        REQUIRE(SSL_do_handshake(c.ssl.get()) == 1);
      }
      HandshakeResult r = run_handshake(c, s);
      INFO(r.describe());
      CHECK(r.ok == indicate);
      if (indicate) {
        CHECK(SSL_version(c.ssl.get()) == TLS1_2_VERSION);
        CHECK(SSL_session_reused(c.ssl.get()) == 0);
        std::string why;
        CHECK(exchange_data(c, s, 100, &why));
      } else {
        CHECK(r.client_error.has_reason(SSL_R_WRONG_VERSION_ON_EARLY_DATA));
      }
    }
  }
}

TEST_CASE(
    "0028: with no real offer, a server that accepts early data is "
    "refused cleanly",
    "[boringssl][client_hello][0028]") {
  auto cctx = make_resuming_client_ctx();
  auto sctx = make_0rtt_server_ctx();
  auto session = get_session(cctx.get(), sctx.get());
  // 0-RTT not enabled on the client: the indication is an empty extension,
  // which this server (it issued a 0-RTT ticket) takes as an offer.
  MemConn c = resuming_client(cctx.get(), session.get(), true, false);
  MemConn s = make_server(sctx.get());
  HandshakeResult r = run_handshake(c, s);
  INFO(r.describe());
  CHECK_FALSE(r.ok);
  CHECK(r.client_error.has_reason(SSL_R_UNEXPECTED_EARLY_DATA_EXTENSION));
  ClientHello ch = parse_first_client_hello(c.written);
  CHECK(index_of(ch.extension_types(), TLSEXT_TYPE_early_data) == 2);
}
