#include "core/error.h"

namespace tlsc {

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_input:
      return "invalid_input";
    case ErrorCode::dns:
      return "dns";
    case ErrorCode::connect:
      return "connect";
    case ErrorCode::proxy:
      return "proxy";
    case ErrorCode::proxy_auth:
      return "proxy_auth";
    case ErrorCode::tls_handshake:
      return "tls_handshake";
    case ErrorCode::tls_verify:
      return "tls_verify";
    case ErrorCode::tls_pin:
      return "tls_pin";
    case ErrorCode::timeout:
      return "timeout";
    case ErrorCode::redirect_limit:
      return "redirect_limit";
    case ErrorCode::http_protocol:
      return "http_protocol";
    case ErrorCode::h2_protocol:
      return "h2_protocol";
    case ErrorCode::stream_reset:
      return "stream_reset";
    case ErrorCode::connection_closed:
      return "connection_closed";
    case ErrorCode::decode:
      return "decode";
    case ErrorCode::file:
      return "file";
    case ErrorCode::cancelled:
      return "cancelled";
    case ErrorCode::session_closed:
      return "session_closed";
    case ErrorCode::websocket:
      return "websocket";
    case ErrorCode::body_too_large:
      return "body_too_large";
    case ErrorCode::internal:
      return "internal";
  }
  return "internal";
}

}  // namespace tlsc
