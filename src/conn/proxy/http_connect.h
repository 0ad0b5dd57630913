// HTTP CONNECT (RFC 9110 9.3.6) as upstream's connectDialer speaks it: the
// request as fhttp's Request.Write puts it on the wire, then the proxy's
// response head read with ReadResponse's rules. Only "200" opens the
// tunnel, as upstream checks; every other status is an error that quotes
// the proxy's status line.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conn/proxy/proxy_handshake.h"
#include "conn/proxy/proxy_url.h"

namespace tlsc {

struct ConnectRequest {
  std::string authority;  // "host:port" of the target, IPv6 in brackets
  // The session's connectHeaders, keys as the caller wrote them.
  std::vector<std::pair<std::string, std::vector<std::string>>> headers;
  // From the proxy URL: "Proxy-Authorization: Basic ..." when the user name
  // is not empty (upstream's rule), replacing a caller's header of that
  // exact name.
  std::optional<ProxyCredentials> credentials;
};

// The CONNECT request's bytes (header order and case as fhttp writes them).
Result<std::string> write_connect_request(const ConnectRequest& req);

class HttpConnectHandshake final : public ProxyHandshake {
 public:
  // Go reads the head without a limit; we stop at this many bytes.
  static constexpr size_t kMaxResponseHeadBytes = 64 * 1024;

  explicit HttpConnectHandshake(ConnectRequest req, size_t max_head_bytes = kMaxResponseHeadBytes);

  Result<std::string> start() override;
  std::optional<Error> feed(std::string_view in, std::string& out) override;
  bool done() const override { return done_; }
  std::string_view leftover() const override { return leftover_; }
  Error on_eof() override;

  // The status line's parts once read (for tests and logs).
  int status() const { return status_; }
  const std::string& status_text() const { return status_text_; }

 private:
  std::optional<Error> on_status_line(std::string_view line);
  std::optional<Error> fail(Error e);

  ConnectRequest req_;
  size_t max_head_bytes_;
  std::string buffer_;  // head bytes not yet split into lines
  size_t head_bytes_ = 0;
  bool have_status_ = false;
  int status_ = 0;
  std::string status_text_;
  bool done_ = false;
  std::string leftover_;
  std::optional<Error> error_;
};

}  // namespace tlsc
