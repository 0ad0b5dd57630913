// The real browsers' HTTP/3 captures (tests/data/browsers/*/h3_captures.jsonl),
// and those and the HTTP/3 capture server's answers
// (tests/servers/h3_capture_server.cc) reduced to what a comparison reads:
// the control stream's frames and a request's pseudo-header order. Shared by
// tests/quic and the integration tests that go through the ABI.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace itest {

// The first page load of a real browser's HTTP/3 capture
// (tests/data/browsers/BROWSER/h3_captures.jsonl). Needs TLSC_SOURCE_DIR.
inline nlohmann::json first_h3_capture(const std::string& browser) {
  std::ifstream in(std::string(TLSC_SOURCE_DIR) + "/tests/data/browsers/" + browser + "/h3_captures.jsonl");
  std::string line;
  REQUIRE(std::getline(in, line));
  return nlohmann::json::parse(line);
}

// The control stream's frames as comparable text: SETTINGS as "id=value"
// (a GREASE setting as "GREASE"), a GREASE frame as "GREASE frame", a
// PRIORITY_UPDATE as its field value.
inline std::vector<std::string> h3_control_shape(const nlohmann::json& capture) {
  std::vector<std::string> out;
  for (const auto& frame : capture.at("control_frames")) {
    if (frame.contains("settings")) {
      for (const auto& s : frame.at("settings")) {
        out.push_back(s.at("grease").get<bool>() ? std::string("GREASE")
                                                 : std::to_string(s.at("id").get<uint64_t>()) + "=" +
                                                       std::to_string(s.at("value").get<uint64_t>()));
      }
    } else if (frame.value("grease", false)) {
      out.push_back("GREASE frame");
    } else if (frame.contains("priority")) {
      out.push_back("PRIORITY_UPDATE " + frame.at("priority").get<std::string>());
    } else {
      out.push_back("frame " + frame.at("type").dump());
    }
  }
  return out;
}

// A request stream's pseudo-header names in wire order.
inline std::vector<std::string> h3_pseudo_order(const nlohmann::json& stream) {
  std::vector<std::string> out;
  for (const auto& h : stream.at("headers")) {
    const std::string name = h.at(0).get<std::string>();
    if (name.starts_with(":")) out.push_back(name);
  }
  return out;
}

}  // namespace itest
