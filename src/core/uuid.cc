#include "core/uuid.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <random>

namespace tlsc {

namespace {

// Bumped by reseed_uuids; a thread whose generator is older reseeds.
std::atomic<uint64_t>& seed_generation() {
  static std::atomic<uint64_t> generation{0};
  return generation;
}

std::mt19937_64 fresh_generator() {
  std::random_device rd;
  std::seed_seq seq{rd(), rd(), rd(), rd()};
  return std::mt19937_64(seq);
}

}  // namespace

void reseed_uuids() { seed_generation().fetch_add(1, std::memory_order_relaxed); }

std::string new_uuid() {
  thread_local std::mt19937_64 rng = fresh_generator();
  thread_local uint64_t rng_generation = 0;
  if (const uint64_t g = seed_generation().load(std::memory_order_relaxed); g != rng_generation) {
    rng = fresh_generator();
    rng_generation = g;
  }
  std::array<uint8_t, 16> b{};
  for (size_t i = 0; i < 16; i += 8) {
    uint64_t v = rng();
    for (size_t j = 0; j < 8; ++j) b[i + j] = static_cast<uint8_t>(v >> (8 * j));
  }
  b[6] = static_cast<uint8_t>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<uint8_t>((b[8] & 0x3f) | 0x80);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 15]);
  }
  return out;
}

}  // namespace tlsc
