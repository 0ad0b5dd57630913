// Chromium 156's and Firefox ESR 153's HTTP/3 control streams from nghttp3:
// the connection writes the frames the profile's http3 block describes
// (wire/h3_control_stream.h) in place of its own SETTINGS
// (packaging/nghttp3/patches/0001: nghttp3_conn_set_settings_raw), then the
// PRIORITY_UPDATE nghttp3 sends for a request's priority; read back by the
// capture server's reader, its frames are those of every stored page load
// of that browser over HTTP/3 (tests/data/browsers/*/h3_captures.jsonl):
// SETTINGS with the same identifiers, values and order (Chromium: and a
// GREASE setting last), a GREASE frame, and for Chromium PRIORITY_UPDATE
// "u=0, i" for stream 0.
#include "wire/h3_control_stream.h"

#include <nghttp3/nghttp3.h>

#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "profiles/registry.h"
#include "servers/h3_frames.h"
#include "wire/quic_varint.h"

namespace {

// A control stream's frames as the comparison reads them: GREASE settings
// and frame types written as "GREASE", SETTINGS as id:value, PRIORITY_UPDATE
// with its element and field value.
std::vector<std::string> shape(const std::vector<h3_frames::Frame>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) {
    if (f.type == h3_frames::kSettings) {
      std::string s = "SETTINGS";
      const auto list = h3_frames::settings(f.payload).value();  // kept: the loop reads into it
      for (const auto& [id, value] : list)
        s += h3_frames::is_grease_setting(id) ? " GREASE"
                                              : " " + std::to_string(id) + ":" + std::to_string(value);
      out.push_back(s);
    } else if (f.type == h3_frames::kPriorityUpdateRequest) {
      const auto pu = h3_frames::priority_update(f.payload).value();
      out.push_back("PRIORITY_UPDATE " + std::to_string(pu.first) + " " + pu.second);
    } else {
      out.push_back(h3_frames::StreamReader::is_grease_type(f.type) ? "GREASE" : std::to_string(f.type));
    }
  }
  return out;
}

nghttp3_nv nv(const std::string& name, const std::string& value) {
  return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP3_NV_FLAG_NONE};
}

}  // namespace

TEST_CASE("chromium_156's and firefox_153's HTTP/3 control streams from nghttp3 are their browsers'",
          "[quic]") {
  const std::string name = GENERATE(as<std::string>{}, "chromium_156", "firefox_153");
  INFO(name);
  const tlsc::Profile* profile = tlsc::lookup_profile(name);
  REQUIRE(profile != nullptr);
  REQUIRE(profile->http3.is_object());
  tlsc::H3ControlStreamSpec spec;
  for (const auto& s : profile->http3.at("settings"))
    spec.settings.emplace_back(std::stoull(s[0].get<std::string>(), nullptr, 16), s[1].get<uint64_t>());
  spec.grease_setting = profile->http3.at("grease_setting").get<bool>();
  spec.grease_frame = profile->http3.at("send_grease_frames").get<bool>();

  std::vector<std::vector<std::string>> browser;
  std::ifstream captures(std::string(TLSC_SOURCE_DIR) + "/tests/data/browsers/" + name +
                         "/h3_captures.jsonl");
  for (std::string line; std::getline(captures, line);) {
    if (line.empty()) continue;
    const auto record = nlohmann::json::parse(line);
    std::vector<h3_frames::Frame> frames;
    for (const auto& f : record.at("control_frames")) {
      h3_frames::Frame frame{f.at("type").get<uint64_t>(), f.at("length").get<uint64_t>(), {}};
      if (frame.type == h3_frames::kSettings) {
        std::string payload;
        for (const auto& s : f.at("settings")) {
          tlsc::append_quic_varint(payload, s.at("id").get<uint64_t>());
          tlsc::append_quic_varint(payload, s.at("value").get<uint64_t>());
        }
        frame.payload.assign(payload.begin(), payload.end());
      } else if (frame.type == h3_frames::kPriorityUpdateRequest) {
        frame.payload = {static_cast<uint8_t>(f.at("element_id").get<uint64_t>())};
        const std::string p = f.at("priority").get<std::string>();
        frame.payload.insert(frame.payload.end(), p.begin(), p.end());
      }
      frames.push_back(frame);
    }
    browser.push_back(shape(frames));
  }
  REQUIRE(browser.size() >= 3);

  std::mt19937_64 rng(std::random_device{}());
  for (int connection = 0; connection < 4; ++connection) {
    nghttp3_settings settings;
    nghttp3_settings_default(&settings);
    for (const auto& [id, value] : spec.settings) {  // as the SETTINGS announce
      if (id == 0x1) settings.qpack_max_dtable_capacity = value;
      if (id == 0x6) settings.max_field_section_size = value;
      if (id == 0x7) settings.qpack_blocked_streams = value;
      if (id == 0x8) settings.enable_connect_protocol = value != 0;
    }
    nghttp3_callbacks callbacks{};
    nghttp3_conn* conn = nullptr;
    REQUIRE(nghttp3_conn_client_new(&conn, &callbacks, &settings, nghttp3_mem_default(), nullptr) == 0);
    const std::string raw = tlsc::encode_h3_control_frames(spec, [&] { return rng(); });
    REQUIRE(nghttp3_conn_set_settings_raw(conn, reinterpret_cast<const uint8_t*>(raw.data()), raw.size()) ==
            0);
    REQUIRE(nghttp3_conn_bind_control_stream(conn, 2) == 0);
    REQUIRE(nghttp3_conn_bind_qpack_streams(conn, 6, 10) == 0);
    const std::string method = ":method", get = "GET", authority = ":authority", host = "localhost",
                      scheme = ":scheme", https = "https", path = ":path", slash = "/", priority = "priority",
                      u0i = "u=0, i";
    const nghttp3_nv headers[] = {nv(method, get), nv(authority, host), nv(scheme, https), nv(path, slash),
                                  nv(priority, u0i)};
    REQUIRE(nghttp3_conn_submit_request(conn, 0, headers, 5, nullptr, nullptr) == 0);
    if (profile->http3.at("priority_param") == 0xf0700) {  // the browser sends PRIORITY_UPDATE
      const nghttp3_pri pri{0, 1};
      REQUIRE(nghttp3_conn_set_stream_priority(conn, 0, &pri) == 0);
    }

    std::map<int64_t, std::string> streams;
    for (int rounds = 0; rounds < 100; ++rounds) {
      int64_t stream_id = -1;
      int fin = 0;
      nghttp3_vec vec[16];
      const nghttp3_ssize n = nghttp3_conn_writev_stream(conn, &stream_id, &fin, vec, 16);
      REQUIRE(n >= 0);
      if (stream_id < 0) break;
      size_t written = 0;
      for (nghttp3_ssize i = 0; i < n; ++i) {
        streams[stream_id].append(reinterpret_cast<const char*>(vec[i].base), vec[i].len);
        written += vec[i].len;
      }
      REQUIRE(nghttp3_conn_add_write_offset(conn, stream_id, written) == 0);
    }
    nghttp3_conn_del(conn);

    h3_frames::StreamReader control(true);
    const std::string& bytes = streams[2];
    control.feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    CHECK(control.error().empty());
    CHECK(control.stream_type() == 0u);
    const auto ours = shape(control.frames());
    for (const auto& real : browser) CHECK(ours == real);
    CHECK(ours.size() == (name == "chromium_156" ? 3u : 2u));
  }
}
