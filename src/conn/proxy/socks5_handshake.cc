#include "conn/proxy/socks5_handshake.h"

#include <algorithm>

#include "platform/socket_address.h"

namespace tlsc {
namespace {

constexpr uint8_t kVersion5 = 0x05;
constexpr uint8_t kCmdConnect = 0x01;
constexpr uint8_t kAuthNone = 0x00;
constexpr uint8_t kAuthUserPassword = 0x02;
constexpr uint8_t kNoAcceptableMethods = 0xff;
constexpr uint8_t kAtypIPv4 = 0x01, kAtypName = 0x03, kAtypIPv6 = 0x04;
constexpr uint8_t kUserPasswordVersion = 0x01;

// x/net/internal/socks Reply.String().
std::string reply_text(uint8_t code) {
  switch (code) {
    case 0x01:
      return "general SOCKS server failure";
    case 0x02:
      return "connection not allowed by ruleset";
    case 0x03:
      return "network unreachable";
    case 0x04:
      return "host unreachable";
    case 0x05:
      return "connection refused";
    case 0x06:
      return "TTL expired";
    case 0x07:
      return "command not supported";
    case 0x08:
      return "address type not supported";
    default:
      return "unknown code: " + std::to_string(code);
  }
}

}  // namespace

Socks5Handshake::Socks5Handshake(std::string target_host, uint16_t target_port,
                                 std::optional<ProxyCredentials> credentials, std::string error_prefix)
    : host_(std::move(target_host)),
      port_(target_port),
      credentials_(std::move(credentials)),
      prefix_(std::move(error_prefix)) {}

std::optional<Error> Socks5Handshake::fail(std::string reason, ErrorCode code) {
  state_ = State::failed;
  error_ = make_error(code, prefix_ + reason);
  return error_;
}

Result<std::string> Socks5Handshake::start() {
  std::string out;
  out.push_back(static_cast<char>(kVersion5));
  if (credentials_) {
    out.push_back(2);
    out.push_back(static_cast<char>(kAuthNone));
    out.push_back(static_cast<char>(kAuthUserPassword));
  } else {
    out.push_back(1);
    out.push_back(static_cast<char>(kAuthNone));
  }
  return out;
}

std::optional<Error> Socks5Handshake::request_bytes(std::string& out) {
  std::string b;
  b.push_back(static_cast<char>(kVersion5));
  b.push_back(static_cast<char>(kCmdConnect));
  b.push_back(0);
  auto ip = SocketAddress::from_ip_literal(host_, 0);
  if (ip && ip->is_v4()) {
    b.push_back(static_cast<char>(kAtypIPv4));
    b.append(reinterpret_cast<const char*>(ip->ip.data()), 4);
  } else if (ip) {
    // Go sends an IPv4-mapped address as IPv4 (ip.To4()).
    static constexpr uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::equal(std::begin(kMapped), std::end(kMapped), ip->ip.data())) {
      b.push_back(static_cast<char>(kAtypIPv4));
      b.append(reinterpret_cast<const char*>(ip->ip.data()) + 12, 4);
    } else {
      b.push_back(static_cast<char>(kAtypIPv6));
      b.append(reinterpret_cast<const char*>(ip->ip.data()), 16);
    }
  } else {
    if (host_.size() > 255) return fail("FQDN too long");
    b.push_back(static_cast<char>(kAtypName));
    b.push_back(static_cast<char>(host_.size()));
    b.append(host_);
  }
  b.push_back(static_cast<char>(port_ >> 8));
  b.push_back(static_cast<char>(port_ & 0xff));
  out.append(b);
  return std::nullopt;
}

std::optional<Error> Socks5Handshake::feed(std::string_view in, std::string& out) {
  if (state_ == State::failed) return error_;
  if (state_ == State::done) {
    leftover_.append(in);
    return std::nullopt;
  }
  while (!in.empty()) {
    size_t take = std::min(want_ - chunk_.size(), in.size());
    chunk_.append(in.substr(0, take));
    in.remove_prefix(take);
    if (chunk_.size() < want_) break;
    if (auto e = on_chunk(out)) return e;
    if (state_ == State::done) {
      leftover_.assign(in);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// One io.ReadFull of the Go client has completed with chunk_.
std::optional<Error> Socks5Handshake::on_chunk(std::string& out) {
  const auto byte = [this](size_t i) { return static_cast<uint8_t>(chunk_[i]); };
  switch (state_) {
    case State::method_reply: {
      if (byte(0) != kVersion5) return fail("unexpected protocol version " + std::to_string(byte(0)));
      uint8_t method = byte(1);
      if (method == kNoAcceptableMethods)
        return fail("no acceptable authentication methods", ErrorCode::proxy_auth);
      chunk_.clear();
      // Without credentials Go has no Authenticate function and goes on
      // whatever method the proxy picked.
      if (credentials_ && method == kAuthUserPassword) {
        const auto& c = *credentials_;
        if (c.username.empty() || c.username.size() > 255 || c.password.size() > 255) {
          return fail("invalid username/password");
        }
        out.push_back(static_cast<char>(kUserPasswordVersion));
        out.push_back(static_cast<char>(c.username.size()));
        out.append(c.username);
        out.push_back(static_cast<char>(c.password.size()));
        out.append(c.password);
        state_ = State::auth_reply;
        want_ = 2;
        return std::nullopt;
      }
      if (credentials_ && method != kAuthNone) {
        return fail("unsupported authentication method " + std::to_string(method));
      }
      if (auto e = request_bytes(out)) return e;
      state_ = State::reply_head;
      want_ = 4;
      return std::nullopt;
    }
    case State::auth_reply: {
      if (byte(0) != kUserPasswordVersion) return fail("invalid username/password version");
      if (byte(1) != 0) return fail("username/password authentication failed", ErrorCode::proxy_auth);
      chunk_.clear();
      if (auto e = request_bytes(out)) return e;
      state_ = State::reply_head;
      want_ = 4;
      return std::nullopt;
    }
    case State::reply_head: {
      if (byte(0) != kVersion5) return fail("unexpected protocol version " + std::to_string(byte(0)));
      if (byte(1) != 0) return fail("unknown error " + reply_text(byte(1)));
      if (byte(2) != 0) return fail("non-zero reserved field");
      address_type_ = byte(3);
      chunk_.clear();
      switch (address_type_) {
        case kAtypIPv4:
          want_ = 4 + 2;
          state_ = State::reply_address;
          break;
        case kAtypIPv6:
          want_ = 16 + 2;
          state_ = State::reply_address;
          break;
        case kAtypName:
          want_ = 1;
          state_ = State::reply_name_length;
          break;
        default:
          return fail("unknown address type " + std::to_string(address_type_));
      }
      return std::nullopt;
    }
    case State::reply_name_length: {
      want_ = size_t{byte(0)} + 2;
      chunk_.clear();
      state_ = State::reply_address;
      return std::nullopt;
    }
    case State::reply_address: {
      uint16_t port = static_cast<uint16_t>((byte(want_ - 2) << 8) | byte(want_ - 1));
      std::string host;
      if (address_type_ == kAtypName) {
        host = chunk_.substr(0, want_ - 2);
      } else {
        SocketAddress a;
        a.family = address_type_ == kAtypIPv4 ? IpFamily::v4 : IpFamily::v6;
        std::copy_n(reinterpret_cast<const uint8_t*>(chunk_.data()), a.is_v4() ? 4 : 16, a.ip.begin());
        host = a.ip_string();
      }
      bound_ = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
      chunk_.clear();
      state_ = State::done;
      return std::nullopt;
    }
    case State::done:
    case State::failed:
      break;
  }
  return std::nullopt;
}

Error Socks5Handshake::on_io_error(const Error& e) {
  if (state_ == State::failed) return *error_;
  return *fail(e.message);
}

Error Socks5Handshake::on_eof() {
  if (state_ == State::failed) return *error_;
  // io.ReadFull: "EOF" when nothing of the awaited bytes came, else
  // "unexpected EOF".
  return *fail(chunk_.empty() ? "EOF" : "unexpected EOF");
}

}  // namespace tlsc
