// Where a streamOutputPath body goes: converted to UTF-8 as it arrives
// (charset::StreamConverter: the same bytes the whole body converts to) and
// appended to the file as it downloads, as upstream's
// readAllBodyWithStreamToFile writes each read. Writes run off the loop,
// one after another (what arrives meanwhile goes in the next), in writes of
// the block size; when more than kMaxUnwritten bytes wait for the disk the
// transfer pauses. The EOF symbol
// follows the last byte; an empty body touches no file, as upstream.
// Loop thread, except the writes.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "charset/stream_converter.h"
#include "core/error.h"
#include "http/body_sink.h"
#include "reactor/reactor.h"

namespace tlsc {

class Transaction;

class FileSink final : public BodySink, public std::enable_shared_from_this<FileSink> {
 public:
  static constexpr size_t kMaxUnwritten = size_t{4} << 20;

  // `max_body`: maxResponseBodyBytes, counted before conversion as for a
  // body held in memory.
  FileSink(Reactor& reactor, std::string path, size_t block_size, std::string eof_symbol, size_t max_body);

  void attach(std::weak_ptr<Transaction> transaction) { transaction_ = std::move(transaction); }
  void on_head(Response envelope) override;
  bool on_body(std::string_view bytes) override;
  void on_end(std::function<void(std::optional<Error>)> done) override;

 private:
  void start_write();
  void fail(Error e);

  Reactor& reactor_;
  const std::string path_;
  const size_t block_size_;
  const std::string eof_symbol_;
  const size_t max_body_;
  std::weak_ptr<Transaction> transaction_;
  std::optional<charset::StreamConverter> converter_;
  size_t received_ = 0;
  std::string pending_;  // converted, not yet handed to a write
  bool writing_ = false;
  bool paused_ = false;
  bool ended_ = false;
  bool failed_ = false;
  std::function<void(std::optional<Error>)> done_;
};

}  // namespace tlsc
