// The request options that change a profile's ClientHello, as upstream's
// utls UClient applies them to every spec (built-in or customTlsClient);
// forceHttp1 is restrict_to_http1 (spec_apply.h).
#pragma once

#include "tls/client_hello_spec.h"

namespace tlsc {

struct SpecOptions {
  bool disable_http3 = false;           // disableHttp3: "h3" leaves ALPN and ALPS
  bool random_extension_order = false;  // withRandomTLSExtensionOrder
};

ClientHelloSpec apply_spec_options(ClientHelloSpec spec, const SpecOptions& options);

}  // namespace tlsc
