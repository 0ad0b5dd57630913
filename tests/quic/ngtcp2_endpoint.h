// What the QUIC tests share: ngtcp2 endpoints (client or server) on our
// patched BoringSSL with ngtcp2's BoringSSL crypto callbacks, in memory.
#pragma once

#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_boringssl.h>

#include <chrono>
#include <cstring>

#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "boringssl/support/client_hello_parser.h"

namespace quictest {

using bssltest::Bytes;

inline ngtcp2_tstamp now_ns() {
  return static_cast<ngtcp2_tstamp>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

inline ngtcp2_cid random_cid(size_t len) {
  ngtcp2_cid cid{};
  cid.datalen = len;
  RAND_bytes(cid.data, len);
  return cid;
}

// One endpoint: its ngtcp2 connection, its SSL, and what it received.
struct Endpoint {
  ngtcp2_conn* conn = nullptr;
  bssl::UniquePtr<SSL> ssl;
  ngtcp2_crypto_conn_ref ref{};
  Bytes initial_crypto;  // CRYPTO data received at the Initial level, in order
  ~Endpoint() { ngtcp2_conn_del(conn); }
};

inline ngtcp2_conn* conn_of(ngtcp2_crypto_conn_ref* ref) {
  return static_cast<Endpoint*>(ref->user_data)->conn;
}

inline int recv_crypto_data(ngtcp2_conn* conn, ngtcp2_encryption_level level, uint64_t offset,
                            const uint8_t* data, size_t len, void* user_data) {
  auto* ep = static_cast<Endpoint*>(user_data);
  if (level == NGTCP2_ENCRYPTION_LEVEL_INITIAL && offset == ep->initial_crypto.size()) {
    ep->initial_crypto.insert(ep->initial_crypto.end(), data, data + len);
  }
  return ngtcp2_crypto_recv_crypto_data_cb(conn, level, offset, data, len, user_data);
}

inline void rand_cb(uint8_t* dest, size_t len, const ngtcp2_rand_ctx*) { RAND_bytes(dest, len); }

inline int new_cid(ngtcp2_conn*, ngtcp2_cid* cid, ngtcp2_stateless_reset_token* token, size_t len, void*) {
  *cid = random_cid(len);
  RAND_bytes(token->data, sizeof token->data);
  return 0;
}

inline ngtcp2_callbacks callbacks(bool client) {
  ngtcp2_callbacks cb{};
  if (client) {
    cb.client_initial = ngtcp2_crypto_client_initial_cb;
    cb.recv_retry = ngtcp2_crypto_recv_retry_cb;
  } else {
    cb.recv_client_initial = ngtcp2_crypto_recv_client_initial_cb;
  }
  cb.recv_crypto_data = recv_crypto_data;
  cb.encrypt = ngtcp2_crypto_encrypt_cb;
  cb.decrypt = ngtcp2_crypto_decrypt_cb;
  cb.hp_mask = ngtcp2_crypto_hp_mask_cb;
  cb.update_key = ngtcp2_crypto_update_key_cb;
  cb.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  cb.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  cb.get_path_challenge_data2 = ngtcp2_crypto_get_path_challenge_data2_cb;
  cb.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
  cb.rand = rand_cb;
  cb.get_new_connection_id2 = new_cid;
  return cb;
}

// The server's ALPN choice: "h3" if the client offers it.
inline int select_h3(SSL*, const uint8_t** out, uint8_t* out_len, const uint8_t* in, unsigned in_len, void*) {
  for (unsigned i = 0; i < in_len; i += 1u + in[i]) {
    if (in[i] == 2 && i + 3 <= in_len && std::memcmp(in + i + 1, "h3", 2) == 0) {
      *out = in + i + 1;
      *out_len = 2;
      return SSL_TLSEXT_ERR_OK;
    }
  }
  return SSL_TLSEXT_ERR_ALERT_FATAL;
}

}  // namespace quictest
