#include "tls/spec_apply.h"

#include <algorithm>

namespace tlsc {

namespace {

std::string length_prefixed_u8(const std::vector<uint8_t>& values) {
  std::string body(1, static_cast<char>(values.size()));
  for (uint8_t v : values) body.push_back(static_cast<char>(v));
  return body;
}

}  // namespace

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
    return make_error(ErrorCode::invalid_input,
                      std::string("tls: cannot apply the ClientHello spec: ") + what);
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
  // No supported_versions in the list and no versions: utls (SetTLSVers)
  // then speaks TLS 1.0 to 1.2, and so do we.
  const bool lists_versions = has(ext::supported_versions);
  if (spec.versions.empty() && !spec.extensions.empty() && !lists_versions &&
      !SSL_set_max_proto_version(ssl, TLS1_2_VERSION)) {
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
      if (!SSL_add_application_settings(ssl, reinterpret_cast<const uint8_t*>(p.data()), p.size(), nullptr,
                                        0)) {
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
  const bool offers_tls12 =
      spec.versions.empty() || !lists_versions ||
      std::find(spec.versions.begin(), spec.versions.end(), 0x0303) != spec.versions.end();
  if (has(ext::ec_point_formats) && (!offers_tls12 || spec.point_formats != std::vector<uint8_t>{0})) {
    std::string body = length_prefixed_u8(spec.point_formats);
    if (!SSL_set_client_hello_raw_extension(ssl, ext::ec_point_formats,
                                            reinterpret_cast<const uint8_t*>(body.data()), body.size())) {
      return fail("ec_point_formats");
    }
  }
  // renegotiation_info is BoringSSL's own even in a TLS 1.3-only spec: it
  // then sends the empty one, as utls does (patch 0029).
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
  // early_data: upstream sends it empty in every ClientHello. BoringSSL
  // sends it where the spec lists it (patch 0028) and, when the session's
  // ticket allows 0-RTT, offers 0-RTT for real but never writes early data
  // (no request is ever replayable): a server that accepts gets
  // EndOfEarlyData, one that declines just goes on. Without such a session
  // it is an empty indication, and a server that accepts anyway fails the
  // handshake (tls: server sent an unexpected early_data extension, as Go).
  if (has(ext::early_data)) {
    SSL_set_client_hello_early_data_indication(ssl, 1);
    SSL_set_early_data_enabled(ssl, 1);
  }
  // NPN: BoringSSL only sends it when a selection callback is set; upstream
  // sends it empty.
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
  if (!spec.extensions.empty() && !SSL_set_client_hello_extension_order(
                                      ssl, spec.extensions.data(), spec.extensions.size(),
                                      spec.permute_extensions ? SSL_CLIENT_HELLO_PERMUTE_EXTENSIONS : 0)) {
    return fail("extension order");
  }
  return std::nullopt;
}

}  // namespace tlsc
