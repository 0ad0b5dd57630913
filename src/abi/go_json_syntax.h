// The syntax check Go's encoding/json runs over a whole input before it
// decodes anything, with its messages: callers of tls-client see these
// texts ("invalid character 'n' looking for beginning of object key
// string", "unexpected end of JSON input", "invalid character '[' exceeded
// max depth") and some match on them. Bytes only; no tree is built.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tlsc {

// Go's nesting limit (its scanner's maxNestingDepth).
inline constexpr size_t kGoMaxNestingDepth = 10000;

// The error Go's json.Unmarshal reports for this input's syntax, or
// nothing if Go's scanner accepts it. Like Go, it accepts any byte of 0x20
// or above inside strings (invalid UTF-8 included).
std::optional<std::string> go_json_syntax_error(std::string_view text);

}  // namespace tlsc
