// The async trio and concurrent blocking calls, as bindings use them.
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::h1_servers;
using itest::json;
using itest::lib;

namespace {

std::atomic<int> g_notified{0};
void on_notify(int) { g_notified.fetch_add(1); }

std::string start(const json& in) {
  std::string text = in.dump();
  json r = json::parse(lib().requestAsync(text.data()));
  REQUIRE(r.contains("id"));
  REQUIRE_FALSE(r.contains("status"));
  return r["id"];
}

}  // namespace

TEST_CASE("5,000 async requests against a 50 ms server each complete exactly once", "[async]") {
  const int n = 5000;
  std::set<std::string> ids;
  for (int i = 0; i < n; ++i) {
    ids.insert(start({{"requestUrl", h1_servers().http + "/delay/50"},
                      {"requestMethod", "GET"},
                      {"sessionId", "async-5000"},
                      {"timeoutSeconds", 60},
                      {"transportOptions", {{"maxIdleConnsPerHost", 5000}, {"maxIdleConns", 5000}}}}));
  }
  REQUIRE(ids.size() == n);
  std::set<std::string> seen;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  int batches = 0;
  while (seen.size() < ids.size() && std::chrono::steady_clock::now() < deadline) {
    json batch = json::parse(lib().waitNext(1000));
    if (!batch.empty()) ++batches;
    for (auto& r : batch) {
      REQUIRE(r["status"] == 200);
      REQUIRE(r["body"] == "waited 50");
      REQUIRE(ids.count(r["id"]) == 1);
      REQUIRE(seen.insert(r["id"]).second);  // exactly once
    }
  }
  CHECK(seen.size() == ids.size());
  CHECK(batches < n);  // waitNext batches
  CHECK(std::string(lib().waitNext(0)) == "[]");
  itest::call_fn(lib().destroySession, {{"sessionId", "async-5000"}});
}

TEST_CASE("setNotify wakes the caller once per filled queue, and stops after NULL", "[async]") {
  g_notified = 0;
  lib().setNotify(&on_notify);
  std::string id = start({{"requestUrl", h1_servers().http + "/delay/20"}, {"requestMethod", "GET"}});
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (g_notified.load() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(g_notified.load() == 1);
  json batch = json::parse(lib().waitNext(0));
  REQUIRE(batch.size() == 1);
  CHECK(batch[0]["id"] == id);
  lib().setNotify(nullptr);
  start({{"requestUrl", h1_servers().http + "/delay/1"}, {"requestMethod", "GET"}});
  batch = json::parse(lib().waitNext(5000));
  CHECK(batch.size() == 1);
  CHECK(g_notified.load() == 1);
}

TEST_CASE("waitNext with a timeout waits it out when nothing is in flight; -1 does not wait", "[async]") {
  auto t0 = std::chrono::steady_clock::now();
  CHECK(std::string(lib().waitNext(300)) == "[]");
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(waited >= 0.29);
  t0 = std::chrono::steady_clock::now();
  CHECK(std::string(lib().waitNext(-1)) == "[]");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 0.2);
  // A request started while a waitNext(5000) waits is what ends its wait.
  std::string id;
  std::thread starter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    id = start({{"requestUrl", h1_servers().http + "/delay/1"}, {"requestMethod", "GET"}});
  });
  t0 = std::chrono::steady_clock::now();
  json batch = json::parse(lib().waitNext(5000));
  starter.join();
  REQUIRE(batch.size() == 1);
  CHECK(batch[0]["id"] == id);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 4.0);
}

TEST_CASE("bad input to requestAsync answers at once and queues nothing", "[async][bad]") {
  json r = json::parse(lib().requestAsync(const_cast<char*>("{oops")));
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "invalid_input");
  r = json::parse(lib().requestAsync(nullptr));
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "invalid_input");
  CHECK(std::string(lib().waitNext(0)) == "[]");
}

TEST_CASE("an async request of a destroyed session finishes with an error", "[async]") {
  std::string id = start(
      {{"requestUrl", h1_servers().http + "/delay/3000"}, {"requestMethod", "GET"}, {"sessionId", "doomed"}});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  itest::call_fn(lib().destroySession, {{"sessionId", "doomed"}});
  json batch = json::parse(lib().waitNext(2000));
  REQUIRE(batch.size() == 1);
  CHECK(batch[0]["id"] == id);
  CHECK(batch[0]["status"] == 0);
  CHECK(batch[0]["errorCode"] == "session_closed");
  CHECK(batch[0]["body"].get<std::string>().find("session closed") != std::string::npos);
}

TEST_CASE("blocking request from 8 threads at once: each sees its own response", "[threads]") {
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &ok] {
      for (int i = 0; i < 25; ++i) {
        std::string path = "/echo?thread=" + std::to_string(t) + "&i=" + std::to_string(i);
        json r = itest::call({{"requestUrl", h1_servers().http + path},
                              {"requestMethod", "GET"},
                              {"sessionId", "threads-" + std::to_string(t % 2)}});
        if (r["status"] == 200 && json::parse(r["body"].get<std::string>())["url"] == path) ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(ok.load() == 200);
}

TEST_CASE("two threads in waitNext(-1) with one request in flight both return", "[async][threads]") {
  std::string id = start({{"requestUrl", h1_servers().http + "/delay/200"}, {"requestMethod", "GET"}});
  std::atomic<int> returned{0};
  std::atomic<size_t> responses{0};
  auto waiter = [&] {
    json batch = json::parse(lib().waitNext(-1));
    responses += batch.size();
    ++returned;
  };
  std::thread a(waiter), b(waiter);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (returned.load() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const int in_time = returned.load();
  // A waiter left behind is freed by one more completion, so the test ends.
  if (in_time < 2) start({{"requestUrl", h1_servers().http + "/delay/1"}, {"requestMethod", "GET"}});
  a.join();
  b.join();
  CHECK(in_time == 2);
  if (in_time == 2) CHECK(responses.load() == 1);
  (void)id;
}
