#include "http/h2/h2_fingerprint.h"

namespace tlsc {

std::optional<uint16_t> h2_setting_id(std::string_view name) {
  static constexpr std::pair<std::string_view, uint16_t> kNames[] = {
      {"HEADER_TABLE_SIZE", 1},   {"ENABLE_PUSH", 2},       {"MAX_CONCURRENT_STREAMS", 3},
      {"INITIAL_WINDOW_SIZE", 4}, {"MAX_FRAME_SIZE", 5},    {"MAX_HEADER_LIST_SIZE", 6},
      {"UNKNOWN_SETTING_7", 7},   {"UNKNOWN_SETTING_8", 8}, {"UNKNOWN_SETTING_9", 9},
  };
  for (auto [n, id] : kNames) {
    if (n == name) return id;
  }
  return std::nullopt;
}

uint32_t fhttp_first_stream_id(const H2Fingerprint& f, uint32_t initial, bool allow_http) {
  uint32_t id = allow_http ? 3 : 1;
  if (initial != 0) id = initial;
  if (!f.priority_frames.empty()) id = f.priority_frames.back().stream_id + 2;
  return id;
}

bool is_request_pseudo_header(std::string_view name) {
  return name == ":method" || name == ":authority" || name == ":scheme" || name == ":path";
}

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
    out +=
        (settings[i].first == kGreaseSettingId ? std::string("GREASE") : std::to_string(settings[i].first)) +
        ':' + std::to_string(settings[i].second);
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

}  // namespace tlsc
