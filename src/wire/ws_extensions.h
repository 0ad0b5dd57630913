// The Sec-WebSocket-Extensions negotiation of permessage-deflate (RFC 7692
// section 7.1) as a client sees it: what its own offer asked for, and
// whether the server's answer is one it may accept. Text in, parameters
// out.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace tlsc {

// The parameters both sides use once the server accepted permessage-deflate.
struct WsDeflateParams {
  bool server_no_context_takeover = false;
  bool client_no_context_takeover = false;
  int server_max_window_bits = 15;
  int client_max_window_bits = 15;
};

// What the client offered (the header's value as it went out): whether
// permessage-deflate was offered at all, and with client_max_window_bits
// (which lets the server answer with one).
struct WsDeflateOffer {
  bool offered = false;
  bool client_max_window_bits = false;
};
WsDeflateOffer parse_ws_deflate_offer(std::string_view header_value);

// The server's Sec-WebSocket-Extensions values (every header line of that
// name, in order). nullopt in the result: no extension is in use. An error
// ("websocket: invalid compression negotiation", gorilla's text for an
// extension it did not ask for) for an extension other than
// permessage-deflate, one not offered, one accepted twice, an unknown or
// repeated parameter, a window size outside 8..15, a value where none is
// allowed, or client_max_window_bits not offered.
Result<std::optional<WsDeflateParams>> accept_ws_extensions(const std::vector<std::string_view>& values,
                                                            const WsDeflateOffer& offer);

}  // namespace tlsc
