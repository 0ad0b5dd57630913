// What runs on a QuicConnection's streams (HTTP/3: http/h3/H3Connection):
// the connection hands it every stream event ngtcp2 reports and, when it
// writes, pulls the stream bytes the application has ready. Pull, not push:
// ngtcp2 packs stream data into packets as congestion and flow control
// allow, so the application offers what it has and hears how much went
// (the shape nghttp3_conn_writev_stream and its add_write_offset have).
// Loop thread only; none of these calls may destroy the connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/error.h"

namespace tlsc {

struct QuicBytes {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// Stream bytes ready to send: on stream_id (-1: none), `count` pieces in
// the caller's array, then the stream's end when fin.
struct QuicOutgoing {
  int64_t stream_id = -1;
  bool fin = false;
  size_t count = 0;
};

class QuicApplication {
 public:
  // Each call returns false when the application has failed the connection
  // (its reason and code given first with QuicConnection::fail_application);
  // the connection then closes.

  // The handshake is complete (inside ngtcp2's packet processing, before
  // any 1-RTT stream data is handed over): the place to open the
  // application's own streams.
  virtual bool on_handshake_completed() = 0;

  // Received stream data in order, `fin` when the stream's end came with
  // it. *consumed: how much of it the application has used up and the
  // peer may send again now (flow control); what it keeps back it gives
  // later with QuicConnection::consume.
  virtual bool on_stream_data(int64_t stream_id, const uint8_t* data, size_t size, bool fin,
                              size_t* consumed) = 0;
  // The peer acknowledged `size` more bytes of the stream's data.
  virtual bool on_stream_acked(int64_t stream_id, uint64_t size) = 0;
  // The stream is closed both ways; app_error: the peer's or our reset code.
  virtual bool on_stream_closed(int64_t stream_id, std::optional<uint64_t> app_error) = 0;
  // RESET_STREAM or STOP_SENDING from the peer.
  virtual bool on_stream_reset(int64_t stream_id, uint64_t app_error) = 0;
  // The peer gave the stream more room (MAX_STREAM_DATA).
  virtual bool on_stream_unblocked(int64_t stream_id) = 0;
  // The peer allows this many bidirectional streams in total now.
  virtual void on_bidi_streams_allowed(uint64_t max_streams) = 0;

  // Stream bytes to send next; pieces written into out[0..max). An
  // application with nothing returns stream_id -1.
  virtual Result<QuicOutgoing> next_outgoing(QuicBytes* out, size_t max) = 0;
  // `size` bytes of what next_outgoing offered on the stream went into
  // packets; fin: its fin too (it was offered, and all of it went).
  virtual bool on_outgoing_written(int64_t stream_id, size_t size, bool fin) = 0;
  // The stream cannot take more now (the peer's flow control): offer
  // nothing on it until on_stream_unblocked.
  virtual void on_outgoing_blocked(int64_t stream_id) = 0;
  // The stream's sending side is closed (reset): drop what it had.
  virtual void on_outgoing_shut(int64_t stream_id) = 0;

  // The connection is over (closed by either side, timed out, failed):
  // the last call.
  virtual void on_connection_closed(const Error& error) = 0;

 protected:
  ~QuicApplication() = default;
};

}  // namespace tlsc
