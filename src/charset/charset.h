// Response-body charset conversion, matching what tls-client does to every
// non-byte response: io.ReadAll(charset.NewReader(body, contentType)) with
// golang.org/x/net/html/charset (v0.48.0) over golang.org/x/text (v0.32.0).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace tlsc::charset {

// The body converted to UTF-8, byte for byte what Go produces. That is not
// always valid UTF-8: when Go only sniffs the body as UTF-8, or a <meta>
// declares UTF-16, it passes the bytes through unchanged. Throws
// std::bad_alloc when memory runs out (the request then fails; an empty
// body in its place would be a wrong answer).
std::string to_utf8(std::string_view body, std::string_view content_type);
// The same for a body the caller gives up: when the conversion would
// return the bytes unchanged (passed through, valid UTF-8, ASCII in a
// single-byte encoding) the body itself comes back, not a copy.
std::string to_utf8_owned(std::string&& body, std::string_view content_type);

// Whether to_utf8_owned would give back, unchanged, the body that `parts`
// make in order (a large body kept in the blocks it arrived in): then the
// parts stand for the converted body as they are, and are never joined.
bool converts_to_itself(std::span<const std::string> parts, std::string_view content_type);

}  // namespace tlsc::charset
