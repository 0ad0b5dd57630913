#include "http/file_sink.h"

#include "codec/decoder.h"
#include "http/transaction.h"
#include "platform/file.h"

namespace tlsc {

FileSink::FileSink(Reactor& reactor, std::string path, size_t block_size, std::string eof_symbol,
                   size_t max_body)
    : reactor_(reactor),
      path_(std::move(path)),
      block_size_(block_size),
      eof_symbol_(std::move(eof_symbol)),
      max_body_(max_body) {}

void FileSink::on_head(Response envelope) {
  std::string content_type;
  if (envelope.headers) {
    for (const auto& [k, v] : *envelope.headers) {
      if (k == "Content-Type" && !v.empty()) content_type = v.front();
    }
  }
  converter_.emplace(std::move(content_type));
}

bool FileSink::on_body(std::string_view bytes) {
  if (failed_ || !converter_) return false;
  if (bytes.size() > max_body_ - received_) {
    // Failed later, from the loop: this call comes from inside the
    // transaction, which must not end (and go away) under its own feet.
    failed_ = true;
    pending_.clear();
    reactor_.post([weak = transaction_, error = body_too_large_error(max_body_)] {
      if (auto t = weak.lock()) t->fail_by_sink(error);
    });
    return false;
  }
  received_ += bytes.size();
  converter_->feed(bytes, pending_);
  start_write();
  if (pending_.size() <= kMaxUnwritten) return true;
  paused_ = true;
  return false;
}

void FileSink::on_end(std::function<void(std::optional<Error>)> done) {
  if (failed_) return;  // the transaction is failing already
  done_ = std::move(done);
  ended_ = true;
  if (converter_) converter_->finish(pending_);
  start_write();
}

void FileSink::start_write() {
  if (writing_ || failed_) return;
  const bool last = ended_;
  if (pending_.empty() && !last) return;
  if (pending_.empty() && last && received_ == 0) {
    // An empty body: no file, as upstream opens none. (Any byte makes
    // one, whatever it converts to.)
    auto done = std::move(done_);
    if (done) done(std::nullopt);
    return;
  }
  writing_ = true;
  auto text = std::make_shared<std::string>(std::move(pending_));
  pending_.clear();
  auto result = std::make_shared<std::optional<Error>>();
  reactor_.run_blocking(
      [result, text, path = path_, block = block_size_, trailer = last ? eof_symbol_ : std::string()] {
        *result = append_to_file(path, *text, block, trailer);
      },
      [weak = weak_from_this(), result, last] {
        auto self = weak.lock();
        if (!self) return;
        self->writing_ = false;
        if (*result) {
          self->fail(std::move(**result));
          return;
        }
        if (last) {
          auto done = std::move(self->done_);
          if (done) done(std::nullopt);
          return;
        }
        if (self->paused_ && self->pending_.size() <= kMaxUnwritten / 2) {
          self->paused_ = false;
          if (auto t = self->transaction_.lock()) t->resume_body();
        }
        self->start_write();
      });
}

void FileSink::fail(Error e) {
  if (failed_) return;
  failed_ = true;
  pending_.clear();
  if (done_) {
    auto done = std::move(done_);
    done(std::move(e));
    return;
  }
  if (auto t = transaction_.lock()) t->fail_by_sink(std::move(e));
}

}  // namespace tlsc
