// Go's html/charset.DetermineEncoding plus the one decision NewReader adds on
// top of it: whether the body is decoded at all or passed through as is.
#pragma once

#include <cstddef>
#include <string_view>

#include "charset/encoding.h"

namespace tlsc::charset {

enum class Source { bom, content_type, meta, utf8_sniff, fallback };

struct Decision {
  Encoding encoding = Encoding::windows1252;
  // Go returns encoding.Nop (bytes untouched, invalid UTF-8 kept) for a body
  // that merely looks like UTF-8 and for a <meta> declaring UTF-16. Every
  // other decision, including an explicit UTF-8 BOM, header or meta, runs a
  // decoder that replaces invalid sequences with U+FFFD.
  bool passthrough = false;
  Source source = Source::fallback;
};

// How much of a body's start Go looks at (NewReader's preview).
inline constexpr std::size_t kPreviewSize = 1024;

// Looks at no more than the first kPreviewSize bytes of body, like Go.
Decision determine_encoding(std::string_view body, std::string_view content_type);

}  // namespace tlsc::charset
