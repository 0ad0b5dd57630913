// One streamed response (requestStream) between the loop thread, which
// puts the head and the decoded body in, and the callers' threads, which
// take it out (readStream, readStreamAll, cancelStream). The buffer is
// bounded: when it holds `limit` bytes the transaction pauses the
// connection, and a read that drains it below half resumes it, so a body
// of any size goes through in flat memory.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/error.h"
#include "http/body_sink.h"
#include "reactor/reactor.h"
#include "runtime/ready_notice.h"

namespace tlsc {

class Transaction;

class BodyStream final : public BodySink {
 public:
  // Upstream's default streamOutputBlockSize and its 64-chunk channel.
  static constexpr size_t kDefaultBlockSize = 4096;
  static constexpr size_t kChunksBuffered = 64;

  // `max_all`: what read_all may gather (maxResponseBodyBytes); past it
  // the stream fails with body_too_large and the request is cancelled.
  BodyStream(Reactor& reactor, size_t block_size, bool is_byte_response, size_t max_all);

  // Loop thread.
  void attach(std::weak_ptr<Transaction> transaction);
  void on_head(Response envelope) override;
  bool on_body(std::string_view bytes) override;
  // The transaction's completion: the end of the body (status > 0) or its
  // failure, before or after the head.
  void on_done(Response final_response);

  // Callers' threads.
  // Blocks until the head arrived or the request failed before it; the
  // Response is then the requestStream answer (status 0 on failure).
  Response wait_head();
  struct Piece {
    enum class Kind { chunk, eof, error, timeout } kind = Kind::timeout;
    std::string bytes;  // chunk: up to block_size bytes; error: the text
  };
  // timeout_ms < 0 waits for ever, 0 polls, > 0 waits that long.
  Piece read(int timeout_ms);
  // Everything up to the end, converted as request() converts a body; or
  // the failure's text.
  Result<Response> read_all();
  // The failure's kind, once read() returned an error.
  std::optional<ErrorCode> error_code();
  // Ends the request now (cancelStream, destroyAll); idempotent.
  void cancel();
  // From now on the caller is told when a read would not wait
  // (notifyOnData); at once if that is so already.
  void notify_with(std::unique_ptr<ReadyNotice> notice);

 private:
  size_t buffered_locked() const { return buf_.size() - offset_; }
  void take_locked(size_t n, std::string& out);
  void post_resume_locked();
  // What read(0) would return is not "timeout".
  bool readable_locked() const { return buffered_locked() > 0 || (ended_ && !end_read_); }
  void tell_locked() {
    if (notice_) notice_->update(readable_locked());
  }

  Reactor& reactor_;
  const size_t block_size_;
  const size_t limit_;
  const bool is_byte_response_;
  const size_t max_all_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::weak_ptr<Transaction> transaction_;
  std::optional<Response> head_;  // the envelope, kept for read_all
  std::optional<Response> failure_before_head_;
  std::string buf_;
  size_t offset_ = 0;
  bool ended_ = false;
  std::optional<Error> error_;
  bool paused_ = false;    // the transaction was told the sink is full
  bool draining_ = false;  // read_all: take everything, never pause
  bool end_read_ = false;  // read() returned the eof or the error
  std::unique_ptr<ReadyNotice> notice_;
};

}  // namespace tlsc
