// Attribute-value unescaping of golang.org/x/net/html v0.48.0 (the version
// upstream pins), as its Tokenizer.TagAttr applies it: CR/CRLF become LF,
// then character references are decoded with the attribute-value rules.
#pragma once

#include <string>
#include <string_view>

namespace tlsc::charset {

// Named references are decoded only where the expansion contains ASCII,
// white space, U+0130 or U+212A (see attr_unescape.cc): those are the only
// ones that can change what the meta prescan makes of a value. Every other
// named reference is left as written, which the prescan treats the same.
std::string unescape_attribute(std::string_view raw);

}  // namespace tlsc::charset
