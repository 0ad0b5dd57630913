// The streaming functions of the ABI (upstream's requestStream family) and
// cancelRequest: JSON in, JSON out, as the rest of exports.cc. Each string
// returned is freed with freeMemory by its "id".
#pragma once

namespace tlsc {

// Blocks until the final response's headers: the Response envelope with an
// empty body and a "streamId", or a status-0 Response.
char* request_stream(const char* json);
// {"streamId", "timeoutMs"}: the next chunk (base64), eof, error or timeout.
char* read_stream(const char* json);
// {"streamId"}: the rest of the body as request() would have returned it.
char* read_stream_all(const char* json);
// {"streamId"}: ends the stream; always succeeds.
char* cancel_stream(const char* json);
// {"id"}: ends an async request; success false if unknown or finished.
char* cancel_request(const char* json);
// destroyAll: every stream ends.
void end_all_streams();

}  // namespace tlsc
