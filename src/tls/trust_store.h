// The certificates a client trusts: the system roots, found where Go's
// crypto/x509 looks for them on Linux (SSL_CERT_FILE and SSL_CERT_DIR
// override the defaults, as in Go, which is how users and tests point the
// library at another CA bundle). Loaded once, on first use.
#pragma once

#include <openssl/x509.h>

namespace tlsc {

// A new reference to the shared store (the caller owns the reference).
X509_STORE* shared_trust_store();

}  // namespace tlsc
