// Standard base64 (RFC 4648 with padding), as Go's base64.StdEncoding.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

std::string base64_encode(std::string_view data);
// Strict like Go's StdEncoding.DecodeString: padding required, CR/LF
// ignored, anything else is "illegal base64 data at input byte N".
Result<std::string> base64_decode(std::string_view text);

}  // namespace tlsc
