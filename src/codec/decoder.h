// Streaming Content-Encoding decoders, chosen the way fhttp's
// DecompressBodyByType chooses them, with the end-of-stream and error
// behaviour of the Go readers upstream uses (compress/gzip, compress/zlib,
// compress/flate, andybalholm/brotli v1.2, klauspost/compress/zstd).
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

// A body that went past its limit (maxResponseBodyBytes), decoded or not:
// ErrorCode::body_too_large, one text wherever the limit is checked.
Error body_too_large_error(size_t limit);

class BodyDecoder {
 public:
  static constexpr size_t kUnlimited = std::numeric_limits<size_t>::max();

  // "gzip", "deflate", "br" or "zstd", matched exactly (case-sensitive, no
  // trimming, no lists) like Go's switch; anything else returns nullptr,
  // meaning the body passes through untouched.
  // `max_output` bounds the total decoded size: going past it is
  // body_too_large_error, which is the decompression-bomb guard.
  //
  // "deflate" looks at the first two bytes: a zlib header (CM = 8 and
  // (CMF*256 + FLG) % 31 == 0) selects zlib, anything else raw DEFLATE.
  static std::unique_ptr<BodyDecoder> create(std::string_view content_encoding,
                                             size_t max_output = kUnlimited);

  virtual ~BodyDecoder() = default;
  BodyDecoder(const BodyDecoder&) = delete;
  BodyDecoder& operator=(const BodyDecoder&) = delete;

  // Decodes the next piece of the body, appending output to `out`. Any
  // split of the input is fine. Errors are sticky and carry
  // ErrorCode::decode; `out` may then hold a partial result.
  std::optional<Error> feed(std::string_view in, std::string& out);

  // The same in bounded steps: stops once this call has appended
  // `max_output` bytes or more to `out` (at most one 32 KiB piece more), so
  // that a few bytes of a decompression bomb cannot keep the caller busy
  // for long. `in` is advanced past what was used. `more` is true when the
  // call stopped for its bound: then output may be waiting even without
  // more input, so call again (with what is left of `in`, or none) before
  // finish. Any sequence of steps decodes to the same bytes as one feed.
  virtual std::optional<Error> feed_some(std::string_view& in, std::string& out, size_t max_output,
                                         bool& more) = 0;

  // The body has ended: an error if the stream is truncated (Go's
  // "unexpected EOF") or was already broken.
  virtual std::optional<Error> finish(std::string& out) = 0;

 protected:
  BodyDecoder() = default;
};

}  // namespace tlsc
