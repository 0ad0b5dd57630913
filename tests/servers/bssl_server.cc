// A TLS server on our patched BoringSSL, for what only such a peer can
// show: certificate compression with a chosen algorithm, a
// record_size_limit answer the client must honour, 0-RTT accepted,
// records larger than the client's record_size_limit, and a signature that
// does not verify. Serves one HTTP/1.1 response per connection whose body
// reports what happened.
//   bssl_server CERT KEY [--compress zlib|brotli|zstd] [--record-size-limit N]
//               [--early-data accept|decline] [--oversized-records] [--pad N]
//               [--corrupt-signature] [--tls12]
// --early-data: tickets allow 0-RTT, and 0-RTT is accepted or declined (the
//   body says whether it was accepted, and whether the session resumed).
// --oversized-records: after the handshake, records of up to 16384 bytes
//   whatever limit the client advertised (and this server answered).
// --pad N: N more bytes of body ("padding" field).
// Prints {"port":N}; stops when stdin closes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include <brotli/encode.h>
#include <openssl/bytestring.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <zlib.h>
#include <zstd.h>

#include "loopback_listener.h"

namespace {

std::atomic<int> g_compressions{0};

// Declines 0-RTT on a connection that offers a session (its tickets then do
// not allow 0-RTT either).
enum ssl_select_cert_result_t decline_early_data(const SSL_CLIENT_HELLO* hello) {
  const uint8_t* data;
  size_t len;
  if (SSL_early_callback_ctx_extension_get(hello, TLSEXT_TYPE_pre_shared_key, &data, &len)) {
    SSL_set_early_data_enabled(hello->ssl, 0);
  }
  return ssl_select_cert_success;
}

int compress_zlib(SSL*, CBB* out, const uint8_t* in, size_t len) {
  uLongf n = compressBound(len);
  uint8_t* buf;
  if (!CBB_reserve(out, &buf, n) || compress(buf, &n, in, len) != Z_OK || !CBB_did_write(out, n)) return 0;
  ++g_compressions;
  return 1;
}
int compress_brotli(SSL*, CBB* out, const uint8_t* in, size_t len) {
  size_t n = BrotliEncoderMaxCompressedSize(len);
  uint8_t* buf;
  if (!CBB_reserve(out, &buf, n) ||
      !BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, len, in, &n,
                             buf) ||
      !CBB_did_write(out, n)) {
    return 0;
  }
  ++g_compressions;
  return 1;
}
int compress_zstd(SSL*, CBB* out, const uint8_t* in, size_t len) {
  size_t n = ZSTD_compressBound(len);
  uint8_t* buf;
  if (!CBB_reserve(out, &buf, n)) return 0;
  n = ZSTD_compress(buf, n, in, len, 3);
  if (ZSTD_isError(n) || !CBB_did_write(out, n)) return 0;
  ++g_compressions;
  return 1;
}

// --corrupt-signature: the handshake signature (TLS 1.3 CertificateVerify,
// TLS 1.2 ServerKeyExchange) is made with the real key, then one bit of it
// is flipped.
EVP_PKEY* g_signing_key = nullptr;

ssl_private_key_result_t sign_corrupted(SSL*, uint8_t* out, size_t* out_len, size_t max_out, uint16_t alg,
                                        const uint8_t* in, size_t in_len) {
  bssl::ScopedEVP_MD_CTX ctx;
  EVP_PKEY_CTX* pctx = nullptr;
  if (!EVP_DigestSignInit(ctx.get(), &pctx, SSL_get_signature_algorithm_digest(alg), nullptr,
                          g_signing_key)) {
    return ssl_private_key_failure;
  }
  if (SSL_is_signature_algorithm_rsa_pss(alg) &&
      (!EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) ||
       !EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, -1))) {
    return ssl_private_key_failure;
  }
  size_t len = max_out;
  if (!EVP_DigestSign(ctx.get(), out, &len, in, in_len) || len == 0) return ssl_private_key_failure;
  out[len - 1] ^= 1;  // the last byte: an ECDSA signature stays well-formed DER
  *out_len = len;
  return ssl_private_key_success;
}

ssl_private_key_result_t no_decrypt(SSL*, uint8_t*, size_t*, size_t, const uint8_t*, size_t) {
  return ssl_private_key_failure;
}
ssl_private_key_result_t no_complete(SSL*, uint8_t*, size_t*, size_t) { return ssl_private_key_failure; }

const SSL_PRIVATE_KEY_METHOD kCorruptingKey = {sign_corrupted, no_decrypt, no_complete};

struct Options {
  uint16_t rsl = 0;
  bool oversized_records = false;
  size_t pad = 0;
};

// Feeds BoringSSL from the socket through a memory BIO so that the size of
// every record the client sends can be seen.
void serve(SSL_CTX* ctx, int fd, const Options& opt) {
  bssl::UniquePtr<SSL> ssl(SSL_new(ctx));
  BIO* rbio = BIO_new(BIO_s_mem());
  BIO* wbio = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl.get(), rbio, wbio);
  SSL_set_accept_state(ssl.get());
  if (opt.rsl) SSL_set_record_size_limit(ssl.get(), opt.rsl);
  size_t max_record = 0, header_have = 0, body_left = 0;
  uint8_t header[5];
  bool handshake_done = false;
  std::string request;
  auto flush = [&] {
    const uint8_t* d;
    size_t n;
    if (BIO_mem_contents(wbio, &d, &n) && n) {
      (void)!write(fd, d, n);
      BIO_reset(wbio);
    }
  };
  for (int rounds = 0; rounds < 1000; ++rounds) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0) break;
    uint8_t buf[16384];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t i = 0; i < n;) {  // the size of every encrypted record
      if (body_left) {
        size_t take = std::min<size_t>(body_left, n - i);
        body_left -= take;
        i += take;
        continue;
      }
      header[header_have++] = buf[i++];
      if (header_have == 5) {
        body_left = (size_t{header[3]} << 8) | header[4];
        if (header[0] == 23) max_record = std::max(max_record, body_left);  // TLS 1.3: all encrypted
        header_have = 0;
      }
    }
    BIO_write(rbio, buf, static_cast<int>(n));
    if (!handshake_done) {
      // With 0-RTT accepted, SSL_do_handshake returns early (to read early
      // data) and SSL_read finishes the handshake below.
      int rc = SSL_do_handshake(ssl.get());
      flush();
      if (rc != 1) {
        if (SSL_get_error(ssl.get(), rc) == SSL_ERROR_WANT_READ) continue;
        break;
      }
      handshake_done = true;
    }
    char app[16384];
    int got;
    while ((got = SSL_read(ssl.get(), app, sizeof app)) > 0) request.append(app, got);
    flush();
    if (request.find("\r\n\r\n") != std::string::npos) {
      // Ignores the client's record_size_limit from here on.
      if (opt.oversized_records) SSL_set_max_send_fragment(ssl.get(), 16384);
      std::string body =
          "{\"cert_compressions\":" + std::to_string(g_compressions.load()) +
          ",\"max_client_record\":" + std::to_string(max_record) +
          ",\"session_reused\":" + (SSL_session_reused(ssl.get()) ? "true" : "false") +
          ",\"early_data_accepted\":" + (SSL_early_data_accepted(ssl.get()) ? "true" : "false") +
          ",\"padding\":\"" + std::string(opt.pad, 'p') + "\"}";
      std::string resp =
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
          std::to_string(body.size()) + "\r\n\r\n" + body;
      SSL_write(ssl.get(), resp.data(), static_cast<int>(resp.size()));
      flush();
      break;
    }
  }
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  std::string compress;
  Options opt;
  std::string early_data;
  bool corrupt_signature = false, tls12 = false;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "--compress" && has_value) compress = argv[++i];
    if (a == "--record-size-limit" && has_value) opt.rsl = static_cast<uint16_t>(std::atoi(argv[++i]));
    if (a == "--pad" && has_value) opt.pad = static_cast<size_t>(std::atol(argv[++i]));
    if (a == "--early-data" && has_value) early_data = argv[++i];
    if (a == "--oversized-records") opt.oversized_records = true;
    if (a == "--corrupt-signature") corrupt_signature = true;
    if (a == "--tls12") tls12 = true;
  }
  bssl::UniquePtr<SSL_CTX> ctx(SSL_CTX_new(TLS_method()));
  if (!SSL_CTX_use_certificate_chain_file(ctx.get(), argv[1]) ||
      !SSL_CTX_use_PrivateKey_file(ctx.get(), argv[2], SSL_FILETYPE_PEM)) {
    ERR_print_errors_fp(stderr);
    return 1;
  }
  if (corrupt_signature) {
    g_signing_key = SSL_CTX_get0_privatekey(ctx.get());
    SSL_CTX_set_private_key_method(ctx.get(), &kCorruptingKey);
  }
  if (tls12) SSL_CTX_set_max_proto_version(ctx.get(), TLS1_2_VERSION);
  if (compress == "zlib") SSL_CTX_add_cert_compression_alg(ctx.get(), 1, compress_zlib, nullptr);
  if (compress == "brotli") SSL_CTX_add_cert_compression_alg(ctx.get(), 2, compress_brotli, nullptr);
  if (compress == "zstd") SSL_CTX_add_cert_compression_alg(ctx.get(), 3, compress_zstd, nullptr);
  if (!early_data.empty()) SSL_CTX_set_early_data_enabled(ctx.get(), 1);
  if (early_data == "decline") SSL_CTX_set_select_certificate_cb(ctx.get(), decline_early_data);

  int s = testserver::listen_on_loopback_and_announce(16);
  if (s < 0) return 1;
  for (;;) {
    int fd = accept(s, nullptr, nullptr);
    if (fd >= 0) serve(ctx.get(), fd, opt);
  }
}
