#include "conn/proxy/socks4_handshake.h"

#include <algorithm>

namespace tlsc {
namespace {

constexpr uint8_t kVersion4 = 0x04;
constexpr uint8_t kCmdConnect = 0x01;
constexpr uint8_t kGranted = 0x5a, kRejected = 0x5b, kIdentRequired = 0x5c, kIdentFailed = 0x5d;
constexpr size_t kReplyBytes = 8;
// go-socks4's Ident: the user id every request carries.
constexpr std::string_view kUserId = "nobody@0.0.0.0";

}  // namespace

Socks4Handshake Socks4Handshake::socks4(std::string ipv4, uint16_t port) {
  return Socks4Handshake(false, {}, std::move(ipv4), port);
}

Socks4Handshake Socks4Handshake::socks4a(std::string host, uint16_t port) {
  return Socks4Handshake(true, std::move(host), std::string("\0\0\0\1", 4), port);
}

Socks4Handshake::Socks4Handshake(bool socks4a, std::string host, std::string ipv4, uint16_t port)
    : socks4a_(socks4a), host_(std::move(host)), ipv4_(std::move(ipv4)), port_(port) {}

std::optional<Error> Socks4Handshake::fail(std::string message) {
  error_ = make_error(ErrorCode::proxy, std::move(message));
  return error_;
}

Result<std::string> Socks4Handshake::start() {
  if (ipv4_.size() != 4) {
    return make_error(ErrorCode::proxy, "socks4: the target needs an IPv4 address");
  }
  std::string b;
  b.push_back(static_cast<char>(kVersion4));
  b.push_back(static_cast<char>(kCmdConnect));
  b.push_back(static_cast<char>(port_ >> 8));
  b.push_back(static_cast<char>(port_ & 0xff));
  b.append(ipv4_);
  b.append(kUserId);
  b.push_back('\0');
  if (socks4a_) {
    b.append(host_);
    b.push_back('\0');
  }
  return b;
}

std::optional<Error> Socks4Handshake::feed(std::string_view in, std::string& /*out*/) {
  if (error_) return error_;
  if (done_) {
    leftover_.append(in);
    return std::nullopt;
  }
  size_t take = std::min(kReplyBytes - reply_.size(), in.size());
  reply_.append(in.substr(0, take));
  in.remove_prefix(take);
  if (reply_.size() < kReplyBytes) return std::nullopt;
  // go-socks4 looks only at the code (byte 1), not at the version byte.
  switch (static_cast<uint8_t>(reply_[1])) {
    case kGranted:
      done_ = true;
      leftover_.assign(in);
      return std::nullopt;
    case kIdentRequired:
    case kIdentFailed:
      return fail("valid ident required");
    case kRejected:
      return fail("connection to remote host was rejected");
    default:
      return fail("unknown socks4 server response " + std::to_string(static_cast<uint8_t>(reply_[1])));
  }
}

Error Socks4Handshake::on_io_error(const Error& e) {
  if (error_) return *error_;
  return *fail("i\\o error: " + e.message);
}

Error Socks4Handshake::on_eof() {
  if (error_) return *error_;
  // go-socks4 reads the reply once and wants all 8 bytes.
  return *fail("i\\o error: unexpected EOF");
}

}  // namespace tlsc
