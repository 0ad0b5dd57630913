// wsConnect, wsRead, wsWrite, wsClose (upstream's PR #251): a WebSocket
// per connectionId, with the session's (or the inline profile's) TLS
// fingerprint and the caller's header order on the upgrade request.
#pragma once

namespace tlsc {

char* ws_connect(const char* json);
char* ws_read(const char* json);
char* ws_write(const char* json);
char* ws_close(const char* json);
// destroyAll: every WebSocket is closed and its id forgotten.
void close_all_websockets();

}  // namespace tlsc
