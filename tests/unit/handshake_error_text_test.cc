// The table that turns BoringSSL's handshake failures into Go's texts, and
// the trace it reads (src/tls/handshake_error_text.h). The same texts are
// provoked on the wire by tests/integration/tls_peers_test.cc and
// tls_test.cc.
#include "tls/handshake_error_text.h"

#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

using tlsc::go_alert_text;
using tlsc::go_tls_error_text;
using tlsc::TlsErrorEntry;
using tlsc::TlsFailure;
using tlsc::TlsTrace;

namespace {

TlsFailure ssl_reason(int reason, uint16_t version = 0x0304) {
  TlsFailure f;
  f.errors.push_back(TlsErrorEntry{ERR_LIB_SSL, reason, {}});
  f.trace.server_hellos = 1;
  f.trace.server_version = version;
  return f;
}

void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v >> 8));
  b.push_back(static_cast<uint8_t>(v));
}

std::vector<uint8_t> handshake(uint8_t type, const std::vector<uint8_t>& body) {
  std::vector<uint8_t> m;
  m.reserve(4 + body.size());
  m.push_back(type);
  m.push_back(0);
  put16(m, static_cast<uint16_t>(body.size()));
  for (uint8_t b : body) m.push_back(b);
  return m;
}

const uint8_t kHrrRandom[32] = {0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c,
                                0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb,
                                0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c};

// A ServerHello (or HelloRetryRequest) with supported_versions and key_share.
std::vector<uint8_t> server_hello(bool hrr, uint16_t cipher, uint16_t version, uint16_t group,
                                  bool with_versions = true) {
  std::vector<uint8_t> b;
  put16(b, 0x0303);
  for (int i = 0; i < 32; ++i) b.push_back(hrr ? kHrrRandom[i] : static_cast<uint8_t>(i));
  b.push_back(0);  // session id
  put16(b, cipher);
  b.push_back(0);
  std::vector<uint8_t> ext;
  if (with_versions) {
    put16(ext, 43);
    put16(ext, 2);
    put16(ext, version);
  }
  put16(ext, 51);
  if (hrr) {
    put16(ext, 2);
    put16(ext, group);
  } else {
    put16(ext, 4 + 32);
    put16(ext, group);
    put16(ext, 32);
    ext.insert(ext.end(), 32, 0x42);
  }
  put16(b, static_cast<uint16_t>(ext.size()));
  b.insert(b.end(), ext.begin(), ext.end());
  return handshake(SSL3_MT_SERVER_HELLO, b);
}

std::vector<uint8_t> client_hello(const std::vector<uint16_t>& share_groups) {
  std::vector<uint8_t> b;
  put16(b, 0x0303);
  b.insert(b.end(), 32, 0x11);
  b.push_back(0);
  put16(b, 2);
  put16(b, 0x1301);
  b.push_back(1);
  b.push_back(0);
  std::vector<uint8_t> shares;
  for (uint16_t g : share_groups) {
    put16(shares, g);
    put16(shares, 1);
    shares.push_back(0x99);
  }
  std::vector<uint8_t> ext;
  put16(ext, 0);  // server_name, empty: skipped
  put16(ext, 0);
  put16(ext, 51);
  put16(ext, static_cast<uint16_t>(shares.size() + 2));
  put16(ext, static_cast<uint16_t>(shares.size()));
  ext.insert(ext.end(), shares.begin(), shares.end());
  put16(b, static_cast<uint16_t>(ext.size()));
  b.insert(b.end(), ext.begin(), ext.end());
  return handshake(SSL3_MT_CLIENT_HELLO, b);
}

}  // namespace

TEST_CASE("tls error text: every alert as Go's alert.go names it", "[tls-errors]") {
  CHECK(go_alert_text(40) == "tls: handshake failure");
  CHECK(go_alert_text(20) == "tls: bad record MAC");
  CHECK(go_alert_text(70) == "tls: protocol version not supported");
  CHECK(go_alert_text(112) == "tls: unrecognized name");
  CHECK(go_alert_text(115) == "tls: unknown PSK identity");
  CHECK(go_alert_text(121) == "tls: encrypted client hello required");
  CHECK(go_alert_text(200) == "tls: alert(200)");
  // Every code point of alert.go has a name.
  for (int a : {0,  10, 20, 21, 22, 30, 40,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,
                60, 70, 71, 80, 86, 90, 100, 109, 110, 111, 112, 113, 114, 115, 116, 120, 121}) {
    CHECK(go_alert_text(static_cast<uint8_t>(a)).find("alert(") == std::string::npos);
  }
}

TEST_CASE("tls error text: an alert from the server is a remote error", "[tls-errors]") {
  TlsFailure f;
  f.errors.push_back(TlsErrorEntry{ERR_LIB_SSL, SSL_AD_REASON_OFFSET + 40, "SSL alert number 40"});
  CHECK(go_tls_error_text(f) == "remote error: tls: handshake failure");
  f.errors[0].reason = SSL_AD_REASON_OFFSET + 116;
  CHECK(go_tls_error_text(f) == "remote error: tls: certificate required");
  f.errors[0].reason = SSL_AD_REASON_OFFSET + 255;
  CHECK(go_tls_error_text(f) == "remote error: tls: alert(255)");
}

TEST_CASE("tls error text: the table, with the handshake context it needs", "[tls-errors]") {
  CHECK(go_tls_error_text(ssl_reason(SSL_R_WRONG_CIPHER_RETURNED)) ==
        "tls: server chose an unconfigured cipher suite");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_SERVER_SELECTED_UNIMPLEMENTED_CIPHER)) ==
        "tls: server chose an unconfigured cipher suite");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_WRONG_CURVE)) == "tls: server selected unsupported group");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_WRONG_CURVE, 0x0303)) == "tls: server selected unsupported curve");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_SERVER_SELECTED_UNIMPLEMENTED_GROUP, 0x0303)) ==
        "tls: server selected unsupported curve");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_TLS13_DOWNGRADE)) ==
        "tls: downgrade attempt detected, possibly due to a MitM attack or a broken middlebox");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_UNSUPPORTED_COMPRESSION_ALGORITHM)) ==
        "tls: server selected unsupported compression format");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_EMPTY_HELLO_RETRY_REQUEST)) ==
        "tls: server sent an unnecessary HelloRetryRequest message");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_INVALID_ALPN_PROTOCOL)) ==
        "tls: server selected unadvertised ALPN protocol");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_UNEXPECTED_EARLY_DATA_EXTENSION)) ==
        "tls: server sent an unexpected early_data extension");  // patch 0028
  CHECK(go_tls_error_text(ssl_reason(SSL_R_UNEXPECTED_MESSAGE)) == "local error: tls: unexpected message");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_DECODE_ERROR)) == "local error: tls: unexpected message");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC)) ==
        "local error: tls: bad record MAC");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_TOO_MANY_WARNING_ALERTS)) == "tls: too many ignored records");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_WRONG_SIGNATURE_TYPE)) ==
        "tls: certificate used with invalid signature algorithm");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_DIGEST_CHECK_FAILED)) == "tls: invalid server finished hash");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_DIGEST_CHECK_FAILED, 0x0303)) ==
        "tls: server's Finished message was incorrect");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_BAD_ECPOINT)) == "tls: invalid server key share");
  CHECK(go_tls_error_text(ssl_reason(SSL_R_BAD_ECPOINT, 0x0303)) == "tls: invalid ServerKeyExchange message");
  TlsFailure mlkem = ssl_reason(SSL_R_BAD_ECPOINT);
  mlkem.trace.server_group = 0x11ec;
  CHECK(go_tls_error_text(mlkem) == "tls: invalid server X25519MLKEM768 key share");

  SECTION("the version the server chose, in hex as Go's %x") {
    TlsFailure f = ssl_reason(SSL_R_UNSUPPORTED_PROTOCOL, 0x0302);
    CHECK(go_tls_error_text(f) == "tls: server selected unsupported protocol version 302");
    // No ServerHello: not the server's choice, so BoringSSL's words.
    f.trace = TlsTrace{};
    CHECK(go_tls_error_text(f) == "tls: unsupported protocol");
  }
  SECTION("bad signatures by signature type") {
    TlsFailure f = ssl_reason(SSL_R_BAD_SIGNATURE);
    f.peer_signature_algorithm = 0x0804;
    CHECK(go_tls_error_text(f) ==
          "tls: invalid signature by the server certificate: crypto/rsa: verification error");
    f.peer_signature_algorithm = 0x0401;
    CHECK(go_tls_error_text(f) ==
          "tls: invalid signature by the server certificate: crypto/rsa: verification error");
    f.peer_signature_algorithm = 0x0503;
    CHECK(go_tls_error_text(f) ==
          "tls: invalid signature by the server certificate: ECDSA verification failure");
    f.peer_signature_algorithm = 0x0807;
    CHECK(go_tls_error_text(f) ==
          "tls: invalid signature by the server certificate: Ed25519 verification failure");
  }
  SECTION("a key Go's x509 does not parse") {
    TlsFailure f;
    f.errors.push_back(TlsErrorEntry{ERR_LIB_EVP, EVP_R_UNSUPPORTED_ALGORITHM, {}});
    f.trace.alert_sent = 50;
    CHECK(go_tls_error_text(f) ==
          "tls: server's certificate contains an unsupported type of public key: <nil>");
  }
}

TEST_CASE("tls error text: the first record, judged as Go judges it", "[tls-errors]") {
  TlsFailure f = ssl_reason(SSL_R_WRONG_VERSION_NUMBER);
  f.trace = TlsTrace{};
  tlsc::tls_trace_received(f.trace, "HTTP/1.1 400 Bad Request\r\n");
  CHECK(go_tls_error_text(f) == "tls: first record does not look like a TLS handshake");
  f.trace = TlsTrace{};
  tlsc::tls_trace_received(f.trace, std::string_view("\x80\x2e\x01\x03\x01", 5));
  CHECK(go_tls_error_text(f) == "tls: unsupported SSLv2 handshake received");
  // A handshake record header, in two pieces: judged by the table instead.
  f.trace = TlsTrace{};
  tlsc::tls_trace_received(f.trace, std::string_view("\x16\x03", 2));
  tlsc::tls_trace_received(f.trace, std::string_view("\x03\x00\x7a\x02", 4));
  CHECK(f.trace.first_record_have == 5);
  CHECK(go_tls_error_text(f) == "tls: wrong version number");
  // An alert record is a TLS record too.
  f.trace = TlsTrace{};
  tlsc::tls_trace_received(f.trace, std::string_view("\x15\x03\x03\x00\x02", 5));
  CHECK(go_tls_error_text(f) == "tls: wrong version number");
}

TEST_CASE("tls error text: unmapped reasons keep BoringSSL's words behind Go's alert", "[tls-errors]") {
  TlsFailure f = ssl_reason(SSL_R_UNEXPECTED_EXTENSION);
  f.errors[0].data = "extension 22";
  CHECK(go_tls_error_text(f) == "tls: unexpected extension: extension 22");
  f.trace.alert_sent = 110;
  CHECK(go_tls_error_text(f) ==
        "local error: tls: unsupported extension (unexpected extension: extension 22)");
  // When BoringSSL's words are the alert's, they are not repeated.
  f.errors[0] = TlsErrorEntry{ERR_LIB_SSL, SSL_R_UNEXPECTED_EXTENSION, {}};
  f.trace.alert_sent = 80;
  CHECK(go_tls_error_text(f) == "local error: tls: internal error (unexpected extension)");
  // A lower library's error first, an SSL one after: the SSL one speaks.
  f.errors.insert(f.errors.begin(), TlsErrorEntry{ERR_LIB_X509, X509_R_INVALID_VERSION, {}});
  CHECK(go_tls_error_text(f) == "local error: tls: internal error (unexpected extension)");
  // Patch 0030: a record over our record_size_limit (Go has no limit of its
  // own to enforce; its words for an oversized record are the alert's).
  f.errors = {TlsErrorEntry{ERR_LIB_SSL, SSL_R_DATA_LENGTH_TOO_LONG,
                            "record of 5204 bytes over the record_size_limit 1024"}};
  f.trace.alert_sent = 22;
  CHECK(go_tls_error_text(f) ==
        "local error: tls: record overflow (data length too long: record of 5204 bytes over "
        "the record_size_limit 1024)");
  // Nothing queued at all.
  CHECK(go_tls_error_text(TlsFailure{}) == "tls: handshake failure");
}

TEST_CASE("tls error text: the trace follows the hellos", "[tls-errors]") {
  TlsTrace t;
  auto feed = [&](bool write, const std::vector<uint8_t>& m) {
    tlsc::tls_trace_message(t, write, SSL3_RT_HANDSHAKE, std::span<const uint8_t>(m));
  };
  feed(true, client_hello({0x11ec, 0x001d}));
  CHECK(t.client_key_shares == std::vector<uint16_t>{0x11ec, 0x001d});
  feed(true, client_hello({0x0017}));  // the second ClientHello does not count
  CHECK(t.client_key_shares == std::vector<uint16_t>{0x11ec, 0x001d});

  feed(false, server_hello(true, 0x1301, 0x0304, 0x001d));
  CHECK(t.server_hellos == 1);
  CHECK(t.hello_retry_requests == 1);
  CHECK(t.last_hello_was_hrr);
  CHECK(t.server_group == 0x001d);
  CHECK(t.server_version == 0x0304);
  TlsFailure f;
  f.errors.push_back(TlsErrorEntry{ERR_LIB_SSL, SSL_R_WRONG_CURVE, {}});
  f.trace = t;
  CHECK(go_tls_error_text(f) == "tls: server sent an unnecessary HelloRetryRequest key_share");
  f.trace.server_group = 0x0018;
  CHECK(go_tls_error_text(f) == "tls: server selected unsupported group");
  f.errors[0].reason = SSL_R_SERVER_SELECTED_UNIMPLEMENTED_GROUP;
  CHECK(go_tls_error_text(f) == "tls: CurvePreferences includes unsupported curve");

  // A ServerHello after the HelloRetryRequest, with another cipher.
  feed(false, server_hello(false, 0x1302, 0x0304, 0x0017));
  CHECK_FALSE(t.last_hello_was_hrr);
  CHECK(t.server_cipher == 0x1302);
  CHECK(t.hrr_cipher == 0x1301);
  f.trace = t;
  f.errors[0].reason = SSL_R_WRONG_CIPHER_RETURNED;
  CHECK(go_tls_error_text(f) == "tls: server changed cipher suite after a HelloRetryRequest");
  // ... or without supported_versions, or with another version.
  feed(false, server_hello(false, 0x1301, 0, 0x0017, /*with_versions=*/false));
  CHECK_FALSE(t.server_sent_supported_versions);
  f.trace = t;
  f.errors[0].reason = SSL_R_SECOND_SERVERHELLO_VERSION_MISMATCH;
  CHECK(go_tls_error_text(f) == "tls: server selected TLS 1.3 using the legacy version field");
  feed(false, server_hello(false, 0x1301, 0x0303, 0x0017));
  f.trace = t;
  CHECK(go_tls_error_text(f) == "tls: server selected an invalid version after a HelloRetryRequest");

  // A second HelloRetryRequest.
  feed(false, server_hello(true, 0x1301, 0x0304, 0x0018));
  f.trace = t;
  f.errors[0].reason = SSL_R_UNEXPECTED_MESSAGE;
  CHECK(t.hello_retry_requests == 2);
  CHECK(go_tls_error_text(f) == "tls: server sent two HelloRetryRequest messages");

  // Alerts: only the ones we write count as sent.
  const uint8_t alert[2] = {2, 47};
  tlsc::tls_trace_message(t, false, SSL3_RT_ALERT, std::span<const uint8_t>(alert));
  CHECK(t.alert_sent == -1);
  tlsc::tls_trace_message(t, true, SSL3_RT_ALERT, std::span<const uint8_t>(alert));
  CHECK(t.alert_sent == 47);

  // Truncated messages are ignored, not read past their end.
  std::vector<uint8_t> cut = server_hello(false, 0x1301, 0x0304, 0x001d);
  cut.resize(20);
  TlsTrace fresh;
  tlsc::tls_trace_message(fresh, false, SSL3_RT_HANDSHAKE, std::span<const uint8_t>(cut));
  CHECK(fresh.server_hellos == 0);
}
