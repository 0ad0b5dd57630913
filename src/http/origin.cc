#include "http/origin.h"

#include "core/ascii.h"

namespace tlsc {

std::string pool_key(const Url& url, const ClientOptions& options) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on
  // operator+ chains of std::string here.
  std::string key = url.scheme;
  key += "://";
  key += url.host();
  if (url.port.empty()) {
    key += ':';
    key += std::to_string(url.effective_port());
  }
  if (options.proxy) {
    key += " via ";
    key += options.proxy->url;
    key += " #";
    key += std::to_string(options.proxy_generation);
  }
  return key;
}

DialPlan dial_plan(const Url& url, const ClientOptions& options, TlsContext* tls) {
  DialPlan p;
  p.host = url.hostname;
  p.port = url.effective_port();
  p.tls = tls;
  p.verify_name = options.server_name_overwrite.empty() ? url.hostname : options.server_name_overwrite;
  p.ticket_scope = options.proxy_generation;
  p.families = options.families;
  p.local_address = options.local_address;
  p.proxy = options.proxy;
  p.connect_headers = options.connect_headers;
  // The request's network as upstream's roundTripper names it (SOCKS
  // errors print it).
  if (options.families == AddressFamilies::ipv4_only) p.network = "tcp4";
  if (options.families == AddressFamilies::ipv6_only && url.scheme == "https") p.network = "tcp6";
  return p;
}

bool may_use_h3(const Url& url, const ClientOptions& options) {
  return (options.protocol_racing || options.alt_svc) && url.scheme == "https" && !options.force_http1 &&
         !options.disable_http3 && !options.proxy && options.quic && options.quic_tls && options.h3 &&
         http3_available();
}

std::string alt_svc_origin(const Url& url) {
  std::string origin = url.scheme;
  origin += "://";
  origin += ascii_lowercase(url.hostname);
  origin += ':';
  origin += std::to_string(url.effective_port());
  return origin;
}

H3DialPlan h3_dial_plan(const Url& url, const ClientOptions& options, TlsContext* quic_tls,
                        std::optional<uint16_t> alt_port) {
  H3DialPlan p;
  p.host = url.hostname;
  p.port = alt_port ? *alt_port : url.effective_port();
  p.families = options.families;
  p.tls = quic_tls;
  p.quic = options.quic;
  p.h3 = options.h3;
  if (options.transport.max_response_header_bytes > 0) {
    p.max_header_bytes = static_cast<size_t>(options.transport.max_response_header_bytes);
  }
  return p;
}

}  // namespace tlsc
