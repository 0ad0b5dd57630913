// Errors are values: every fallible internal function returns Result<T> (or
// Error for void), and only the ABI layer turns an Error into upstream's
// status-0 response. The code is stable and names where the failure
// happened; the message is what the caller reads.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tlsc {

enum class ErrorCode {
  invalid_input,     // caller's JSON or fields
  unsupported,       // valid request we cannot serve (scheme, feature)
  dns,               // name resolution
  connect,           // TCP connect / bind
  timeout,           // client timeout (whole request)
  tls,               // handshake, verification, pins, records
  proxy,             // the proxy refused, failed or broke the tunnel handshake
  io,                // read/write on an established connection
  http_parse,        // malformed response from the server
  decode,            // Content-Encoding that does not decode
  redirect,          // redirect policy (loop, limit, bad Location)
  cancelled,         // session destroyed / destroyAll / shutdown
  file,              // streamOutputPath
  internal,
};

struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;
};

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}      // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace tlsc
