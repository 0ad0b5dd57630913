// What a ClientHello must look like, byte for byte: the spec a profile (or
// customTlsClient) decides and the TLS layer hands to our patched
// BoringSSL. Values are wire code points; kGrease stands for "a GREASE value
// here" (BoringSSL picks it per connection, as Chrome does).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"

namespace tlsc {

inline constexpr uint16_t kGrease = 0x0a0a;

// Extension code points the spec builder knows how to fill.
namespace ext {
inline constexpr uint16_t server_name = 0, status_request = 5, supported_groups = 10, ec_point_formats = 11,
                          signature_algorithms = 13, alpn = 16, signed_certificate_timestamp = 18,
                          padding = 21, extended_master_secret = 23, compress_certificate = 27,
                          record_size_limit = 28, delegated_credentials = 34, session_ticket = 35,
                          pre_shared_key = 41, early_data = 42, supported_versions = 43, cookie = 44,
                          psk_key_exchange_modes = 45, key_share = 51, quic_transport_parameters = 57,
                          next_protocol_negotiation = 13172, application_settings_old = 17513,
                          application_settings = 17613, trust_anchors = 51764, encrypted_client_hello = 65037,
                          renegotiation_info = 65281;
}

struct EchGreaseSpec {
  std::vector<std::pair<uint16_t, uint16_t>> cipher_suites;  // (kdf, aead)
  std::vector<uint16_t> payload_lengths;
};

struct ClientHelloSpec {
  std::vector<uint16_t> cipher_suites;     // TLS 1.3 suites included, kGrease allowed
  std::vector<uint16_t> extensions;        // order on the wire, kGrease allowed
  bool permute_extensions = false;         // Chrome: shuffle, GREASE/padding/PSK fixed
  std::vector<uint16_t> supported_groups;  // kGrease allowed
  std::vector<uint16_t> key_share_groups;  // which groups get a share, in order
  bool share_x25519_key = false;           // X25519 and X25519MLKEM768 on one key (Firefox)
  std::vector<uint8_t> point_formats;
  std::vector<uint16_t> signature_algorithms;  // duplicates and unknown values allowed
  std::vector<uint16_t> delegated_credential_algorithms;
  std::vector<uint16_t> versions;  // supported_versions, kGrease allowed
  std::vector<std::string> alpn;
  std::vector<std::string> alps;           // protocols with application settings
  std::vector<uint16_t> cert_compression;  // 1 zlib, 2 brotli, 3 zstd
  uint16_t record_size_limit = 0;
  std::vector<uint8_t> psk_modes = {1};  // psk_dhe_ke
  EchGreaseSpec ech_grease;
  std::map<uint16_t, std::string> raw_extensions;  // bodies sent as given
};

}  // namespace tlsc
