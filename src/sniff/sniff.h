// Content sniffing for byte responses: Go's net/http.DetectContentType
// (Go 1.24), which upstream uses for the "data:<type>;base64," prefix.
#pragma once

#include <string>
#include <string_view>

namespace tlsc {

// The MIME type Go would report for data, e.g. "text/html; charset=utf-8",
// "image/png" or "application/octet-stream". Only the first 512 bytes count.
// Throws std::bad_alloc only (a few dozen bytes).
std::string detect_content_type(std::string_view data);

}  // namespace tlsc
