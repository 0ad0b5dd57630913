#include "tls/tls_context.h"

#include <algorithm>
#include <mutex>

#include <brotli/decode.h>
#include <openssl/err.h>
#include <openssl/sha.h>
#include <openssl/x509v3.h>
#include <zlib.h>
#include <zstd.h>

#include "core/ascii.h"
#include "core/base64.h"
#include "platform/socket_address.h"
#include "tls/handshake_error_text.h"
#include "tls/hostname_error_text.h"
#include "tls/signature_policy.h"
#include "tls/spec_apply.h"
#include "tls/trust_store.h"

namespace tlsc {
namespace {

constexpr uint16_t kCertCompressionZstd = 3;  // RFC 8879 registry

int g_context_index = -1;  // SSL ex_data: TlsContext*
int g_key_index = -1;      // SSL ex_data: std::string* cache key

void free_key(void*, void* ptr, CRYPTO_EX_DATA*, int, long, void*) {
  delete static_cast<std::string*>(ptr);  // owner: the SSL it hangs off
}

void init_ex_indexes() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_context_index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    g_key_index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, &free_key);
  });
}

// Certificate compression (RFC 8879): the server may compress with any
// algorithm we offer; we only ever decompress.
constexpr size_t kMaxCertificateBytes = 1 << 20;

// Runs `inflate(data)` into a new buffer of exactly uncompressed_len bytes.
template <class Inflate>
int decompress_exactly(CRYPTO_BUFFER** out, size_t uncompressed_len, Inflate inflate) {
  if (uncompressed_len > kMaxCertificateBytes) return 0;
  uint8_t* data = nullptr;
  bssl::UniquePtr<CRYPTO_BUFFER> buf(CRYPTO_BUFFER_alloc(&data, uncompressed_len));
  if (!buf || !inflate(data)) return 0;
  *out = buf.release();
  return 1;
}

int decompress_brotli(SSL*, CRYPTO_BUFFER** out, size_t len, const uint8_t* in, size_t in_len) {
  return decompress_exactly(out, len, [&](uint8_t* data) {
    size_t n = len;
    return BrotliDecoderDecompress(in_len, in, &n, data) == BROTLI_DECODER_RESULT_SUCCESS && n == len;
  });
}

int decompress_zlib(SSL*, CRYPTO_BUFFER** out, size_t len, const uint8_t* in, size_t in_len) {
  return decompress_exactly(out, len, [&](uint8_t* data) {
    uLongf n = len;
    return uncompress(data, &n, in, in_len) == Z_OK && n == len;
  });
}

int decompress_zstd(SSL*, CRYPTO_BUFFER** out, size_t len, const uint8_t* in, size_t in_len) {
  return decompress_exactly(out, len, [&](uint8_t* data) {
    size_t n = ZSTD_decompress(data, len, in, in_len);
    return !ZSTD_isError(n) && n == len;
  });
}

// hpkp.Fingerprint: base64(SHA-256(SubjectPublicKeyInfo)).
std::string spki_pin(X509* cert) {
  uint8_t* der = nullptr;
  bssl::UniquePtr<EVP_PKEY> key(X509_get_pubkey(cert));
  int len = key ? i2d_PUBKEY(key.get(), &der) : 0;
  if (len <= 0) return {};
  uint8_t digest[SHA256_DIGEST_LENGTH];
  SHA256(der, static_cast<size_t>(len), digest);
  OPENSSL_free(der);
  return base64_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

}  // namespace

bool configure_client_context(SSL_CTX* ctx) {
  if (!SSL_CTX_set_min_proto_version(ctx, TLS1_VERSION)) return false;
  if (!SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION)) return false;
  SSL_CTX_set_grease_enabled(ctx, 1);
  // Go takes a Certificate message of up to 256 KiB (crypto/tls's
  // maxHandshakeCertificateMsg); BoringSSL's default stops at 100 KiB.
  SSL_CTX_set_max_cert_list(ctx, 256 << 10);
  // A server may compress its certificate with any algorithm a spec offers.
  return SSL_CTX_add_cert_compression_alg(ctx, TLSEXT_cert_compression_zlib, nullptr, decompress_zlib) &&
         SSL_CTX_add_cert_compression_alg(ctx, TLSEXT_cert_compression_brotli, nullptr, decompress_brotli) &&
         SSL_CTX_add_cert_compression_alg(ctx, kCertCompressionZstd, nullptr, decompress_zstd);
}

Result<std::unique_ptr<TlsContext>> TlsContext::create(TlsOptions options) {
  init_ex_indexes();
  std::unique_ptr<TlsContext> c(new TlsContext(std::move(options)));
  c->ctx_.reset(SSL_CTX_new(TLS_method()));
  if (!c->ctx_ || !configure_client_context(c->ctx_.get()) ||
      (c->options_.prepare_context && !c->options_.prepare_context(c->ctx_.get()))) {
    return make_error(ErrorCode::internal, "tls: cannot configure the client");
  }
  if (c->options_.insecure_skip_verify) {
    SSL_CTX_set_verify(c->ctx_.get(), SSL_VERIFY_NONE, nullptr);
  } else {
    X509_STORE* store = shared_trust_store();
    if (store == nullptr) return make_error(ErrorCode::internal, "tls: cannot load the system roots");
    SSL_CTX_set_cert_store(c->ctx_.get(), store);
    SSL_CTX_set_verify(c->ctx_.get(), SSL_VERIFY_PEER, refuse_insecure_signatures);
  }
  // Tickets from this session's servers resume its next connections, for
  // specs that list pre_shared_key: upstream gives a session cache only to
  // those (supportsSessionResumption); the others never resume, TLS 1.2
  // tickets included.
  const auto& exts = c->options_.spec.extensions;
  if (std::find(exts.begin(), exts.end(), ext::pre_shared_key) != exts.end()) {
    SSL_CTX_set_session_cache_mode(c->ctx_.get(), SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL);
    SSL_CTX_sess_set_new_cb(c->ctx_.get(), &TlsContext::on_new_session);
  } else {
    SSL_CTX_set_session_cache_mode(c->ctx_.get(), SSL_SESS_CACHE_OFF);
  }
  return c;
}

TlsContext::~TlsContext() = default;

int TlsContext::on_new_session(SSL* ssl, SSL_SESSION* session) {
  auto* self = static_cast<TlsContext*>(SSL_get_ex_data(ssl, g_context_index));
  auto* key = static_cast<std::string*>(SSL_get_ex_data(ssl, g_key_index));
  if (self == nullptr || key == nullptr) return 0;
  // BoringSSL is C: nothing may be thrown through it. Without memory for
  // the cache entry the ticket is simply not kept.
  try {
    self->sessions_[*key].reset(session);
  } catch (...) {
    return 0;
  }
  return 1;  // we took the reference
}

Result<bssl::UniquePtr<SSL>> TlsContext::new_connection(const std::string& host, uint16_t port,
                                                        uint64_t ticket_scope) {
  if (ticket_scope != ticket_scope_) {
    sessions_.clear();
    ticket_scope_ = ticket_scope;
  }
  bssl::UniquePtr<SSL> ssl(SSL_new(ctx_.get()));
  if (!ssl) return make_error(ErrorCode::internal, "tls: out of memory");
  std::string name = options_.server_name_overwrite.empty() ? host : options_.server_name_overwrite;
  // Go sends no SNI for an IP address, and verifies it against IP SANs.
  if (!is_ip_literal(name)) SSL_set_tlsext_host_name(ssl.get(), name.c_str());
  if (!options_.insecure_skip_verify) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl.get());
    int ok = is_ip_literal(name) ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                                 : X509_VERIFY_PARAM_set1_host(param, name.data(), name.size());
    if (!ok) return make_error(ErrorCode::invalid_input, "tls: invalid server name " + name);
  }
  if (is_ip_literal(name)) {
    // No SNI for an IP address (Chrome sends none either), so no
    // server_name extension in the list.
    ClientHelloSpec spec = options_.spec;
    std::erase(spec.extensions, ext::server_name);
    if (auto e = apply_client_hello_spec(ssl.get(), spec)) return *e;
  } else if (auto e = apply_client_hello_spec(ssl.get(), options_.spec)) {
    return *e;
  }
  auto key = std::make_unique<std::string>(host);
  *key += ':';
  *key += std::to_string(port);
  *key += '#';
  *key += std::to_string(ticket_scope);
  if (auto it = sessions_.find(*key); it != sessions_.end()) {
    SSL_set_session(ssl.get(), it->second.get());
    // TLS 1.3 tickets are used once, as Chrome uses them: a server can see a
    // ticket offered twice. The new connection brings fresh ones.
    if (SSL_SESSION_should_be_single_use(it->second.get())) sessions_.erase(it);
  }
  SSL_set_ex_data(ssl.get(), g_context_index, this);
  // The key lives as long as the SSL: freed by the stream with it.
  SSL_set_ex_data(ssl.get(), g_key_index, key.release());
  SSL_set_connect_state(ssl.get());
  return ssl;
}

std::optional<Error> TlsContext::check_pins(const SSL* ssl, const std::string& host) const {
  if (options_.pins.empty()) return std::nullopt;
  // Upstream (hpkp): an exact host entry, or a "*.parent" entry for any
  // subdomain of parent (and parent itself).
  const std::vector<std::string>* pins = nullptr;
  std::string h = ascii_lowercase(host);
  for (const auto& [pattern, list] : options_.pins) {
    std::string p = ascii_lowercase(pattern);
    if (p == h) {
      pins = &list;
      break;
    }
    if (p.starts_with("*.")) {
      std::string parent = p.substr(2);
      if (h == parent || (h.size() > parent.size() && h.ends_with("." + parent))) pins = &list;
    }
  }
  if (pins == nullptr) return std::nullopt;
  STACK_OF(X509)* chain = SSL_get_peer_full_cert_chain(ssl);
  std::vector<std::string> found;
  bool match = false;
  for (size_t i = 0; chain != nullptr && i < sk_X509_num(chain); ++i) {
    std::string pin = spki_pin(sk_X509_value(chain, i));
    for (const auto& want : *pins) match = match || want == pin;
    found.push_back(std::move(pin));
  }
  if (match) return std::nullopt;
  std::string list;
  for (size_t i = 0; i < found.size(); ++i) list += (i ? " " : "") + found[i];
  return make_error(ErrorCode::tls_pin, "bad ssl pin detected, found pins: [" + list + "]");
}

Error tls_handshake_error(const SSL* ssl, int ssl_error, const std::string& host, const TlsTrace* trace) {
  long verify = SSL_get_verify_result(ssl);
  // X509_V_ERR_INVALID_CALL: the handshake failed before verification ran.
  if (verify != X509_V_OK && verify != X509_V_ERR_INVALID_CALL) {
    std::string why;
    switch (verify) {
      case X509_V_ERR_HOSTNAME_MISMATCH:
      case X509_V_ERR_IP_ADDRESS_MISMATCH:
        why = hostname_error_text(bssl::UniquePtr<X509>(SSL_get_peer_certificate(ssl)).get(), host);
        break;
      case X509_V_ERR_CERT_HAS_EXPIRED:
        why = "x509: certificate has expired or is not yet valid: certificate has expired";
        break;
      case X509_V_ERR_CERT_NOT_YET_VALID:
        why = "x509: certificate has expired or is not yet valid: certificate is not yet valid";
        break;
      case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
      case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
      case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
      case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
      case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        why = "x509: certificate signed by unknown authority";
        break;
      case X509_V_ERR_APPLICATION_VERIFICATION:  // refuse_insecure_signatures
        why = insecure_signature_text(ssl);
        break;
      default:
        why = std::string("x509: ") + X509_verify_cert_error_string(verify);
    }
    ERR_clear_error();
    return make_error(ErrorCode::tls_verify, "tls: failed to verify certificate: " + why);
  }
  if (ssl_error == SSL_ERROR_ZERO_RETURN) {  // close_notify: Go's io.EOF
    ERR_clear_error();
    return eof_error(ErrorCode::tls_handshake);
  }
  TlsFailure failure;
  failure.errors = drain_tls_errors();
  // Set once the server's signature was parsed, before it was checked, so
  // the handshake state is there for SSL_get_session to read.
  for (const TlsErrorEntry& e : failure.errors) {
    if (e.lib == ERR_LIB_SSL && e.reason == SSL_R_BAD_SIGNATURE) {
      failure.peer_signature_algorithm = SSL_get_peer_signature_algorithm(ssl);
    }
  }
  if (trace != nullptr) failure.trace = *trace;
  return make_error(ErrorCode::tls_handshake, go_tls_error_text(failure));
}

}  // namespace tlsc
