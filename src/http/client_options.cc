#include "http/client_options.h"

namespace tlsc {

std::optional<Error> set_proxy(ClientOptions& o, const std::string& proxy_url) {
  std::optional<ProxyEndpoint> endpoint;
  if (!proxy_url.empty()) {
    auto parsed = parse_proxy_url(proxy_url);
    if (!parsed) {
      return make_error(ErrorCode::invalid_input,
                        "failed to build client out of request input: " + parsed.error().message);
    }
    endpoint = std::move(*parsed);
  }
  o.proxy_url = proxy_url;
  o.proxy = std::move(endpoint);
  ++o.proxy_generation;
  return std::nullopt;
}

void apply_modification(ClientOptions& o, const ClientModification& m) {
  // SetProxy when the URL differs or the proxy rotates. A URL SetProxy
  // cannot use is rolled back silently, so the session keeps its proxy.
  if (m.proxy_url && (*m.proxy_url != o.proxy_url || m.rotating_proxy)) (void)set_proxy(o, *m.proxy_url);
  o.rotating_proxy = m.rotating_proxy;
  o.follow_redirects = m.follow_redirects;
}

}  // namespace tlsc
