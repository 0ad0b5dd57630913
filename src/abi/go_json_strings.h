// What Go's encoding/json accepts inside strings and nlohmann's parser does
// not: bytes that are not UTF-8, and \u escapes of lone UTF-16 surrogates.
// Go decodes each to U+FFFD; so does the copy made here, which the parser
// then reads. Only for input Go's scanner accepted (abi/go_json_syntax.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tlsc {

// The input with every invalid UTF-8 byte inside a string written as
// U+FFFD (one per byte, as Go's utf8.DecodeRune reads them) and every \u
// escape of an unpaired surrogate as \ufffd; nothing when there is none.
std::optional<std::string> with_go_replacement_characters(std::string_view json_text);

}  // namespace tlsc
