// A response body held in memory as it arrives, in blocks. A growing
// std::string doubles and copies everything it holds each time it fills:
// on a body of hundreds of MiB that is one copy of half the body (and the
// page faults of a fresh region) in a single call on the loop thread,
// a tenth of a second or more during which no other request's bytes or
// timers are served. Here the first block grows as a string does up to
// kBlock, then each further block is reserved at kBlock and filled: no byte
// is copied twice while the body arrives. join() makes the one string the
// response needs, where the caller chooses (the helper thread, for large
// bodies).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tlsc {

class BodyBuffer {
 public:
  static constexpr size_t kBlock = size_t{4} << 20;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void append(std::string_view bytes);
  // Room for a body of `expected` bytes (its Content-Length) before it
  // arrives, up to one block: the first block then never regrows. Only on
  // an empty buffer.
  void reserve(size_t expected);
  // The whole body as one string. One block is handed over without a copy;
  // more are copied into one, each freed as soon as it is copied.
  std::string join() &&;
  // The blocks as they are, in order, for a caller that can use the body in
  // pieces (every block but the last is kBlock bytes).
  const std::vector<std::string>& blocks() const { return blocks_; }
  std::vector<std::string> take_blocks() &&;
  void clear();

 private:
  std::vector<std::string> blocks_;
  size_t size_ = 0;
};

}  // namespace tlsc
