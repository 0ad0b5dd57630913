// The last step of a request: a finished HTTP exchange becomes upstream's
// Response (headers as Go's transport leaves them, the jar's cookies for the
// final URL, the body converted to UTF-8 or wrapped as a data URL; a body
// for streamOutputPath goes to the file as it arrives, http/file_sink.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cookies/cookie.h"
#include "core/error.h"
#include "core/url.h"
#include "http/body_buffer.h"
#include "http/response.h"
#include "wire/h1_response_parser.h"

namespace tlsc {

// The body as upstream returns it: a data URL (isByteResponse: the sniffed
// type, base64), or the bytes converted to UTF-8 by the Content-Type's
// charset (golang.org/x/net/html/charset's rules).
std::string convert_body(std::string body, std::string_view content_type, bool is_byte_response);

// jar_cookies: nullopt when the client has no jar (cookies then `{}`).
// transport_decompressed: the transport asked for compression itself, so
// Content-Encoding and Content-Length are dropped as fhttp drops them.
// A text body of more than one block that converts to itself stays in its
// blocks (Response::body_parts); any other is joined and converted.
Response build_response(Response base, const ResponseHead& head, const Url& final_url, BodyBuffer body,
                        bool transport_decompressed, std::optional<std::vector<Cookie>> jar_cookies,
                        bool is_byte_response);

}  // namespace tlsc
