// libFuzzer target for the header rules on both sides of a request:
//  - the caller's side (method, target, requestHostOverride, headers) as
//    the HTTP/1.1 writer checks and writes them: whatever it accepts, the
//    bytes it writes have no line of the caller's making (no CR or LF
//    inside a line, every header name a token);
//  - the server's side: H2ResponseBlock, fed an HTTP/2 response's fields,
//    keeps only fields Go's rules allow and stops for good at the first
//    one it refuses;
//  - go_quote and canonical_header_key, which every error text and
//    response header goes through.
// Input: byte 0 picks the part; the rest is a list of strings, each one
// length byte then that many bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/h2/h2_response_block.h"
#include "wire/h1_request_writer.h"
#include "wire/header_canon.h"

namespace {

using namespace tlsc;

std::vector<std::string> strings_of(std::string_view in) {
  std::vector<std::string> out;
  while (!in.empty()) {
    const size_t n = std::min<size_t>(static_cast<unsigned char>(in[0]), in.size() - 1);
    out.emplace_back(in.substr(1, n));
    in.remove_prefix(1 + n);
  }
  return out;
}

bool token(std::string_view s) {
  if (s.empty()) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!is_token_byte(c)) return false;
  }
  return true;
}

void request_side(const std::vector<std::string>& s) {
  H1Request req;
  if (s.size() > 0) req.method = s[0];
  req.request_target = s.size() > 1 ? s[1] : "/";
  req.host = s.size() > 2 ? s[2] : "h";
  for (size_t i = 3; i + 1 < s.size(); i += 2) req.headers.emplace_back(s[i], s[i + 1]);
  if (s.size() % 2 == 0 && s.size() > 3) req.header_order.push_back(s.back());
  auto out = write_h1_request(req);
  if (!out) return;
  // Every line of the head ends in CR LF and holds neither alone.
  const std::string& text = *out;
  const size_t end = text.find("\r\n\r\n");
  if (end == std::string::npos) __builtin_trap();
  std::string_view head(text.data(), end + 2);
  bool first = true;
  while (!head.empty()) {
    const size_t eol = head.find("\r\n");
    if (eol == std::string_view::npos) __builtin_trap();
    std::string_view line = head.substr(0, eol);
    if (line.find('\r') != std::string_view::npos || line.find('\n') != std::string_view::npos)
      __builtin_trap();
    if (!first) {
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos || !token(line.substr(0, colon))) __builtin_trap();
    }
    first = false;
    head.remove_prefix(eol + 2);
  }
}

void response_side(const std::vector<std::string>& s) {
  H2ResponseBlock block(1024);
  bool stopped = false;
  for (size_t i = 0; i + 1 < s.size(); i += 2) {
    const std::string& name = s[i];
    const std::string& value = s[i + 1];
    const bool kept = block.add(name, value);
    if (stopped && kept) __builtin_trap();  // nothing is kept after a refusal
    if (kept) {
      for (char ch : value) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t') || c == 0x7F) __builtin_trap();
      }
      if (!name.starts_with(":")) {
        if (!token(name)) __builtin_trap();
        for (char c : name) {
          if (c >= 'A' && c <= 'Z') __builtin_trap();
        }
      }
    }
    stopped = stopped || !kept;
  }
  (void)block.stream_error_cause();
  (void)block.status();
}

void text_side(const std::vector<std::string>& s) {
  for (const std::string& x : s) {
    const std::string q = go_quote(x);
    if (q.size() < 2 || q.front() != '"' || q.back() != '"') __builtin_trap();
    for (char ch : q) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7F) __builtin_trap();  // an error text is one printable line
    }
    const std::string key = canonical_header_key(x);
    if (canonical_header_key(key) != key) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto s = strings_of(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  switch (data[0] % 3) {
    case 0:
      request_side(s);
      break;
    case 1:
      response_side(s);
      break;
    default:
      text_side(s);
      break;
  }
  return 0;
}
