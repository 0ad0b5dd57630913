// transportOptions that shape how connections are made and kept.
#include <catch2/catch.hpp>
#include <chrono>
#include <set>

#include "support.h"

using itest::h1_servers;
using itest::json;
using itest::lib;

TEST_CASE("maxConnsPerHost: requests beyond it wait for a connection, none fail", "[h1][transport]") {
  const int n = 12;
  json session = {{"sessionId", "max-conns-per-host"}};
  std::set<std::string> ids;
  for (int i = 0; i < n; ++i) {
    json in = {{"requestUrl", h1_servers().http + "/port-after/50"}, {"requestMethod", "GET"},
               {"sessionId", "max-conns-per-host"}, {"timeoutSeconds", 20},
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
