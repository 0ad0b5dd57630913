#include "profiles/h3_block.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tlsc {
namespace {

using json = nlohmann::json;

constexpr uint64_t kMaxVarint = (uint64_t{1} << 62) - 1;
// quic-go-utls's MaxResponseHeaderBytes when tls-client sets none.
constexpr uint64_t kUpstreamMaxFieldSectionSize = 262144;

// A number, or a string of one ("0x33", "51").
std::optional<uint64_t> varint(const json& v) {
  if (v.is_number_unsigned()) {
    const uint64_t n = v.get<uint64_t>();
    return n <= kMaxVarint ? std::optional<uint64_t>(n) : std::nullopt;
  }
  if (!v.is_string()) return std::nullopt;
  std::string_view s = v.get_ref<const std::string&>();
  int base = 10;
  if (s.starts_with("0x")) {
    s.remove_prefix(2);
    base = 16;
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n, base);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || n > kMaxVarint) return std::nullopt;
  return n;
}

Error bad(const std::string& why) { return make_error(ErrorCode::invalid_input, "profile http3." + why); }

}  // namespace

Result<H3Fingerprint> h3_fingerprint_from_block(const json& http3) {
  H3Fingerprint out;
  if (!http3.is_object()) return bad("block: not an object");
  std::vector<std::pair<uint64_t, uint64_t>> settings;
  if (http3.contains("settings")) {
    for (const json& pair : http3.at("settings")) {
      auto id = pair.is_array() && pair.size() == 2 ? varint(pair[0]) : std::nullopt;
      auto value = id ? varint(pair[1]) : std::nullopt;
      if (!value) return bad("settings: expected [id, value], got " + pair.dump());
      if (std::any_of(settings.begin(), settings.end(), [&](const auto& s) { return s.first == *id; }))
        return bad("settings: " + pair[0].dump() + " twice");
      settings.emplace_back(*id, *value);
    }
  }
  if (http3.contains("settings_order")) {
    // Upstream's order can name ids its map has no value for (chrome_144):
    // its HTTP/3 transport (quic-go-utls) has values of its own for two of
    // them, MAX_FIELD_SECTION_SIZE (its MaxResponseHeaderBytes, 262144)
    // and H3_DATAGRAM (datagrams on: 1); any other such id is not sent.
    std::vector<std::pair<uint64_t, uint64_t>> ordered;
    for (const json& v : http3.at("settings_order")) {
      auto id = varint(v);
      if (!id) return bad("settings_order: not an id: " + v.dump());
      auto it = std::find_if(settings.begin(), settings.end(), [&](const auto& s) { return s.first == *id; });
      if (it != settings.end()) {
        ordered.push_back(*it);
      } else if (*id == kH3MaxFieldSectionSize) {
        ordered.emplace_back(*id, kUpstreamMaxFieldSectionSize);
      } else if (*id == kH3Datagram) {
        ordered.emplace_back(*id, 1);
      }
    }
    for (const auto& s : settings) {
      if (std::none_of(ordered.begin(), ordered.end(), [&](const auto& o) { return o.first == s.first; }))
        ordered.push_back(s);
    }
    settings = std::move(ordered);
  }
  out.control.settings = std::move(settings);
  out.priority_param = http3.value("priority_param", uint64_t{0});
  // Upstream adds a GREASE setting whenever it sends PRIORITY_UPDATE
  // (quic-go-utls, with h3PriorityParam); captured profiles say what the
  // browser did.
  out.control.grease_setting = http3.value("grease_setting", out.priority_param != 0);
  out.control.grease_frame = http3.value("send_grease_frames", false);
  if (http3.contains("pseudo_header_order")) {
    for (const json& name : http3.at("pseudo_header_order"))
      out.pseudo_header_order.push_back(name.get<std::string>());
  }
  return out;
}

}  // namespace tlsc
