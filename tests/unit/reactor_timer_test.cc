// Timers of the reactor, driven by its manual clock.
#include <future>
#include <vector>

#include <catch2/catch.hpp>

#include "on_loop.h"
#include "reactor/reactor.h"

using tlsc::Reactor;

namespace {

using utest::on_loop;

}  // namespace

TEST_CASE("reactor: cancelled timers do not pile up in the heap, and the live ones still fire in order",
          "[reactor]") {
  Reactor reactor(Reactor::ClockMode::manual);
  std::vector<int> fired;
  // One request's timeout after another, each cancelled when it ends, as
  // keep-alive requests with an hour's timeout do.
  const size_t kept = on_loop(reactor, [&] {
    for (int i = 0; i < 100000; ++i) reactor.cancel_timer(reactor.add_timer(std::chrono::hours(1), [] {}));
    return reactor.timer_heap_size();
  });
  CHECK(kept <= 130);
  on_loop(reactor, [&] {
    for (int i = 0; i < 200; ++i) {
      auto id = reactor.add_timer(std::chrono::milliseconds(1000 - i), [&fired, i] { fired.push_back(i); });
      if (i % 2) reactor.cancel_timer(id);
    }
    return 0;
  });
  reactor.advance_clock(std::chrono::milliseconds(2000));
  const auto got = on_loop(reactor, [&] { return fired; });
  REQUIRE(got.size() == 100);
  for (size_t k = 1; k < got.size(); ++k) CHECK(got[k] < got[k - 1]);  // earlier deadline first
  CHECK(got.front() == 198);
}
