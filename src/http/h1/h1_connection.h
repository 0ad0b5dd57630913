// One HTTP/1.1 connection: writes a request, parses the response as it
// arrives and tells its observer. One exchange at a time. Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "http/http_connection.h"
#include "net/stream.h"
#include "wire/h1_response_parser.h"

namespace tlsc {

class H1Connection final : public HttpConnection, public StreamObserver {
 public:
  H1Connection(std::unique_ptr<Stream> stream, std::string pool_key);
  ~H1Connection() override;

  Result<ExchangeId> submit(const OutgoingRequest& request, ExchangeObserver* observer) override;
  // The observer gives up (timeout, cancel): the connection cannot be reused.
  void cancel(ExchangeId id) override;
  void pause_body(ExchangeId, bool paused) override { stream_->pause_reading(paused); }
  // Never used, or last response complete, keep-alive, no stray bytes;
  // stream still open.
  bool accepts_requests() const override;
  bool multiplexed() const override { return false; }
  const std::string& pool_key() const override { return pool_key_; }
  void attach_slot(std::shared_ptr<void> slot) override { slot_ = std::move(slot); }
  void park(std::function<void()> lost) override;
  void unpark() override;
  void close(const Error& reason) override;

  bool was_used() const { return exchanges_ > 0; }

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;

 private:
  void lose_parked();

  std::unique_ptr<Stream> stream_;
  std::string pool_key_;
  std::shared_ptr<void> slot_;
  std::unique_ptr<H1ResponseParser> parser_;
  ExchangeObserver* observer_ = nullptr;
  std::function<void()> lost_;  // parked: tell the pool
  std::string body_scratch_;
  bool received_any_ = false;
  bool broken_ = false;
  bool head_reported_ = false;
  uint32_t exchanges_ = 0;
};

}  // namespace tlsc
