#include "tls/spec_apply.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

namespace tlsc {

extern const char kChrome133Profile[];  // generated from profiles/chrome_133.json

namespace {

using json = nlohmann::json;

// "GREASE", "0x1301" or "4865" (or a JSON number).
std::optional<uint16_t> code_point(const json& v) {
  if (v.is_number_unsigned() && v.get<uint64_t>() <= 0xffff) return static_cast<uint16_t>(v.get<uint64_t>());
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "GREASE") return kGrease;
  int base = 10;
  std::string_view digits = s;
  if (digits.starts_with("0x")) {
    base = 16;
    digits.remove_prefix(2);
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || end != digits.data() + digits.size() || value > 0xffff) return std::nullopt;
  return static_cast<uint16_t>(value);
}

Result<std::vector<uint16_t>> code_points(const json& tls, const char* key) {
  std::vector<uint16_t> out;
  if (!tls.contains(key)) return out;
  if (!tls[key].is_array()) return make_error(ErrorCode::invalid_input, std::string(key) + ": not a list");
  for (const auto& v : tls[key]) {
    auto cp = code_point(v);
    if (!cp) return make_error(ErrorCode::invalid_input, std::string(key) + ": bad value " + v.dump());
    out.push_back(*cp);
  }
  return out;
}

std::string length_prefixed_u8(const std::vector<uint8_t>& values) {
  std::string body(1, static_cast<char>(values.size()));
  for (uint8_t v : values) body.push_back(static_cast<char>(v));
  return body;
}

}  // namespace

Result<ClientHelloSpec> spec_from_profile_json(std::string_view json_text) {
  json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("tls") || !doc["tls"].is_object()) {
    return make_error(ErrorCode::invalid_input, "profile: no \"tls\" object");
  }
  const json& tls = doc["tls"];
  ClientHelloSpec spec;
  struct List { const char* key; std::vector<uint16_t>* out; };
  for (List l : {List{"cipher_suites", &spec.cipher_suites}, List{"extensions", &spec.extensions},
                 List{"supported_groups", &spec.supported_groups},
                 List{"key_share_groups", &spec.key_share_groups},
                 List{"signature_algorithms", &spec.signature_algorithms},
                 List{"delegated_credential_algorithms", &spec.delegated_credential_algorithms},
                 List{"versions", &spec.versions}, List{"cert_compression", &spec.cert_compression}}) {
    auto v = code_points(tls, l.key);
    if (!v) return v.error();
    *l.out = std::move(*v);
  }
  try {
    spec.permute_extensions = tls.value("permute_extensions", false);
    spec.share_x25519_key = tls.value("share_x25519_key", false);
    spec.point_formats = tls.value("point_formats", std::vector<uint8_t>{0});
    spec.alpn = tls.value("alpn", std::vector<std::string>{});
    spec.alps = tls.value("alps", std::vector<std::string>{});
    spec.record_size_limit = tls.value("record_size_limit", uint16_t{0});
    spec.psk_modes = tls.value("psk_modes", std::vector<uint8_t>{1});
    if (tls.contains("ech_grease")) {
      const json& e = tls["ech_grease"];
      for (const auto& pair : e.value("cipher_suites", json::array())) {
        auto k = code_point(pair.at(0));
        auto a = code_point(pair.at(1));
        if (!k || !a) return make_error(ErrorCode::invalid_input, "ech_grease: bad cipher suite");
        spec.ech_grease.cipher_suites.emplace_back(*k, *a);
      }
      spec.ech_grease.payload_lengths = e.value("payload_lengths", std::vector<uint16_t>{});
    }
  } catch (const json::exception& e) {
    return make_error(ErrorCode::invalid_input, std::string("profile: ") + e.what());
  }
  return spec;
}

const ClientHelloSpec& builtin_client_hello_spec(std::string_view profile) {
  static const ClientHelloSpec chrome = [] {
    auto s = spec_from_profile_json(kChrome133Profile);
    return s ? *s : ClientHelloSpec{};
  }();
  // The *_PSK identifiers differ from their base in one thing: they offer
  // pre_shared_key (last), so the next connection of a session resumes.
  static const ClientHelloSpec chrome_psk = [] {
    ClientHelloSpec s = chrome;
    s.extensions.push_back(ext::pre_shared_key);
    return s;
  }();
  return profile.find("_PSK") != std::string_view::npos ? chrome_psk : chrome;
}

ClientHelloSpec restrict_to_http1(ClientHelloSpec spec) {
  if (!spec.alpn.empty()) spec.alpn = {"http/1.1"};
  std::erase_if(spec.alps, [&](const std::string& p) {
    return std::find(spec.alpn.begin(), spec.alpn.end(), p) == spec.alpn.end();
  });
  if (spec.alps.empty()) {
    std::erase_if(spec.extensions, [](uint16_t e) {
      return e == ext::application_settings || e == ext::application_settings_old;
    });
  }
  return spec;
}

std::optional<Error> apply_client_hello_spec(SSL* ssl, const ClientHelloSpec& spec) {
  auto fail = [](const char* what) {
    return make_error(ErrorCode::tls, std::string("tls: cannot apply the ClientHello spec: ") + what);
  };
  auto has = [&](uint16_t e) {
    return std::find(spec.extensions.begin(), spec.extensions.end(), e) != spec.extensions.end();
  };
  if (!spec.cipher_suites.empty() &&
      !SSL_set_client_hello_cipher_suites(ssl, spec.cipher_suites.data(), spec.cipher_suites.size())) {
    return fail("cipher suites");
  }
  if (!spec.supported_groups.empty() &&
      !SSL_set_client_hello_groups(ssl, spec.supported_groups.data(), spec.supported_groups.size())) {
    return fail("groups");
  }
  if (!spec.key_share_groups.empty() &&
      !SSL_set_client_hello_key_shares(ssl, spec.key_share_groups.data(), spec.key_share_groups.size())) {
    return fail("key shares");
  }
  SSL_set_client_hello_share_x25519_key(ssl, spec.share_x25519_key ? 1 : 0);
  if (!spec.signature_algorithms.empty() &&
      !SSL_set_client_hello_signature_algorithms(ssl, spec.signature_algorithms.data(),
                                                 spec.signature_algorithms.size())) {
    return fail("signature algorithms");
  }
  if (!spec.delegated_credential_algorithms.empty() &&
      !SSL_set_client_hello_delegated_credentials(ssl, spec.delegated_credential_algorithms.data(),
                                                  spec.delegated_credential_algorithms.size())) {
    return fail("delegated credentials");
  }
  if (!spec.versions.empty() &&
      !SSL_set_client_hello_versions(ssl, spec.versions.data(), spec.versions.size())) {
    return fail("versions");
  }
  if (!spec.cert_compression.empty() &&
      !SSL_set_client_hello_cert_compression_algs(ssl, spec.cert_compression.data(),
                                                  spec.cert_compression.size())) {
    return fail("certificate compression");
  }
  if (spec.record_size_limit != 0 && !SSL_set_record_size_limit(ssl, spec.record_size_limit)) {
    return fail("record_size_limit");
  }
  if (!spec.alpn.empty()) {
    std::string wire;
    for (const auto& p : spec.alpn) {
      wire.push_back(static_cast<char>(p.size()));
      wire += p;
    }
    if (SSL_set_alpn_protos(ssl, reinterpret_cast<const uint8_t*>(wire.data()), wire.size()) != 0) {
      return fail("alpn");
    }
  }
  if (!spec.alps.empty()) {
    SSL_set_alps_use_new_codepoint(ssl, has(ext::application_settings) ? 1 : 0);
    for (const auto& p : spec.alps) {
      if (!SSL_add_application_settings(ssl, reinterpret_cast<const uint8_t*>(p.data()), p.size(),
                                        nullptr, 0)) {
        return fail("alps");
      }
    }
  }
  if (has(ext::status_request)) SSL_enable_ocsp_stapling(ssl);
  if (has(ext::signed_certificate_timestamp)) SSL_enable_signed_cert_timestamps(ssl);
  if (has(ext::encrypted_client_hello)) {
    SSL_set_enable_ech_grease(ssl, 1);
    if (!spec.ech_grease.cipher_suites.empty() || !spec.ech_grease.payload_lengths.empty()) {
      std::vector<uint16_t> pairs;  // kdf, aead, kdf, aead, ...
      for (auto [k, a] : spec.ech_grease.cipher_suites) {
        pairs.push_back(k);
        pairs.push_back(a);
      }
      if (!SSL_set_client_hello_ech_grease(ssl, pairs.data(), spec.ech_grease.cipher_suites.size(),
                                           spec.ech_grease.payload_lengths.data(),
                                           spec.ech_grease.payload_lengths.size())) {
        return fail("ech grease");
      }
    }
  }
  // BoringSSL leaves out the TLS 1.2-only extensions when a spec offers
  // TLS 1.3 alone; the spec still lists them, so their bodies go out as
  // given (as utls sends them).
  const bool offers_tls12 = spec.versions.empty() ||
                            std::find(spec.versions.begin(), spec.versions.end(), 0x0303) != spec.versions.end();
  if (has(ext::ec_point_formats) && (!offers_tls12 || spec.point_formats != std::vector<uint8_t>{0})) {
    std::string body = length_prefixed_u8(spec.point_formats);
    if (!SSL_set_client_hello_raw_extension(ssl, ext::ec_point_formats,
                                            reinterpret_cast<const uint8_t*>(body.data()), body.size())) {
      return fail("ec_point_formats");
    }
  }
  // renegotiation_info is tied to the handshake state and cannot be sent
  // raw: a TLS 1.3-only spec that lists it fails with a clear error
  // (tls: client hello spec extension not sent (extension 65281)).
  if (!offers_tls12 && has(ext::extended_master_secret) &&
      !SSL_set_client_hello_raw_extension(ssl, ext::extended_master_secret, nullptr, 0)) {
    return fail("extended_master_secret");
  }
  if (has(ext::psk_key_exchange_modes) && spec.psk_modes != std::vector<uint8_t>{1}) {
    std::string body = length_prefixed_u8(spec.psk_modes);
    if (!SSL_set_client_hello_raw_extension(ssl, ext::psk_key_exchange_modes,
                                            reinterpret_cast<const uint8_t*>(body.data()), body.size())) {
      return fail("psk_key_exchange_modes");
    }
  }
  // NPN: BoringSSL only sends it when a selection callback is set; upstream
  // sends it empty. (early_data cannot be sent raw: it is tied to the
  // handshake state, so a spec listing it fails with a clear error.)
  for (uint16_t type : {ext::next_protocol_negotiation}) {
    if (has(type) && spec.raw_extensions.count(type) == 0 &&
        !SSL_set_client_hello_raw_extension(ssl, type, nullptr, 0)) {
      return fail("empty extension");
    }
  }
  for (const auto& [type, body] : spec.raw_extensions) {
    if (!SSL_set_client_hello_raw_extension(ssl, type, reinterpret_cast<const uint8_t*>(body.data()),
                                            body.size())) {
      return fail("raw extension");
    }
  }
  if (!spec.extensions.empty() &&
      !SSL_set_client_hello_extension_order(ssl, spec.extensions.data(), spec.extensions.size(),
                                            spec.permute_extensions ? SSL_CLIENT_HELLO_PERMUTE_EXTENSIONS : 0)) {
    return fail("extension order");
  }
  return std::nullopt;
}

}  // namespace tlsc
