// What one request produced, before the ABI turns it into upstream's JSON.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace tlsc {

struct Response {
  std::string id;
  std::optional<std::string> session_id;
  int status = 0;  // 0: failure, body says why
  std::string target;
  std::string body;
  // Canonical names, sorted as Go's JSON encoder sorts map keys. A failure
  // has neither headers nor cookies (upstream's null).
  std::optional<std::vector<std::pair<std::string, std::vector<std::string>>>> headers;
  std::optional<std::vector<std::pair<std::string, std::string>>> cookies;
  std::string used_protocol;
  // A failure's kind (status 0); written as errorCode, which upstream's
  // bindings ignore.
  std::optional<ErrorCode> error_code;
  // Where the request was when it failed ("dialing", "awaiting_head"...);
  // written as errorState. None for input refused before it started.
  std::optional<std::string> error_state;
};

// The status-0 Response for a failure: upstream's text in body, our code.
inline Response error_response(std::string id, std::optional<std::string> session_id, Error error) {
  Response r;
  r.id = std::move(id);
  r.session_id = std::move(session_id);
  r.body = std::move(error.message);
  r.error_code = error.code;
  return r;
}

}  // namespace tlsc
