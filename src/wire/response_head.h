// A response's status line and headers, whichever protocol carried them.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tlsc {

struct ResponseHead {
  int status = 0;
  std::string proto;   // as received, e.g. "HTTP/1.1"; "HTTP/2.0" for h2
  std::string reason;  // text after the status code and its space
  // Go's Response.Status: the status line after the first space, leading
  // spaces removed ("200 OK").
  std::string status_text;
  // Canonical names, wire order, after Go's readTransfer rewrites:
  // Transfer-Encoding removed; Content-Length removed when chunked or empty
  // and deduplicated when repeated; Connection removed when it says close
  // on HTTP/1.1+; Trailer removed when chunked; "Cache-Control: no-cache"
  // appended for "Pragma: no-cache".
  std::vector<std::pair<std::string, std::string>> headers;
};

}  // namespace tlsc
