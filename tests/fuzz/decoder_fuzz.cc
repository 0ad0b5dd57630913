// Compressed bodies from a hostile server through every decoder.
//
// Byte 0 picks the codec (low 2 bits) and the feed size (the rest); the
// remaining bytes are the body. Besides the sanitizers, it checks that the
// result does not depend on how the body is split into feeds, nor on the
// bound of feed_some's steps (the same byte picks one), and that no step
// makes more than its bound and one 32 KiB piece.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "codec/decoder.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

struct Outcome {
  std::string out;
  std::optional<tlsc::Error> error;
};

// Big enough to pass real bodies, small enough that bombs stay cheap.
constexpr size_t kLimit = 8u << 20;

Outcome run(std::string_view encoding, std::string_view body, size_t chunk) {
  Outcome r;
  auto d = tlsc::BodyDecoder::create(encoding, kLimit);
  check(d != nullptr);
  while (!body.empty() && !r.error) {
    std::string_view piece = body.substr(0, chunk);
    body.remove_prefix(piece.size());
    r.error = d->feed(piece, r.out);
  }
  if (!r.error) r.error = d->finish(r.out);
  if (r.error) {
    // A bomb past kLimit is body_too_large; anything else that fails is a
    // decode error.
    check(r.error->code == tlsc::ErrorCode::decode || r.error->code == tlsc::ErrorCode::body_too_large);
    check(!r.error->message.empty());
    // Sticky: asking again gives the same answer.
    std::optional<tlsc::Error> again = d->feed("x", r.out);
    check(again && again->message == r.error->message);
  }
  check(r.out.size() <= kLimit);
  return r;
}

// The same body in feed_some steps of at most `bound` output bytes each.
Outcome run_steps(std::string_view encoding, std::string_view body, size_t chunk, size_t bound) {
  Outcome r;
  auto d = tlsc::BodyDecoder::create(encoding, kLimit);
  check(d != nullptr);
  bool more = false;
  while ((!body.empty() || more) && !r.error) {
    std::string_view piece = body.substr(0, chunk);
    body.remove_prefix(piece.size());
    do {
      const size_t before = r.out.size();
      r.error = d->feed_some(piece, r.out, bound, more);
      check(r.out.size() - before <= bound + 32 * 1024);
    } while (!r.error && (!piece.empty() || more));
  }
  if (!r.error) r.error = d->finish(r.out);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.empty()) return 0;
  static constexpr std::string_view kEncodings[] = {"gzip", "deflate", "br", "zstd"};
  const auto selector = static_cast<unsigned char>(input.front());
  const std::string_view encoding = kEncodings[selector & 3];
  const size_t chunk = 1 + (selector >> 2);
  const std::string_view body = input.substr(1);

  Outcome whole = run(encoding, body, body.size() + 1);
  Outcome pieces = run(encoding, body, chunk);
  check(whole.error.has_value() == pieces.error.has_value());
  if (!whole.error) check(whole.out == pieces.out);
  Outcome steps = run_steps(encoding, body, chunk, 1 + (selector >> 2) * 1024);
  check(whole.error.has_value() == steps.error.has_value());
  if (!whole.error) check(whole.out == steps.out);
  return 0;
}
