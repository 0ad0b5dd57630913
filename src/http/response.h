// What one request produced, before the ABI turns it into upstream's JSON.
#pragma once

#include <cstddef>
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
  // A large text body that converts to itself, kept in the blocks it
  // arrived in instead of body (then empty), in order: joining them would
  // copy it once more and hold it twice. The ABI writes its JSON from them.
  std::vector<std::string> body_parts;
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

  size_t body_size() const {
    size_t size = body.size();
    for (const std::string& part : body_parts) size += part.size();
    return size;
  }
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
