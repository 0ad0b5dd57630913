// What a fingerprinting server sees of the library's HTTP/2: the capture
// server (tests/servers/h2_capture_server.cc) records the client's frames
// and computes the Akamai fingerprint; the tests assert it exactly.
#include <memory>
#include <set>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;

namespace {

struct CaptureServer {
  std::unique_ptr<itest::ChildServer> child;
  std::string url;
};

CaptureServer capture_server(std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {TLSC_H2_CAPTURE_SERVER, cert_dir() + "/good.pem",
                                   cert_dir() + "/good.key"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  CaptureServer s;
  s.child = std::make_unique<itest::ChildServer>(argv);
  s.url = "https://127.0.0.1:" + std::to_string(s.child->info()["port"].get<int>());
  return s;
}

json get(const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}};
  in.update(extra);
  json r = call(in);
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  return r;
}

std::vector<std::string> names(const json& headers) {
  std::vector<std::string> out;
  for (const auto& h : headers) out.push_back(h[0]);
  return out;
}

}  // namespace

TEST_CASE("h2: the default profile speaks HTTP/2 with Chrome 133's frames", "[h2][h2-fingerprint]") {
  auto server = capture_server();
  json r = get(server.url + "/path?q=1",
               {{"headers", {{"user-agent", "ua-test"}, {"accept", "*/*"}, {"accept-language", "en"}}},
                {"headerOrder", {"accept-language", "user-agent", "accept"}}});
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  json cap = json::parse(r["body"].get<std::string>());
  CHECK(cap["protocol"] == "h2");
  CHECK(cap["akamai"] == "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p");
  REQUIRE(cap["streams"].size() == 1);
  const json& s = cap["streams"][0];
  CHECK(s["stream_id"] == 1);
  CHECK(s["flags"] == json::array({"END_STREAM", "END_HEADERS", "PRIORITY"}));
  CHECK(s["priority"] == json({{"depends_on", 0}, {"exclusive", true}, {"weight", 256}}));
  CHECK(names(s["headers"]) == std::vector<std::string>{":method", ":authority", ":scheme", ":path",
                                                        "accept-language", "user-agent", "accept",
                                                        "accept-encoding"});
  CHECK(s["headers"][3][1] == "/path?q=1");
  CHECK(s["headers"][7][1] == "gzip, deflate, br");
}

TEST_CASE("h2: a GREASE setting in a profile is a reserved id drawn per connection", "[h2][h2-fingerprint]") {
  // tests/integration/data/user_profiles/test_h2_grease.json: ["GREASE", 7]
  // as its second setting.
  auto server = capture_server();
  std::set<int> ids;
  for (int i = 0; i < 8; ++i) {
    json r = get(server.url + "/", {{"tlsClientIdentifier", "test_h2_grease"},
                                    {"sessionId", "h2-grease-" + std::to_string(i)}});
    json cap = json::parse(r["body"].get<std::string>());
    REQUIRE(cap["settings"].size() == 5);
    CHECK(cap["settings"][0] == json::array({1, 65536}));
    const int id = cap["settings"][1][0];
    CHECK((id & 0x0f0f) == 0x0a0a);
    CHECK((id >> 12) == ((id >> 4) & 0xf));
    CHECK(cap["settings"][1][1] == 7);
    CHECK(cap["settings"][2] == json::array({2, 0}));
    ids.insert(id);
  }
  CHECK(ids.size() >= 2);  // all 8 alike: 16^-7
}

TEST_CASE("h2: a customTlsClient's HTTP/2 fields decide every frame", "[h2][h2-fingerprint]") {
  auto server = capture_server();
  // Firefox 102's HTTP/2 as upstream defines it: idle PRIORITY streams,
  // the request depending on stream 13, first stream 15.
  json custom = {
      {"ja3String", "771,4865-4866-4867-49195-49199,0-23-65281-10-11-16-13-51-45-43,29-23-24,0"},
      {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
      {"supportedVersions", {"1.3", "1.2"}},
      {"keyShareCurves", {"X25519"}},
      {"alpnProtocols", {"h2", "http/1.1"}},
      {"h2Settings",
       {{"HEADER_TABLE_SIZE", 65536}, {"INITIAL_WINDOW_SIZE", 131072}, {"MAX_FRAME_SIZE", 16384}}},
      {"h2SettingsOrder", {"HEADER_TABLE_SIZE", "INITIAL_WINDOW_SIZE", "MAX_FRAME_SIZE"}},
      {"connectionFlow", 12517377},
      {"priorityFrames",
       {{{"streamID", 3}, {"priorityParam", {{"weight", 200}, {"streamDep", 0}, {"exclusive", false}}}},
        {{"streamID", 5}, {"priorityParam", {{"weight", 100}, {"streamDep", 0}, {"exclusive", false}}}},
        {{"streamID", 7}, {"priorityParam", {{"weight", 0}, {"streamDep", 0}, {"exclusive", false}}}},
        {{"streamID", 9}, {"priorityParam", {{"weight", 0}, {"streamDep", 7}, {"exclusive", false}}}},
        {{"streamID", 11}, {"priorityParam", {{"weight", 0}, {"streamDep", 3}, {"exclusive", false}}}},
        {{"streamID", 13}, {"priorityParam", {{"weight", 240}, {"streamDep", 0}, {"exclusive", false}}}}}},
      {"headerPriority", {{"weight", 41}, {"streamDep", 13}, {"exclusive", false}}},
      {"pseudoHeaderOrder", {":method", ":path", ":authority", ":scheme"}}};
  json r = get(server.url + "/", {{"customTlsClient", custom}});
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  json cap = json::parse(r["body"].get<std::string>());
  CHECK(cap["akamai"] ==
        "1:65536;4:131072;5:16384|12517377|3:0:0:201,5:0:0:101,7:0:0:1,9:0:7:1,11:0:3:1,13:0:0:241|m,p,a,s");
  REQUIRE(cap["streams"].size() == 1);
  CHECK(cap["streams"][0]["stream_id"] == 15);
  CHECK(cap["streams"][0]["priority"] == json({{"depends_on", 13}, {"exclusive", false}, {"weight", 42}}));
}

TEST_CASE("h2: forceHttp1 and an http/1.1-only server stay on HTTP/1.1", "[h2][h2-fingerprint]") {
  {
    auto server = capture_server();
    json r = get(server.url + "/", {{"forceHttp1", true}});
    CHECK(r["usedProtocol"] == "HTTP/1.1");
    json cap = json::parse(r["body"].get<std::string>());
    CHECK(cap["tls"]["alpn"] == "http/1.1");
  }
  {
    auto server = capture_server({"--alpn", "http/1.1"});
    json r = get(server.url + "/");
    CHECK(r["usedProtocol"] == "HTTP/1.1");
  }
}

TEST_CASE("h2: requests of one session share one connection, one stream each", "[h2][h2-fingerprint]") {
  auto server = capture_server();
  json session = {{"sessionId", "h2-share"}};
  for (int i = 0; i < 5; ++i) {
    json r = get(server.url + "/n" + std::to_string(i), session);
    json cap = json::parse(r["body"].get<std::string>());
    // Same connection: the capture has every stream so far; the preface
    // was sent once.
    REQUIRE(cap["streams"].size() == static_cast<size_t>(i + 1));
    CHECK(cap["streams"][i]["stream_id"] == 1 + 2 * i);
    CHECK(cap["settings"].size() == 4);
  }
  itest::call_fn(itest::lib().destroySession, session);
}

TEST_CASE("h2: cookies go out one field per pair, as fhttp splits them", "[h2][h2-fingerprint]") {
  auto server = capture_server();
  json r = get(server.url + "/", {{"headers", {{"cookie", "a=1; b=2;c=3"}}}});
  json cap = json::parse(r["body"].get<std::string>());
  std::vector<std::string> cookies;
  for (const auto& h : cap["streams"][0]["headers"]) {
    if (h[0] == "cookie") cookies.push_back(h[1]);
  }
  CHECK(cookies == std::vector<std::string>{"a=1", "b=2", "c=3"});
}

TEST_CASE(
    "h2: ALPS negotiated end to end, on the profile's codepoint, with empty client settings as utls sends",
    "[h2][h2-fingerprint][tls]") {
  auto server = capture_server({"--alps", "1"});
  json r = get(server.url + "/");
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  json cap = json::parse(r["body"].get<std::string>());
  CHECK(cap["tls"]["alps_codepoint_offered"] == 17613);
  CHECK(cap["tls"]["alps_negotiated"] == true);
  CHECK(cap["tls"]["alps_client_settings_hex"] == "");
}

TEST_CASE("h2: ALPS on the old codepoint (17513) from a customTlsClient", "[h2][h2-fingerprint][tls]") {
  auto server = capture_server({"--alps", "1"});
  json custom = {
      {"ja3String", "771,4865-4866-4867-49195-49199,0-23-65281-10-11-16-13-51-45-43-17513,29-23-24,0"},
      {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
      {"supportedVersions", {"1.3", "1.2"}},
      {"keyShareCurves", {"X25519"}},
      {"alpnProtocols", {"h2", "http/1.1"}},
      {"alpsProtocols", {"h2"}},
      {"h2Settings", {{"HEADER_TABLE_SIZE", 65536}}},
      {"h2SettingsOrder", {"HEADER_TABLE_SIZE"}},
      {"pseudoHeaderOrder", {":method", ":authority", ":scheme", ":path"}}};
  json r = get(server.url + "/", {{"customTlsClient", custom}});
  json cap = json::parse(r["body"].get<std::string>());
  CHECK(cap["tls"]["alps_codepoint_offered"] == 17513);
  CHECK(cap["tls"]["alps_negotiated"] == true);
}
