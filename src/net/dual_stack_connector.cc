#include "net/dual_stack_connector.h"

#include <unistd.h>

namespace tlsc {

DualStackConnector::DualStackConnector(Reactor& reactor, std::vector<SocketAddress> addresses,
                                       std::optional<SocketAddress> local_address, Callback cb,
                                       std::chrono::milliseconds fallback_delay)
    : reactor_(reactor), local_(local_address), cb_(std::move(cb)), fallback_delay_(fallback_delay) {
  // Go's partition: the first address's family is primary.
  for (auto& a : addresses) {
    if (primaries_.empty() || a.family() == primaries_.front().family()) {
      primaries_.push_back(a);
    } else {
      fallbacks_.push_back(a);
    }
  }
}

DualStackConnector::~DualStackConnector() {
  *alive_ = false;
  cancel();
}

void DualStackConnector::retire(std::unique_ptr<TcpConnector>& c) {
  if (!c) return;
  c->cancel();
  std::shared_ptr<TcpConnector> doomed(std::move(c));
  reactor_.post([doomed] {});
}

void DualStackConnector::cancel() {
  cb_ = nullptr;
  if (timer_) {
    reactor_.cancel_timer(timer_);
    timer_ = 0;
  }
  retire(primary_);
  retire(fallback_);
}

void DualStackConnector::start() {
  auto alive = alive_;
  if (!fallbacks_.empty()) {
    timer_ = reactor_.add_timer(fallback_delay_, [this, alive] {
      if (!*alive) return;
      timer_ = 0;
      start_fallback();
    });
  }
  primary_ = std::make_unique<TcpConnector>(reactor_, primaries_, local_, [this, alive](Result<int> fd) {
    if (*alive) on_result(true, std::move(fd));
  });
  primary_->start();
}

void DualStackConnector::start_fallback() {
  if (fallback_started_ || !cb_) return;
  fallback_started_ = true;
  auto alive = alive_;
  fallback_ = std::make_unique<TcpConnector>(reactor_, fallbacks_, local_, [this, alive](Result<int> fd) {
    if (*alive) on_result(false, std::move(fd));
  });
  fallback_->start();
}

void DualStackConnector::finish(Result<int> r) {
  auto cb = std::move(cb_);
  cancel();
  if (cb) {
    cb(std::move(r));
  } else if (r) {
    ::close(*r);
  }
}

void DualStackConnector::on_result(bool primary, Result<int> fd) {
  if (!cb_) {
    if (fd) ::close(*fd);
    return;
  }
  if (fd) {
    finish(std::move(fd));
    return;
  }
  if (primary) {
    primary_failed_ = true;
    primary_error_ = fd.error();
    if (fallbacks_.empty()) {
      finish(fd.error());
      return;
    }
    // Go starts the fallback at once when the primary fails early.
    if (timer_) {
      reactor_.cancel_timer(timer_);
      timer_ = 0;
    }
    if (!fallback_started_) {
      start_fallback();
      return;
    }
  } else {
    fallback_failed_ = true;
  }
  if (primary_failed_ && fallback_failed_) finish(*primary_error_);
}

}  // namespace tlsc
