// permessage-deflate (RFC 7692) for a WebSocket client: the compression of
// the messages it sends and the decompression of those it receives, once
// the handshake has settled the parameters (wire/ws_extensions.h). Bytes in,
// bytes out: one whole message at a time.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

// A message's payload inflated: RFC 7692 section 7.2.2 (the four octets
// 00 00 ff ff the sender removed are put back). The sliding window carries
// over to the next message unless the server promised no context takeover.
class WsInflater {
 public:
  explicit WsInflater(bool no_context_takeover);
  ~WsInflater();
  WsInflater(const WsInflater&) = delete;
  WsInflater& operator=(const WsInflater&) = delete;

  // The message's bytes, or (ErrorCode::websocket): "websocket: read limit
  // exceeded" when the inflated message would pass `max_output`, as the
  // frame reader's limit; "websocket: invalid compressed message" for data
  // that is not DEFLATE. A final block (BFINAL) ends
  // the message's DEFLATE stream, and what follows it is ignored. After an error the
  // inflater is not used again: the connection ends.
  Result<std::string> inflate(std::string_view payload, size_t max_output);
  // The last error was the limit's (close 1009), not bad data's (1007).
  bool limit_exceeded() const { return limit_exceeded_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool no_context_takeover_;
  bool limit_exceeded_ = false;
};

// A message's payload deflated for a frame with RSV1 set: ends with an
// empty stored block whose four octets 00 00 ff ff are removed (section
// 7.2.1). `window_bits` is the client_max_window_bits the server allowed
// (9 to 15: zlib cannot write 8-bit windows, so the caller sends messages
// uncompressed then, which RFC 7692 permits message by message).
class WsDeflater {
 public:
  WsDeflater(int window_bits, bool no_context_takeover);
  ~WsDeflater();
  WsDeflater(const WsDeflater&) = delete;
  WsDeflater& operator=(const WsDeflater&) = delete;

  // nullopt when zlib failed (out of memory): the caller sends the message
  // uncompressed.
  std::optional<std::string> deflate(std::string_view message);

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool no_context_takeover_;
};

}  // namespace tlsc
