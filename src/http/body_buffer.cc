#include "http/body_buffer.h"

#include <algorithm>

namespace tlsc {

void BodyBuffer::append(std::string_view bytes) {
  while (!bytes.empty()) {
    if (blocks_.empty() || blocks_.back().size() >= kBlock) {
      blocks_.emplace_back();
      // Only past the first block is the body known to be large: a small
      // one never reserves a whole block.
      if (blocks_.size() > 1) blocks_.back().reserve(kBlock);
    }
    std::string& last = blocks_.back();
    const size_t take = std::min(bytes.size(), kBlock - last.size());
    last.append(bytes.substr(0, take));
    size_ += take;
    bytes.remove_prefix(take);
  }
}

void BodyBuffer::reserve(size_t expected) {
  if (!blocks_.empty() || expected == 0) return;
  blocks_.emplace_back().reserve(std::min(expected, kBlock));
}

std::string BodyBuffer::join() && {
  std::string out;
  if (blocks_.size() == 1) {
    out = std::move(blocks_.front());
  } else if (!blocks_.empty()) {
    out.reserve(size_);
    for (std::string& block : blocks_) {
      out.append(block);
      std::string().swap(block);
    }
  }
  clear();
  return out;
}

std::vector<std::string> BodyBuffer::take_blocks() && {
  std::vector<std::string> out = std::move(blocks_);
  clear();
  return out;
}

void BodyBuffer::clear() {
  blocks_.clear();
  size_ = 0;
}

}  // namespace tlsc
