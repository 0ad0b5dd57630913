// One WebSocket client connection on the loop thread: it dials the URL with
// the client's connection chain (the profile's TLS, ALPN http/1.1 only, the
// client's proxy), sends the upgrade, checks the 101, then reads frames into
// messages for its WsEvents and writes the caller's messages as gorilla's
// WriteMessage does (masked, fragmented at the write buffer's size). Pings
// are answered and a close frame is echoed, as gorilla's default handlers.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "codec/ws_deflate.h"
#include "conn/connection_chain.h"
#include "http/client.h"
#include "http/ws/ws_upgrade.h"
#include "net/stream.h"
#include "reactor/reactor.h"
#include "wire/h1_response_parser.h"
#include "wire/ws_frame.h"

namespace tlsc {

// What a connection reports, on the loop thread.
class WsEvents {
 public:
  virtual ~WsEvents() = default;
  // The handshake succeeded.
  virtual void on_ws_open() = 0;
  // A text or binary message; false: the reader is full, stop reading until
  // WsConnection::pause_reading(false).
  virtual bool on_ws_message(WsOpcode type, std::string payload) = 0;
  // The connection failed: before the open (the handshake's failure) or
  // after (a close frame, a protocol error, the peer gone). Called once.
  virtual void on_ws_failed(Error error) = 0;
};

class WsConnection final : public StreamObserver,
                           public WsFrameHandler,
                           public std::enable_shared_from_this<WsConnection> {
 public:
  struct Options {
    size_t write_buffer_size = 4096;  // gorilla's default; a message goes in frames of this payload
    std::chrono::milliseconds handshake_timeout{0};  // 0: none
    uint64_t max_message = 0;
  };

  // Starts dialing; the connection keeps itself alive until close() or its
  // failure. Loop thread.
  static std::shared_ptr<WsConnection> start(std::shared_ptr<HttpClient> client, WsUpgradeRequest request,
                                             Options options, std::shared_ptr<WsEvents> events);
  ~WsConnection();

  // gorilla's WriteMessage: 1 text, 2 binary, 8 close, 9 ping, 10 pong.
  std::optional<Error> send(int message_type, std::string_view payload);
  void pause_reading(bool paused);
  // Closes the socket without a close frame, as gorilla's Close does.
  void close();

 private:
  WsConnection(std::shared_ptr<HttpClient> client, WsUpgradeRequest request, Options options,
               std::shared_ptr<WsEvents> events);
  void begin();
  void on_connected(Result<Connected> result);
  void fail(Error error);
  void write_frame(WsOpcode op, bool fin, std::string_view payload, bool rsv1 = false);
  void protocol_failure(int code, Error error);
  void protocol_close(int code, std::string_view text);
  void release();

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;
  void on_ws_message(WsOpcode type, std::string payload, bool compressed) override;
  void on_ws_control(WsOpcode type, std::string_view payload) override;

  Reactor& reactor_;
  std::shared_ptr<HttpClient> client_;
  WsUpgradeRequest request_;
  const Options options_;
  std::shared_ptr<WsEvents> events_;
  std::shared_ptr<WsConnection> self_;
  std::unique_ptr<ConnectionChain> chain_;
  std::unique_ptr<Stream> stream_;
  H1ResponseParser head_parser_{"GET"};
  WsFrameReader frames_;
  // permessage-deflate, when the server took the offer.
  std::unique_ptr<WsInflater> inflater_;
  std::unique_ptr<WsDeflater> deflater_;
  Reactor::TimerId handshake_timer_ = 0;
  bool open_ = false;
  bool failed_ = false;      // on_ws_failed was called
  bool close_sent_ = false;  // gorilla's ErrCloseSent: writes fail from now on
  Liveness liveness_;
};

}  // namespace tlsc
