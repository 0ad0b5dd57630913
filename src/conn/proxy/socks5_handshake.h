// SOCKS5 (RFC 1928) CONNECT with no authentication or user name and
// password (RFC 1929), as golang.org/x/net/proxy speaks it for upstream:
// one step at a time (greeting, method reply, authentication, request,
// reply), the target's host name sent for the proxy to resolve. Errors are
// Go's net.OpError texts: "socks connect tcp <proxy>-><target>: <reason>".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "conn/proxy/proxy_handshake.h"
#include "conn/proxy/proxy_url.h"

namespace tlsc {

class Socks5Handshake final : public ProxyHandshake {
 public:
  // error_prefix is put before every reason ("socks connect tcp a->b: ").
  // With credentials both methods are offered (no auth, user/password), as
  // x/net/proxy does when the URL has user info.
  Socks5Handshake(std::string target_host, uint16_t target_port, std::optional<ProxyCredentials> credentials,
                  std::string error_prefix);

  Result<std::string> start() override;
  std::optional<Error> feed(std::string_view in, std::string& out) override;
  bool done() const override { return state_ == State::done; }
  std::string_view leftover() const override { return leftover_; }
  Error on_eof() override;
  Error on_io_error(const Error& e) override;

  // The reply's bound address, as the proxy reported it (tests).
  const std::string& bound_address() const { return bound_; }

 private:
  enum class State { method_reply, auth_reply, reply_head, reply_name_length, reply_address, done, failed };

  std::optional<Error> fail(std::string reason, ErrorCode code = ErrorCode::proxy);
  std::optional<Error> on_chunk(std::string& out);
  std::optional<Error> request_bytes(std::string& out);

  std::string host_;
  uint16_t port_;
  std::optional<ProxyCredentials> credentials_;
  std::string prefix_;
  State state_ = State::method_reply;
  size_t want_ = 2;    // bytes the current io.ReadFull waits for
  std::string chunk_;  // what it has so far
  uint8_t address_type_ = 0;
  std::string bound_;
  std::string leftover_;
  std::optional<Error> error_;
};

}  // namespace tlsc
