// A profile file's "http3"."quic" block (profiles/SCHEMA.md) as the QUIC
// fingerprint it describes. Every field is required but the transport
// parameters' "shuffled"; an unknown key or a value out of range is an
// error naming the field.
#include "profiles/quic_block.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tlsc {
namespace {

using json = nlohmann::json;

constexpr uint64_t kMaxVarint = (uint64_t{1} << 62) - 1;

Error bad(const std::string& where, const std::string& why) {
  return make_error(ErrorCode::invalid_input, "profile http3.quic." + where + ": " + why);
}

bool only_keys(const json& obj, std::initializer_list<const char*> keys) {
  for (const auto& item : obj.items()) {
    const std::string& name = item.key();
    if (std::none_of(keys.begin(), keys.end(), [&](const char* key) { return name == key; })) return false;
  }
  return true;
}

std::optional<uint64_t> unsigned_at_most(const json& v, uint64_t max) {
  if (!v.is_number_unsigned() || v.get<uint64_t>() > max) return std::nullopt;
  return v.get<uint64_t>();
}

std::optional<std::string> from_hex(std::string_view s) {
  if (s.size() % 2) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < s.size(); i += 2) {
    unsigned byte = 0;
    auto [end, ec] = std::from_chars(s.data() + i, s.data() + i + 2, byte, 16);
    if (ec != std::errc() || end != s.data() + i + 2) return std::nullopt;
    out.push_back(static_cast<char>(byte));
  }
  return out;
}

Result<QuicTransportParameter> parameter(const json& entry, const std::string& w) {
  if (!entry.is_array() || entry.size() != 2) return bad(w, "expected [id or \"GREASE\", value]");
  QuicTransportParameter p;
  if (entry[0] == "GREASE") {
    p.grease_id = true;
  } else if (auto id = unsigned_at_most(entry[0], kMaxVarint)) {
    p.id = *id;
  } else {
    return bad(w, "the id is a number below 2^62 or \"GREASE\"");
  }
  const json& v = entry[1];
  if (auto n = unsigned_at_most(v, kMaxVarint)) {
    p.kind = QuicTransportParameter::Kind::varint;
    p.number = *n;
  } else if (v == "initial_source_connection_id") {
    p.kind = QuicTransportParameter::Kind::initial_source_connection_id;
  } else if (v.is_string() && v.get_ref<const std::string&>().starts_with("hex:")) {
    auto bytes = from_hex(std::string_view(v.get_ref<const std::string&>()).substr(4));
    if (!bytes) return bad(w, "\"hex:\" and an even number of hex digits");
    p.kind = QuicTransportParameter::Kind::bytes;
    p.bytes = std::move(*bytes);
  } else if (v.is_object() && v.contains("random_bytes")) {
    const json& range = v.at("random_bytes");
    if (!only_keys(v, {"random_bytes"}) || !range.is_array() || range.size() != 2) {
      return bad(w, "{\"random_bytes\": [min, max]}");
    }
    auto lo = unsigned_at_most(range[0], 255), hi = unsigned_at_most(range[1], 255);
    if (!lo || !hi || *lo > *hi) return bad(w, "random_bytes: 0 <= min <= max <= 255");
    p.kind = QuicTransportParameter::Kind::random_bytes;
    p.min_bytes = *lo;
    p.max_bytes = *hi;
  } else if (v.is_object() && v.contains("chosen")) {
    if (!only_keys(v, {"chosen", "available", "shuffled"})) return bad(w, "version_information: unknown key");
    auto chosen = unsigned_at_most(v.at("chosen"), 0xffffffff);
    if (!chosen) return bad(w, "version_information: chosen is a 32-bit version");
    p.kind = QuicTransportParameter::Kind::version_information;
    p.chosen_version = static_cast<uint32_t>(*chosen);
    if (!v.contains("available") || !v.at("available").is_array()) {
      return bad(w, "version_information: available is a list");
    }
    for (const json& a : v.at("available")) {
      if (a == "GREASE") {
        p.available_versions.push_back(std::nullopt);
      } else if (auto version = unsigned_at_most(a, 0xffffffff)) {
        p.available_versions.push_back(static_cast<uint32_t>(*version));
      } else {
        return bad(w, "version_information: each available version is a 32-bit number or \"GREASE\"");
      }
    }
    if (v.contains("shuffled")) {
      if (!v.at("shuffled").is_boolean()) return bad(w, "version_information: shuffled is true or false");
      p.shuffle_available_versions = v.at("shuffled").get<bool>();
    }
  } else {
    return bad(w,
               "the value is a number, \"initial_source_connection_id\", \"hex:...\", "
               "{\"random_bytes\": [min, max]} or {\"chosen\", \"available\"}");
  }
  return p;
}

}  // namespace

Result<QuicFingerprint> quic_fingerprint_from_block(const json& quic) {
  if (!quic.is_object()) return bad("", "expected an object");
  // "tls", the ClientHello in the Initial, is a ClientHelloSpec: read by the
  // profile parser with the rules of the profile's own "tls".
  if (!only_keys(quic, {"version", "dcid_length", "scid_length", "max_datagram_size", "transport_parameters",
                        "tls"})) {
    return bad("",
               "unknown key (version, dcid_length, scid_length, max_datagram_size, transport_parameters)");
  }
  QuicFingerprint fp;
  if (!quic.contains("version") || !unsigned_at_most(quic.at("version"), 0xffffffff)) {
    return bad("version", "required: a 32-bit QUIC version");
  }
  fp.version = quic.at("version").get<uint32_t>();
  // RFC 9000 7.2: a client's first DCID is at least 8 bytes; IDs are at most 20.
  auto dcid = quic.contains("dcid_length") ? unsigned_at_most(quic.at("dcid_length"), 20) : std::nullopt;
  if (!dcid || *dcid < 8) return bad("dcid_length", "required: 8 to 20");
  auto scid = quic.contains("scid_length") ? unsigned_at_most(quic.at("scid_length"), 20) : std::nullopt;
  if (!scid) return bad("scid_length", "required: 0 to 20");
  fp.dcid_length = *dcid;
  fp.scid_length = *scid;
  if (quic.contains("max_datagram_size")) {
    // RFC 9000 14.1: a client's Initial datagrams are at least 1200 bytes;
    // 1452 is what a 1500-byte Ethernet MTU leaves IPv6 (ngtcp2's default).
    const json& size = quic.at("max_datagram_size");
    const auto field = [&size](const char* family, uint64_t max) -> size_t {
      if (!size.is_object() || !size.contains(family)) return 0;
      const uint64_t n = unsigned_at_most(size.at(family), max).value_or(0);
      return n >= 1200 ? static_cast<size_t>(n) : 0;
    };
    fp.max_datagram_size = {field("ipv4", 1472), field("ipv6", 1452)};
    if (!only_keys(size, {"ipv4", "ipv6"}) || fp.max_datagram_size.ipv4 == 0 ||
        fp.max_datagram_size.ipv6 == 0)
      return bad("max_datagram_size", "{\"ipv4\": 1200..1472, \"ipv6\": 1200..1452}");
  }
  if (!quic.contains("transport_parameters") || !quic.at("transport_parameters").is_object()) {
    return bad("transport_parameters", "required: an object");
  }
  const json& tps = quic.at("transport_parameters");
  if (!only_keys(tps, {"shuffled", "parameters"})) return bad("transport_parameters", "unknown key");
  if (tps.contains("shuffled")) {
    if (!tps.at("shuffled").is_boolean()) return bad("transport_parameters.shuffled", "true or false");
    fp.transport_parameters.shuffled = tps.at("shuffled").get<bool>();
  }
  if (!tps.contains("parameters") || !tps.at("parameters").is_array()) {
    return bad("transport_parameters.parameters", "required: a list");
  }
  std::set<uint64_t> ids;
  const json& list = tps.at("parameters");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string w = "transport_parameters.parameters[" + std::to_string(i) + "]";
    auto p = parameter(list[i], w);
    if (!p) return p.error();
    // RFC 9000 7.4: a parameter may appear once.
    if (!p->grease_id && !ids.insert(p->id).second)
      return bad(w, "id " + std::to_string(p->id) + " listed twice");
    fp.transport_parameters.parameters.push_back(std::move(*p));
  }
  return fp;
}

}  // namespace tlsc
