// A ClientHelloSpec, applied to one SSL through our BoringSSL patches
// (docs/boringssl-patches.md lists which call each field becomes).
#pragma once

#include <openssl/ssl.h>

#include <optional>
#include <string_view>

#include "core/error.h"
#include "tls/client_hello_spec.h"

namespace tlsc {

// What this build can speak: HTTP/1.1 only until HTTP/2 lands, so "h2"
// leaves ALPN and takes its ALPS extension with it.
ClientHelloSpec restrict_to_http1(ClientHelloSpec spec);

std::optional<Error> apply_client_hello_spec(SSL* ssl, const ClientHelloSpec& spec);

}  // namespace tlsc
