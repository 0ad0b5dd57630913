// One HTTP/1.1 connection: writes a request, parses the response as it
// arrives and tells its observer. One exchange at a time. Loop thread only.
#pragma once

#include <memory>
#include <string>

#include "http/exchange_observer.h"
#include "wire/h1_response_parser.h"
#include "net/stream.h"

namespace tlsc {

class H1Connection final : public StreamObserver {
 public:
  H1Connection(std::unique_ptr<Stream> stream, std::string pool_key);
  ~H1Connection();

  void start_exchange(std::string_view request_bytes, std::string_view method,
                      size_t max_header_bytes, size_t read_buffer_size,
                      ExchangeObserver* observer);
  // The observer gives up (timeout, cancel): the connection cannot be reused.
  void abandon();
  // Can carry another request: never used, or last response complete,
  // keep-alive, no stray bytes; stream still open.
  bool reusable() const;
  bool was_used() const { return exchanges_ > 0; }
  const std::string& pool_key() const { return pool_key_; }
  // The origin slot (maxConnsPerHost) this connection holds while it lives.
  void attach_slot(std::shared_ptr<void> slot) { slot_ = std::move(slot); }
  Stream& stream() { return *stream_; }

  void on_stream_data(std::string_view data) override;
  void on_stream_closed(const Error* error) override;

 private:
  std::unique_ptr<Stream> stream_;
  std::string pool_key_;
  std::shared_ptr<void> slot_;
  std::unique_ptr<H1ResponseParser> parser_;
  ExchangeObserver* observer_ = nullptr;
  std::string body_scratch_;
  bool received_any_ = false;
  bool broken_ = false;
  bool head_reported_ = false;
  int exchanges_ = 0;
};

}  // namespace tlsc
