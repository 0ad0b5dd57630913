// Threads as threads: sessions × async requests while destroySession and
// destroyAll race with completions. Every request still finishes once.
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::h1_servers;
using itest::json;
using itest::lib;

TEST_CASE("destroySession and destroyAll racing with async completions lose nothing", "[stress][threads]") {
  const int sessions = 8, per_session = 60;
  std::mutex mu;
  std::set<std::string> started;
  std::vector<std::thread> starters;
  for (int s = 0; s < sessions; ++s) {
    starters.emplace_back([s, &mu, &started] {
      for (int i = 0; i < per_session; ++i) {
        json in = {{"requestUrl", h1_servers().http + "/delay/" + std::to_string(i % 7 * 10)},
                   {"requestMethod", "GET"},
                   {"sessionId", "stress-" + std::to_string(s)},
                   {"timeoutSeconds", 30}};
        std::string text = in.dump();
        json r = json::parse(lib().requestAsync(text.data()));
        std::lock_guard lock(mu);
        started.insert(r["id"].get<std::string>());
        if (i % 20 == 10) {
          json d = {{"sessionId", "stress-" + std::to_string(s)}};
          std::string dt = d.dump();
          json out = json::parse(lib().destroySession(dt.data()));
          std::string id = out["id"];
          lib().freeMemory(id.data());
        }
      }
    });
  }
  std::thread destroyer([] {
    for (int k = 0; k < 5; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(15));
      json out = json::parse(lib().destroyAll());
      std::string id = out["id"];
      lib().freeMemory(id.data());
    }
  });
  for (auto& t : starters) t.join();
  destroyer.join();
  REQUIRE(started.size() == sessions * per_session);

  std::set<std::string> finished;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (finished.size() < started.size() && std::chrono::steady_clock::now() < deadline) {
    json batch = json::parse(lib().waitNext(500));
    for (auto& r : batch) {
      REQUIRE(started.count(r["id"]) == 1);
      REQUIRE(finished.insert(r["id"]).second);
      REQUIRE(
          (r["status"] == 200 || r["body"].get<std::string>().find("session closed") != std::string::npos));
    }
  }
  CHECK(finished.size() == started.size());
}
