// A connected byte stream: the top of a connection's filter stack
// (tcp, later tls over tcp, proxies). Loop thread only.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/error.h"

namespace tlsc {

class StreamObserver {
 public:
  // Bytes arrived; the view is valid only during the call.
  virtual void on_stream_data(std::string_view data) = 0;
  // The peer closed (error == nullptr) or the stream failed. No more calls
  // follow. The observer may destroy the stream from inside either call.
  virtual void on_stream_closed(const Error* error) = 0;
  // Everything written has reached the kernel, after some had to wait:
  // a writer that stopped at Stream::unsent_bytes may go on.
  virtual void on_stream_drained() {}

 protected:
  ~StreamObserver() = default;
};

class Stream {
 public:
  virtual ~Stream() = default;
  // Delivery goes to the current observer; nullptr parks the stream (an idle
  // pooled connection), and anything arriving then is remembered as closure.
  virtual void set_observer(StreamObserver* observer) = 0;
  // Queues bytes; they are sent as the socket allows.
  virtual void write(std::string_view bytes) = 0;
  // Bytes write() took that have not reached the kernel yet, here or in
  // the streams below. A writer that could produce without end (HTTP/2
  // answers to a peer that floods and never reads) stops above a mark and
  // waits for on_stream_drained.
  virtual size_t unsent_bytes() const { return 0; }
  // Backpressure: while paused the stream reads nothing more from the
  // socket, so the peer's sending stops when the kernel's window fills.
  // Bytes already read (one socket read, at most) are still delivered.
  // Filters forward it to the stream below.
  virtual void pause_reading(bool paused) { (void)paused; }
  // True while the stream can still be used (no EOF or error seen).
  virtual bool usable() const = 0;
  // Closes at once; no observer call follows.
  virtual void close() = 0;
};

}  // namespace tlsc
