#include "http/h2/h2_fingerprint.h"

#include <charconv>
#include <nlohmann/json.hpp>

namespace tlsc {
namespace {

using json = nlohmann::json;

// fhttp's transportDefaultConnFlow: what it sends when a profile names none.
constexpr uint32_t kDefaultConnectionFlow = 15663105;

// Upstream's H2SettingsMap.
std::optional<uint16_t> setting_id_by_name(std::string_view name) {
  static constexpr std::pair<std::string_view, uint16_t> kNames[] = {
      {"HEADER_TABLE_SIZE", 1},    {"ENABLE_PUSH", 2},       {"MAX_CONCURRENT_STREAMS", 3},
      {"INITIAL_WINDOW_SIZE", 4},  {"MAX_FRAME_SIZE", 5},    {"MAX_HEADER_LIST_SIZE", 6},
      {"UNKNOWN_SETTING_7", 7},    {"UNKNOWN_SETTING_8", 8}, {"UNKNOWN_SETTING_9", 9},
  };
  for (auto [n, id] : kNames) {
    if (n == name) return id;
  }
  return std::nullopt;
}

std::optional<uint16_t> setting_id(const json& v) {
  if (v.is_number_unsigned()) {
    uint64_t n = v.get<uint64_t>();
    if (n == 0 || n > 0xffff) return std::nullopt;
    return static_cast<uint16_t>(n);
  }
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (auto id = setting_id_by_name(s)) return id;
  std::string_view digits = s;
  int base = 10;
  if (digits.starts_with("0x")) {
    digits.remove_prefix(2);
    base = 16;
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || end != digits.data() + digits.size() || value == 0 || value > 0xffff) {
    return std::nullopt;
  }
  return static_cast<uint16_t>(value);
}

Error bad(const std::string& what) {
  return make_error(ErrorCode::invalid_input, "profile http2: " + what);
}

Result<H2Priority> priority_from_json(const json& p, const char* where) {
  if (!p.is_object()) return bad(std::string(where) + ": not an object");
  H2Priority out;
  const json& dep = p.contains("depends_on") ? p["depends_on"] : json(0);
  const json& excl = p.contains("exclusive") ? p["exclusive"] : json(false);
  const json& weight = p.contains("weight") ? p["weight"] : json(16);
  if (!dep.is_number_unsigned() || dep.get<uint64_t>() > 0x7fffffff) {
    return bad(std::string(where) + ": depends_on must be a stream id");
  }
  if (!excl.is_boolean()) return bad(std::string(where) + ": exclusive must be true or false");
  if (!weight.is_number_unsigned() || weight.get<uint64_t>() < 1 || weight.get<uint64_t>() > 256) {
    return bad(std::string(where) + ": weight must be 1..256");
  }
  out.depends_on = dep.get<uint32_t>();
  out.exclusive = excl.get<bool>();
  out.weight = static_cast<uint16_t>(weight.get<uint32_t>());
  return out;
}

// fhttp sends no PRIORITY flag for the zero PriorityParam.
bool is_zero(const H2Priority& p) { return p.depends_on == 0 && !p.exclusive && p.weight == 1; }

// fhttp's nextStreamID: 3 with AllowHTTP, then InitialStreamID, then two
// past the last PRIORITY frame.
uint32_t first_stream_id(const H2Fingerprint& f, uint32_t initial, bool allow_http) {
  uint32_t id = allow_http ? 3 : 1;
  if (initial != 0) id = initial;
  if (!f.priority_frames.empty()) id = f.priority_frames.back().stream_id + 2;
  return id;
}

}  // namespace

std::optional<uint32_t> H2Fingerprint::setting(uint16_t id) const {
  std::optional<uint32_t> value;
  for (auto [i, v] : settings) {
    if (i == id) value = v;  // the last one wins, as the peer applies them
  }
  return value;
}

std::string H2Fingerprint::akamai() const {
  std::string out;
  for (size_t i = 0; i < settings.size(); ++i) {
    if (i) out += ';';
    out += std::to_string(settings[i].first) + ':' + std::to_string(settings[i].second);
  }
  out += '|' + std::to_string(connection_flow) + '|';
  if (priority_frames.empty()) out += '0';
  for (size_t i = 0; i < priority_frames.size(); ++i) {
    const auto& f = priority_frames[i];
    if (i) out += ',';
    out += std::to_string(f.stream_id) + ':' + (f.priority.exclusive ? "1" : "0") + ':' +
           std::to_string(f.priority.depends_on) + ':' + std::to_string(f.priority.weight);
  }
  out += '|';
  std::vector<std::string> order = pseudo_header_order;
  if (order.empty()) order = {":authority", ":method", ":path", ":scheme"};
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) out += ',';
    if (order[i].size() > 1) out += order[i][1];
  }
  return out;
}

Result<H2Fingerprint> h2_fingerprint_from_json(const json& h2, bool allow_http) {
  H2Fingerprint f;
  if (h2.is_null()) {
    f.settings = {{2, 0}};
    f.first_stream_id = first_stream_id(f, 0, allow_http);
    return f;
  }
  if (!h2.is_object()) return bad("not an object");
  if (!h2.contains("settings") || h2["settings"].is_null()) {
    f.settings = {{2, 0}};  // fhttp without Settings: ENABLE_PUSH 0 alone
  } else {
    if (!h2["settings"].is_array()) return bad("settings: not a list");
    for (const json& s : h2["settings"]) {
      if (!s.is_array() || s.size() != 2) return bad("settings: each entry is [id, value]");
      auto id = setting_id(s[0]);
      if (!id) return bad("settings: unknown setting " + s[0].dump());
      if (!s[1].is_number_unsigned() || s[1].get<uint64_t>() > 0xffffffffu) {
        return bad("settings: value of " + s[0].dump() + " must be 0..4294967295");
      }
      f.settings.emplace_back(*id, s[1].get<uint32_t>());
    }
  }
  if (h2.contains("connection_flow") && !h2["connection_flow"].is_null()) {
    const json& c = h2["connection_flow"];
    if (!c.is_number_unsigned() || c.get<uint64_t>() > 0x7fffffff) {
      return bad("connection_flow must be 0..2147483647");
    }
    f.connection_flow = c.get<uint32_t>();
  }
  if (f.connection_flow == 0) f.connection_flow = kDefaultConnectionFlow;
  if (h2.contains("priority_frames") && !h2["priority_frames"].is_null()) {
    if (!h2["priority_frames"].is_array()) return bad("priority_frames: not a list");
    for (const json& p : h2["priority_frames"]) {
      if (!p.is_object() || !p.contains("stream_id") || !p["stream_id"].is_number_unsigned()) {
        return bad("priority_frames: each entry needs a stream_id");
      }
      uint64_t id = p["stream_id"].get<uint64_t>();
      if (id == 0 || id > 0x7fffffff) return bad("priority_frames: stream_id must be 1..2^31-1");
      auto prio = priority_from_json(p, "priority_frames");
      if (!prio) return prio.error();
      f.priority_frames.push_back({static_cast<uint32_t>(id), *prio});
    }
  }
  if (h2.contains("header_priority") && !h2["header_priority"].is_null()) {
    auto prio = priority_from_json(h2["header_priority"], "header_priority");
    if (!prio) return prio.error();
    f.header_priority = is_zero(*prio) ? std::nullopt : std::optional<H2Priority>(*prio);
  }
  if (h2.contains("pseudo_header_order") && !h2["pseudo_header_order"].is_null()) {
    if (!h2["pseudo_header_order"].is_array()) return bad("pseudo_header_order: not a list");
    for (const json& p : h2["pseudo_header_order"]) {
      if (!p.is_string()) return bad("pseudo_header_order: not a list of names");
      const std::string& name = p.get_ref<const std::string&>();
      if (name != ":method" && name != ":authority" && name != ":scheme" && name != ":path") {
        return bad("pseudo_header_order: unknown pseudo-header " + p.dump());
      }
      f.pseudo_header_order.push_back(name);
    }
  }
  uint32_t initial = 0;
  if (h2.contains("stream_id") && !h2["stream_id"].is_null()) {
    const json& s = h2["stream_id"];
    if (!s.is_number_unsigned() || s.get<uint64_t>() > 0x7fffffff ||
        (s.get<uint64_t>() != 0 && s.get<uint64_t>() % 2 == 0)) {
      return bad("stream_id must be 0 or an odd stream id");
    }
    initial = s.get<uint32_t>();
  }
  f.first_stream_id = first_stream_id(f, initial, allow_http);
  return f;
}

H2Fingerprint h2_fingerprint_from_custom(const CustomTlsClientInput& c) {
  H2Fingerprint f;
  // Upstream always builds a (possibly empty) settings map, so the order
  // list alone decides what goes out; a name missing from the map sends 0.
  for (const auto& name : c.h2_settings_order) {
    auto id = setting_id_by_name(name);
    if (!id) continue;
    uint32_t value = 0;
    for (const auto& [k, v] : c.h2_settings) {
      if (k == name) value = v;
    }
    f.settings.emplace_back(*id, value);
  }
  f.connection_flow = c.connection_flow != 0 ? c.connection_flow : kDefaultConnectionFlow;
  auto to_priority = [](const PriorityParamInput& p) {
    return H2Priority{p.stream_dep & 0x7fffffff, p.exclusive, static_cast<uint16_t>((p.weight & 0xff) + 1)};
  };
  for (const auto& p : c.priority_frames) {
    f.priority_frames.push_back({p.stream_id, to_priority(p.priority_param)});
  }
  if (c.header_priority) {
    H2Priority p = to_priority(*c.header_priority);
    f.header_priority = is_zero(p) ? std::nullopt : std::optional<H2Priority>(p);
  }
  for (const auto& p : c.pseudo_header_order) {
    if (p == ":method" || p == ":authority" || p == ":scheme" || p == ":path") {
      f.pseudo_header_order.push_back(p);
    }
  }
  f.first_stream_id = first_stream_id(f, c.stream_id, c.allow_http);
  return f;
}

}  // namespace tlsc
