#include "abi/client_options_input.h"

#include <charconv>

#include "abi/custom_tls_client.h"
#include "profiles/registry.h"

namespace tlsc {
namespace {

Result<SocketAddress> parse_local_address(const std::string& text) {
  // Go's net.ResolveTCPAddr wants "host:port"; a bare IP is accepted too,
  // since binding to an address with port 0 is what callers mean by it.
  if (auto addr = SocketAddress::from_ip_literal(text, 0)) return *addr;
  std::string host = text, port = "0";
  if (size_t colon = text.rfind(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
  }
  unsigned p = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
  bool port_ok = ec == std::errc() && end == port.data() + port.size() && p <= 65535;
  auto addr = port_ok ? SocketAddress::from_ip_literal(host, static_cast<uint16_t>(p)) : std::nullopt;
  if (!addr) {
    return make_error(ErrorCode::invalid_input,
                      "failed to build client out of request input: failed to resolve tcp "
                      "address from local " +
                          text + " address: invalid local address");
  }
  return *addr;
}

TransportOptions transport_options_from(const TransportOptionsInput& in) {
  TransportOptions t;
  t.given = true;
  if (in.idle_conn_timeout_ns)
    t.idle_conn_timeout = std::chrono::milliseconds(*in.idle_conn_timeout_ns / 1000000);
  t.max_idle_conns = in.max_idle_conns;
  t.max_idle_conns_per_host = in.max_idle_conns_per_host;
  t.max_conns_per_host = in.max_conns_per_host;
  t.max_response_header_bytes = in.max_response_header_bytes;
  t.write_buffer_size = in.write_buffer_size;
  t.read_buffer_size = in.read_buffer_size;
  t.disable_keep_alives = in.disable_keep_alives;
  t.disable_compression = in.disable_compression;
  return t;
}

}  // namespace

Result<ClientOptions> client_options_from_input(const RequestInput& in) {
  if (!in.tls_client_identifier.empty() && in.custom_tls_client) {
    return make_error(ErrorCode::invalid_input,
                      "cannot build client out of client identifier and custom tls client "
                      "information. Please provide only one of them");
  }
  if (in.timeout_seconds != 0 && in.timeout_milliseconds != 0) {
    return make_error(ErrorCode::invalid_input,
                      "cannot build client with both defined timeout in seconds and timeout in "
                      "milliseconds. Please provide only one of them");
  }
  ClientOptions o;
  if (in.custom_tls_client) {
    o.profile = "custom";
    // Upstream finds a bad spec only when it dials; checking it here gives
    // the same reason before any connection is made (abi/COMPAT.md).
    auto spec = spec_from_custom_tls_client(*in.custom_tls_client);
    if (!spec) {
      return make_error(ErrorCode::invalid_input,
                        "failed to build client out of request input: can not build http client "
                        "out of custom tls client information: " +
                            spec.error().message);
    }
    o.tls_spec = std::make_shared<const ClientHelloSpec>(std::move(*spec));
    o.h2 = std::make_shared<const H2Fingerprint>(h2_fingerprint_from_custom(*in.custom_tls_client));
  } else {
    // An unknown identifier gets upstream's default profile. The registry
    // lives as long as the process, so the options point into it without
    // owning anything (aliasing constructor, empty owner).
    const Profile& profile = find_profile(in.tls_client_identifier);
    o.profile = profile.name;
    o.tls_spec = std::shared_ptr<const ClientHelloSpec>(std::shared_ptr<const void>(), &profile.tls);
    o.h2 = std::shared_ptr<const H2Fingerprint>(std::shared_ptr<const void>(), &profile.h2);
    if (profile.quic_tls && profile.quic && profile.h3) {
      o.quic_tls = std::shared_ptr<const ClientHelloSpec>(std::shared_ptr<const void>(), &*profile.quic_tls);
      o.quic = std::shared_ptr<const QuicFingerprint>(std::shared_ptr<const void>(), &*profile.quic);
      o.h3 = std::shared_ptr<const H3Fingerprint>(std::shared_ptr<const void>(), &*profile.h3);
    }
  }
  // Go: a client timeout <= 0 means none. Cap the product so that huge
  // values cannot overflow the clock arithmetic.
  constexpr int64_t kMaxMs = int64_t{1} << 40;
  if (in.timeout_seconds != 0) {
    o.timeout =
        std::chrono::milliseconds(in.timeout_seconds > kMaxMs / 1000 ? kMaxMs : in.timeout_seconds * 1000);
  } else if (in.timeout_milliseconds != 0) {
    o.timeout = std::chrono::milliseconds(std::min(in.timeout_milliseconds, kMaxMs));
  }
  o.follow_redirects = in.follow_redirects;
  o.use_cookie_jar = !in.without_cookie_jar;
  o.insecure_skip_verify = in.insecure_skip_verify;
  o.force_http1 = in.force_http1;
  o.disable_http3 = in.disable_http3;
  o.protocol_racing = in.with_protocol_racing;
  o.alt_svc = in.with_alt_svc;
  o.random_tls_extension_order = in.with_random_tls_extension_order;
  o.debug = in.with_debug;
  // tls-client's validateConfig, its checks in its order and words.
  auto invalid_config = [](const char* why) {
    return make_error(ErrorCode::invalid_input,
                      std::string("failed to build client out of request input: invalid config: ") + why);
  };
  if (in.with_protocol_racing && in.disable_http3)
    return invalid_config("HTTP/3 racing cannot be enabled when HTTP/3 is disabled");
  if (in.with_protocol_racing && in.force_http1)
    return invalid_config("HTTP/3 racing cannot be enabled when HTTP/1 is forced");
  if (in.disable_ipv4 && in.disable_ipv6) return invalid_config("cannot disable both IPv4 and IPv6");
  if (!in.certificate_pinning_hosts.empty() && in.insecure_skip_verify)
    return invalid_config("certificate pinning cannot be used with insecure skip verify");
  if (in.disable_ipv4) o.families = AddressFamilies::ipv6_only;
  if (in.disable_ipv6) o.families = AddressFamilies::ipv4_only;
  if (in.local_address && !in.local_address->empty()) {
    auto addr = parse_local_address(*in.local_address);
    if (!addr) return addr.error();
    o.local_address = *addr;
  }
  if (in.transport_options) o.transport = transport_options_from(*in.transport_options);
  o.default_headers = in.default_headers;
  o.connect_headers = in.connect_headers;
  if (in.server_name_overwrite) o.server_name_overwrite = *in.server_name_overwrite;
  if (in.proxy_url) o.proxy_url = *in.proxy_url;  // checked by set_proxy
  o.rotating_proxy = in.is_rotating_proxy;
  o.certificate_pinning_hosts = in.certificate_pinning_hosts;
  return o;
}

ClientModification modification_from_input(const RequestInput& in) {
  ClientModification m;
  m.proxy_url = in.proxy_url;
  m.rotating_proxy = in.is_rotating_proxy;
  m.follow_redirects = in.follow_redirects;
  return m;
}

}  // namespace tlsc
