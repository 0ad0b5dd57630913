#include "conn/proxy/proxy_tls.h"

#include <mutex>

#include "platform/socket_address.h"
#include "tls/signature_policy.h"
#include "tls/trust_store.h"

namespace tlsc {
namespace {

// One context for every proxy connection of the process; made on first use.
SSL_CTX* proxy_context() {
  static SSL_CTX* ctx = [] {
    SSL_CTX* c = SSL_CTX_new(TLS_method());
    if (c == nullptr) return c;
    SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);  // Go's client default
    SSL_CTX_set_max_proto_version(c, TLS1_3_VERSION);
    static const uint8_t kAlpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    SSL_CTX_set_alpn_protos(c, kAlpn, sizeof kAlpn);
    X509_STORE* store = shared_trust_store();
    if (store == nullptr) {
      SSL_CTX_free(c);
      return static_cast<SSL_CTX*>(nullptr);
    }
    SSL_CTX_set_cert_store(c, store);
    SSL_CTX_set_verify(c, SSL_VERIFY_PEER, refuse_insecure_signatures);
    return c;
  }();
  return ctx;
}

}  // namespace

Result<bssl::UniquePtr<SSL>> new_proxy_tls_connection(const std::string& hostname) {
  SSL_CTX* ctx = proxy_context();
  if (ctx == nullptr) return make_error(ErrorCode::internal, "tls: cannot load the system roots");
  bssl::UniquePtr<SSL> ssl(SSL_new(ctx));
  if (!ssl) return make_error(ErrorCode::internal, "tls: out of memory");
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl.get());
  bool ip = is_ip_literal(hostname);
  int ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, hostname.c_str())
              : X509_VERIFY_PARAM_set1_host(param, hostname.data(), hostname.size());
  if (!ok) return make_error(ErrorCode::invalid_input, "tls: invalid server name " + hostname);
  if (!ip) SSL_set_tlsext_host_name(ssl.get(), hostname.c_str());
  SSL_set_connect_state(ssl.get());
  return ssl;
}

}  // namespace tlsc
