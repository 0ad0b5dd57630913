// Go's crypto/x509 HostnameError text for a certificate that does not name
// the host: callers match on it ("x509: certificate is valid for a, b, not
// c"), and it tells the user which names the server's certificate has.
#pragma once

#include <string>

#include <openssl/x509.h>

namespace tlsc {

// The text (without "tls: failed to verify certificate: ") for a leaf
// that was checked against host (a DNS name, or an IP address without
// brackets).
std::string hostname_error_text(X509* leaf, const std::string& host);

}  // namespace tlsc
