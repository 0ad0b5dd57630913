// libFuzzer target for the proxy handshakes' reply parsers: the CONNECT
// response head, SOCKS5 (with and without user/password) and SOCKS4.
// Input layout:
//   byte 0   which handshake (mod 4) and, in bits 2-7, a small head limit
//            for CONNECT (0 = the default)
//   byte 1   k: the next k bytes are the split script (piece sizes 1..64)
//   the rest the proxy's bytes
// Each input runs whole and in the scripted pieces; the two runs must
// agree on the outcome, the error text and the leftover bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "conn/proxy/http_connect.h"
#include "conn/proxy/socks4_handshake.h"
#include "conn/proxy/socks5_handshake.h"

namespace {

std::unique_ptr<tlsc::ProxyHandshake> make(unsigned kind, size_t limit) {
  switch (kind % 4) {
    case 0:
      return std::make_unique<tlsc::HttpConnectHandshake>(
          tlsc::ConnectRequest{"example.com:443", {}, {}},
          limit ? limit : tlsc::HttpConnectHandshake::kMaxResponseHeadBytes);
    case 1:
      return std::make_unique<tlsc::Socks5Handshake>("example.com", 443, std::nullopt, "p: ");
    case 2:
      return std::make_unique<tlsc::Socks5Handshake>("example.com", 443,
                                                     tlsc::ProxyCredentials{"user", "pass"}, "p: ");
    default:
      return std::make_unique<tlsc::Socks4Handshake>(tlsc::Socks4Handshake::socks4a("example.com", 443));
  }
}

struct Outcome {
  bool done = false;
  std::string error;
  std::string leftover;
  std::string sent;
  bool operator==(const Outcome&) const = default;
};

Outcome run(unsigned kind, size_t limit, std::string_view wire, std::string_view script) {
  auto h = make(kind, limit);
  Outcome o;
  auto first = h->start();
  if (!first) __builtin_trap();
  o.sent = *first;
  size_t pos = 0, step = 0;
  while (pos < wire.size()) {
    size_t n = wire.size() - pos;
    if (!script.empty()) n = 1 + static_cast<unsigned char>(script[step++ % script.size()]) % 64;
    std::string_view piece = wire.substr(pos, n);
    pos += piece.size();
    if (auto e = h->feed(piece, o.sent)) {
      o.error = e->message;
      // A dead handshake repeats its error.
      std::string ignored;
      auto again = h->feed("x", ignored);
      if (!again || again->message != o.error) __builtin_trap();
      return o;
    }
  }
  o.done = h->done();
  if (o.done) {
    o.leftover = std::string(h->leftover());
  } else {
    o.error = h->on_eof().message;
    if (o.error.empty()) __builtin_trap();
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  unsigned kind = static_cast<unsigned char>(input[0]);
  size_t limit = (kind >> 2) * 4;
  size_t script_len = static_cast<unsigned char>(input[1]);
  std::string_view rest = input.substr(2);
  std::string_view script = rest.substr(0, script_len);
  rest.remove_prefix(script.size());
  Outcome whole = run(kind, limit, rest, {});
  Outcome pieces = run(kind, limit, rest, script.empty() ? std::string_view("\x01", 1) : script);
  if (!(whole == pieces)) __builtin_trap();
  if (whole.done && whole.leftover.size() > rest.size()) __builtin_trap();
  return 0;
}
