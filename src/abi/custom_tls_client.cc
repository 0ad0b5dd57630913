// customTlsClient (a JA3 string and lists of names) as the ClientHello
// spec and HTTP/2 fingerprint it describes.
#include "abi/custom_tls_client.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_map>

namespace tlsc {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return out;
}

// strconv.ParseUint(s, base, bits) with Go's error text.
template <class T>
Result<T> parse_uint(std::string_view s, int base, int bits) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec == std::errc::invalid_argument || end != s.data() + s.size()) {
    return make_error(ErrorCode::invalid_input,
                      "strconv.ParseUint: parsing \"" + std::string(s) + "\": invalid syntax");
  }
  if (ec == std::errc::result_out_of_range || (bits < 64 && v >= (uint64_t{1} << bits))) {
    return make_error(ErrorCode::invalid_input,
                      "strconv.ParseUint: parsing \"" + std::string(s) + "\": value out of range");
  }
  return static_cast<T>(v);
}

const std::unordered_map<std::string_view, uint16_t>& signature_schemes() {
  static const std::unordered_map<std::string_view, uint16_t> m = {
      {"PKCS1WithSHA256", 0x0401},
      {"PKCS1WithSHA384", 0x0501},
      {"PKCS1WithSHA512", 0x0601},
      {"PSSWithSHA256", 0x0804},
      {"PSSWithSHA384", 0x0805},
      {"PSSWithSHA512", 0x0806},
      {"ECDSAWithP256AndSHA256", 0x0403},
      {"ECDSAWithP384AndSHA384", 0x0503},
      {"ECDSAWithP521AndSHA512", 0x0603},
      {"PKCS1WithSHA1", 0x0201},
      {"ECDSAWithSHA1", 0x0203},
      {"Ed25519", 0x0807},
      {"SHA224_RSA", 0x0301},
      {"SHA224_ECDSA", 0x0303},
  };
  return m;
}

Result<std::vector<uint16_t>> map_schemes(const std::vector<std::string>& names, const char* what) {
  std::vector<uint16_t> out;
  for (const auto& n : names) {
    auto it = signature_schemes().find(n);
    if (it != signature_schemes().end()) {
      out.push_back(it->second);
      continue;
    }
    auto v = parse_uint<uint16_t>(n, 16, 16);
    if (!v) return make_error(ErrorCode::invalid_input, n + " is not a valid " + what);
    out.push_back(*v);
  }
  return out;
}

}  // namespace

Result<ClientHelloSpec> spec_from_custom_tls_client(const CustomTlsClientInput& c) {
  ClientHelloSpec spec;
  auto sigs = map_schemes(c.supported_signature_algorithms, "supportedSignatureAlgorithm");
  if (!sigs) return sigs.error();
  spec.signature_algorithms = std::move(*sigs);
  auto dcs =
      map_schemes(c.supported_delegated_credentials_algorithms, "supportedDelegatedCredentialsAlgorithm");
  if (!dcs) return dcs.error();
  spec.delegated_credential_algorithms = std::move(*dcs);

  static const std::unordered_map<std::string_view, uint16_t> kKdf = {
      {"HKDF_SHA256", 1}, {"HKDF_SHA384", 2}, {"HKDF_SHA512", 3}};
  static const std::unordered_map<std::string_view, uint16_t> kAead = {
      {"AEAD_AES_128_GCM", 1}, {"AEAD_AES_256_GCM", 2}, {"AEAD_CHACHA20_POLY1305", 3}};
  for (const auto& cs : c.ech_candidate_cipher_suites) {
    auto k = kKdf.find(cs.kdf_id);
    auto a = kAead.find(cs.aead_id);
    if (k != kKdf.end() && a != kAead.end()) {
      spec.ech_grease.cipher_suites.emplace_back(k->second, a->second);
      continue;
    }
    auto kv = parse_uint<uint16_t>(cs.kdf_id, 16, 16);
    if (!kv) return make_error(ErrorCode::invalid_input, cs.kdf_id + " is not a valid KdfId");
    auto av = parse_uint<uint16_t>(cs.aead_id, 16, 16);
    if (!av) return make_error(ErrorCode::invalid_input, cs.aead_id + " is not a valid aeadId");
    spec.ech_grease.cipher_suites.emplace_back(*kv, *av);
  }
  spec.ech_grease.payload_lengths = c.ech_candidate_payloads;

  static const std::unordered_map<std::string_view, uint16_t> kVersions = {
      {"GREASE", kGrease}, {"1.3", 0x0304}, {"1.2", 0x0303}, {"1.1", 0x0302}, {"1.0", 0x0301}};
  for (const auto& v : c.supported_versions) {
    if (auto it = kVersions.find(v); it != kVersions.end()) spec.versions.push_back(it->second);
  }
  static const std::unordered_map<std::string_view, uint16_t> kCurves = {{"GREASE", kGrease},
                                                                         {"P256", 23},
                                                                         {"P384", 24},
                                                                         {"P521", 25},
                                                                         {"X25519", 29},
                                                                         {"P256Kyber768", 0xfe32},
                                                                         {"X25519Kyber512D", 0xfe30},
                                                                         {"X25519Kyber768", 0x6399},
                                                                         {"X25519Kyber768Old", 0xfe31},
                                                                         {"X25519MLKEM768", 0x11ec}};
  for (const auto& k : c.key_share_curves) {
    if (auto it = kCurves.find(k); it != kCurves.end()) spec.key_share_groups.push_back(it->second);
  }
  static const std::unordered_map<std::string_view, uint16_t> kCompression = {
      {"zlib", 1}, {"brotli", 2}, {"zstd", 3}};
  for (const auto& a : c.cert_compression_algos) {
    if (auto it = kCompression.find(a); it != kCompression.end()) spec.cert_compression.push_back(it->second);
  }
  spec.alpn = c.alpn_protocols;
  spec.alps = c.alps_protocols;
  spec.record_size_limit = c.record_size_limit;

  // The JA3 string: version,ciphers,extensions,curves,point formats.
  auto parts = split(c.ja3_string, ',');
  if (parts.size() < 5) {
    return make_error(ErrorCode::invalid_input,
                      "invalid ja3 string \"" + c.ja3_string + "\": want 5 comma-separated fields");
  }
  if (!parts[3].empty()) {
    for (auto g : split(parts[3], '-')) {
      auto v = parse_uint<uint16_t>(g, 10, 16);
      if (!v) return v.error();
      spec.supported_groups.push_back(*v);
    }
  }
  if (!parts[4].empty()) {
    for (auto p : split(parts[4], '-')) {
      auto v = parse_uint<uint8_t>(p, 10, 8);
      if (!v) return v.error();
      spec.point_formats.push_back(*v);
    }
  }
  // The extensions the builder can fill, as upstream's base map; 27 only
  // when compression algorithms were given.
  static const std::set<uint16_t> kKnown = {ext::server_name,
                                            ext::status_request,
                                            ext::supported_groups,
                                            ext::ec_point_formats,
                                            ext::signature_algorithms,
                                            ext::alpn,
                                            ext::signed_certificate_timestamp,
                                            ext::padding,
                                            ext::extended_master_secret,
                                            ext::record_size_limit,
                                            ext::delegated_credentials,
                                            ext::session_ticket,
                                            ext::pre_shared_key,
                                            ext::early_data,
                                            ext::supported_versions,
                                            ext::cookie,
                                            ext::psk_key_exchange_modes,
                                            ext::key_share,
                                            ext::next_protocol_negotiation,
                                            ext::application_settings_old,
                                            ext::application_settings,
                                            ext::encrypted_client_hello,
                                            ext::renegotiation_info};
  for (auto e : split(parts[2], '-')) {
    auto v = parse_uint<uint16_t>(e, 10, 16);
    if (!v) return v.error();
    bool known = *v == kGrease || kKnown.count(*v) != 0 ||
                 (*v == ext::compress_certificate && !spec.cert_compression.empty());
    if (!known) {
      return make_error(ErrorCode::invalid_input,
                        "unknown extension with id " + std::string(e) + " provided");
    }
    spec.extensions.push_back(*v);
  }
  for (auto s : split(parts[1], '-')) {
    auto v = parse_uint<uint16_t>(s, 10, 16);
    if (!v) return v.error();
    spec.cipher_suites.push_back(*v);
  }
  // utls sends an extension the JA3 names even when its list is empty: a
  // zero-length list (BoringSSL would leave the extension out, or fill in
  // its own list).
  auto listed = [&](uint16_t e) {
    return std::find(spec.extensions.begin(), spec.extensions.end(), e) != spec.extensions.end();
  };
  const std::string empty_list("\0\0", 2);
  if (listed(ext::alpn) && spec.alpn.empty()) spec.raw_extensions[ext::alpn] = empty_list;
  for (uint16_t alps : {ext::application_settings, ext::application_settings_old}) {
    if (listed(alps) && spec.alps.empty()) spec.raw_extensions[alps] = empty_list;
  }
  if (listed(ext::signature_algorithms) && spec.signature_algorithms.empty()) {
    spec.raw_extensions[ext::signature_algorithms] = empty_list;
  }
  if (listed(ext::delegated_credentials) && spec.delegated_credential_algorithms.empty()) {
    spec.raw_extensions[ext::delegated_credentials] = empty_list;
  }
  if (listed(ext::supported_groups) && spec.supported_groups.empty()) {
    spec.raw_extensions[ext::supported_groups] = empty_list;
  }
  if (listed(ext::record_size_limit) && spec.record_size_limit == 0) {
    spec.raw_extensions[ext::record_size_limit] = empty_list;  // a limit of 0, as utls writes it
  }
  // utls (SetTLSVers) refuses a supported_versions extension with no
  // version in it when it builds the hello.
  if (listed(ext::supported_versions) &&
      std::none_of(spec.versions.begin(), spec.versions.end(), [](uint16_t v) { return v != kGrease; })) {
    return make_error(ErrorCode::invalid_input, "SupportedVersions extension has invalid Versions field");
  }
  return spec;
}

H2Fingerprint h2_fingerprint_from_custom(const CustomTlsClientInput& c) {
  H2Fingerprint f;
  // Upstream always builds a (possibly empty) settings map, so the order
  // list alone decides what goes out; a name missing from the map sends 0.
  for (const auto& name : c.h2_settings_order) {
    auto id = h2_setting_id(name);
    if (!id) continue;
    uint32_t value = 0;
    for (const auto& [k, v] : c.h2_settings) {
      if (k == name) value = v;
    }
    f.settings.emplace_back(*id, value);
  }
  f.connection_flow = c.connection_flow != 0 ? c.connection_flow : kFhttpDefaultConnectionFlow;
  auto to_priority = [](const PriorityParamInput& p) {
    return H2Priority{p.stream_dep & 0x7fffffff, p.exclusive, static_cast<uint16_t>((p.weight & 0xff) + 1)};
  };
  for (const auto& p : c.priority_frames) {
    f.priority_frames.push_back({p.stream_id, to_priority(p.priority_param)});
  }
  if (c.header_priority) {
    H2Priority p = to_priority(*c.header_priority);
    f.header_priority = is_zero_priority(p) ? std::nullopt : std::optional<H2Priority>(p);
  }
  for (const auto& p : c.pseudo_header_order) {
    if (is_request_pseudo_header(p)) {
      f.pseudo_header_order.push_back(p);
    }
  }
  f.first_stream_id = fhttp_first_stream_id(f, c.stream_id, c.allow_http);
  return f;
}

}  // namespace tlsc
