// TLS to an HTTPS proxy. Upstream dials the proxy with Go's own crypto/tls
// (not the profile's ClientHello): default settings, the system roots, the
// proxy's host name as SNI and verification name, never insecureSkipVerify
// or the session's pins. We do the same with BoringSSL's defaults, except
// that ALPN offers only http/1.1 since CONNECT goes over HTTP/1.1 here
// (abi/COMPAT.md). Loop thread only.
#pragma once

#include <string>

#include <openssl/ssl.h>

#include "core/error.h"

namespace tlsc {

// A client SSL for a connection to the proxy `hostname`.
Result<bssl::UniquePtr<SSL>> new_proxy_tls_connection(const std::string& hostname);

}  // namespace tlsc
