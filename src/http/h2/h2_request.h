// The header block of one HTTP/2 request, in the order fhttp's
// encodeHeaders writes it: pseudo-headers in the profile's order, then the
// regular headers sorted as the Header-Order says (the same sorter as
// HTTP/1.1), lowercased, connection-specific ones dropped, cookies split,
// a default user-agent last.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace tlsc {

struct H2Request {
  std::string method;  // empty means GET
  std::string scheme;
  std::string authority;  // host[:port], or the Host override
  std::string path;       // request URI
  // As the caller gave them (key case preserved; same exact key = values
  // of one Go Header key).
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> header_order;         // lowercase names
  std::vector<std::string> pseudo_header_order;  // empty: Go's order
  std::optional<std::string> body;
  bool add_accept_encoding = false;  // the transport asks for compression
};

using H2HeaderBlock = std::vector<std::pair<std::string, std::string>>;

// Errors carry Go's texts (invalid HTTP header name "...", ...).
Result<H2HeaderBlock> h2_header_block(const H2Request& req);

}  // namespace tlsc
