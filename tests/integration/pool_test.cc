// The HTTP/1.1 connection pool against a server that can hold TLS
// handshakes (tests/servers/held_handshake_server.js): late binding, as Go's
// Transport does it. A request that found no idle connection waits for
// whichever comes first, the connection it dials or one another request
// frees; its dial, when it finishes later, goes to the next waiter or idle,
// also after its request ended (bounded by the request's timeout).
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::json;
using itest::lib;

namespace {

using Clock = std::chrono::steady_clock;

struct HeldServer {
  itest::ChildServer child;
  std::string url;      // https://127.0.0.1:port
  std::string control;  // http://127.0.0.1:port

  HeldServer()
      : child({"node", std::string(TLSC_SOURCE_DIR) + "/tests/servers/held_handshake_server.js", "--cert",
               itest::cert_dir() + "/good.chain.pem", "--key", itest::cert_dir() + "/good.key"}),
        url("https://127.0.0.1:" + std::to_string(child.info()["port"].get<int>())),
        control("http://127.0.0.1:" + std::to_string(child.info()["control"].get<int>())) {}

  // {"accepted", "handshakes", "held", "heldClosed"}; /release first frees
  // the held handshakes.
  json get(const std::string& path) const {
    json r = itest::call({{"requestUrl", control + path}, {"requestMethod", "GET"}});
    REQUIRE(r["status"] == 200);
    return json::parse(r["body"].get<std::string>());
  }
};

std::string start(const std::string& session, const std::string& url) {
  json in = {{"sessionId", session}, {"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}};
  std::string text = in.dump();
  json r = json::parse(lib().requestAsync(text.data()));
  REQUIRE(r.contains("id"));
  return r["id"].get<std::string>();
}

// The responses of these ids, by id, as they finish (bounded).
std::map<std::string, json> collect(const std::set<std::string>& ids, std::chrono::seconds bound) {
  std::map<std::string, json> out;
  auto deadline = Clock::now() + bound;
  while (out.size() < ids.size() && Clock::now() < deadline) {
    for (auto& r : json::parse(lib().waitNext(200))) {
      std::string id = r["id"].get<std::string>();
      if (ids.count(id) != 0) out[id] = r;
    }
  }
  return out;
}

// The client ports (connections) that carried these /port-after answers;
// each must be a 200.
std::set<std::string> ports_of(const std::map<std::string, json>& done) {
  std::set<std::string> ports;
  for (auto& [id, r] : done) {
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    ports.insert(r["body"].get<std::string>());
  }
  return ports;
}

}  // namespace

TEST_CASE("h1 late binding: requests whose dials hang take the connection another request frees",
          "[h1][pool]") {
  lib();              // the test PKI and SSL_CERT_FILE come first
  HeldServer server;  // handshakes after the first one are held
  const std::string session = "late-binding-take";
  std::set<std::string> ids;
  auto t0 = Clock::now();
  for (int i = 0; i < 4; ++i) ids.insert(start(session, server.url + "/port-after/150"));
  // Without late binding, three of them wait for their own handshakes,
  // which never come, until their 10 s timeout.
  auto done = collect(ids, std::chrono::seconds(8));
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  REQUIRE(done.size() == ids.size());
  std::set<std::string> ports = ports_of(done);
  CHECK(ports.size() == 1);  // all four, one after the other, on the one connection
  CHECK(seconds < 8);
  json stats = server.get("/stats");
  INFO(stats.dump());
  CHECK(stats["handshakes"] == 1);
  CHECK(stats["accepted"] == 4);  // every request dialed: none waited for a connection instead
  // The three held dials outlive their requests (upstream cuts them off
  // mid-handshake, and the next burst dials again): released, they finish
  // and go idle, so four requests at once dial nothing.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  stats = server.get("/release");
  CHECK(stats["heldClosed"] == 0);
  auto deadline = Clock::now() + std::chrono::seconds(5);
  while (stats["handshakes"] != 4 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stats = server.get("/stats");
  }
  REQUIRE(stats["handshakes"] == 4);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the client saw them finish
  std::set<std::string> again;
  for (int i = 0; i < 4; ++i) again.insert(start(session, server.url + "/port-after/100"));
  auto second = collect(again, std::chrono::seconds(8));
  REQUIRE(second.size() == again.size());
  std::set<std::string> ports2 = ports_of(second);
  CHECK(ports2.size() == 4);
  stats = server.get("/stats");
  CHECK(stats["accepted"] == 4);
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("h1 late binding: a dial left to the pool ends with the request's timeout, and with the session",
          "[h1][pool]") {
  lib();
  std::unique_ptr<HeldServer> current;  // one per part: only its first handshake goes through
  auto held_closed_within = [&](int want, std::chrono::milliseconds bound) {
    HeldServer& server = *current;
    json stats = server.get("/stats");
    auto deadline = Clock::now() + bound;
    while (stats["heldClosed"] < want && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stats = server.get("/stats");
    }
    INFO(stats.dump());
    return stats["heldClosed"].get<int>();
  };
  // By the timeout: two requests with a 1 s timeout; the second is served
  // by the first's connection, its held dial is closed about 1 s later.
  {
    current = std::make_unique<HeldServer>();
    HeldServer& server = *current;
    const std::string session = "orphan-bound";
    std::set<std::string> ids;
    for (int i = 0; i < 2; ++i) {
      json in = {{"sessionId", session},
                 {"requestUrl", server.url + "/port-after/100"},
                 {"requestMethod", "GET"},
                 {"timeoutMilliseconds", 1000}};
      std::string text = in.dump();
      json r = json::parse(lib().requestAsync(text.data()));
      REQUIRE(r.contains("id"));
      ids.insert(r["id"].get<std::string>());
    }
    auto done = collect(ids, std::chrono::seconds(5));
    REQUIRE(done.size() == 2);
    for (auto& [id, r] : done) {
      INFO(r.dump());
      CHECK(r["status"] == 200);
    }
    CHECK(held_closed_within(1, std::chrono::milliseconds(300)) == 0);  // still running
    CHECK(held_closed_within(1, std::chrono::seconds(3)) == 1);
    itest::call_fn(lib().destroySession, {{"sessionId", session}});
  }
  // By the session: destroySession ends a dial left to the pool at once.
  {
    current = std::make_unique<HeldServer>();
    HeldServer& server = *current;
    const std::string session = "orphan-destroy";
    std::set<std::string> ids;
    for (int i = 0; i < 2; ++i) ids.insert(start(session, server.url + "/port-after/100"));
    auto done = collect(ids, std::chrono::seconds(5));
    REQUIRE(done.size() == 2);
    CHECK(held_closed_within(1, std::chrono::milliseconds(300)) == 0);  // 30 s bound: still running
    itest::call_fn(lib().destroySession, {{"sessionId", session}});
    CHECK(held_closed_within(1, std::chrono::seconds(2)) == 1);
  }
}

TEST_CASE("h1 late binding: a dial that finishes after its request took another connection goes idle",
          "[h1][pool]") {
  lib();
  HeldServer server;
  const std::string session = "late-binding-idle";
  // a: the first dial's request; b: waits for a held dial, takes a's
  // connection when a finishes, and holds it for a while.
  std::string a = start(session, server.url + "/port-after/200");
  std::string b = start(session, server.url + "/port-after/2000");
  auto first = collect({a}, std::chrono::seconds(8));
  REQUIRE(first.size() == 1);
  REQUIRE(first[a]["status"] == 200);
  const std::string a_port = first[a]["body"].get<std::string>();
  // b is on a's connection now; its own dial finishes while b runs.
  json stats = server.get("/release");
  INFO(stats.dump());
  auto second = collect({b}, std::chrono::seconds(8));
  REQUIRE(second.size() == 1);
  INFO(second[b].dump());
  REQUIRE(second[b]["status"] == 200);
  CHECK(second[b]["body"] == a_port);
  stats = server.get("/stats");
  CHECK(stats["accepted"] == 2);
  CHECK(stats["handshakes"] == 2);
  // b's dial went idle: two requests at once find two idle connections and
  // dial nothing.
  std::set<std::string> ids = {start(session, server.url + "/port-after/100"),
                               start(session, server.url + "/port-after/100")};
  auto done = collect(ids, std::chrono::seconds(8));
  REQUIRE(done.size() == 2);
  std::set<std::string> ports = ports_of(done);
  CHECK(ports.size() == 2);
  CHECK(ports.count(a_port) == 1);
  stats = server.get("/stats");
  CHECK(stats["accepted"] == 2);
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}
