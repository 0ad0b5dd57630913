// destroySession's "tlsClientCpp": which build is loaded. It must name the
// header's versions and every profile file compiled in plus the user's.
#include <filesystem>
#include <set>

#include <catch2/catch.hpp>

#include "support.h"
#include "tls_client.h"

using itest::json;
using itest::lib;

TEST_CASE("destroySession's answer names the build, the upstream it follows and every profile", "[info]") {
  const json answer = itest::call_fn(lib().destroySession, {{"sessionId", "no-such-session-info-test"}});
  CHECK(answer["success"] == true);
  const json& info = answer["tlsClientCpp"];
  CHECK(info["name"] == "tls-client-cpp");
  CHECK(info["version"] == TLS_CLIENT_CPP_VERSION);
  CHECK(info["upstream"]["version"] == TLS_CLIENT_CPP_UPSTREAM_VERSION);
  CHECK(info["upstream"]["repository"] == "github.com/bogdanfinn/tls-client");
#if defined(__APPLE__)
  const std::string os = "darwin";
#else
  const std::string os = "linux";
#endif
#if defined(__aarch64__)
  CHECK(info["platform"] == os + "-arm64");
#else
  CHECK(info["platform"] == os + "-x86_64");
#endif
  CHECK(info["defaultProfile"] == "chrome_133");
  for (const char* dep : {"boringssl", "nghttp2", "c-ares", "zlib", "brotli", "zstd"}) {
    INFO(dep);
    CHECK(info["dependencies"][dep].is_string());
    CHECK(!info["dependencies"][dep].get<std::string>().empty());
  }
  CHECK(info["dependencies"]["boringssl"].get<std::string>().find("14.0.0+r45") != std::string::npos);

  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(TLSC_SOURCE_DIR "/profiles")) {
    if (e.path().extension() == ".json") files.insert(e.path().stem().string());
  }
  std::set<std::string> listed;
  for (const json& p : info["profiles"]) {
    listed.insert(p["name"].get<std::string>());
    CHECK(!p["client"].get<std::string>().empty());
  }
  CHECK(info["profiles"].size() == listed.size());  // no name twice
  for (const std::string& f : files) {
    INFO(f);
    CHECK(listed.count(f) == 1);
  }
  // The user's files from TLS_CLIENT_PROFILES_DIR (support.cc) are listed too.
  CHECK(listed.size() == files.size() + 2);
  CHECK(listed.count("test_user_profile") == 1);
  CHECK(listed.count("test_h2_grease") == 1);

  auto find = [&](const std::string& name) {
    for (const json& p : info["profiles"])
      if (p["name"] == name) return p;
    return json();
  };
  CHECK(find("safari_ios_18_0")["client"] == "safari_ios");
  CHECK(find("safari_ios_18_0")["clientVersion"] == "18.0");
  CHECK(find("chrome_116_PSK_PQ")["clientVersion"] == "116");
  CHECK(find("chrome_116_PSK_PQ")["variant"] == "PSK_PQ");
  CHECK(find("nike_android_mobile")["clientVersion"] == "");

  // The same for every call (made once), and for an existing session too.
  itest::call({{"requestUrl", "http://127.0.0.1:1/"}, {"requestMethod", "GET"}, {"sessionId", "info-test"}});
  CHECK(itest::call_fn(lib().destroySession, {{"sessionId", "info-test"}})["tlsClientCpp"] == info);
}
