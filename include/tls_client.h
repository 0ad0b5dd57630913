/*
 * tls_client.h - the C ABI of the C++ drop-in for tls-client's shared library.
 *
 * Every function takes and returns NUL-terminated UTF-8 JSON. The shapes are
 * tls-client's own (cffi_src/types.go upstream); abi/CONTRACT.md lists every
 * field with its default. No function ever crashes on bad input: it answers
 * with a Response of status 0 whose body says why.
 */
#ifndef TLS_CLIENT_H
#define TLS_CLIENT_H

/* This library's version, and the tls-client whose behaviour it follows
 * (`git describe` of upstream's commit). A loaded library says the same,
 * with the pull requests followed since, the dependencies and the profiles,
 * in the "tlsClientCpp" object of destroySession's answer. CMakeLists.txt
 * refuses to configure when TLS_CLIENT_CPP_VERSION differs from its project
 * version. */
#define TLS_CLIENT_CPP_VERSION "0.1.0"
#define TLS_CLIENT_CPP_UPSTREAM_VERSION "v1.14.0-12-ga57772f"

#ifdef __cplusplus
extern "C" {
#endif

/* Performs one HTTP request described by a RequestInput and blocks until it
 * has finished. Returns a Response. The returned string is owned by the
 * library until the caller passes its "id" to freeMemory. Safe to call from
 * many threads at once; each call sees only its own response. */
char* request(char* request_json);

/* Returns {"id", "cookies":[Cookie]} for the cookies the session's jar would
 * send to "url". Input: {"sessionId", "url"}. Owned by the library until
 * freeMemory(id). */
char* getCookiesFromSession(char* json);

/* Adds cookies to the session's jar as if "url" had set them. Input:
 * {"sessionId", "url", "cookies":[Cookie]}. Returns {"id", "cookies"} with
 * every cookie for "url" after adding. Owned by the library until
 * freeMemory(id). */
char* addCookiesToSession(char* json);

/* Frees a string returned by request, getCookiesFromSession,
 * addCookiesToSession, destroySession or destroyAll, named by its "id".
 * Unknown ids, NULL and ids of async results are ignored.
 * Declared void upstream, but Python's tls_client declares the return type as
 * a C string and reads it, so this returns a null pointer. */
char* freeMemory(char* response_id);

/* Forgets the session {"sessionId"} and closes its connections; requests of
 * that session still in flight finish with an error. Returns {"id",
 * "success", "tlsClientCpp"}, owned until freeMemory(id). Unknown sessions
 * succeed. "tlsClientCpp" (ours; upstream's bindings ignore it) says which
 * build is loaded: {"name", "version", "upstream": {"repository",
 * "version", "pullRequests"}, "platform", "dependencies": {name: version},
 * "http3" (whether withProtocolRacing and withAltSvc may use HTTP/3), "defaultProfile", "profiles": [{"name",
 * "aliases", "client", "clientVersion", "variant"}]}, the user's profiles from TLS_CLIENT_PROFILES_DIR
 * included. */
char* destroySession(char* json);

/* Forgets every session, as destroySession does for each. Returns {"id",
 * "success"}, owned until freeMemory(id). */
char* destroyAll(void);

/* Starts a request without waiting. Returns {"id": "<request id>"} at once;
 * the Response, whose "id" is the same request id, is later returned by
 * waitNext. Input that cannot be used returns a status-0 Response instead of
 * an id, and nothing is queued. The returned string is owned by the library
 * and valid until the next requestAsync call on the same thread. */
char* requestAsync(char* request_json);

/* Returns a JSON array of finished async Responses, oldest first, up to a
 * bounded batch (count and bytes). Waits up to timeout_ms for the first one
 * (even with nothing in flight: a request may start meanwhile): 0 polls, -1
 * waits forever unless nothing is queued or in flight (then it returns at
 * once). Returns "[]" on timeout. The string is owned by
 * the library and valid until the next waitNext call on the same thread. */
char* waitNext(int timeout_ms);

/* Installs a callback that is called, on a library thread that is neither
 * the network thread nor a caller's thread, at most once after the queue of
 * finished async responses becomes non-empty and before the next waitNext;
 * "pending" (> 0) is the number of responses waiting. NULL removes it:
 * after setNotify(NULL) returns no new call starts, but a call already
 * started is not waited for (koffi parks it until the JavaScript thread
 * runs it, and that thread may be the caller), so keep the callback valid
 * a moment longer. The callback may block; that holds up no request. */
void setNotify(void (*callback)(int pending));

/* Streaming (upstream's requestStream family). Every string returned is
   freed with freeMemory(its "id").
   requestStream: a RequestInput; blocks until the final response's headers
   and returns the Response with an empty body plus "streamId" (or a
   status-0 Response). The body then comes through readStream. */
char* requestStream(char* request_json);

/* {"streamId", "timeoutMs"}: timeoutMs < 0 waits for the next chunk, 0
   polls, > 0 waits that long. Returns {"id", "streamId", "chunk" (base64 of
   up to streamOutputBlockSize decoded body bytes, default 4096), "error"
   (only on failure, with "errorCode"), "eof", "timeout"}. After eof or an
   error the streamId is unknown. */
char* readStream(char* json);

/* {"streamId"}: waits for the rest of the body and returns the Response as
   request would have (body converted, or a data URL for isByteResponse). */
char* readStreamAll(char* json);

/* {"streamId"}: ends the stream (its connection closed or its HTTP/2 stream
   reset). Idempotent; returns {"id", "success": true}. */
char* cancelStream(char* json);

/* {"id": <an id requestAsync returned>}: ends that request now, in any
   state; its response then comes through waitNext with status 0 and
   errorCode "cancelled". Returns {"id", "success"}: false when the id is
   unknown or the request had already finished. */
char* cancelRequest(char* json);

/* WebSocket (upstream's PR #251). {"url" (ws:// or wss://), "sessionId" or
   "tlsClientIdentifier"/"customTlsClient", "proxyUrl", "headers" (an
   object), "headerOrder", "handshakeTimeoutMilliseconds", "readBufferSize",
   "writeBufferSize", "insecureSkipVerify", "withRandomTLSExtensionOrder"}:
   dials with the profile's TLS (ALPN http/1.1) and upgrades. Returns
   {"id", "connectionId", "sessionId" (when given), "status": 101} or a
   status-0 Response. */
char* wsConnect(char* json);

/* {"connectionId", "timeoutMilliseconds" (> 0 waits that long, else until a
   message)}: {"id", "connectionId", "messageType" (1 text, 2 binary),
   "data" (text, or base64 for binary)} or a status-0 Response. */
char* wsRead(char* json);

/* {"connectionId", "messageType" (1, 2, or 8/9/10 for close/ping/pong),
   "data" (base64 for binary)}: {"id", "connectionId", "success": true} or a
   status-0 Response. */
char* wsWrite(char* json);

/* {"connectionId"}: closes the socket (no close frame, as upstream);
   {"id", "success": true}. */
char* wsClose(char* json);

#ifdef __cplusplus
}
#endif

#endif /* TLS_CLIENT_H */
