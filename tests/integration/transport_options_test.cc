// transportOptions that shape how connections are made and kept.
#include <chrono>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::h1_servers;
using itest::json;
using itest::lib;

TEST_CASE("maxConnsPerHost: requests beyond it wait for a connection, none fail", "[h1][transport]") {
  const int n = 12;
  json session = {{"sessionId", "max-conns-per-host"}};
  std::set<std::string> ids;
  for (int i = 0; i < n; ++i) {
    json in = {{"requestUrl", h1_servers().http + "/port-after/50"},
               {"requestMethod", "GET"},
               {"sessionId", "max-conns-per-host"},
               {"timeoutSeconds", 20},
               {"transportOptions", {{"maxConnsPerHost", 2}, {"maxIdleConnsPerHost", 10}}}};
    std::string text = in.dump();
    json r = json::parse(lib().requestAsync(text.data()));
    REQUIRE(r.contains("id"));
    ids.insert(r["id"].get<std::string>());
  }
  std::set<std::string> ports;
  size_t done = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (done < ids.size() && std::chrono::steady_clock::now() < deadline) {
    for (auto& r : json::parse(lib().waitNext(500))) {
      INFO(r.dump());
      REQUIRE(r["status"] == 200);
      ports.insert(r["body"].get<std::string>());
      ++done;
    }
  }
  CHECK(done == ids.size());
  CHECK(ports.size() <= 2);  // never more than two connections to the host
  itest::call_fn(lib().destroySession, session);
}

TEST_CASE("idleConnTimeout: an idle keep-alive connection is closed after it, kept before",
          "[h1][transport]") {
  auto port_of = [](const std::string& session, json transport) {
    json r = itest::call({{"requestUrl", h1_servers().http + "/port-after/0"},
                          {"requestMethod", "GET"},
                          {"sessionId", session},
                          {"transportOptions", transport}});
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    return r["body"].get<std::string>();
  };
  json short_idle = {{"idleConnTimeout", 200000000}};  // Go's time.Duration: 200 ms
  std::string first = port_of("idle-short", short_idle);
  CHECK(port_of("idle-short", short_idle) == first);  // reused while fresh
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(port_of("idle-short", short_idle) != first);  // closed while idle: a new connection
  std::string kept = port_of("idle-default", json::object());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(port_of("idle-default", json::object()) == kept);  // Go's default is 90 s
  itest::call_fn(lib().destroySession, {{"sessionId", "idle-short"}});
  itest::call_fn(lib().destroySession, {{"sessionId", "idle-default"}});
}
