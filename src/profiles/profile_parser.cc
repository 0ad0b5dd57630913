// profiles/SCHEMA.md, enforced: every field typed, unknown keys refused,
// and the cross-field rules that would otherwise only show up as a failed
// handshake (an extension listed without its contents, ALPS on both code
// points, pre_shared_key not last...).
#include <algorithm>
#include <charconv>
#include <random>
#include <set>

#include "profiles/h2_block.h"
#include "profiles/h3_block.h"
#include "profiles/profile.h"
#include "profiles/quic_block.h"

namespace tlsc {
namespace {

using json = nlohmann::json;

// Thrown inside this file only, caught in parse_profile: the checks read as
// straight-line code instead of a Result after every field.
struct SchemaError {
  std::string message;
};

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw SchemaError{where + ": " + why};
}

std::optional<uint64_t> parse_number(std::string_view s, uint64_t max) {
  int base = 10;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

// A number, or a string holding one ("0x1301", "4865").
uint64_t number(const json& v, const std::string& where, uint64_t max) {
  if (v.is_number_unsigned() && v.get<uint64_t>() <= max) return v.get<uint64_t>();
  if (v.is_string()) {
    if (auto n = parse_number(v.get_ref<const std::string&>(), max)) return *n;
  }
  fail(where, "expected a number up to " + std::to_string(max) + ", got " + v.dump());
}

// A 16-bit code point or "GREASE".
uint16_t code_point(const json& v, const std::string& where, bool grease_ok = true) {
  if (v.is_string() && v.get_ref<const std::string&>() == "GREASE") {
    if (!grease_ok) fail(where, "GREASE is not allowed here");
    return kGrease;
  }
  return static_cast<uint16_t>(number(v, where, 0xffff));
}

const json& array(const json& obj, const char* key, const std::string& where) {
  const json& v = obj.at(key);
  if (!v.is_array()) fail(where + "." + key, "expected a list");
  return v;
}

std::vector<uint16_t> code_points(const json& obj, const char* key, const std::string& where,
                                  bool grease_ok = true) {
  std::vector<uint16_t> out;
  if (!obj.contains(key)) return out;
  const json& list = array(obj, key, where);
  for (size_t i = 0; i < list.size(); ++i) {
    out.push_back(code_point(list[i], where + "." + key + "[" + std::to_string(i) + "]", grease_ok));
  }
  return out;
}

std::vector<uint8_t> bytes_list(const json& obj, const char* key, const std::string& where) {
  std::vector<uint8_t> out;
  const json& list = array(obj, key, where);
  for (size_t i = 0; i < list.size(); ++i) {
    out.push_back(
        static_cast<uint8_t>(number(list[i], where + "." + key + "[" + std::to_string(i) + "]", 0xff)));
  }
  return out;
}

std::vector<std::string> protocols(const json& obj, const char* key, const std::string& where) {
  std::vector<std::string> out;
  const json& list = array(obj, key, where);
  for (size_t i = 0; i < list.size(); ++i) {
    std::string w = where + "." + key + "[" + std::to_string(i) + "]";
    if (!list[i].is_string()) fail(w, "expected a string");
    const std::string& s = list[i].get_ref<const std::string&>();
    if (s.empty() || s.size() > 255) fail(w, "a protocol name is 1 to 255 bytes");
    out.push_back(s);
  }
  return out;
}

bool boolean(const json& obj, const char* key, const std::string& where, bool def) {
  if (!obj.contains(key)) return def;
  if (!obj.at(key).is_boolean()) fail(where + "." + key, "expected true or false");
  return obj.at(key).get<bool>();
}

void only_keys(const json& obj, std::initializer_list<const char*> keys, const std::string& where) {
  if (!obj.is_object()) fail(where, "expected an object");
  for (const auto& item : obj.items()) {
    const std::string& k = item.key();
    if (std::none_of(keys.begin(), keys.end(), [&](const char* allowed) { return k == allowed; })) {
      fail(where, "unknown field \"" + k + "\"");
    }
  }
}

std::vector<uint8_t> hex_bytes(const json& v, const std::string& where) {
  if (!v.is_string()) fail(where, "expected a hex string");
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() % 2 != 0 || s.size() > 2 * 0xffff) fail(where, "hex string of odd length or too long");
  std::vector<uint8_t> out;
  for (size_t i = 0; i < s.size(); i += 2) {
    auto n = parse_number("0x" + s.substr(i, 2), 0xff);
    if (!n) fail(where, "not hex");
    out.push_back(static_cast<uint8_t>(*n));
  }
  return out;
}

// Extensions the spec code knows how to fill from the fields (or, for the
// empty ones, from nothing). Anything else needs a raw body.
const std::set<uint16_t>& builtin_extensions() {
  static const std::set<uint16_t> s = {ext::server_name,
                                       ext::status_request,
                                       ext::supported_groups,
                                       ext::ec_point_formats,
                                       ext::signature_algorithms,
                                       ext::alpn,
                                       ext::signed_certificate_timestamp,
                                       ext::padding,
                                       ext::extended_master_secret,
                                       ext::compress_certificate,
                                       ext::record_size_limit,
                                       ext::delegated_credentials,
                                       ext::session_ticket,
                                       ext::pre_shared_key,
                                       ext::early_data,
                                       ext::supported_versions,
                                       ext::psk_key_exchange_modes,
                                       ext::key_share,
                                       ext::next_protocol_negotiation,
                                       ext::application_settings_old,
                                       ext::application_settings,
                                       ext::encrypted_client_hello,
                                       ext::renegotiation_info};
  return s;
}

// Bodies tied to the handshake's state cannot be given raw (our BoringSSL
// patch 0020 refuses them).
bool raw_allowed(uint16_t type) {
  static const std::set<uint16_t> s = {ext::padding,
                                       ext::pre_shared_key,
                                       ext::early_data,
                                       ext::cookie,
                                       ext::key_share,
                                       ext::supported_versions,
                                       ext::renegotiation_info,
                                       ext::encrypted_client_hello,
                                       ext::quic_transport_parameters};
  return type != kGrease && s.count(type) == 0;
}

bool is_grease_value(uint16_t v) { return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff); }

// The order trust anchor IDs go out in: drawn once per process and kept for
// every connection, the same for every profile that lists the same IDs (as
// upstream shuffles its list once, at package load, and Chromium sends its
// hash set's order). A keyed hash of each ID, the key drawn once.
uint64_t trust_anchor_rank(const std::string& id) {
  static const uint64_t key = [] {
    std::random_device rd;
    return (uint64_t{rd()} << 32) ^ rd();
  }();
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (unsigned char c : id) h = (h ^ c) * 0x100000001b3ull;
  uint64_t z = key ^ h;  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// trust_anchors (0xca34)'s body: a RequestedTrustAnchorList, the IDs in
// this process's order.
std::string trust_anchor_body(std::vector<std::string> ids, const std::string& where) {
  std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
    const uint64_t ra = trust_anchor_rank(a), rb = trust_anchor_rank(b);
    return ra != rb ? ra < rb : a < b;
  });
  std::string list;
  for (const std::string& id : ids) {
    list.push_back(static_cast<char>(id.size()));
    list += id;
  }
  if (list.size() > 0xffff) fail(where, "the IDs make a body over 65535 bytes");
  return std::string{static_cast<char>(list.size() >> 8), static_cast<char>(list.size() & 0xff)} + list;
}

// Where a ClientHello goes: a TLS record over TCP (the profile's "tls"), or
// CRYPTO frames in QUIC Initial packets (its "http3.quic.tls"), where the
// QUIC connection gives extension 57's body and TLS 1.3 is the only version.
enum class HelloTransport { tcp, quic };

ClientHelloSpec parse_tls(const json& tls, const std::string& w, HelloTransport transport) {
  only_keys(tls,
            {"cipher_suites", "extensions", "permute_extensions", "supported_groups", "key_share_groups",
             "share_x25519_key", "point_formats", "signature_algorithms", "delegated_credential_algorithms",
             "versions", "alpn", "alps", "cert_compression", "record_size_limit", "psk_modes", "ech_grease",
             "trust_anchors", "raw_extensions"},
            w);
  ClientHelloSpec s;
  if (!tls.contains("cipher_suites") || !tls.contains("extensions")) {
    fail(w, "\"cipher_suites\" and \"extensions\" are required");
  }
  s.cipher_suites = code_points(tls, "cipher_suites", w);
  s.extensions = code_points(tls, "extensions", w);
  if (s.cipher_suites.empty()) fail(w + ".cipher_suites", "empty");
  s.permute_extensions = boolean(tls, "permute_extensions", w, false);
  s.supported_groups = code_points(tls, "supported_groups", w);
  s.key_share_groups = code_points(tls, "key_share_groups", w);
  s.share_x25519_key = boolean(tls, "share_x25519_key", w, false);
  if (tls.contains("point_formats"))
    s.point_formats = bytes_list(tls, "point_formats", w);
  else
    s.point_formats = {0};
  s.signature_algorithms = code_points(tls, "signature_algorithms", w);
  s.delegated_credential_algorithms = code_points(tls, "delegated_credential_algorithms", w, false);
  s.versions = code_points(tls, "versions", w);
  if (tls.contains("alpn")) s.alpn = protocols(tls, "alpn", w);
  if (tls.contains("alps")) s.alps = protocols(tls, "alps", w);
  s.cert_compression = code_points(tls, "cert_compression", w, false);
  if (tls.contains("record_size_limit")) {
    s.record_size_limit =
        static_cast<uint16_t>(number(tls.at("record_size_limit"), w + ".record_size_limit", 16385));
  }
  if (tls.contains("psk_modes")) s.psk_modes = bytes_list(tls, "psk_modes", w);
  if (tls.contains("ech_grease")) {
    const json& e = tls.at("ech_grease");
    const std::string we = w + ".ech_grease";
    only_keys(e, {"cipher_suites", "payload_lengths"}, we);
    if (e.contains("cipher_suites")) {
      const json& list = array(e, "cipher_suites", we);
      for (size_t i = 0; i < list.size(); ++i) {
        std::string wi = we + ".cipher_suites[" + std::to_string(i) + "]";
        if (!list[i].is_array() || list[i].size() != 2) fail(wi, "expected [kdf, aead]");
        auto kdf = code_point(list[i][0], wi, false);
        auto aead = code_point(list[i][1], wi, false);
        if (aead < 1 || aead > 3)
          fail(wi, "AEAD ids 1 to 3 only (AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305)");
        s.ech_grease.cipher_suites.emplace_back(kdf, aead);
      }
    }
    if (e.contains("payload_lengths")) {
      const json& list = array(e, "payload_lengths", we);
      for (size_t i = 0; i < list.size(); ++i) {
        s.ech_grease.payload_lengths.push_back(static_cast<uint16_t>(
            number(list[i], we + ".payload_lengths[" + std::to_string(i) + "]", 0xffff - 16)));
      }
    }
  }
  if (tls.contains("raw_extensions")) {
    const json& raw = tls.at("raw_extensions");
    if (!raw.is_object()) fail(w + ".raw_extensions", "expected an object");
    for (const auto& [k, v] : raw.items()) {
      std::string wk = w + ".raw_extensions." + k;
      auto type = parse_number(k, 0xffff);
      if (!type) fail(wk, "the key is an extension code point");
      auto t = static_cast<uint16_t>(*type);
      if (!raw_allowed(t)) fail(wk, "this extension cannot be sent raw (its body depends on the handshake)");
      auto body = hex_bytes(v, wk);
      s.raw_extensions[t] = std::string(body.begin(), body.end());
    }
  }

  if (tls.contains("trust_anchors")) {
    const std::string wt = w + ".trust_anchors";
    if (s.raw_extensions.count(ext::trust_anchors) != 0) {
      fail(wt, "give the IDs here or a raw body for 51764, not both");
    }
    if (std::find(s.extensions.begin(), s.extensions.end(), ext::trust_anchors) == s.extensions.end()) {
      fail(wt, "51764 (trust_anchors) is not in extensions");
    }
    const json& list = array(tls, "trust_anchors", w);
    std::vector<std::string> ids;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string wi = wt + "[" + std::to_string(i) + "]";
      auto id = hex_bytes(list[i], wi);
      if (id.empty() || id.size() > 255) fail(wi, "a trust anchor ID is 1 to 255 bytes");
      ids.emplace_back(id.begin(), id.end());
    }
    s.raw_extensions[ext::trust_anchors] = trust_anchor_body(std::move(ids), wt);
  }

  // Cross-field rules: what the list names must have its contents.
  const std::string wx = w + ".extensions";
  std::set<uint16_t> seen;
  int grease = 0;
  for (size_t i = 0; i < s.extensions.size(); ++i) {
    uint16_t e = s.extensions[i];
    if (e == kGrease) {
      if (++grease > 2) fail(wx, "at most two GREASE extensions");
      continue;
    }
    if (is_grease_value(e)) fail(wx, "write GREASE extensions as \"GREASE\"");
    if (!seen.insert(e).second) fail(wx, std::to_string(e) + " listed twice");
    if (e == ext::pre_shared_key && i + 1 != s.extensions.size())
      fail(wx, "pre_shared_key (41) must be last");
    if (e == ext::quic_transport_parameters) {
      if (transport == HelloTransport::tcp)
        fail(wx, "57 (quic_transport_parameters) goes in a QUIC ClientHello only: http3.quic.tls");
      continue;
    }
    if (builtin_extensions().count(e) == 0 && s.raw_extensions.count(e) == 0) {
      fail(wx, std::to_string(e) + " has no contents: give it a body in raw_extensions");
    }
  }
  for (const auto& [t, body] : s.raw_extensions) {
    if (seen.count(t) == 0) fail(w + ".raw_extensions", std::to_string(t) + " is not in extensions");
  }
  auto listed = [&](uint16_t e) { return seen.count(e) != 0; };
  if (listed(ext::application_settings) && listed(ext::application_settings_old)) {
    fail(wx, "ALPS on both code points (17513 and 17613)");
  }
  bool alps_listed = listed(ext::application_settings) || listed(ext::application_settings_old);
  bool alps_raw = s.raw_extensions.count(ext::application_settings) != 0 ||
                  s.raw_extensions.count(ext::application_settings_old) != 0;
  if (alps_listed && s.alps.empty() && !alps_raw) {
    fail(w + ".alps", "ALPS is listed in extensions but has no protocols");
  }
  if (alps_raw && !s.alps.empty()) fail(w + ".alps", "protocols and a raw ALPS body both given");
  if (!alps_listed && !s.alps.empty())
    fail(w + ".alps", "protocols given but neither 17513 nor 17613 is listed");
  if (listed(ext::alpn) && s.alpn.empty() && s.raw_extensions.count(ext::alpn) == 0) {
    fail(w + ".alpn", "ALPN (16) is listed but has no protocols");
  }
  if (listed(ext::compress_certificate) && s.cert_compression.empty() &&
      s.raw_extensions.count(ext::compress_certificate) == 0) {
    fail(w + ".cert_compression", "compress_certificate (27) is listed but has no algorithms");
  }
  for (uint16_t a : s.cert_compression) {
    if (a < 1 || a > 3)
      fail(w + ".cert_compression", "only 1 (zlib), 2 (brotli), 3 (zstd) can be decompressed");
  }
  if (listed(ext::record_size_limit) && s.record_size_limit == 0 &&
      s.raw_extensions.count(ext::record_size_limit) == 0) {
    fail(w + ".record_size_limit", "record_size_limit (28) is listed but has no value");
  }
  if (s.record_size_limit != 0 && s.record_size_limit < 64) fail(w + ".record_size_limit", "64 to 16385");
  if (listed(ext::delegated_credentials) && s.delegated_credential_algorithms.empty() &&
      s.raw_extensions.count(ext::delegated_credentials) == 0) {
    fail(w + ".delegated_credential_algorithms",
         "delegated_credentials (34) is listed but has no algorithms");
  }
  if (s.key_share_groups.size() > 8) fail(w + ".key_share_groups", "at most eight key shares");
  if (std::count(s.key_share_groups.begin(), s.key_share_groups.end(), kGrease) > 1) {
    fail(w + ".key_share_groups", "at most one GREASE key share");
  }
  if (transport == HelloTransport::quic) {
    // RFC 9001: QUIC carries TLS 1.3 alone, the transport parameters in
    // every ClientHello, and ALPN is mandatory.
    if (!listed(ext::quic_transport_parameters))
      fail(wx, "57 (quic_transport_parameters) is required in a QUIC ClientHello");
    if (!listed(ext::supported_versions) ||
        std::any_of(s.versions.begin(), s.versions.end(),
                    [](uint16_t v) { return v != 0x0304 && v != kGrease; }) ||
        std::find(s.versions.begin(), s.versions.end(), 0x0304) == s.versions.end()) {
      fail(w + ".versions", "a QUIC ClientHello offers TLS 1.3 (0x0304) alone");
    }
    if (!listed(ext::alpn) || s.alpn.empty()) fail(w + ".alpn", "a QUIC ClientHello offers ALPN");
  }
  return s;
}

uint64_t uint_field(const json& obj, const char* key, const std::string& where, uint64_t max, uint64_t def) {
  if (!obj.contains(key) || obj.at(key).is_null()) return def;
  return number(obj.at(key), where + "." + key, max);
}

json priority_object(const json& p, const std::string& where, bool with_stream) {
  if (with_stream)
    only_keys(p, {"stream_id", "depends_on", "exclusive", "weight"}, where);
  else
    only_keys(p, {"depends_on", "exclusive", "weight"}, where);
  json out = json::object();
  if (with_stream) {
    uint64_t id = uint_field(p, "stream_id", where, 0x7fffffff, 0);
    if (id == 0) fail(where + ".stream_id", "a PRIORITY frame needs a non-zero stream");
    out["stream_id"] = id;
  }
  out["depends_on"] = uint_field(p, "depends_on", where, 0x7fffffff, 0);
  out["exclusive"] = boolean(p, "exclusive", where, false);
  uint64_t weight = uint_field(p, "weight", where, 256, 0);
  if (weight < 1) fail(where + ".weight", "the HTTP/2 weight is 1 to 256 (upstream's Weight + 1)");
  out["weight"] = weight;
  return out;
}

void check_pseudo_order(const json& list, const std::string& where,
                        std::initializer_list<const char*> allowed) {
  if (!list.is_array()) fail(where, "expected a list");
  std::set<std::string> seen;
  for (const auto& v : list) {
    if (!v.is_string()) fail(where, "expected strings");
    const std::string& s = v.get_ref<const std::string&>();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return s == a; })) {
      fail(where, "unknown pseudo-header " + s);
    }
    if (!seen.insert(s).second) fail(where, s + " listed twice");
  }
}

const std::set<std::string>& h2_setting_names() {
  static const std::set<std::string> s = {
      "HEADER_TABLE_SIZE",   "ENABLE_PUSH",       "MAX_CONCURRENT_STREAMS",
      "INITIAL_WINDOW_SIZE", "MAX_FRAME_SIZE",    "MAX_HEADER_LIST_SIZE",
      "UNKNOWN_SETTING_7",   "UNKNOWN_SETTING_8", "UNKNOWN_SETTING_9"};
  return s;
}

void check_http2(const json& h2) {
  const std::string w = "http2";
  only_keys(h2,
            {"settings", "connection_flow", "priority_frames", "header_priority", "pseudo_header_order",
             "stream_id"},
            w);
  if (h2.contains("settings")) {
    const json& list = array(h2, "settings", w);
    for (size_t i = 0; i < list.size(); ++i) {
      std::string wi = w + ".settings[" + std::to_string(i) + "]";
      if (!list[i].is_array() || list[i].size() != 2) fail(wi, "expected [name or id, value]");
      const json& id = list[i][0];
      const bool named =
          id.is_string() && (id == "GREASE" || h2_setting_names().count(id.get<std::string>()) != 0);
      if (!named) number(id, wi, 0xffff);
      number(list[i][1], wi, 0xffffffff);
    }
  }
  uint_field(h2, "connection_flow", w, 0x7fffffff, 0);
  if (h2.contains("priority_frames")) {
    const json& list = array(h2, "priority_frames", w);
    for (size_t i = 0; i < list.size(); ++i) {
      priority_object(list[i], w + ".priority_frames[" + std::to_string(i) + "]", true);
    }
  }
  if (h2.contains("header_priority") && !h2.at("header_priority").is_null()) {
    priority_object(h2.at("header_priority"), w + ".header_priority", false);
  }
  if (h2.contains("pseudo_header_order")) {
    check_pseudo_order(h2.at("pseudo_header_order"), w + ".pseudo_header_order",
                       {":method", ":authority", ":scheme", ":path", ":protocol"});
  }
  uint_field(h2, "stream_id", w, 0x7fffffff, 0);
}

void check_http3(const json& h3) {
  const std::string w = "http3";
  only_keys(h3,
            {"settings", "settings_order", "priority_param", "pseudo_header_order", "send_grease_frames",
             "grease_setting", "quic"},
            w);
  if (h3.contains("settings")) {
    const json& list = array(h3, "settings", w);
    for (size_t i = 0; i < list.size(); ++i) {
      std::string wi = w + ".settings[" + std::to_string(i) + "]";
      if (!list[i].is_array() || list[i].size() != 2) fail(wi, "expected [id, value]");
      number(list[i][0], wi, (uint64_t{1} << 62) - 1);
      number(list[i][1], wi, (uint64_t{1} << 62) - 1);
    }
  }
  if (h3.contains("settings_order")) {
    for (const auto& id : array(h3, "settings_order", w))
      number(id, w + ".settings_order", (uint64_t{1} << 62) - 1);
  }
  uint_field(h3, "priority_param", w, 0xffffffff, 0);
  if (h3.contains("pseudo_header_order")) {
    check_pseudo_order(h3.at("pseudo_header_order"), w + ".pseudo_header_order",
                       {":method", ":authority", ":scheme", ":path", ":protocol"});
  }
  boolean(h3, "send_grease_frames", w, false);
  boolean(h3, "grease_setting", w, false);
}

}  // namespace

bool valid_profile_identifier(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

Result<Profile> parse_profile(std::string_view json_text) {
  json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded()) return make_error(ErrorCode::invalid_input, "not valid JSON");
  try {
    only_keys(
        doc,
        {"name", "aliases", "comment", "tls", "http2", "http3", "allow_http", "default_headers", "websocket"},
        "profile");
    Profile p;
    if (!doc.contains("name") || !doc.at("name").is_string() ||
        !valid_profile_identifier(doc.at("name").get_ref<const std::string&>())) {
      fail("name", "required: letters, digits, '_', '-', '.' (up to 64)");
    }
    p.name = doc.at("name").get<std::string>();
    if (doc.contains("aliases")) {
      for (const auto& a : array(doc, "aliases", "profile")) {
        if (!a.is_string() || !valid_profile_identifier(a.get_ref<const std::string&>())) {
          fail("aliases", "each alias is an identifier like name");
        }
        p.aliases.push_back(a.get<std::string>());
      }
    }
    if (doc.contains("comment") && !doc.at("comment").is_string()) fail("comment", "expected a string");
    if (!doc.contains("tls")) fail("tls", "required");
    p.tls = parse_tls(doc.at("tls"), "tls", HelloTransport::tcp);
    if (doc.contains("http2")) {
      check_http2(doc.at("http2"));
      p.http2 = doc.at("http2");
    }
    if (doc.contains("http3") && !doc.at("http3").is_null()) {
      check_http3(doc.at("http3"));
      p.http3 = doc.at("http3");
      auto h3 = h3_fingerprint_from_block(p.http3);
      if (!h3) return h3.error();
      p.h3 = std::move(*h3);
      if (p.http3.contains("quic")) {
        auto quic = quic_fingerprint_from_block(p.http3.at("quic"));
        if (!quic) return quic.error();
        p.quic = std::move(*quic);
        if (p.http3.at("quic").contains("tls")) {
          p.quic_tls = parse_tls(p.http3.at("quic").at("tls"), "http3.quic.tls", HelloTransport::quic);
        }
      }
    }
    p.allow_http = boolean(doc, "allow_http", "profile", false);
    auto h2 = h2_fingerprint_from_block(p.http2, p.allow_http);
    if (!h2) return h2.error();
    p.h2 = std::move(*h2);
    if (doc.contains("default_headers")) {
      for (const auto& h : array(doc, "default_headers", "profile")) {
        if (!h.is_array() || h.size() != 2 || !h[0].is_string() || !h[1].is_string() ||
            h[0].get_ref<const std::string&>().empty()) {
          fail("default_headers", "each entry is [name, value], both strings, the name not empty");
        }
        p.default_headers.emplace_back(h[0].get<std::string>(), h[1].get<std::string>());
      }
    }
    if (doc.contains("websocket")) {
      const json& ws = doc.at("websocket");
      if (!ws.is_object()) fail("websocket", "expected an object");
      only_keys(ws, {"extensions"}, "websocket");
      if (ws.contains("extensions")) {
        const json& ext = ws.at("extensions");
        // A header value: visible ASCII, spaces and tabs.
        if (!ext.is_string() ||
            !std::all_of(ext.get_ref<const std::string&>().begin(), ext.get_ref<const std::string&>().end(),
                         [](char c) { return c == ' ' || c == '\t' || (c > 0x20 && c < 0x7f); })) {
          fail("websocket.extensions", "expected a header value (visible ASCII, spaces and tabs)");
        }
        p.websocket_extensions = ext.get<std::string>();
      }
    }
    return p;
  } catch (const SchemaError& e) {
    return make_error(ErrorCode::invalid_input, e.message);
  } catch (const json::exception& e) {
    return make_error(ErrorCode::invalid_input, std::string("malformed: ") + e.what());
  }
}

}  // namespace tlsc
