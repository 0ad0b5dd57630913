// Go's signature algorithm policy for certificate chains, on top of
// BoringSSL's verifier: crypto/x509 (Go 1.24, which upstream builds with)
// refuses MD5 and SHA-1 signatures on every certificate but the trust
// anchor; BoringSSL still accepts them.
#pragma once

#include <string>

#include <openssl/ssl.h>

namespace tlsc {

// An X509 verify callback (SSL_CTX_set_verify): fails the chain with
// X509_V_ERR_APPLICATION_VERIFICATION at the first certificate below the
// anchor signed with an insecure algorithm.
int refuse_insecure_signatures(int ok, X509_STORE_CTX* store);

// Go's text for that failure (its UnknownAuthorityError with the hint),
// from the certificates the server sent.
std::string insecure_signature_text(const SSL* ssl);

}  // namespace tlsc
