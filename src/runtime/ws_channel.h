// One WebSocket between the loop thread, where its WsConnection reads and
// writes, and the callers' threads (wsConnect, wsRead, wsWrite, wsClose).
// Messages wait in a bounded inbox: when it holds kInboxLimit bytes the
// connection stops reading the socket until a read drains it below half.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/error.h"
#include "http/ws/ws_connection.h"
#include "reactor/reactor.h"
#include "runtime/ready_notice.h"

namespace tlsc {

class WsChannel final : public WsEvents {
 public:
  static constexpr size_t kInboxLimit = size_t{16} << 20;

  explicit WsChannel(Reactor& reactor) : reactor_(reactor) {}

  // Loop thread.
  void attach(std::weak_ptr<WsConnection> connection);
  void on_ws_open() override;
  bool on_ws_message(WsOpcode type, std::string payload) override;
  void on_ws_failed(Error error) override;

  // Callers' threads.
  // Blocks until the handshake ended; its failure, or nullopt.
  std::optional<Error> wait_open();
  struct Message {
    int type = 0;  // 1 text, 2 binary
    std::string data;
  };
  // timeout_ms <= 0 waits until a message or the end. A timeout leaves the
  // connection as it was; any other failure is the connection's, and every
  // later read returns it.
  Result<Message> read(int64_t timeout_ms);
  // Runs gorilla's WriteMessage on the loop and waits for its answer.
  std::optional<Error> write(int type, std::string data);
  // Closes the socket (no close frame); a read waiting returns at once.
  void close();
  // From now on the caller is told when a read would not wait
  // (notifyOnData): a message, or the failure not yet read; at once if so.
  void notify_with(std::unique_ptr<ReadyNotice> notice);

 private:
  void post_resume_locked();
  bool readable_locked() const { return !inbox_.empty() || (failure_ && !failure_read_); }
  void tell_locked() {
    if (notice_) notice_->update(readable_locked());
  }

  Reactor& reactor_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::weak_ptr<WsConnection> connection_;
  bool opened_ = false;
  bool closed_ = false;
  std::optional<Error> failure_;
  std::deque<Message> inbox_;
  size_t inbox_bytes_ = 0;
  bool paused_ = false;
  bool failure_read_ = false;  // a read returned the connection's failure
  std::unique_ptr<ReadyNotice> notice_;
};

}  // namespace tlsc
