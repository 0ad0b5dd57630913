// A ClientHelloSpec, applied to one SSL through our BoringSSL patches
// (docs/boringssl-patches.md lists which call each field becomes).
#pragma once

#include <optional>
#include <string_view>

#include <openssl/ssl.h>

#include "core/error.h"
#include "tls/client_hello_spec.h"

namespace tlsc {

// forceHttp1: ALPN offers "http/1.1" alone, as utls's UClient does; ALPS
// keeps only protocols still in ALPN (BoringSSL sends ALPS for those only),
// and goes when none is left.
ClientHelloSpec restrict_to_http1(ClientHelloSpec spec);

std::optional<Error> apply_client_hello_spec(SSL* ssl, const ClientHelloSpec& spec);

}  // namespace tlsc
