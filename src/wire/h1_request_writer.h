// Serialises one HTTP/1.1 request exactly as bogdanfinn/fhttp's Transport
// puts it on the wire (roundTrip's validation, Request.write, the
// transferWriter's added headers and Header.writeSubset's ordering), so
// header order and casing fingerprint the same as upstream tls-client.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace tlsc {

struct H1Request {
  std::string method;  // empty means GET, as in Go
  // origin-form "/path?q", or absolute-form when talking to a proxy
  std::string request_target;
  // As the caller gave them: key case preserved. Entries with the same exact
  // key are the values of one Go Header key, written in this order.
  std::vector<std::pair<std::string, std::string>> headers;
  // Lowercase names (fhttp's Header-Order:); listed headers go first in
  // this order. A name listed twice takes its last position, as in Go.
  std::vector<std::string> header_order;
  // Value for Host when headers hold neither "Host" nor "host".
  std::string host;
  std::optional<std::string> body;  // nullopt or "" = no body
  // Adds "Connection: close" unless the first "Connection" value already
  // carries the close token.
  bool close = false;
  // The Transport's own headers (e.g. Accept-Encoding), written after all
  // others, sorted by key; not validated, as in Go.
  std::vector<std::pair<std::string, std::string>> extra_headers;
};

// Head and body. Errors (ErrorCode::invalid_input) carry Go's texts:
//   net/http: invalid header field name "..."
//   net/http: invalid header field value "..." for Key ...
//   net/http: invalid method "..."
//   net/http: can't write control character in Request.URL
//   http: no Host in request URL
Result<std::string> write_h1_request(const H1Request& req);

// The same checks alone, without writing anything: what Go's roundTrip
// refuses before it takes a connection.
std::optional<Error> check_h1_request(const H1Request& req);

// Only the head (through the blank line), for callers that must hold the
// body back, e.g. until a "100 Continue".
Result<std::string> write_h1_request_head(const H1Request& req);

}  // namespace tlsc
