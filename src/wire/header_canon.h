// Header-name rules shared by the HTTP/1.1 writer and parser, matching Go's
// net/textproto and golang.org/x/net/http/httpguts byte for byte, because
// upstream tls-client's observable behaviour (wire bytes, response header
// names, error texts) is defined by those packages.
#pragma once

#include <string>
#include <string_view>

#include "core/ascii.h"

namespace tlsc {

// Non-empty and every byte a tchar (httpguts.ValidHeaderFieldName,
// and the method check validMethod).
bool is_valid_token(std::string_view s);

// Bytes Go's textproto reader accepts in a received field value:
// VCHAR, SP, HTAB and obs-text (0x80-0xFF).
bool is_valid_received_value_byte(unsigned char c);

// textproto.CanonicalMIMEHeaderKey: "accept-encoding" -> "Accept-Encoding".
// A key holding a space or any non-token byte is returned unchanged.
std::string canonical_header_key(std::string_view key);

// The reader-side variant (textproto's unexported canonicalMIMEHeaderKey):
// rewrites `key` in place and returns false when Go would reject the
// header line (empty key or a byte that is neither tchar nor space). A key
// with a space is accepted but left as is (https://go.dev/issue/34540).
bool canonicalize_received_header_key(std::string& key);

// ASCII case-insensitive comparison of header names (strings.EqualFold
// restricted to ASCII, which is all a valid name holds): <0, 0, >0.

// Go's %q (strconv.Quote) so error texts match upstream's. Printable
// non-ASCII runes are kept; only C1 controls, NBSP and soft hyphen among
// them are escaped (the common cases of unicode.IsPrint being false).
std::string go_quote(std::string_view s);

}  // namespace tlsc
