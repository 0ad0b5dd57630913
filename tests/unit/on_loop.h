// Runs f on the reactor's loop thread and returns its result, for unit
// tests that drive loop-thread-only objects from the test's thread.
#pragma once

#include <future>

#include "reactor/reactor.h"

namespace utest {

template <class F>
auto on_loop(tlsc::Reactor& reactor, F&& f) {
  std::promise<decltype(f())> p;
  reactor.post([&] { p.set_value(f()); });
  return p.get_future().get();
}

}  // namespace utest
