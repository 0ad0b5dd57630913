// Go's html/charset prescan: the first <meta> in the preview that declares a
// known encoding, found with golang.org/x/net/html's tokenizer (not the
// WHATWG prescan algorithm, which differs on e.g. <title> and <script>).
#pragma once

#include <optional>
#include <string_view>

#include "charset/encoding.h"

namespace tlsc::charset {

struct MetaDeclaration {
  Encoding encoding = Encoding::utf8;
  // A UTF-16 label in a meta tag means UTF-8, and Go then passes the body
  // through untouched (encoding.Nop) instead of running a UTF-8 decoder.
  bool passthrough = false;
};

std::optional<MetaDeclaration> prescan_meta(std::string_view preview);

// The charset named in a meta content attribute ("text/html; charset=x").
// Exposed for tests; "" when there is none.
std::string_view charset_from_meta_content(std::string_view content);

}  // namespace tlsc::charset
