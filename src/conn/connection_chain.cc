#include "conn/connection_chain.h"

namespace tlsc {

ConnectionChain::~ConnectionChain() {
  // A step may be the one whose callback is on the stack.
  for (auto& e : steps_) reactor_.destroy_later(std::move(e.step));
}

void ConnectionChain::add(std::unique_ptr<ConnectStep> step, WrapError wrap) {
  steps_.push_back(Entry{std::move(step), std::move(wrap)});
}

void ConnectionChain::start(Connected below, Done done) {
  done_ = std::move(done);
  if (steps_.empty()) {
    reactor_.post(
        [this, alive = liveness_.watch(), below = std::make_shared<Connected>(std::move(below))]() mutable {
          if (alive) done_(std::move(*below));
        });
    return;
  }
  run(0, std::move(below));
}

void ConnectionChain::run(size_t index, Connected below) {
  steps_[index].step->start(std::move(below), [this, index, alive = liveness_.watch()](Result<Connected> r) {
    if (!alive) return;
    // The finished step goes once its call has returned; what it built
    // lives on in `r`.
    reactor_.destroy_later(std::move(steps_[index].step));
    if (!r) {
      Error e = r.error();
      if (steps_[index].wrap) e = steps_[index].wrap(std::move(e));
      done_(std::move(e));
      return;
    }
    if (index + 1 == steps_.size()) {
      done_(std::move(r));
      return;
    }
    // At once, in this call: a stream with no observer for a whole turn of
    // the loop would count data arriving on it as a broken connection.
    run(index + 1, std::move(*r));
  });
}

void FailedStep::start(Connected, Done done) {
  reactor_.post([this, alive = liveness_.watch(), done = std::move(done)] {
    if (alive) done(error_);
  });
}

}  // namespace tlsc
