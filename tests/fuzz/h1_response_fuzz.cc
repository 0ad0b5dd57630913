// libFuzzer target for H1ResponseParser. Input layout:
//   byte 0      flags: bit 0 selects the header limit (small or default),
//               bits 1-4 pick the small limit, bits 5-6 the read buffer size
//   byte 1      k: the next k bytes are the chunk-size script
//   k bytes     chunk sizes (each 1..64; the script repeats)
//   the rest    the response bytes
// Each input is parsed for GET and HEAD, once whole and once in the
// scripted pieces; the two runs must agree, which catches state that
// depends on where reads happen to split.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "wire/h1_response_parser.h"

namespace {

struct Run {
  std::string error;
  bool failed = false;
  bool complete = false;
  bool head_complete = false;
  bool keep_alive = false;
  int status = 0;
  size_t consumed = 0;
  size_t header_count = 0;
  std::string body;

  bool same_as(const Run& o) const {
    if (failed != o.failed || error != o.error || complete != o.complete ||
        head_complete != o.head_complete || body != o.body) {
      return false;
    }
    if (head_complete &&
        (status != o.status || keep_alive != o.keep_alive || header_count != o.header_count)) {
      return false;
    }
    return failed || consumed == o.consumed;
  }
};

Run parse(std::string_view method, std::string_view wire, std::string_view script, size_t limit,
          size_t read_buffer) {
  tlsc::H1ResponseParser p(method, limit, read_buffer);
  Run run;
  size_t pos = 0;
  size_t step = 0;
  while (pos < wire.size()) {
    size_t n = wire.size() - pos;
    if (!script.empty()) {
      n = 1 + static_cast<unsigned char>(script[step % script.size()]) % 64;
      ++step;
    }
    const std::string_view piece = wire.substr(pos, n);
    auto r = p.feed(piece, run.body);
    if (!r.ok()) {
      run.failed = true;
      run.error = r.error().message;
      break;
    }
    if (r.value() > piece.size()) __builtin_trap();
    pos += r.value();
    if (r.value() < piece.size()) {
      // Only a finished message may leave bytes behind.
      if (!p.message_complete()) __builtin_trap();
      break;
    }
  }
  if (!run.failed) {
    if (auto e = p.on_eof()) {
      run.failed = true;
      run.error = e->message;
    }
  }
  if (run.body.size() > wire.size()) __builtin_trap();
  run.consumed = pos;
  run.complete = p.message_complete();
  run.head_complete = p.head_complete();
  run.keep_alive = p.keep_alive();
  if (run.head_complete) {
    run.status = p.head().status;
    run.header_count = p.head().headers.size();
  }
  if (run.failed == run.complete) __builtin_trap();
  return run;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto flags = static_cast<unsigned char>(input[0]);
  const size_t script_len = static_cast<unsigned char>(input[1]);
  std::string_view rest = input.substr(2);
  const std::string_view script = rest.substr(0, script_len);
  rest.remove_prefix(script.size());

  const size_t limit =
      (flags & 1) ? 16 + ((flags >> 1) & 0xF) * 8 : tlsc::H1ResponseParser::kDefaultMaxHeaderBytes;
  constexpr size_t kReadBuffers[] = {0, 16, 64, 8192};
  const size_t read_buffer = kReadBuffers[(flags >> 5) & 3];
  for (std::string_view method : {std::string_view("GET"), std::string_view("HEAD")}) {
    const Run whole = parse(method, rest, {}, limit, read_buffer);
    const Run pieces =
        parse(method, rest, script.empty() ? std::string_view("\x00", 1) : script, limit, read_buffer);
    if (!whole.same_as(pieces)) __builtin_trap();
  }
  return 0;
}
