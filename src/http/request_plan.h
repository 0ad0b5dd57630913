// One request as the HTTP layer takes it: checked and normalised from the
// caller's input on the caller's thread (abi/request_plan.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cookies/cookie.h"
#include "core/headers.h"
#include "core/url.h"
#include "http/body_sink.h"

namespace tlsc {

// What one request asks for, checked and normalised on the caller's thread.
// A body held in memory (request, requestAsync, streamOutputPath,
// readStreamAll) is refused past this many bytes, decoded: the JSON that
// carries it is up to six times larger, and no binding takes a string of
// gigabytes (V8's limit is 512 MiB). maxResponseBodyBytes changes it.
constexpr size_t kDefaultMaxResponseBodyBytes = size_t{1} << 30;

struct RequestPlan {
  std::string id;
  std::optional<std::string> session_id;  // echoed in the response
  std::string method;
  Url url;
  HeaderList headers;
  std::vector<std::string> header_order;  // lowercase
  std::optional<std::string> body;
  std::optional<std::string> host_override;
  std::vector<Cookie> request_cookies;
  bool is_byte_response = false;
  std::optional<std::string> stream_output_path;
  size_t stream_block_size = 1024;
  std::optional<std::string> stream_eof_symbol;
  size_t max_body_bytes = kDefaultMaxResponseBodyBytes;
  // requestStream: the head and body go here as they arrive.
  std::shared_ptr<BodySink> body_sink;
};

}  // namespace tlsc
