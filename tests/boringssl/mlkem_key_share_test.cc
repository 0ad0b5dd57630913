// X25519MLKEM768 (patch 0011): a full handshake in memory on that group,
// and the shape of the ClientHello's key shares when it leads the list.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/bytestring.h>
#include <openssl/ec_key.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace {

// A throwaway P-256 server certificate, self-signed.
void make_server_identity(bssl::UniquePtr<EVP_PKEY>& key, bssl::UniquePtr<X509>& cert) {
  bssl::UniquePtr<EC_KEY> ec(EC_KEY_new_by_curve_name(NID_X9_62_prime256v1));
  REQUIRE(EC_KEY_generate_key(ec.get()));
  key.reset(EVP_PKEY_new());
  REQUIRE(EVP_PKEY_assign_EC_KEY(key.get(), ec.release()));
  cert.reset(X509_new());
  REQUIRE(X509_set_version(cert.get(), 2));
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const uint8_t*>("test"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  REQUIRE(X509_set_pubkey(cert.get(), key.get()));
  REQUIRE(X509_sign(cert.get(), key.get(), EVP_sha256()));
}

// Moves bytes between two SSLs until both finish the handshake.
bool handshake(SSL* client, SSL* server, std::string* first_client_flight) {
  for (int round = 0; round < 20; ++round) {
    int c = SSL_do_handshake(client);
    int s = SSL_do_handshake(server);
    BIO* cw = SSL_get_wbio(client);
    BIO* sw = SSL_get_wbio(server);
    const uint8_t* data;
    size_t len;
    if (BIO_mem_contents(cw, &data, &len) && len > 0) {
      if (first_client_flight && first_client_flight->empty())
        first_client_flight->assign(reinterpret_cast<const char*>(data), len);
      BIO_write(SSL_get_rbio(server), data, static_cast<int>(len));
      BIO_reset(cw);
    }
    if (BIO_mem_contents(sw, &data, &len) && len > 0) {
      BIO_write(SSL_get_rbio(client), data, static_cast<int>(len));
      BIO_reset(sw);
    }
    if (c == 1 && s == 1) return true;
  }
  return false;
}

struct Pair {
  bssl::UniquePtr<SSL_CTX> cctx{SSL_CTX_new(TLS_method())}, sctx{SSL_CTX_new(TLS_method())};
  bssl::UniquePtr<SSL> client, server;
  Pair(const char* client_groups, const char* server_groups) {
    bssl::UniquePtr<EVP_PKEY> key;
    bssl::UniquePtr<X509> cert;
    make_server_identity(key, cert);
    REQUIRE(SSL_CTX_use_PrivateKey(sctx.get(), key.get()));
    REQUIRE(SSL_CTX_use_certificate(sctx.get(), cert.get()));
    REQUIRE(SSL_CTX_set1_curves_list(cctx.get(), client_groups));
    REQUIRE(SSL_CTX_set1_curves_list(sctx.get(), server_groups));
    client.reset(SSL_new(cctx.get()));
    server.reset(SSL_new(sctx.get()));
    SSL_set_bio(client.get(), BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    SSL_set_bio(server.get(), BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    SSL_set_connect_state(client.get());
    SSL_set_accept_state(server.get());
  }
};

// key_share entries of a ClientHello record: (group, key bytes).
std::vector<std::pair<uint16_t, std::string>> key_shares(const std::string& record) {
  std::vector<std::pair<uint16_t, std::string>> out;
  CBS rec, hs, body, random, sid, suites, comp, exts;
  CBS_init(&rec, reinterpret_cast<const uint8_t*>(record.data()), record.size());
  uint8_t type;
  uint16_t version, len;
  if (!CBS_get_u8(&rec, &type) || !CBS_get_u16(&rec, &version) || !CBS_get_u16(&rec, &len)) return out;
  uint8_t hs_type;
  if (!CBS_get_u8(&rec, &hs_type) || !CBS_get_u24_length_prefixed(&rec, &hs)) return out;
  body = hs;
  uint16_t legacy;
  if (!CBS_get_u16(&body, &legacy) || !CBS_get_bytes(&body, &random, 32) ||
      !CBS_get_u8_length_prefixed(&body, &sid) || !CBS_get_u16_length_prefixed(&body, &suites) ||
      !CBS_get_u8_length_prefixed(&body, &comp) || !CBS_get_u16_length_prefixed(&body, &exts)) {
    return out;
  }
  while (CBS_len(&exts) > 0) {
    uint16_t ext_type;
    CBS ext;
    if (!CBS_get_u16(&exts, &ext_type) || !CBS_get_u16_length_prefixed(&exts, &ext)) return out;
    if (ext_type != 51) continue;
    CBS shares;
    if (!CBS_get_u16_length_prefixed(&ext, &shares)) return out;
    while (CBS_len(&shares) > 0) {
      uint16_t group;
      CBS key;
      if (!CBS_get_u16(&shares, &group) || !CBS_get_u16_length_prefixed(&shares, &key)) return out;
      out.emplace_back(group, std::string(reinterpret_cast<const char*>(CBS_data(&key)), CBS_len(&key)));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("X25519MLKEM768: a handshake on the hybrid group", "[boringssl][mlkem]") {
  Pair p("X25519MLKEM768:X25519", "X25519MLKEM768");
  std::string flight;
  REQUIRE(handshake(p.client.get(), p.server.get(), &flight));
  CHECK(SSL_get_curve_id(p.client.get()) == SSL_CURVE_X25519MLKEM768);
  CHECK(std::string(SSL_get_curve_name(SSL_CURVE_X25519MLKEM768)) == "X25519MLKEM768");
  // Data flows both ways under the negotiated keys.
  REQUIRE(SSL_write(p.client.get(), "ping", 4) == 4);
  const uint8_t* data;
  size_t len;
  BIO_mem_contents(SSL_get_wbio(p.client.get()), &data, &len);
  BIO_write(SSL_get_rbio(p.server.get()), data, static_cast<int>(len));
  char buf[8] = {};
  CHECK(SSL_read(p.server.get(), buf, sizeof buf) == 4);
  CHECK(std::string(buf, 4) == "ping");
}

TEST_CASE("X25519MLKEM768: shares as Chrome sends them (hybrid + an independent X25519)",
          "[boringssl][mlkem]") {
  Pair p("X25519MLKEM768:X25519:P-256", "X25519");
  std::string flight;
  REQUIRE(handshake(p.client.get(), p.server.get(), &flight));
  CHECK(SSL_get_curve_id(p.client.get()) == SSL_CURVE_X25519);
  auto shares = key_shares(flight);
  REQUIRE(shares.size() == 2);
  CHECK(shares[0].first == SSL_CURVE_X25519MLKEM768);
  CHECK(shares[0].second.size() == 1184 + 32);
  CHECK(shares[1].first == SSL_CURVE_X25519);
  CHECK(shares[1].second.size() == 32);
  // Two independent X25519 keys: reusing one is a giveaway for Chrome.
  CHECK(shares[0].second.substr(1184) != shares[1].second);
}

TEST_CASE("X25519MLKEM768: HelloRetryRequest to the hybrid group", "[boringssl][mlkem]") {
  // Shares go to the Kyber draft and X25519; the server wants the hybrid.
  Pair p("X25519Kyber:X25519MLKEM768:X25519", "X25519MLKEM768");
  REQUIRE(handshake(p.client.get(), p.server.get(), nullptr));
  CHECK(SSL_used_hello_retry_request(p.client.get()));
  CHECK(SSL_get_curve_id(p.client.get()) == SSL_CURVE_X25519MLKEM768);
}

TEST_CASE("X25519MLKEM768: one X25519 key for both shares when the spec says so (Firefox)",
          "[boringssl][mlkem]") {
  for (const char* server_group : {"X25519", "X25519MLKEM768"}) {
    INFO(server_group);
    for (int share : {1, 0}) {
      Pair p("X25519MLKEM768:X25519:P-256", server_group);
      const uint16_t shares_list[] = {SSL_CURVE_X25519MLKEM768, SSL_CURVE_X25519};
      REQUIRE(SSL_set_client_hello_key_shares(p.client.get(), shares_list, 2));
      SSL_set_client_hello_share_x25519_key(p.client.get(), share);
      std::string flight;
      REQUIRE(handshake(p.client.get(), p.server.get(), &flight));
      auto shares = key_shares(flight);
      REQUIRE(shares.size() == 2);
      REQUIRE(shares[0].second.size() == 1184 + 32);
      CHECK((shares[0].second.substr(1184) == shares[1].second) == (share == 1));
    }
  }
}
