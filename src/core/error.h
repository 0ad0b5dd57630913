// Errors are values: every fallible internal function returns Result<T> (or
// an optional Error), and only the ABI layer turns an Error into upstream's
// status-0 response. The code is the kind of failure, stable and public:
// the ABI writes its name as the response's `errorCode` (abi/CONTRACT.md
// lists them), so callers branch on it instead of on the text; the message
// is upstream's text, word for word.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tlsc {

enum class ErrorCode {
  invalid_input,      // the caller's JSON or fields, a URL or header the request cannot carry
  dns,                // name resolution
  connect,            // TCP connect or bind
  proxy,              // the proxy refused, failed or broke the tunnel handshake
  proxy_auth,         // the proxy wants (other) credentials
  tls_handshake,      // TLS handshake or record failure
  tls_verify,         // the server's certificate is not trusted for the name
  tls_pin,            // certificatePinningHosts did not match
  timeout,            // the request's timeout ran out
  redirect_limit,     // followRedirects stopped after 10
  http_protocol,      // a malformed HTTP/1.1 response (or Location)
  h2_protocol,        // an HTTP/2 connection error, GOAWAY, lost connection
  stream_reset,       // the server reset the request's HTTP/2 stream
  connection_closed,  // the connection closed or failed mid-request
  decode,             // a Content-Encoding that does not decode
  body_too_large,     // the (decoded) body went past maxResponseBodyBytes
  file,               // streamOutputPath could not be written
  cancelled,          // the caller cancelled the request
  session_closed,     // destroySession / destroyAll while it ran
  websocket,          // a WebSocket handshake refused, a protocol error, or the peer's close
  internal,           // a bug or no memory
};

// The stable name ("tls_verify"), as the ABI writes it.
std::string_view error_code_name(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;
  // Go's io.EOF: the peer closed cleanly where a message could have ended.
  // A reader in the middle of a body turns it into "unexpected EOF".
  bool eof = false;
};

inline Error make_error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

inline Error eof_error(ErrorCode code) { return Error{code, "EOF", true}; }

// What a request fails with when an allocation for it failed: it fails
// alone, and the process goes on.
inline Error no_memory_error() { return Error{ErrorCode::internal, "out of memory"}; }

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT
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
