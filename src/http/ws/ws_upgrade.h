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
#include "wire/ws_extensions.h"

namespace tlsc {

struct WsUpgradeInput {
  std::string url;  // ws:// or wss://
  // As the caller gave them (upstream's map[string]string): exact keys.
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> header_order;  // fhttp's Header-Order:, any case
  // Sec-WebSocket-Extensions as the profile's browser offers it ("" for
  // none, as upstream); a caller's own Sec-WebSocket-Extensions replaces it.
  std::string extensions_offer;
};

struct WsUpgradeRequest {
  Url url;                       // with http or https, as the connection sees it
  std::string key;               // Sec-WebSocket-Key
  WsDeflateOffer deflate_offer;  // what went out
  std::string bytes;
};

// Errors: "malformed ws or wss URL", Go's url.Parse text, gorilla's
// "websocket: duplicate header not allowed: <key>", or fhttp's header checks.
Result<WsUpgradeRequest> make_ws_upgrade(const WsUpgradeInput& input);

// gorilla's checks of the response: 101, Upgrade: websocket, Connection:
// upgrade, the accept key ("websocket: bad handshake"), then the extension
// the server took (RFC 7692; "websocket: invalid compression negotiation"
// for one that was not offered or not as offered). The result: the
// permessage-deflate parameters, or nullopt when no extension is in use.
Result<std::optional<WsDeflateParams>> check_ws_upgrade_response(const ResponseHead& head,
                                                                 const WsUpgradeRequest& request);

// base64(SHA-1(key + RFC 6455's GUID)).
std::string ws_accept_key(std::string_view key);

}  // namespace tlsc
