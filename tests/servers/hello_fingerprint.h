// JA3 and JA4 of a ClientHello as BoringSSL's server hands it over
// (SSL_CLIENT_HELLO), or as a QUIC client sends it in its Initial packets
// (JA4's "q" prefix): what a fingerprinting server would log. The
// same definitions as profiles/tools/fingerprint.py (GREASE removed; JA4
// sorts ciphers and extensions, leaves SNI and ALPN out of its extension
// hash and keeps signature algorithms in their order); the capture tool's
// test checks that both give the same strings for the same hello.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <openssl/bytestring.h>
#include <openssl/md5.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>

namespace hello_fp {

inline bool is_grease(uint16_t v) { return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff); }

inline std::vector<uint16_t> u16_list(CBS body, bool length_prefixed_u8 = false) {
  std::vector<uint16_t> out;
  CBS list;
  if (length_prefixed_u8 ? !CBS_get_u8_length_prefixed(&body, &list)
                         : !CBS_get_u16_length_prefixed(&body, &list))
    return out;
  uint16_t v;
  while (CBS_get_u16(&list, &v)) out.push_back(v);
  return out;
}

inline std::string hex_digest(const uint8_t* d, size_t n, size_t keep) {
  std::string out;
  char b[3];
  for (size_t i = 0; i < n && out.size() < keep; ++i) {
    std::snprintf(b, sizeof b, "%02x", d[i]);
    out += b;
  }
  return out.substr(0, keep);
}

inline std::string sha256_12(const std::string& s) {
  uint8_t d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const uint8_t*>(s.data()), s.size(), d);
  return hex_digest(d, sizeof d, 12);
}

struct Fingerprint {
  std::string ja3, ja3_hash, ja4;
};

// The parts of a ClientHello the fingerprints read.
struct HelloFields {
  uint16_t version = 0;
  const uint8_t* cipher_suites = nullptr;
  size_t cipher_suites_len = 0;
  const uint8_t* extensions = nullptr;
  size_t extensions_len = 0;
};

// A ClientHello handshake message (type 1, 24-bit length, body) as a QUIC
// client sends it in CRYPTO frames; false if it is not one.
inline bool parse_client_hello(const uint8_t* msg, size_t len, HelloFields* out) {
  CBS in, body, random, session_id, ciphers, compression, extensions;
  uint8_t type;
  CBS_init(&in, msg, len);
  if (!CBS_get_u8(&in, &type) || type != 1 || !CBS_get_u24_length_prefixed(&in, &body) ||
      !CBS_get_u16(&body, &out->version) || !CBS_get_bytes(&body, &random, 32) ||
      !CBS_get_u8_length_prefixed(&body, &session_id) || !CBS_get_u16_length_prefixed(&body, &ciphers) ||
      !CBS_get_u8_length_prefixed(&body, &compression) || !CBS_get_u16_length_prefixed(&body, &extensions))
    return false;
  out->cipher_suites = CBS_data(&ciphers);
  out->cipher_suites_len = CBS_len(&ciphers);
  out->extensions = CBS_data(&extensions);
  out->extensions_len = CBS_len(&extensions);
  return true;
}

// transport: JA4's first letter, 't' for TLS over TCP, 'q' for QUIC.
inline Fingerprint of(const HelloFields& hello, char transport = 't') {
  std::vector<uint16_t> ciphers, extensions, groups, sigalgs, versions;
  std::vector<uint8_t> point_formats;
  std::string first_alpn;
  CBS cs;
  CBS_init(&cs, hello.cipher_suites, hello.cipher_suites_len);
  for (uint16_t v; CBS_get_u16(&cs, &v);)
    if (!is_grease(v)) ciphers.push_back(v);
  CBS exts;
  CBS_init(&exts, hello.extensions, hello.extensions_len);
  uint16_t type;
  CBS body;
  while (CBS_get_u16(&exts, &type) && CBS_get_u16_length_prefixed(&exts, &body)) {
    if (is_grease(type)) continue;
    extensions.push_back(type);
    if (type == 10) groups = u16_list(body);
    if (type == 13) sigalgs = u16_list(body);
    if (type == 43) versions = u16_list(body, true);
    if (type == 11) {
      CBS list;
      uint8_t f;
      if (CBS_get_u8_length_prefixed(&body, &list))
        while (CBS_get_u8(&list, &f)) point_formats.push_back(f);
    }
    if (type == 16) {
      CBS list, name;
      if (CBS_get_u16_length_prefixed(&body, &list) && CBS_get_u8_length_prefixed(&list, &name))
        first_alpn.assign(reinterpret_cast<const char*>(CBS_data(&name)), CBS_len(&name));
    }
  }
  auto drop_grease = [](std::vector<uint16_t>& v) { std::erase_if(v, is_grease); };
  drop_grease(groups);
  drop_grease(sigalgs);
  drop_grease(versions);
  auto dashed = [](const auto& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "-" : "") + std::to_string(v[i]);
    return s;
  };
  Fingerprint fp;
  fp.ja3 = std::to_string(hello.version) + "," + dashed(ciphers) + "," + dashed(extensions) + "," +
           dashed(groups) + "," + dashed(point_formats);
  uint8_t md5[MD5_DIGEST_LENGTH];
  MD5(reinterpret_cast<const uint8_t*>(fp.ja3.data()), fp.ja3.size(), md5);
  fp.ja3_hash = hex_digest(md5, sizeof md5, 32);

  const uint16_t top = versions.empty() ? hello.version : *std::max_element(versions.begin(), versions.end());
  const char* version = top == 0x0304   ? "13"
                        : top == 0x0303 ? "12"
                        : top == 0x0302 ? "11"
                        : top == 0x0301 ? "10"
                        : top == 0x0300 ? "s3"
                                        : "00";
  const bool sni = std::find(extensions.begin(), extensions.end(), 0) != extensions.end();
  char part_a[32];
  std::snprintf(part_a, sizeof part_a, "%c%s%c%02zu%02zu", transport, version, sni ? 'd' : 'i',
                std::min<size_t>(ciphers.size(), 99), std::min<size_t>(extensions.size(), 99));
  std::string a = part_a;
  a += first_alpn.empty() ? std::string("00") : std::string{first_alpn.front(), first_alpn.back()};
  auto hex4_sorted = [](std::vector<uint16_t> v, bool skip_sni_alpn) {
    if (skip_sni_alpn) std::erase_if(v, [](uint16_t x) { return x == 0 || x == 16; });
    std::sort(v.begin(), v.end());
    std::string s;
    char b[8];
    for (size_t i = 0; i < v.size(); ++i) {
      std::snprintf(b, sizeof b, "%s%04x", i ? "," : "", v[i]);
      s += b;
    }
    return s;
  };
  const std::string b = ciphers.empty() ? "000000000000" : sha256_12(hex4_sorted(ciphers, false));
  std::string ext_list = hex4_sorted(extensions, true), sig;
  char h[8];
  for (size_t i = 0; i < sigalgs.size(); ++i) {
    std::snprintf(h, sizeof h, "%s%04x", i ? "," : "", sigalgs[i]);
    sig += h;
  }
  const std::string c =
      ext_list.empty() && sig.empty() ? "000000000000" : sha256_12(ext_list + (sig.empty() ? "" : "_" + sig));
  fp.ja4 = a + "_" + b + "_" + c;
  return fp;
}

inline Fingerprint of(const SSL_CLIENT_HELLO* hello) {
  return of(HelloFields{hello->version, hello->cipher_suites, hello->cipher_suites_len, hello->extensions,
                        hello->extensions_len});
}

}  // namespace hello_fp
