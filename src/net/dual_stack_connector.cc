#include "net/dual_stack_connector.h"

#include <new>

namespace tlsc {

DualStackConnector::DualStackConnector(Reactor& reactor, std::vector<SocketAddress> addresses,
                                       std::optional<SocketAddress> local_address, Callback cb,
                                       std::chrono::milliseconds fallback_delay)
    : reactor_(reactor), local_(local_address), cb_(std::move(cb)), fallback_delay_(fallback_delay) {
  // Go's partition: the first address's family is primary.
  for (auto& a : addresses) {
    if (primaries_.empty() || a.family == primaries_.front().family) {
      primaries_.push_back(a);
    } else {
      fallbacks_.push_back(a);
    }
  }
}

DualStackConnector::~DualStackConnector() { cancel(); }

void DualStackConnector::retire(std::unique_ptr<TcpConnector>& c) {
  if (!c) return;
  c->cancel();
  reactor_.destroy_later(std::move(c));
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
  if (!fallbacks_.empty()) {
    timer_ = reactor_.add_timer(fallback_delay_, [this, alive = liveness_.watch()] {
      if (!alive) return;
      timer_ = 0;
      reporting_no_memory([&] { start_fallback(); });
    });
  }
  primary_ = std::make_unique<TcpConnector>(reactor_, primaries_, local_,
                                            [this, alive = liveness_.watch()](Result<SocketHandle> s) {
                                              if (alive) {
                                                reporting_no_memory([&] { on_result(true, std::move(s)); });
                                              } else if (s) {
                                                sock::close(*s);
                                              }
                                            });
  primary_->start();
}

void DualStackConnector::start_fallback() {
  if (fallback_started_ || !cb_) return;
  fallback_started_ = true;
  fallback_ = std::make_unique<TcpConnector>(reactor_, fallbacks_, local_,
                                             [this, alive = liveness_.watch()](Result<SocketHandle> s) {
                                               if (alive) {
                                                 reporting_no_memory([&] { on_result(false, std::move(s)); });
                                               } else if (s) {
                                                 sock::close(*s);
                                               }
                                             });
  fallback_->start();
}

template <class F>
void DualStackConnector::reporting_no_memory(F&& step) {
  try {
    step();
  } catch (const std::bad_alloc&) {
    // Only while the callback is still ours (finish takes it first).
    if (cb_) finish(no_memory_error());
  }
}

void DualStackConnector::finish(Result<SocketHandle> r) {
  auto cb = std::move(cb_);
  cancel();
  if (cb) {
    cb(std::move(r));
  } else if (r) {
    sock::close(*r);
  }
}

void DualStackConnector::on_result(bool primary, Result<SocketHandle> fd) {
  if (!cb_) {
    if (fd) sock::close(*fd);
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
