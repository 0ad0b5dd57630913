#include "tls_harness.h"

#include <cstring>
#include <stdexcept>

#include <openssl/bn.h>
#include <openssl/bytestring.h>
#include <openssl/ec_key.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace bssltest {

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    ErrorInfo e = drain_errors();
    throw std::runtime_error(std::string(what) + " failed: " + e.text);
  }
}

bssl::UniquePtr<EVP_PKEY> make_key(KeyType type) {
  bssl::UniquePtr<EVP_PKEY> pkey(EVP_PKEY_new());
  check(pkey != nullptr, "EVP_PKEY_new");
  if (type == KeyType::kEcdsaP256) {
    bssl::UniquePtr<EC_KEY> ec(EC_KEY_new_by_curve_name(NID_X9_62_prime256v1));
    check(ec && EC_KEY_generate_key(ec.get()), "EC_KEY_generate_key");
    check(EVP_PKEY_assign_EC_KEY(pkey.get(), ec.release()), "assign EC");
  } else {
    bssl::UniquePtr<RSA> rsa(RSA_new());
    bssl::UniquePtr<BIGNUM> e(BN_new());
    check(rsa && e && BN_set_word(e.get(), RSA_F4) && RSA_generate_key_ex(rsa.get(), 2048, e.get(), nullptr),
          "RSA_generate_key_ex");
    check(EVP_PKEY_assign_RSA(pkey.get(), rsa.release()), "assign RSA");
  }
  return pkey;
}

TestCert make_cert(KeyType type) {
  TestCert tc;
  tc.key = make_key(type);
  tc.cert.reset(X509_new());
  X509* x = tc.cert.get();
  check(x != nullptr, "X509_new");
  check(X509_set_version(x, X509_VERSION_3), "X509_set_version");
  check(ASN1_INTEGER_set(X509_get_serialNumber(x), type == KeyType::kEcdsaP256 ? 1 : 2), "serial");
  check(X509_gmtime_adj(X509_getm_notBefore(x), -3600) != nullptr &&
            X509_gmtime_adj(X509_getm_notAfter(x), 86400L * 30) != nullptr,
        "validity");
  // Distinct subjects, so that the store finds each one as its own issuer.
  X509_NAME* name = X509_get_subject_name(x);
  const std::string cn = std::string(kTestHost) + (type == KeyType::kEcdsaP256 ? " ECDSA" : " RSA");
  check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const uint8_t*>(cn.c_str()), -1,
                                   -1, 0),
        "subject");
  check(X509_set_issuer_name(x, name), "issuer");
  check(X509_set_pubkey(x, tc.key.get()), "X509_set_pubkey");
  bssl::UniquePtr<X509_EXTENSION> san(X509V3_EXT_nconf_nid(nullptr, nullptr, NID_subject_alt_name,
                                                           (std::string("DNS:") + kTestHost).c_str()));
  check(san != nullptr && X509_add_ext(x, san.get(), -1), "subjectAltName");
  check(X509_sign(x, tc.key.get(), EVP_sha256()) != 0, "X509_sign");
  return tc;
}

}  // namespace

const TestCert& test_cert(KeyType type) {
  static const TestCert ecdsa = make_cert(KeyType::kEcdsaP256);
  static const TestCert rsa = make_cert(KeyType::kRsa2048);
  return type == KeyType::kEcdsaP256 ? ecdsa : rsa;
}

bssl::UniquePtr<SSL_CTX> make_client_ctx() {
  bssl::UniquePtr<SSL_CTX> ctx(SSL_CTX_new(TLS_method()));
  check(ctx != nullptr, "SSL_CTX_new");
  X509_STORE* store = SSL_CTX_get_cert_store(ctx.get());
  check(X509_STORE_add_cert(store, test_cert(KeyType::kEcdsaP256).cert.get()) &&
            X509_STORE_add_cert(store, test_cert(KeyType::kRsa2048).cert.get()),
        "X509_STORE_add_cert");
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  return ctx;
}

bssl::UniquePtr<SSL_CTX> make_server_ctx(KeyType type) {
  bssl::UniquePtr<SSL_CTX> ctx(SSL_CTX_new(TLS_method()));
  check(ctx != nullptr, "SSL_CTX_new");
  const TestCert& tc = test_cert(type);
  check(SSL_CTX_use_certificate(ctx.get(), tc.cert.get()) && SSL_CTX_use_PrivateKey(ctx.get(), tc.key.get()),
        "server certificate");
  return ctx;
}

static int select_alpn(SSL*, const uint8_t** out, uint8_t* out_len, const uint8_t* in, unsigned in_len,
                       void*) {
  static const uint8_t kSupported[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  uint8_t* selected = nullptr;
  if (SSL_select_next_proto(&selected, out_len, in, in_len, kSupported, sizeof(kSupported)) !=
      OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

void set_server_alpn(SSL_CTX* ctx) { SSL_CTX_set_alpn_select_cb(ctx, select_alpn, nullptr); }

Bytes MemConn::take_output() {
  Bytes bytes;
  const uint8_t* data = nullptr;
  size_t len = 0;
  if (BIO_mem_contents(out, &data, &len) && len > 0) {
    bytes.assign(data, data + len);
    BIO_reset(out);
  }
  written.insert(written.end(), bytes.begin(), bytes.end());
  return bytes;
}

void MemConn::feed(const Bytes& bytes) {
  if (!bytes.empty()) {
    check(BIO_write(in, bytes.data(), static_cast<int>(bytes.size())) == static_cast<int>(bytes.size()),
          "BIO_write");
  }
}

static MemConn make_conn(SSL_CTX* ctx, bool client) {
  MemConn c;
  c.ssl.reset(SSL_new(ctx));
  check(c.ssl != nullptr, "SSL_new");
  c.in = BIO_new(BIO_s_mem());
  c.out = BIO_new(BIO_s_mem());
  check(c.in != nullptr && c.out != nullptr, "BIO_new");
  // An empty memory BIO means "no data yet", not end of file.
  BIO_set_mem_eof_return(c.in, -1);
  SSL_set_bio(c.ssl.get(), c.in, c.out);
  if (client) {
    SSL_set_connect_state(c.ssl.get());
    check(SSL_set_tlsext_host_name(c.ssl.get(), kTestHost) && SSL_set1_host(c.ssl.get(), kTestHost),
          "host name");
  } else {
    SSL_set_accept_state(c.ssl.get());
  }
  return c;
}

MemConn make_client(SSL_CTX* ctx) { return make_conn(ctx, true); }
MemConn make_server(SSL_CTX* ctx) { return make_conn(ctx, false); }

bool ErrorInfo::has_reason(int reason) const {
  for (uint32_t code : codes) {
    if (ERR_GET_REASON(code) == reason) return true;
  }
  return false;
}

ErrorInfo drain_errors() {
  ErrorInfo info;
  for (;;) {
    const char* data = nullptr;
    int flags = 0;
    uint32_t code = ERR_get_error_line_data(nullptr, nullptr, &data, &flags);
    if (code == 0) break;
    info.codes.push_back(code);
    char buf[256];
    ERR_error_string_n(code, buf, sizeof(buf));
    info.text += buf;
    if (data != nullptr && (flags & ERR_FLAG_STRING)) {
      info.text += " (";
      info.text += data;
      info.text += ")";
    }
    info.text += "\n";
  }
  return info;
}

Bytes client_first_flight(MemConn& client) {
  int ret = SSL_do_handshake(client.ssl.get());
  if (ret == 1 || SSL_get_error(client.ssl.get(), ret) != SSL_ERROR_WANT_READ) {
    ErrorInfo e = drain_errors();
    throw std::runtime_error("client did not wait for the server: " + e.text);
  }
  return client.take_output();
}

std::string HandshakeResult::describe() const {
  return "client errors:\n" + client_error.text + "server errors:\n" + server_error.text;
}

// One step of |conn|'s handshake: true if done, false if it waits; throws a
// failure into |err|.
static bool step(MemConn& conn, bool* failed, ErrorInfo* err) {
  int ret = SSL_do_handshake(conn.ssl.get());
  if (ret == 1) return true;
  int code = SSL_get_error(conn.ssl.get(), ret);
  if (code != SSL_ERROR_WANT_READ) {
    *failed = true;
    *err = drain_errors();
  }
  return false;
}

HandshakeResult run_handshake(MemConn& client, MemConn& server) {
  HandshakeResult res;
  bool c_done = false, s_done = false;
  for (int round = 0; round < 32; round++) {
    bool failed = false;
    if (!c_done) c_done = step(client, &failed, &res.client_error);
    Bytes cf = client.take_output();
    if (!cf.empty()) {
      res.client_flights.push_back(cf);
      server.feed(cf);
    }
    if (failed) return res;
    if (!s_done) s_done = step(server, &failed, &res.server_error);
    Bytes sf = server.take_output();
    client.feed(sf);
    if (failed) {
      // Let the client read the server's alert, for its error queue.
      step(client, &failed, &res.client_error);
      return res;
    }
    if (c_done && s_done && cf.empty() && sf.empty()) {
      res.ok = true;
      return res;
    }
  }
  res.client_error.text += "handshake did not finish in 32 rounds\n";
  return res;
}

static bool send_recv(MemConn& from, MemConn& to, size_t n, std::string* why) {
  Bytes data(n);
  for (size_t i = 0; i < n; i++) data[i] = static_cast<uint8_t>(i * 7 + 1);
  size_t sent = 0;
  while (sent < n) {
    int w = SSL_write(from.ssl.get(), data.data() + sent, static_cast<int>(n - sent));
    if (w <= 0) {
      *why = "SSL_write failed: " + drain_errors().text;
      return false;
    }
    sent += static_cast<size_t>(w);
  }
  to.feed(from.take_output());
  Bytes got;
  uint8_t buf[4096];
  while (got.size() < n) {
    int r = SSL_read(to.ssl.get(), buf, sizeof(buf));
    if (r <= 0) {
      int code = SSL_get_error(to.ssl.get(), r);
      // Post-handshake messages (tickets) may need a write back; retry once
      // the peer has had its turn.
      if (code == SSL_ERROR_WANT_READ) {
        *why = "SSL_read wants more data after " + std::to_string(got.size()) + " bytes";
      } else {
        *why = "SSL_read failed: " + drain_errors().text;
      }
      return false;
    }
    got.insert(got.end(), buf, buf + r);
  }
  from.feed(to.take_output());
  if (got != data) {
    *why = "data corrupted";
    return false;
  }
  return true;
}

bool exchange_data(MemConn& client, MemConn& server, size_t n, std::string* why) {
  return send_recv(client, server, n, why) && send_recv(server, client, n, why);
}

ScriptResult feed_client(MemConn& client, const Bytes& server_bytes) {
  ScriptResult res;
  client.feed(server_bytes);
  int ret = SSL_do_handshake(client.ssl.get());
  if (ret != 1 && SSL_get_error(client.ssl.get(), ret) != SSL_ERROR_WANT_READ) {
    res.failed = true;
    res.error = drain_errors();
  }
  res.client_output = client.take_output();
  return res;
}

const uint8_t kHelloRetryRequestRandom[32] = {
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
    0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

static void put_u16(Bytes& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v >> 8));
  b.push_back(static_cast<uint8_t>(v));
}

Bytes handshake_record(uint8_t msg_type, const Bytes& body) {
  Bytes msg;
  msg.push_back(msg_type);
  msg.push_back(static_cast<uint8_t>(body.size() >> 16));
  msg.push_back(static_cast<uint8_t>(body.size() >> 8));
  msg.push_back(static_cast<uint8_t>(body.size()));
  msg.insert(msg.end(), body.begin(), body.end());
  Bytes rec = {22, 0x03, 0x03};
  put_u16(rec, static_cast<uint16_t>(msg.size()));
  rec.insert(rec.end(), msg.begin(), msg.end());
  return rec;
}

Bytes server_hello_record(const ClientHello& ch, uint16_t cipher, const std::vector<Extension>& extensions,
                          bool hrr, bool fresh_session_id) {
  Bytes body;
  put_u16(body, 0x0303);
  if (hrr) {
    body.insert(body.end(), kHelloRetryRequestRandom, kHelloRetryRequestRandom + 32);
  } else {
    body.insert(body.end(), 32, 0x42);
  }
  if (fresh_session_id) {
    body.push_back(32);
    body.insert(body.end(), 32, 0x55);
  } else {
    body.push_back(static_cast<uint8_t>(ch.session_id.size()));
    body.insert(body.end(), ch.session_id.begin(), ch.session_id.end());
  }
  put_u16(body, cipher);
  body.push_back(0);  // compression
  Bytes exts;
  for (const Extension& e : extensions) {
    put_u16(exts, e.type);
    put_u16(exts, static_cast<uint16_t>(e.body.size()));
    exts.insert(exts.end(), e.body.begin(), e.body.end());
  }
  put_u16(body, static_cast<uint16_t>(exts.size()));
  body.insert(body.end(), exts.begin(), exts.end());
  return handshake_record(2, body);
}

Extension ext_u16(uint16_t type, uint16_t value) {
  Extension e;
  e.type = type;
  put_u16(e.body, value);
  return e;
}

}  // namespace bssltest
