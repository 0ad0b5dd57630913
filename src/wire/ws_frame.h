// The WebSocket frame format (RFC 6455 section 5) as a client sees it, with
// the checks and error texts of gorilla/websocket (which upstream's
// bogdanfinn/websocket is): frames from the server are parsed into whole
// messages and control frames; frames to the server are masked. Bytes in,
// events out: no socket, no clock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

enum class WsOpcode : uint8_t { continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10 };

// RFC 6455: a control frame carries at most 125 bytes.
constexpr size_t kWsMaxControlPayload = 125;

// What a reader hands over, one call per complete message or control frame.
class WsFrameHandler {
 public:
  // A text or binary message, its fragments joined; `compressed`: its
  // first frame had RSV1 set (permessage-deflate), the payload is DEFLATE.
  virtual void on_ws_message(WsOpcode type, std::string payload, bool compressed) = 0;
  // ping, pong or close, whole (control frames are never fragmented).
  virtual void on_ws_control(WsOpcode type, std::string_view payload) = 0;

 protected:
  ~WsFrameHandler() = default;
};

class WsFrameReader {
 public:
  // max_message: the largest message accepted, joined fragments included;
  // a bigger one is "websocket: read limit exceeded" (gorilla's ErrReadLimit).
  explicit WsFrameReader(uint64_t max_message) : max_message_(max_message) {}

  // Consumes every byte of `in`, calling the handler as messages complete.
  // A protocol error stops the reader: this and every later call returns it.
  // Its text is gorilla's, "websocket: " and the frame's faults joined by
  // ", " ("websocket: RSV1 set, bad MASK"); `protocol_error()` tells it
  // from the read limit.
  std::optional<Error> feed(std::string_view in, WsFrameHandler& handler);
  bool protocol_error() const { return protocol_error_; }

  // permessage-deflate was negotiated: RSV1 on a message's first frame
  // marks it compressed (RFC 7692 section 6). On a continuation or control
  // frame, or without the extension, RSV1 stays a fault.
  void allow_compression() { compression_ = true; }

 private:
  enum class State : uint8_t { header, extended_length, payload, failed };
  std::optional<Error> start_frame();
  std::optional<Error> fail(std::string text, bool protocol);
  std::optional<Error> end_frame(WsFrameHandler& handler);

  const uint64_t max_message_;
  State state_ = State::header;
  uint8_t header_[2] = {0, 0};
  size_t header_have_ = 0;
  uint8_t ext_[8] = {};
  size_t ext_need_ = 0;
  size_t ext_have_ = 0;
  uint64_t remaining_ = 0;
  WsOpcode frame_type_ = WsOpcode::continuation;
  bool frame_final_ = false;
  bool message_final_ = true;  // gorilla's readFinal: no message is open
  WsOpcode message_type_ = WsOpcode::text;
  bool message_compressed_ = false;
  bool compression_ = false;
  std::string message_;
  std::string control_;
  std::optional<Error> error_;
  bool protocol_error_ = false;
};

// One frame to the server, masked with `mask` as a client must; `rsv1`
// marks the first frame of a compressed message.
std::string ws_encode_frame(WsOpcode opcode, bool fin, std::string_view payload, std::array<uint8_t, 4> mask,
                            bool rsv1 = false);

// gorilla's CloseError text: "websocket: close 1000 (normal): bye".
std::string ws_close_text(int code, std::string_view reason);

// The close frame's payload for `code` (2 bytes, big-endian) and reason;
// empty for 1005, which is never sent.
std::string ws_close_payload(int code, std::string_view reason);

}  // namespace tlsc
