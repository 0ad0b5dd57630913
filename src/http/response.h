// What one request produced, before the ABI turns it into upstream's JSON.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

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
};

inline Response error_response(std::string id, std::optional<std::string> session_id,
                               std::string message) {
  Response r;
  r.id = std::move(id);
  r.session_id = std::move(session_id);
  r.body = std::move(message);
  return r;
}

}  // namespace tlsc
