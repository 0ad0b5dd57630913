// Every built-in profile's HTTP/2 on the wire: one request per profile to
// the HTTP/2 capture server, whose Akamai string, first stream id and
// HEADERS priority must match profiles/expected/<name>.json's "http2",
// which profiles/tools/convert_upstream.py computes straight from
// upstream's Go literals (not from the profile files the library reads).
#include <filesystem>
#include <fstream>
#include <map>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;

namespace {

json read_json(const std::filesystem::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

}  // namespace

TEST_CASE("profiles: every profile's HTTP/2 matches upstream's (Akamai string, stream id, priority)",
          "[profiles][h2-fingerprint]") {
  itest::ChildServer server({TLSC_H2_CAPTURE_SERVER, cert_dir() + "/good.pem", cert_dir() + "/good.key"});
  const std::string url = "https://localhost:" + std::to_string(server.info()["port"].get<int>()) + "/";
  const std::string dir = std::string(TLSC_SOURCE_DIR) + "/profiles";
  std::map<std::string, int> families;
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/expected")) {
    if (e.path().extension() != ".json") continue;
    json expected = read_json(e.path());
    if (!expected.contains("http2")) continue;
    const std::string name = expected["name"];
    json profile = read_json(dir + "/" + name + ".json");
    const json& alpn = profile["tls"]["alpn"];
    if (std::find(alpn.begin(), alpn.end(), "h2") == alpn.end()) continue;  // never speaks h2
    json r = call({{"requestUrl", url},
                   {"requestMethod", "GET"},
                   {"tlsClientIdentifier", name},
                   {"timeoutSeconds", 10}});
    INFO(name << ": " << r.dump().substr(0, 400));
    CHECK(r["status"] == 200);
    CHECK(r["usedProtocol"] == "HTTP/2.0");
    if (r["status"] != 200) continue;
    json cap = json::parse(r["body"].get<std::string>());
    CHECK(cap["akamai"] == expected["http2"]["akamai"]);
    CHECK(cap["streams"].size() == 1);
    if (cap["streams"].size() != 1) continue;
    CHECK(cap["streams"][0]["stream_id"] == expected["http2"]["first_stream_id"]);
    CHECK(cap["streams"][0]["priority"] == expected["http2"]["header_priority"]);
    ++families[name.substr(0, name.find('_'))];
    ++checked;
  }
  // The families issue 4 names are all among them.
  for (const char* family : {"chrome", "firefox", "safari", "okhttp4"}) {
    INFO(family);
    CHECK(families[family] > 0);
  }
  CHECK(checked > 60);
}
