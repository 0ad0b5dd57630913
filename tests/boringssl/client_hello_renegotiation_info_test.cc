// Patch 0029: renegotiation_info in a TLS 1.3-only ClientHello spec. utls
// sends the empty extension (body 0x00) whatever the versions; BoringSSL
// leaves it out when TLS 1.2 is off, which used to fail the spec
// (SSL_R_CLIENT_HELLO_SPEC_EXTENSION_NOT_SENT).
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

const std::vector<uint16_t> kOrder = {TLSEXT_TYPE_server_name,          TLSEXT_TYPE_extended_master_secret,
                                      TLSEXT_TYPE_renegotiate,          TLSEXT_TYPE_supported_groups,
                                      TLSEXT_TYPE_signature_algorithms, TLSEXT_TYPE_key_share,
                                      TLSEXT_TYPE_supported_versions};

MemConn client(SSL_CTX* ctx, std::vector<uint16_t> versions) {
  MemConn c = make_client(ctx);
  REQUIRE(SSL_set_client_hello_versions(c.ssl.get(), versions.data(), versions.size()));
  // extended_master_secret, too, is left out of a TLS 1.3-only hello; the
  // library sends it raw (empty), as here.
  if (versions == std::vector<uint16_t>{TLS1_3_VERSION}) {
    REQUIRE(SSL_set_client_hello_raw_extension(c.ssl.get(), TLSEXT_TYPE_extended_master_secret, nullptr, 0));
  }
  REQUIRE(SSL_set_client_hello_extension_order(c.ssl.get(), kOrder.data(), kOrder.size(), 0));
  return c;
}

}  // namespace

TEST_CASE(
    "0029: a TLS 1.3-only spec sends the empty renegotiation_info "
    "where listed, and completes",
    "[boringssl][client_hello][0029]") {
  auto ctx = make_client_ctx();
  for (auto versions :
       {std::vector<uint16_t>{TLS1_3_VERSION}, std::vector<uint16_t>{TLS1_3_VERSION, TLS1_2_VERSION}}) {
    INFO("versions " << versions.size());
    MemConn c = client(ctx.get(), versions);
    auto sctx = make_server_ctx();
    MemConn s = make_server(sctx.get());
    HandshakeResult r = run_handshake(c, s);
    INFO(r.describe());
    REQUIRE(r.ok);
    CHECK(SSL_version(c.ssl.get()) == TLS1_3_VERSION);
    ClientHello ch = parse_first_client_hello(c.written);
    CHECK(ch.extension_types() == kOrder);
    CHECK(ch.body(TLSEXT_TYPE_renegotiate) == Bytes{0x00});
    std::string why;
    CHECK(exchange_data(c, s, 100, &why));
  }
}
