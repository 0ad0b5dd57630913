// The charset parameter of a Content-Type value, exactly as Go's
// mime.ParseMediaType would report it (Go 1.24): nothing at all when Go
// fails to parse the value, since html/charset then ignores the header.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tlsc::charset {

// params["charset"] of mime.ParseMediaType(content_type), when the parse
// succeeds and the parameter is present (it may be empty, e.g. charset="").
std::optional<std::string> charset_param(std::string_view content_type);

}  // namespace tlsc::charset
