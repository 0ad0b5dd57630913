#include "wire/ws_frame.h"

#include <vector>

namespace tlsc {
namespace {

constexpr uint8_t kFinBit = 0x80;
constexpr uint8_t kRsv1 = 0x40;
constexpr uint8_t kRsv2 = 0x20;
constexpr uint8_t kRsv3 = 0x10;
constexpr uint8_t kMaskBit = 0x80;

bool is_control(WsOpcode op) { return static_cast<uint8_t>(op) >= 8; }

}  // namespace

std::optional<Error> WsFrameReader::fail(std::string text, bool protocol) {
  state_ = State::failed;
  protocol_error_ = protocol;
  error_ = make_error(ErrorCode::websocket, "websocket: " + std::move(text));
  return error_;
}

// gorilla's advanceFrame: every fault of the first two bytes is collected,
// in this order, and reported together.
std::optional<Error> WsFrameReader::start_frame() {
  const uint8_t b0 = header_[0];
  const uint8_t b1 = header_[1];
  frame_final_ = (b0 & kFinBit) != 0;
  const uint8_t type = b0 & 0x0f;
  frame_type_ = static_cast<WsOpcode>(type);
  std::vector<std::string> faults;
  // RSV1 is permessage-deflate's, on a message's first frame only.
  const bool rsv1 = (b0 & kRsv1) != 0;
  if (rsv1 && !(compression_ && (type == 1 || type == 2))) faults.emplace_back("RSV1 set");
  if (b0 & kRsv2) faults.emplace_back("RSV2 set");
  if (b0 & kRsv3) faults.emplace_back("RSV3 set");
  const uint8_t len7 = b1 & 0x7f;
  switch (type) {
    case 8:
    case 9:
    case 10:
      if (len7 > kWsMaxControlPayload) faults.emplace_back("len > 125 for control");
      if (!frame_final_) faults.emplace_back("FIN not set on control");
      break;
    case 1:
    case 2:
      if (!message_final_) faults.emplace_back("data before FIN");
      message_final_ = frame_final_;
      break;
    case 0:
      if (message_final_) faults.emplace_back("continuation after FIN");
      message_final_ = frame_final_;
      break;
    default:
      faults.push_back("bad opcode " + std::to_string(type));
  }
  // A server never masks (a client always does).
  if (b1 & kMaskBit) faults.emplace_back("bad MASK");
  if (!faults.empty()) {
    std::string text;
    for (const auto& f : faults) {
      if (!text.empty()) text.append(", ");
      text.append(f);
    }
    return fail(std::move(text), true);
  }
  if (type == 1 || type == 2) {
    message_type_ = frame_type_;
    message_compressed_ = rsv1;
    message_.clear();
  }
  control_.clear();
  ext_have_ = 0;
  ext_need_ = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
  remaining_ = len7 < 126 ? len7 : 0;
  state_ = ext_need_ > 0 ? State::extended_length : State::payload;
  return std::nullopt;
}

std::optional<Error> WsFrameReader::end_frame(WsFrameHandler& handler) {
  state_ = State::header;
  header_have_ = 0;
  if (is_control(frame_type_)) {
    handler.on_ws_control(frame_type_, control_);
    control_.clear();
  } else if (frame_final_) {
    std::string done = std::move(message_);
    message_.clear();
    handler.on_ws_message(message_type_, std::move(done), message_compressed_);
  }
  return std::nullopt;
}

std::optional<Error> WsFrameReader::feed(std::string_view in, WsFrameHandler& handler) {
  size_t i = 0;
  while (true) {
    if (state_ == State::failed) return error_;
    // A frame without payload ends as soon as its header does.
    if (state_ == State::payload && remaining_ == 0) {
      end_frame(handler);
      continue;
    }
    if (i == in.size()) return std::nullopt;
    switch (state_) {
      case State::header:
        header_[header_have_++] = static_cast<uint8_t>(in[i++]);
        if (header_have_ == 2) {
          if (auto e = start_frame()) return e;
          if (state_ == State::payload && !is_control(frame_type_) &&
              message_.size() + remaining_ > max_message_)
            return fail("read limit exceeded", false);
        }
        break;
      case State::extended_length:
        ext_[ext_have_++] = static_cast<uint8_t>(in[i++]);
        if (ext_have_ == ext_need_) {
          uint64_t n = 0;
          for (size_t k = 0; k < ext_need_; ++k) n = (n << 8) | ext_[k];
          // gorilla refuses a length with the top bit set as a read limit.
          if (n >> 63) return fail("read limit exceeded", false);
          if (message_.size() > max_message_ || n > max_message_ - message_.size())
            return fail("read limit exceeded", false);
          remaining_ = n;
          state_ = State::payload;
        }
        break;
      case State::payload: {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(remaining_, in.size() - i));
        (is_control(frame_type_) ? control_ : message_).append(in.substr(i, take));
        i += take;
        remaining_ -= take;
        break;
      }
      case State::failed:
        break;
    }
  }
}

std::string ws_encode_frame(WsOpcode opcode, bool fin, std::string_view payload, std::array<uint8_t, 4> mask,
                            bool rsv1) {
  std::string out;
  out.reserve(payload.size() + 14);
  out.push_back(static_cast<char>((fin ? kFinBit : 0) | (rsv1 ? kRsv1 : 0) | static_cast<uint8_t>(opcode)));
  const uint64_t n = payload.size();
  if (n < 126) {
    out.push_back(static_cast<char>(kMaskBit | n));
  } else if (n <= 0xffff) {
    out.push_back(static_cast<char>(kMaskBit | 126));
    out.push_back(static_cast<char>(n >> 8));
    out.push_back(static_cast<char>(n));
  } else {
    out.push_back(static_cast<char>(kMaskBit | 127));
    for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(n >> shift));
  }
  for (uint8_t m : mask) out.push_back(static_cast<char>(m));
  const size_t start = out.size();
  out.append(payload);
  for (size_t k = 0; k < payload.size(); ++k)
    out[start + k] = static_cast<char>(out[start + k] ^ mask[k & 3]);
  return out;
}

std::string ws_close_text(int code, std::string_view reason) {
  std::string s = "websocket: close " + std::to_string(code);
  const char* name = nullptr;
  switch (code) {
    case 1000:
      name = "normal";
      break;
    case 1001:
      name = "going away";
      break;
    case 1002:
      name = "protocol error";
      break;
    case 1003:
      name = "unsupported data";
      break;
    case 1005:
      name = "no status";
      break;
    case 1006:
      name = "abnormal closure";
      break;
    case 1007:
      name = "invalid payload data";
      break;
    case 1008:
      name = "policy violation";
      break;
    case 1009:
      name = "message too big";
      break;
    case 1010:
      name = "mandatory extension missing";
      break;
    case 1011:
      name = "internal server error";
      break;
    case 1015:
      name = "TLS handshake error";
      break;
    default:
      break;
  }
  if (name) s.append(" (").append(name).append(")");
  if (!reason.empty()) s.append(": ").append(reason);
  return s;
}

std::string ws_close_payload(int code, std::string_view reason) {
  if (code == 1005) return {};
  std::string p;
  p.push_back(static_cast<char>((code >> 8) & 0xff));
  p.push_back(static_cast<char>(code & 0xff));
  p.append(reason);
  return p;
}

}  // namespace tlsc
