// Time, as the library reads it: a monotonic clock for deadlines and
// timers, and wall-clock seconds for cookie expiry. std::chrono gives both
// on every OS; the reactor hands the monotonic one out (Reactor::now), so
// code above it never reads a clock of its own and tests can drive time.
#pragma once

#include <chrono>
#include <cstdint>

namespace tlsc {

using MonotonicClock = std::chrono::steady_clock;

// Seconds since 1970-01-01 UTC.
inline int64_t unix_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace tlsc
