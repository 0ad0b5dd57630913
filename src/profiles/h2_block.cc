// A profile file's "http2" block (profiles/SCHEMA.md) as the HTTP/2
// fingerprint it describes, with fhttp's defaults for what it leaves out.
#include "profiles/h2_block.h"

#include <charconv>

#include <nlohmann/json.hpp>

namespace tlsc {
namespace {

using json = nlohmann::json;

std::optional<uint16_t> setting_id(const json& v) {
  if (v.is_number_unsigned()) {
    uint64_t n = v.get<uint64_t>();
    if (n == 0 || n > 0xffff) return std::nullopt;
    return static_cast<uint16_t>(n);
  }
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "GREASE") return kGreaseSettingId;
  if (auto id = h2_setting_id(s)) return id;
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

Error bad(const std::string& what) { return make_error(ErrorCode::invalid_input, "profile http2: " + what); }

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

}  // namespace

Result<H2Fingerprint> h2_fingerprint_from_block(const json& h2, bool allow_http) {
  H2Fingerprint f;
  if (h2.is_null()) {
    f.settings = {{2, 0}};
    f.first_stream_id = fhttp_first_stream_id(f, 0, allow_http);
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
  if (f.connection_flow == 0) f.connection_flow = kFhttpDefaultConnectionFlow;
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
    f.header_priority = is_zero_priority(*prio) ? std::nullopt : std::optional<H2Priority>(*prio);
  }
  if (h2.contains("pseudo_header_order") && !h2["pseudo_header_order"].is_null()) {
    if (!h2["pseudo_header_order"].is_array()) return bad("pseudo_header_order: not a list");
    for (const json& p : h2["pseudo_header_order"]) {
      if (!p.is_string()) return bad("pseudo_header_order: not a list of names");
      const std::string& name = p.get_ref<const std::string&>();
      if (!is_request_pseudo_header(name)) {
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
  f.first_stream_id = fhttp_first_stream_id(f, initial, allow_http);
  return f;
}

}  // namespace tlsc
