// Patch 0030: record_size_limit (RFC 8449) on receive. Once the peer has
// answered the limit we advertised, a protected record from it whose
// plaintext is larger (TLS 1.3: TLSInnerPlaintext, content type and padding
// included) is a record_overflow. Before 0030 such records were accepted.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/ssl.h>

#include "support/client_hello_parser.h"
#include "support/tls_harness.h"

using namespace bssltest;

namespace {

const std::vector<uint16_t> kOrder = {TLSEXT_TYPE_server_name,       TLSEXT_TYPE_supported_groups,
                                      TLSEXT_TYPE_ec_point_formats,  TLSEXT_TYPE_signature_algorithms,
                                      TLSEXT_TYPE_record_size_limit, TLSEXT_TYPE_key_share,
                                      TLSEXT_TYPE_supported_versions};

struct Pair {
  MemConn c, s;
  bssl::UniquePtr<SSL_CTX> sctx;
};

// A handshake in |version| where the client advertises |client_limit| and the
// server, if |server_limit| is not zero, answers with its own.
void connect(Pair& p, SSL_CTX* cctx, uint16_t version, uint16_t client_limit, uint16_t server_limit) {
  p.sctx = make_server_ctx();
  REQUIRE(SSL_CTX_set_max_proto_version(p.sctx.get(), version));
  REQUIRE(SSL_CTX_set_strict_cipher_list(p.sctx.get(), "ECDHE-ECDSA-AES128-GCM-SHA256"));
  p.c = make_client(cctx);
  p.s = make_server(p.sctx.get());
  REQUIRE(SSL_set_client_hello_extension_order(p.c.ssl.get(), kOrder.data(), kOrder.size(), 0));
  REQUIRE(SSL_set_record_size_limit(p.c.ssl.get(), client_limit));
  REQUIRE(SSL_set_record_size_limit(p.s.ssl.get(), server_limit));
  HandshakeResult r = run_handshake(p.c, p.s);
  INFO(r.describe());
  REQUIRE(r.ok);
  REQUIRE(SSL_version(p.c.ssl.get()) == version);
}

// |from| writes |n| bytes in records of up to |fragment| plaintext bytes
// (ignoring the peer's limit; 0: as the limit allows); |to| reads them. Returns |to|'s error, or an
// empty ErrorInfo if it read them all.
ErrorInfo send_fragments(MemConn& from, MemConn& to, size_t n, size_t fragment, Bytes* to_wrote) {
  if (fragment != 0) REQUIRE(SSL_set_max_send_fragment(from.ssl.get(), fragment));
  std::string data(n, 'x');
  REQUIRE(SSL_write(from.ssl.get(), data.data(), static_cast<int>(n)) == static_cast<int>(n));
  to.feed(from.take_output());
  size_t got = 0;
  char buf[4096];
  for (int i = 0; i < 64 && got < n; i++) {
    int r = SSL_read(to.ssl.get(), buf, sizeof(buf));
    if (r <= 0) {
      ErrorInfo e = drain_errors();
      if (e.codes.empty()) e.text = "no error, SSL_read returned " + std::to_string(r);
      *to_wrote = to.take_output();
      return e;
    }
    got += static_cast<size_t>(r);
  }
  *to_wrote = to.take_output();
  return ErrorInfo{};
}

}  // namespace

TEST_CASE(
    "0030: a record over the record_size_limit the peer answered is a "
    "record_overflow",
    "[boringssl][client_hello][0030]") {
  auto cctx = make_client_ctx();
  struct Case {
    const char* name;
    uint16_t version, client_limit, server_limit;
    size_t fragment;  // plaintext bytes per record the server sends
    bool fails;
  };
  // SSL_set_max_send_fragment takes 512 at least; 0 keeps the sender
  // honouring the limit (in TLS 1.3, 511 bytes + the content type = 512).
  const Case cases[] = {
      {"TLS 1.3, at the limit", TLS1_3_VERSION, 512, 0x4001, 0, false},
      {"TLS 1.3, one byte over", TLS1_3_VERSION, 512, 0x4001, 512, true},
      {"TLS 1.3, full records", TLS1_3_VERSION, 1024, 0x4001, 16384, true},
      // TLS 1.2: the limit is the plaintext.
      {"TLS 1.2, at the limit", TLS1_2_VERSION, 512, 0x4000, 512, false},
      {"TLS 1.2, one byte over", TLS1_2_VERSION, 512, 0x4000, 513, true},
      // A server that does not answer is not held to the limit.
      {"TLS 1.3, no answer", TLS1_3_VERSION, 512, 0, 16384, false},
      {"TLS 1.2, no answer", TLS1_2_VERSION, 512, 0, 16384, false},
  };
  for (const Case& tc : cases) {
    INFO(tc.name);
    Pair p;
    connect(p, cctx.get(), tc.version, tc.client_limit, tc.server_limit);
    Bytes alert;
    ErrorInfo e = send_fragments(p.s, p.c, 3000, tc.fragment, &alert);
    INFO(e.text);
    if (!tc.fails) {
      CHECK(e.codes.empty());
      continue;
    }
    CHECK(e.has_reason(SSL_R_DATA_LENGTH_TOO_LONG));
    CHECK(e.text.find("record_size_limit") != std::string::npos);
    // The client sent an alert (encrypted in TLS 1.3); the server reads
    // record_overflow.
    CHECK(!alert.empty());
    p.s.feed(alert);
    char buf[16];
    CHECK(SSL_read(p.s.ssl.get(), buf, sizeof(buf)) <= 0);
    CHECK(drain_errors().has_reason(SSL_R_TLSV1_ALERT_RECORD_OVERFLOW));
  }
}

TEST_CASE("0030: a server holds a client to the limit it answered", "[boringssl][client_hello][0030]") {
  auto cctx = make_client_ctx();
  Pair p;
  connect(p, cctx.get(), TLS1_3_VERSION, 0x4001, 512);
  Bytes alert;
  ErrorInfo ok = send_fragments(p.c, p.s, 3000, 0, &alert);
  INFO(ok.text);
  CHECK(ok.codes.empty());
  ErrorInfo e = send_fragments(p.c, p.s, 3000, 512, &alert);
  CHECK(e.has_reason(SSL_R_DATA_LENGTH_TOO_LONG));
}
