#include "abi/request_plan.h"

#include "abi/client_options_input.h"
#include "abi/returned_json.h"
#include "codec/decoder.h"
#include "core/ascii.h"
#include "core/base64.h"

namespace tlsc {
namespace {

Error invalid(std::string message) { return make_error(ErrorCode::invalid_input, std::move(message)); }

}  // namespace

std::variant<PreparedRequest, PrepareFailure> prepare_request(SessionRegistry& sessions,
                                                              const RequestInput& in,
                                                              std::string response_id) {
  std::optional<std::string> sid;
  if (in.session_id && !in.session_id->empty()) sid = in.session_id;

  // Upstream rejects conflicting input before it looks for the session.
  auto options = client_options_from_input(in);
  if (!options) return PrepareFailure{sid, options.error()};
  auto session = sessions.acquire(sid.value_or(""), *options, modification_from_input(in));
  if (!session) return PrepareFailure{sid, session.error()};

  if (in.request_method.empty() || in.request_url.empty()) {
    return PrepareFailure{sid, invalid("no request url or request method provided")};
  }
  RequestPlan plan;
  plan.id = std::move(response_id);
  plan.session_id = sid;
  if (in.request_body && !in.request_body->empty()) {
    if (in.is_byte_request) {
      auto decoded = base64_decode(*in.request_body);
      if (!decoded) {
        return PrepareFailure{sid,
                              invalid("failed to base64 decode request body: " + decoded.error().message)};
      }
      plan.body = std::move(*decoded);
    } else {
      plan.body = *in.request_body;
    }
  }
  for (char c : in.request_method) {
    if (!is_token_byte(static_cast<unsigned char>(c))) {
      return PrepareFailure{sid, invalid("failed to create request object: net/http: invalid method \"" +
                                         in.request_method + "\"")};
    }
  }
  plan.method = in.request_method;
  auto url = parse_url(in.request_url);
  if (!url) return PrepareFailure{sid, invalid("failed to create request object: " + url.error().message)};
  plan.url = std::move(*url);
  plan.headers = in.headers;
  plan.header_order.reserve(in.header_order.size());
  for (const auto& h : in.header_order) plan.header_order.push_back(ascii_lowercase(h));
  if (in.request_host_override) plan.host_override = *in.request_host_override;
  for (const auto& c : in.request_cookies) {
    plan.request_cookies.push_back(
        cookie_from_caller(c.name, c.value, c.path, c.domain, c.expires, c.max_age, c.secure, c.http_only));
  }
  plan.is_byte_response = in.is_byte_response;
  plan.stream_output_path = in.stream_output_path;
  if (in.stream_output_block_size && *in.stream_output_block_size > 0) {
    plan.stream_block_size = static_cast<size_t>(*in.stream_output_block_size);
  }
  plan.stream_eof_symbol = in.stream_output_eof_symbol;
  if (in.max_response_body_bytes && *in.max_response_body_bytes != 0) {
    plan.max_body_bytes = *in.max_response_body_bytes < 0 ? BodyDecoder::kUnlimited
                                                          : static_cast<size_t>(*in.max_response_body_bytes);
  }
  return PreparedRequest{std::move(*session), std::move(plan)};
}

std::variant<ParsedRequest, PrepareFailure> parse_and_prepare(SessionRegistry& sessions, const char* json,
                                                              const char* function, std::string response_id) {
  if (json == nullptr) {
    return PrepareFailure{std::nullopt, null_input(function)};
  }
  auto input = parse_request_input(json);
  if (!input) return PrepareFailure{std::nullopt, input.error()};
  auto prepared = prepare_request(sessions, *input, std::move(response_id));
  if (auto* f = std::get_if<PrepareFailure>(&prepared)) return std::move(*f);
  return ParsedRequest{std::move(*input), std::move(std::get<PreparedRequest>(prepared))};
}

}  // namespace tlsc
