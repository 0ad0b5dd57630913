// RequestInput → (session, RequestPlan), on the caller's thread, with
// upstream's checks in upstream's order: CreateClient, then BuildRequest.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "abi/request_input.h"
#include "http/request_plan.h"
#include "session/session_registry.h"

namespace tlsc {

struct PreparedRequest {
  std::shared_ptr<Session> session;
  RequestPlan plan;
};

struct PrepareFailure {
  std::optional<std::string> session_id;  // echoed when the input named one
  Error error;
};

std::variant<PreparedRequest, PrepareFailure> prepare_request(SessionRegistry& sessions,
                                                              const RequestInput& in,
                                                              std::string response_id);

// The caller's JSON as request, requestAsync and requestStream take it:
// a null pointer or JSON that does not decode fails without a session id;
// then prepare_request. `function` names the export in the null-input text.
struct ParsedRequest {
  RequestInput input;
  PreparedRequest prepared;
};
std::variant<ParsedRequest, PrepareFailure> parse_and_prepare(SessionRegistry& sessions, const char* json,
                                                              const char* function, std::string response_id);

}  // namespace tlsc
