// libFuzzer target for WsFrameReader (the server's WebSocket frames).
// Input layout:
//   byte 0      the read limit: 16 << (byte & 15) bytes; bit 4: RSV1 is
//               permessage-deflate's (a message's first frame may set it)
//   byte 1      k: the next k bytes are the piece-size script
//   k bytes     piece sizes (each 1..64; the script repeats)
//   the rest    the frames
// Each input is read once whole and once in the scripted pieces; the two
// runs must give the same messages, control frames and error, which
// catches state that depends on where reads split. No message may exceed
// the limit, and no control payload 125 bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wire/ws_frame.h"

namespace {

struct Recorder final : tlsc::WsFrameHandler {
  std::vector<std::pair<int, std::string>> events;
  uint64_t limit = 0;
  bool compression = false;
  void on_ws_message(tlsc::WsOpcode type, std::string payload, bool compressed) override {
    if (type != tlsc::WsOpcode::text && type != tlsc::WsOpcode::binary) __builtin_trap();
    if (payload.size() > limit) __builtin_trap();
    if (compressed && !compression) __builtin_trap();
    events.emplace_back(static_cast<int>(type) | (compressed ? 0x40 : 0), std::move(payload));
  }
  void on_ws_control(tlsc::WsOpcode type, std::string_view payload) override {
    if (static_cast<int>(type) < 8 || static_cast<int>(type) > 10) __builtin_trap();
    if (payload.size() > tlsc::kWsMaxControlPayload) __builtin_trap();
    events.emplace_back(static_cast<int>(type), std::string(payload));
  }
};

struct Run {
  std::vector<std::pair<int, std::string>> events;
  std::string error;
};

Run read(std::string_view wire, std::string_view script, uint64_t limit, bool compression) {
  tlsc::WsFrameReader reader(limit);
  if (compression) reader.allow_compression();
  Recorder rec;
  rec.limit = limit;
  rec.compression = compression;
  Run run;
  size_t pos = 0, step = 0;
  while (pos < wire.size()) {
    size_t n = wire.size() - pos;
    if (!script.empty()) n = 1 + static_cast<unsigned char>(script[step++ % script.size()]) % 64;
    n = std::min(n, wire.size() - pos);
    if (auto e = reader.feed(wire.substr(pos, n), rec)) {
      run.error = e->message;
      break;
    }
    pos += n;
  }
  run.events = std::move(rec.events);
  return run;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const uint64_t limit = uint64_t{16} << (static_cast<unsigned char>(input[0]) & 15);
  const size_t script_len = static_cast<unsigned char>(input[1]);
  std::string_view rest = input.substr(2);
  const std::string_view script = rest.substr(0, script_len);
  rest.remove_prefix(script.size());
  const bool compression = (static_cast<unsigned char>(input[0]) & 0x10) != 0;
  const Run whole = read(rest, {}, limit, compression);
  const Run pieces = read(rest, script.empty() ? std::string_view("\x00", 1) : script, limit, compression);
  if (whole.error != pieces.error || whole.events != pieces.events) __builtin_trap();
  return 0;
}
