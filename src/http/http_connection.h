// One HTTP connection, whichever protocol it speaks: what the pool keeps
// and a request sends on. H1Connection (one request at a time) and
// H2Connection (many at once) implement it; an HTTP/3 connection will be a
// third. Loop thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "http/exchange_observer.h"
#include "wire/h1_request_writer.h"

namespace tlsc {

// One hop's request, in the normalised form both protocols start from: the
// HTTP/1.1 message fields (method, target, the caller's headers in order,
// Host, body, the transport's own headers) and the scheme; each connection
// writes it its own way (HTTP/1.1 bytes, an HTTP/2 header block).
struct OutgoingRequest {
  H1Request message;
  std::string scheme;
  // HTTP/1.1 response limits (maxResponseHeaderBytes, readBufferSize);
  // HTTP/2 connections take theirs when made.
  size_t max_header_bytes = size_t{10} << 20;
  size_t read_buffer_size = 0;
};

class HttpConnection {
 public:
  using ExchangeId = uint32_t;

  virtual ~HttpConnection() = default;

  // Starts the request; `observer` hears about it until the response
  // completes or fails, or until cancel(id). Errors carry Go's texts.
  virtual Result<ExchangeId> submit(const OutgoingRequest& request, ExchangeObserver* observer) = 0;
  // The request's owner gives up: no more observer calls. HTTP/1.1 closes
  // the connection; HTTP/2 resets the stream and carries on.
  virtual void cancel(ExchangeId id) = 0;
  // Backpressure for a response body read slower than it arrives: while
  // paused the connection stops taking that body from the network
  // (HTTP/1.1: stops reading the socket; HTTP/2: withholds the stream's
  // WINDOW_UPDATE, so its other streams go on). What is already in hand
  // may still be delivered.
  virtual void pause_body(ExchangeId id, bool paused) = 0;
  // Can take one more request now.
  virtual bool accepts_requests() const = 0;
  // Carries many requests at once, so the pool shares it (HTTP/2).
  virtual bool multiplexed() const = 0;
  virtual const std::string& pool_key() const = 0;
  // The origin slot (maxConnsPerHost) this connection holds while it lives.
  virtual void attach_slot(std::shared_ptr<void> slot) = 0;

  // Idle in the pool: the connection watches its transport and calls
  // `lost` (once, maybe from inside its own call) if the server closes it or
  // sends anything unasked. unpark() before the next submit.
  virtual void park(std::function<void()> lost) = 0;
  virtual void unpark() = 0;
  // Closes now; open requests fail with `reason`.
  virtual void close(const Error& reason) = 0;
};

}  // namespace tlsc
