// The WebSocket opening handshake as upstream's client does it
// (bogdanfinn/websocket, a gorilla/websocket fork, over fhttp's
// Request.write): the upgrade request with the caller's headers in fhttp's
// order, and the checks on the server's 101.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/url.h"
#include "wire/response_head.h"

namespace tlsc {

struct WsUpgradeInput {
  std::string url;  // ws:// or wss://
  // As the caller gave them (upstream's map[string]string): exact keys.
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> header_order;  // fhttp's Header-Order:, any case
};

struct WsUpgradeRequest {
  Url url;          // with http or https, as the connection sees it
  std::string key;  // Sec-WebSocket-Key
  std::string bytes;
};

// Errors: "malformed ws or wss URL", Go's url.Parse text, gorilla's
// "websocket: duplicate header not allowed: <key>", or fhttp's header checks.
Result<WsUpgradeRequest> make_ws_upgrade(const WsUpgradeInput& input);

// gorilla's checks of the response: 101, Upgrade: websocket, Connection:
// upgrade, the accept key ("websocket: bad handshake"), and no extension
// the client did not offer ("websocket: invalid compression negotiation").
std::optional<Error> check_ws_upgrade_response(const ResponseHead& head, std::string_view key);

// base64(SHA-1(key + RFC 6455's GUID)).
std::string ws_accept_key(std::string_view key);

}  // namespace tlsc
