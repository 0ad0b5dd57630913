// customTlsClient, the caller's own fingerprint, as the domain types the
// TLS and HTTP/2 layers take.
#pragma once

#include "abi/request_input.h"
#include "core/error.h"
#include "http/h2/h2_fingerprint.h"
#include "tls/client_hello_spec.h"

namespace tlsc {

// As upstream's GetSpecFactoryFromJa3String builds it: the JA3 string gives
// the cipher suites, the extension order, the groups and the point formats;
// the other fields fill their extensions. Errors keep upstream's wording
// ("unknown extension with id 99 provided").
Result<ClientHelloSpec> spec_from_custom_tls_client(const CustomTlsClientInput& custom);

// customTlsClient's HTTP/2 fields, as upstream's getCustomTlsClientProfile
// maps them (unknown setting names skipped, weights as Go's uint8 + 1).
H2Fingerprint h2_fingerprint_from_custom(const CustomTlsClientInput& custom);

}  // namespace tlsc
