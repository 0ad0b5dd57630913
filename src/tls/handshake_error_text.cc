#include "tls/handshake_error_text.h"

#include <algorithm>
#include <cstdio>

#include <openssl/bytestring.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "core/ascii.h"

namespace tlsc {
namespace {

// ---- Go's words -------------------------------------------------------------
//
// Every text below is copied from the utls fork of crypto/tls that
// tls-client uses (alert.go, conn.go, handshake_client.go,
// handshake_client_tls13.go, key_agreement.go, auth.go), for the case in
// which utls fails the same way BoringSSL did.

// alert.go's alertText.
struct AlertName {
  uint8_t description;
  const char* text;
};
constexpr AlertName kAlertNames[] = {
    {0, "close notify"},
    {10, "unexpected message"},
    {20, "bad record MAC"},
    {21, "decryption failed"},
    {22, "record overflow"},
    {30, "decompression failure"},
    {40, "handshake failure"},
    {42, "bad certificate"},
    {43, "unsupported certificate"},
    {44, "revoked certificate"},
    {45, "expired certificate"},
    {46, "unknown certificate"},
    {47, "illegal parameter"},
    {48, "unknown certificate authority"},
    {49, "access denied"},
    {50, "error decoding message"},
    {51, "error decrypting message"},
    {60, "export restriction"},
    {70, "protocol version not supported"},
    {71, "insufficient security level"},
    {80, "internal error"},
    {86, "inappropriate fallback"},
    {90, "user canceled"},
    {100, "no renegotiation"},
    {109, "missing extension"},
    {110, "unsupported extension"},
    {111, "certificate unobtainable"},
    {112, "unrecognized name"},
    {113, "bad certificate status response"},
    {114, "bad certificate hash value"},
    {115, "unknown PSK identity"},
    {116, "certificate required"},
    {120, "no application protocol"},
    {121, "encrypted client hello required"},
};

constexpr uint16_t kTls13 = 0x0304;
constexpr uint16_t kX25519MLKEM768 = 0x11ec;
constexpr uint16_t kX25519Kyber768Draft00 = 0x6399;

std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%x", v);
  return buf;
}

bool is_tls13(const TlsFailure& f) { return f.trace.server_version == kTls13; }

// handshake_client.go pickTLSVersion.
std::string unsupported_version(const TlsFailure& f) {
  if (f.trace.server_hellos == 0) return {};  // not the server's choice: our own configuration
  return "tls: server selected unsupported protocol version " + hex(f.trace.server_version);
}

// handshake_client_tls13.go checkServerHelloOrHRR, on the ServerHello that
// follows a HelloRetryRequest.
std::string second_hello_version(const TlsFailure& f) {
  if (!f.trace.server_sent_supported_versions)
    return "tls: server selected TLS 1.3 using the legacy version field";
  return "tls: server selected an invalid version after a HelloRetryRequest";
}

// pickCipherSuite / checkServerHelloOrHRR.
std::string wrong_cipher(const TlsFailure& f) {
  const TlsTrace& t = f.trace;
  if (t.hello_retry_requests > 0 && !t.last_hello_was_hrr && t.server_cipher != t.hrr_cipher) {
    return "tls: server changed cipher suite after a HelloRetryRequest";
  }
  return "tls: server chose an unconfigured cipher suite";
}

// A group the client did not offer, or offered without a key share.
std::string wrong_group(const TlsFailure& f) {
  const TlsTrace& t = f.trace;
  if (!is_tls13(f)) return "tls: server selected unsupported curve";  // key_agreement.go
  if (t.last_hello_was_hrr && std::find(t.client_key_shares.begin(), t.client_key_shares.end(),
                                        t.server_group) != t.client_key_shares.end()) {
    return "tls: server sent an unnecessary HelloRetryRequest key_share";
  }
  return "tls: server selected unsupported group";
}

// A group the client's spec offered but cannot compute (ffdhe, say): utls
// offers such groups too, and fails where it would need the key.
std::string unimplemented_group(const TlsFailure& f) {
  if (!is_tls13(f)) return "tls: server selected unsupported curve";
  if (f.trace.last_hello_was_hrr) return "tls: CurvePreferences includes unsupported curve";
  return "tls: server selected unsupported group";
}

// A key share that does not decode or agree.
std::string bad_key_share(const TlsFailure& f) {
  if (!is_tls13(f)) return "tls: invalid ServerKeyExchange message";
  if (f.trace.server_group == kX25519MLKEM768) return "tls: invalid server X25519MLKEM768 key share";
  if (f.trace.server_group == kX25519Kyber768Draft00)
    return "tls: invalid server X25519Kyber768Draft00 key share";
  return "tls: invalid server key share";
}

// A second HelloRetryRequest; any other message out of place is utls's
// unexpectedMessageError, whose Go type names we cannot know, or a record
// of the wrong type: both are reported here as the alert Go sends.
std::string unexpected_message(const TlsFailure& f) {
  if (f.trace.hello_retry_requests >= 2) return "tls: server sent two HelloRetryRequest messages";
  return "local error: tls: unexpected message";
}

// auth.go verifyHandshakeSignature, by the signature type.
std::string bad_signature(const TlsFailure& f) {
  const uint16_t alg = f.peer_signature_algorithm;
  std::string why;
  if (alg == 0x0807) {
    why = "Ed25519 verification failure";
  } else if ((alg & 0xff) == 0x03) {
    why = "ECDSA verification failure";  // ecdsa_*: 0x0203, 0x0403, 0x0503, 0x0603
  } else {
    why = "crypto/rsa: verification error";  // PKCS#1 v1.5 and PSS (crypto/rsa.ErrVerification)
  }
  return "tls: invalid signature by the server certificate: " + why;
}

std::string bad_finished(const TlsFailure& f) {
  return is_tls13(f) ? "tls: invalid server finished hash" : "tls: server's Finished message was incorrect";
}

// The table: BoringSSL's reason (library SSL) and Go's words for it; a
// text_for that returns "" has none for this handshake. A reason not
// listed falls back to Go's wording of the alert we sent, with
// BoringSSL's reason after it.
struct Rule {
  int reason;
  const char* text;                            // fixed Go text, or
  std::string (*text_for)(const TlsFailure&);  // one that depends on the handshake
};

constexpr Rule kRules[] = {
    // The ServerHello.
    {SSL_R_UNSUPPORTED_PROTOCOL, nullptr, unsupported_version},
    {SSL_R_SECOND_SERVERHELLO_VERSION_MISMATCH, nullptr, second_hello_version},
    {SSL_R_TLS13_DOWNGRADE,
     "tls: downgrade attempt detected, possibly due to a MitM attack or a broken middlebox", nullptr},
    {SSL_R_WRONG_CIPHER_RETURNED, nullptr, wrong_cipher},
    {SSL_R_SERVER_SELECTED_UNIMPLEMENTED_CIPHER, "tls: server chose an unconfigured cipher suite", nullptr},
    {SSL_R_UNSUPPORTED_COMPRESSION_ALGORITHM, "tls: server selected unsupported compression format", nullptr},
    {SSL_R_WRONG_CURVE, nullptr, wrong_group},
    {SSL_R_SERVER_SELECTED_UNIMPLEMENTED_GROUP, nullptr, unimplemented_group},
    {SSL_R_BAD_ECPOINT, nullptr, bad_key_share},
    {SSL_R_EMPTY_HELLO_RETRY_REQUEST, "tls: server sent an unnecessary HelloRetryRequest message", nullptr},
    {SSL_R_INVALID_ALPN_PROTOCOL, "tls: server selected unadvertised ALPN protocol", nullptr},
    // Patch 0028: the empty early_data indication was accepted.
    {SSL_R_UNEXPECTED_EARLY_DATA_EXTENSION, "tls: server sent an unexpected early_data extension", nullptr},
    // Messages and records out of place, or malformed (Go's unmarshal
    // failure sends unexpected_message).
    {SSL_R_UNEXPECTED_MESSAGE, nullptr, unexpected_message},
    {SSL_R_UNEXPECTED_RECORD, "local error: tls: unexpected message", nullptr},
    {SSL_R_DECODE_ERROR, "local error: tls: unexpected message", nullptr},
    {SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC, "local error: tls: bad record MAC", nullptr},
    {SSL_R_TOO_MANY_EMPTY_FRAGMENTS, "tls: too many ignored records", nullptr},
    {SSL_R_TOO_MANY_WARNING_ALERTS, "tls: too many ignored records", nullptr},
    // The server's proof.
    {SSL_R_WRONG_SIGNATURE_TYPE, "tls: certificate used with invalid signature algorithm", nullptr},
    {SSL_R_BAD_SIGNATURE, nullptr, bad_signature},
    {SSL_R_DIGEST_CHECK_FAILED, nullptr, bad_finished},
};

// BoringSSL's own words for an entry: "unexpected extension: extension 22".
std::string boringssl_words(const TlsErrorEntry& e) {
  const char* reason = ERR_reason_error_string(ERR_PACK(e.lib, e.reason));
  std::string s = reason ? reason : "handshake failure";
  for (char& c : s) {
    c = c == '_' ? ' ' : ascii_lower(c);
  }
  if (!e.data.empty()) s += ": " + e.data;
  return s;
}

// ---- The trace --------------------------------------------------------------

void on_message(int is_write, int /*version*/, int content_type, const void* buf, size_t len, SSL* /*ssl*/,
                void* arg) {
  if (arg == nullptr || buf == nullptr) return;
  // Called from inside BoringSSL (C): nothing may be thrown through it. A
  // message the trace had no memory for is left out of it.
  try {
    tls_trace_message(*static_cast<TlsTrace*>(arg), is_write != 0, content_type,
                      std::span<const uint8_t>(static_cast<const uint8_t*>(buf), len));
  } catch (...) {
  }
}

constexpr uint8_t kHelloRetryRequestRandom[32] = {
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
    0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c};

constexpr uint16_t kExtSupportedVersions = 43;
constexpr uint16_t kExtKeyShare = 51;

void trace_server_hello(TlsTrace& t, CBS body) {
  uint16_t legacy_version = 0, cipher = 0;
  CBS random, session_id, extensions;
  uint8_t compression = 0;
  if (!CBS_get_u16(&body, &legacy_version) || !CBS_get_bytes(&body, &random, 32) ||
      !CBS_get_u8_length_prefixed(&body, &session_id) || !CBS_get_u16(&body, &cipher) ||
      !CBS_get_u8(&body, &compression)) {
    return;
  }
  ++t.server_hellos;
  t.last_hello_was_hrr = CBS_mem_equal(&random, kHelloRetryRequestRandom, sizeof kHelloRetryRequestRandom);
  if (t.last_hello_was_hrr) {
    ++t.hello_retry_requests;
    t.hrr_cipher = cipher;
  }
  t.server_cipher = cipher;
  t.server_version = legacy_version;
  t.server_sent_supported_versions = false;
  t.server_group = 0;
  if (CBS_len(&body) == 0 || !CBS_get_u16_length_prefixed(&body, &extensions)) return;
  while (CBS_len(&extensions) > 0) {
    uint16_t type = 0;
    CBS data;
    if (!CBS_get_u16(&extensions, &type) || !CBS_get_u16_length_prefixed(&extensions, &data)) return;
    uint16_t value = 0;
    if (type == kExtSupportedVersions && CBS_get_u16(&data, &value)) {
      t.server_version = value;
      t.server_sent_supported_versions = true;
    } else if (type == kExtKeyShare && CBS_get_u16(&data, &value)) {
      t.server_group = value;
    }
  }
}

void trace_client_hello(TlsTrace& t, CBS body) {
  if (t.client_hello_seen) return;  // the first one: what a HelloRetryRequest answers
  t.client_hello_seen = true;
  uint16_t version = 0;
  CBS random, session_id, suites, compression, extensions;
  if (!CBS_get_u16(&body, &version) || !CBS_get_bytes(&body, &random, 32) ||
      !CBS_get_u8_length_prefixed(&body, &session_id) || !CBS_get_u16_length_prefixed(&body, &suites) ||
      !CBS_get_u8_length_prefixed(&body, &compression) || !CBS_get_u16_length_prefixed(&body, &extensions)) {
    return;
  }
  while (CBS_len(&extensions) > 0) {
    uint16_t type = 0;
    CBS data, shares;
    if (!CBS_get_u16(&extensions, &type) || !CBS_get_u16_length_prefixed(&extensions, &data)) return;
    if (type != kExtKeyShare || !CBS_get_u16_length_prefixed(&data, &shares)) continue;
    while (CBS_len(&shares) > 0) {
      uint16_t group = 0;
      CBS key;
      if (!CBS_get_u16(&shares, &group) || !CBS_get_u16_length_prefixed(&shares, &key)) return;
      t.client_key_shares.push_back(group);
    }
  }
}

}  // namespace

void tls_trace_message(TlsTrace& t, bool is_write, int content_type, std::span<const uint8_t> msg) {
  if (content_type == SSL3_RT_ALERT) {
    if (is_write && msg.size() == 2) t.alert_sent = msg[1];
    return;
  }
  if (content_type != SSL3_RT_HANDSHAKE || msg.size() < 4) return;
  CBS cbs, body;
  CBS_init(&cbs, msg.data(), msg.size());
  uint8_t type = 0;
  if (!CBS_get_u8(&cbs, &type) || !CBS_get_u24_length_prefixed(&cbs, &body)) return;
  if (!is_write && type == SSL3_MT_SERVER_HELLO) trace_server_hello(t, body);
  if (is_write && type == SSL3_MT_CLIENT_HELLO) trace_client_hello(t, body);
}

void tls_trace_attach(SSL* ssl, TlsTrace* trace) {
  SSL_set_msg_callback(ssl, on_message);
  SSL_set_msg_callback_arg(ssl, trace);
}

void tls_trace_received(TlsTrace& t, std::string_view bytes) {
  while (t.first_record_have < t.first_record.size() && !bytes.empty()) {
    t.first_record[t.first_record_have++] = static_cast<uint8_t>(bytes.front());
    bytes.remove_prefix(1);
  }
}

std::string go_alert_text(uint8_t description) {
  for (const AlertName& a : kAlertNames) {
    if (a.description == description) return std::string("tls: ") + a.text;
  }
  return "tls: alert(" + std::to_string(description) + ")";
}

std::vector<TlsErrorEntry> drain_tls_errors() {
  std::vector<TlsErrorEntry> out;
  for (size_t i = 0; i < 16; ++i) {  // the queue holds at most 16
    const char* data = nullptr;
    int flags = 0;
    uint32_t packed = ERR_get_error_line_data(nullptr, nullptr, &data, &flags);
    if (packed == 0) break;
    TlsErrorEntry e;
    e.lib = ERR_GET_LIB(packed);
    e.reason = ERR_GET_REASON(packed);
    // The queue owns the data string: copied before it goes.
    if ((flags & ERR_FLAG_STRING) && data != nullptr) e.data = data;
    out.push_back(std::move(e));
  }
  ERR_clear_error();
  return out;
}

std::string go_tls_error_text(const TlsFailure& f) {
  const TlsTrace& t = f.trace;
  // conn.go readRecordOrCCS judges the first record header before anything
  // else is read.
  if (t.first_record_have == t.first_record.size()) {
    const uint8_t type = t.first_record[0];
    const unsigned version = (unsigned{t.first_record[1]} << 8) | t.first_record[2];
    if (type == 0x80) return "tls: unsupported SSLv2 handshake received";
    if ((type != SSL3_RT_ALERT && type != SSL3_RT_HANDSHAKE) || version >= 0x1000) {
      return "tls: first record does not look like a TLS handshake";
    }
  }
  // An alert from the server (conn.go: "remote error").
  for (const TlsErrorEntry& e : f.errors) {
    if (e.lib == ERR_LIB_SSL && e.reason >= SSL_AD_REASON_OFFSET && e.reason < SSL_AD_REASON_OFFSET + 256) {
      return "remote error: " + go_alert_text(static_cast<uint8_t>(e.reason - SSL_AD_REASON_OFFSET));
    }
  }
  for (const TlsErrorEntry& e : f.errors) {
    if (e.lib != ERR_LIB_SSL) continue;
    for (const Rule& r : kRules) {
      if (r.reason != e.reason) continue;
      std::string text = r.text ? std::string(r.text) : r.text_for(f);
      if (!text.empty()) return text;
    }
  }
  // A certificate whose key Go's crypto/x509 cannot parse (RSA-PSS, Ed448,
  // X448 SPKIs) parses with a nil key; handshake_client.go then refuses the
  // key's type.
  for (const TlsErrorEntry& e : f.errors) {
    if (e.lib == ERR_LIB_EVP && e.reason == EVP_R_UNSUPPORTED_ALGORITHM) {
      return "tls: server's certificate contains an unsupported type of public key: <nil>";
    }
  }
  // Nothing Go says the same way: Go's wording of the alert we sent (as
  // utls's sendAlert returns it), then what BoringSSL said.
  const TlsErrorEntry* first = nullptr;
  for (const TlsErrorEntry& e : f.errors) {
    if (first == nullptr || (first->lib != ERR_LIB_SSL && e.lib == ERR_LIB_SSL)) first = &e;
  }
  std::string detail = first ? boringssl_words(*first) : std::string();
  if (t.alert_sent > 0) {  // close_notify (0) is not an error
    std::string text = "local error: " + go_alert_text(static_cast<uint8_t>(t.alert_sent));
    if (!detail.empty() && !text.ends_with(detail)) text += " (" + detail + ")";
    return text;
  }
  return detail.empty() ? "tls: handshake failure" : "tls: " + detail;
}

}  // namespace tlsc
