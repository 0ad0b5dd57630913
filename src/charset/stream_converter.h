// to_utf8 for a body that arrives in pieces (streamOutputPath writes the
// file as the body downloads, as upstream's charset.NewReader feeds it):
// the pieces' output joined is byte for byte to_utf8 of the whole body.
// The encoding is decided on the first 1024 bytes (or the whole body, if
// shorter), as Go's NewReader decides it on its 1024-byte preview. Then
// passed-through bodies, UTF-8 and the single-byte encodings convert as
// they come; the multi-byte encodings (GBK, Big5, the Japanese and Korean
// ones, UTF-16) convert when the body ends.
#pragma once

#include <string>
#include <string_view>

#include "charset/determine.h"

namespace tlsc::charset {

class StreamConverter {
 public:
  explicit StreamConverter(std::string content_type) : content_type_(std::move(content_type)) {}

  // Appends to `out` whatever of the body so far can be converted.
  void feed(std::string_view in, std::string& out);
  // The body ended: appends the rest.
  void finish(std::string& out);

 private:
  enum class Mode { undecided, passthrough, utf8, single_byte, whole };
  void decide(std::string& out);
  void convert(std::string_view in, std::string& out);

  std::string content_type_;
  Mode mode_ = Mode::undecided;
  Encoding encoding_ = Encoding::utf8;
  // Undecided: the preview; utf8: a sequence cut at a piece's end; whole:
  // the body so far.
  std::string held_;
};

}  // namespace tlsc::charset
