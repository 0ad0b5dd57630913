// transportOptions that shape how connections are made and kept.
#include <chrono>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::h1_servers;
using itest::json;
using itest::lib;

namespace {

// Sends `rounds` bursts of `in_flight` requests to /port-after/50 in one
// session and returns how many client connections the server saw.
size_t connections_for_bursts(const std::string& session, const json& extra, int rounds, int in_flight) {
  std::set<std::string> ports;
  for (int round = 0; round < rounds; ++round) {
    std::set<std::string> ids;
    for (int i = 0; i < in_flight; ++i) {
      json in = {{"requestUrl", h1_servers().http + "/port-after/50"},
                 {"requestMethod", "GET"},
                 {"sessionId", session},
                 {"timeoutSeconds", 20}};
      in.update(extra);
      std::string text = in.dump();
      json r = json::parse(lib().requestAsync(text.data()));
      REQUIRE(r.contains("id"));
      ids.insert(r["id"].get<std::string>());
    }
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
    REQUIRE(done == ids.size());
  }
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
  return ports.size();
}

}  // namespace

TEST_CASE("maxConnsPerHost: requests beyond it wait for a connection, none fail", "[h1][transport]") {
  // 12 at once, never more than two connections to the host.
  CHECK(connections_for_bursts("max-conns-per-host",
                               {{"transportOptions", {{"maxConnsPerHost", 2}, {"maxIdleConnsPerHost", 10}}}},
                               1, 12) <= 2);
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

TEST_CASE("default settings keep the connections a burst used; transportOptions keep Go's 2 per host",
          "[h1][transport][idle]") {
  constexpr int kRounds = 4, kInFlight = 32;
  // No transportOptions: the connections of the first burst serve the
  // next ones (late binding may add a few).
  size_t kept = connections_for_bursts("idle-default-bursts", json::object(), kRounds, kInFlight);
  CHECK(kept >= kInFlight);
  CHECK(kept <= kInFlight * 12 / 10);
  // null is Go's nil pointer: the same as no transportOptions.
  size_t kept_null =
      connections_for_bursts("idle-null-bursts", {{"transportOptions", nullptr}}, kRounds, kInFlight);
  CHECK(kept_null <= kInFlight * 12 / 10);
  // transportOptions given, maxIdleConnsPerHost left at 0: upstream's Go
  // default of 2 idle connections per host, so each burst dials again.
  size_t go_default =
      connections_for_bursts("idle-go-bursts", {{"transportOptions", json::object()}}, kRounds, kInFlight);
  CHECK(go_default >= kInFlight + (kRounds - 1) * (kInFlight - 2) * 8 / 10);
  // An explicit maxIdleConnsPerHost is honoured as given.
  size_t explicit_cap = connections_for_bursts(
      "idle-explicit-bursts", {{"transportOptions", {{"maxIdleConnsPerHost", 8}}}}, kRounds, kInFlight);
  CHECK(explicit_cap >= kInFlight + (kRounds - 1) * (kInFlight - 8) * 8 / 10);
  CHECK(explicit_cap < go_default);
}
