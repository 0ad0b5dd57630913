#include "tls/signature_policy.h"

#include <openssl/x509.h>

namespace tlsc {
namespace {

// Go's name for an algorithm it refuses, or nullptr.
const char* insecure_signature_algorithm(const X509* cert) {
  switch (X509_get_signature_nid(cert)) {
    case NID_md5WithRSAEncryption:
      return "MD5-RSA";
    case NID_sha1WithRSAEncryption:
    case NID_sha1WithRSA:
      return "SHA1-RSA";
    case NID_ecdsa_with_SHA1:
      return "ECDSA-SHA1";
    case NID_dsaWithSHA1:
      return "DSA-SHA1";
    default:
      return nullptr;
  }
}

std::string name_entry(const X509_NAME* name, int nid) {
  int i = X509_NAME_get_index_by_NID(name, nid, -1);
  if (i < 0) return "";
  const ASN1_STRING* value = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i));
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value)),
                     static_cast<size_t>(ASN1_STRING_length(value)));
}

}  // namespace

// BoringSSL calls this for each certificate of the built chain, the anchor
// included, with ok = 1 once its signature checked out.
int refuse_insecure_signatures(int ok, X509_STORE_CTX* store) {
  if (!ok) return 0;
  STACK_OF(X509)* chain = X509_STORE_CTX_get0_chain(store);
  const int depth = X509_STORE_CTX_get_error_depth(store);
  if (chain == nullptr || depth + 1 >= static_cast<int>(sk_X509_num(chain))) return 1;
  if (insecure_signature_algorithm(X509_STORE_CTX_get_current_cert(store)) == nullptr) return 1;
  X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
  return 0;
}

// The first certificate the server sent (self-issued ones aside) with an
// insecure signature; Go names the candidate authority by its subject's CN
// (else O), which is this certificate's issuer.
std::string insecure_signature_text(const SSL* ssl) {
  STACK_OF(X509)* chain = SSL_get_peer_full_cert_chain(ssl);
  for (size_t i = 0; chain != nullptr && i < sk_X509_num(chain); ++i) {
    const X509* cert = sk_X509_value(chain, i);
    const char* algorithm = insecure_signature_algorithm(cert);
    if (algorithm == nullptr || X509_NAME_cmp(X509_get_issuer_name(cert), X509_get_subject_name(cert)) == 0) {
      continue;
    }
    std::string authority = name_entry(X509_get_issuer_name(cert), NID_commonName);
    if (authority.empty()) authority = name_entry(X509_get_issuer_name(cert), NID_organizationName);
    return std::string(
               "x509: certificate signed by unknown authority (possibly because of "
               "\"x509: cannot verify signature: insecure algorithm ") +
           algorithm + "\" while trying to verify candidate authority certificate \"" + authority + "\")";
  }
  return "x509: cannot verify signature: insecure algorithm";
}

}  // namespace tlsc
