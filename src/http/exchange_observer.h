// What a connection tells the request it carries, whichever protocol.
#pragma once

#include <string_view>

#include "core/error.h"
#include "wire/response_head.h"

namespace tlsc {

class ExchangeObserver {
 public:
  // The whole request has been handed to the transport (HTTP/2: its last
  // frame left nghttp2). Optional to act on.
  virtual void on_request_sent() {}
  virtual void on_response_head(const ResponseHead& head) = 0;
  virtual void on_response_body(std::string_view bytes) = 0;
  // The response is complete. The observer may hand the connection back to
  // the pool from inside this call.
  virtual void on_response_complete() = 0;
  // retryable: the server cannot have processed the request (HTTP/1.1:
  // not one response byte arrived on a reused connection's request; HTTP/2:
  // refused, or above a GOAWAY's last stream), so it may be sent again on
  // a new connection, as Go's transports do.
  virtual void on_response_error(const Error& error, bool retryable) = 0;

 protected:
  ~ExchangeObserver() = default;
};

}  // namespace tlsc
