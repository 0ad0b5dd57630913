#include "conn/connection_chain.h"

#include <new>

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
          if (alive) finish(std::move(*below));
        });
    return;
  }
  run(0, std::move(below));
}

void ConnectionChain::finish(Result<Connected> r) {
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(r));
}

void ConnectionChain::run(size_t index, Connected below) {
  try {
    steps_[index].step->start(std::move(below),
                              [this, index, alive = liveness_.watch()](Result<Connected> r) {
                                if (!alive) return;
                                // The finished step goes once its call has returned; what it built
                                // lives on in `r`.
                                reactor_.destroy_later(std::move(steps_[index].step));
                                if (!r) {
                                  try {
                                    Error e = r.error();
                                    if (steps_[index].wrap) e = steps_[index].wrap(std::move(e));
                                    finish(std::move(e));
                                  } catch (const std::bad_alloc&) {
                                    finish(no_memory_error());
                                  }
                                  return;
                                }
                                if (index + 1 == steps_.size()) {
                                  finish(std::move(r));
                                  return;
                                }
                                // At once, in this call: a stream with no observer for a whole turn of
                                // the loop would count data arriving on it as a broken connection.
                                run(index + 1, std::move(*r));
                              });
  } catch (const std::bad_alloc&) {
    // The step could not start (its `done` is never called), or a later
    // one failed inside this call after we already answered.
    finish(no_memory_error());
  }
}

void FailedStep::start(Connected, Done done) {
  reactor_.post([this, alive = liveness_.watch(), done = std::move(done)] {
    if (alive) done(error_);
  });
}

}  // namespace tlsc
