#include "tls/spec_options.h"

#include <algorithm>

namespace tlsc {

ClientHelloSpec apply_spec_options(ClientHelloSpec spec, const SpecOptions& o) {
  // disableHttp3 reaches UClient in the utls tls-client pins (v1.7.7);
  // our mirror of utls predates it. We take it to drop "h3" from ALPN and
  // ALPS (HTTP/3 is never offered over TCP then), and drop ALPS if nothing
  // is left in it. abi/COMPAT.md keeps this doubt.
  if (o.disable_http3) {
    std::erase(spec.alpn, std::string("h3"));
    std::erase(spec.alps, std::string("h3"));
    if (spec.alps.empty()) {
      std::erase_if(spec.extensions, [](uint16_t e) {
        return e == ext::application_settings || e == ext::application_settings_old;
      });
    }
  }
  // utls ShuffleChromeTLSExtensions, once per connection: GREASE, padding
  // and pre_shared_key keep their places (our BoringSSL patch 0020 fixes
  // the same three).
  if (o.random_extension_order) spec.permute_extensions = true;
  return spec;
}

}  // namespace tlsc
