// Where a streamed response goes (requestStream): the head as soon as the
// final response's headers arrive, then the decoded body bytes as they
// come, instead of one Response at the end. The transaction's completion
// still comes once, after the last byte (status 0 if the body failed).
// Loop thread only.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "core/error.h"
#include "http/response.h"

namespace tlsc {

class BodySink {
 public:
  // The final response's head: upstream's envelope (status, headers,
  // cookies, target, protocol) with an empty body.
  virtual void on_head(Response envelope) = 0;
  // Decoded body bytes (after Content-Encoding). Returns false when the
  // sink holds enough: the transaction then pauses the connection until
  // the sink calls Transaction::resume_body().
  virtual bool on_body(std::string_view bytes) = 0;
  // The body ended: every byte went to on_body. `done` is called once, on
  // the loop thread, when the sink is through with it (nullopt), or with
  // the error that fails the request; the request completes then. A sink
  // that keeps nothing back answers at once.
  virtual void on_end(std::function<void(std::optional<Error>)> done) { done(std::nullopt); }

 protected:
  ~BodySink() = default;
};

}  // namespace tlsc
