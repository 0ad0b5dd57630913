#include "http/wait_queue.h"

#include <functional>
#include <vector>

#include <catch2/catch.hpp>

using tlsc::WaitQueues;

TEST_CASE("WaitQueues: first come first served per key, skipping the waiters that left", "[pool]") {
  WaitQueues<std::function<int()>> q;
  auto a = q.add("x", [] { return 1; });
  auto b = q.add("x", [] { return 2; });
  auto c = q.add("x", [] { return 3; });
  auto other = q.add("y", [] { return 9; });
  q.remove(b);
  CHECK(b == nullptr);
  auto first = q.pop("x");
  REQUIRE(first);
  CHECK(first->fn() == 1);
  CHECK_FALSE(a->live);  // served
  auto second = q.pop("x");
  REQUIRE(second);
  CHECK(second->fn() == 3);  // b left
  CHECK(q.pop("x") == nullptr);
  CHECK(q.held("x") == 0);
  q.remove(a);  // served already: nothing happens
  CHECK(q.pop("y")->fn() == 9);
  CHECK(q.pop("nothing") == nullptr);
}

TEST_CASE("WaitQueues: waiters that left never pile up", "[pool]") {
  WaitQueues<std::function<void()>> q;
  auto stays = q.add("x", [] {});  // waits the whole time, at the front
  for (int i = 0; i < 10000; ++i) {
    auto w = q.add("x", [] {});
    q.remove(w);
    CHECK(q.held("x") <= 2 + 32 + 1);
  }
  std::vector<std::shared_ptr<WaitQueues<std::function<void()>>::Waiter>> live;
  for (int i = 0; i < 100; ++i) live.push_back(q.add("x", [] {}));
  CHECK(q.held("x") <= 2 * 101 + 32 + 1);
  for (auto& w : live) q.remove(w);
  q.remove(stays);
  CHECK(q.held("x") == 0);  // no live waiter: the key is gone
}

TEST_CASE("WaitQueues: clear ends every waiter and drops what it holds", "[pool]") {
  WaitQueues<std::function<void()>> q;
  auto token = std::make_shared<int>(0);
  auto w = q.add("x", [token] {});
  CHECK(token.use_count() == 2);
  q.clear();
  CHECK_FALSE(w->live);
  CHECK(token.use_count() == 1);
  CHECK(q.pop("x") == nullptr);
  q.remove(w);  // after clear: nothing happens
}
