// Runs connect steps in order, each on what the one before it yielded, as
// curl's connection filters are stacked: tcp -> [tls to the proxy] ->
// [CONNECT or SOCKS tunnel] -> [tls to the origin]. A chain is itself a
// step. Loop thread only.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "net/connect_step.h"
#include "reactor/reactor.h"

namespace tlsc {

class ConnectionChain final : public ConnectStep {
 public:
  // Rewords a step's failure (a proxy kind's dialer prefixes its own text).
  using WrapError = std::function<Error(Error)>;

  explicit ConnectionChain(Reactor& reactor) : reactor_(reactor) {}
  ~ConnectionChain() override;

  void add(std::unique_ptr<ConnectStep> step, WrapError wrap = nullptr);
  size_t size() const { return steps_.size(); }

  // `done` gets the last step's result, or the first failure.
  void start(Connected below, Done done) override;

 private:
  struct Entry {
    std::unique_ptr<ConnectStep> step;
    WrapError wrap;
  };
  // Runs step `index` on `below`; std::bad_alloc ends the chain with
  // no_memory_error() (if it has not ended yet).
  void run(size_t index, Connected below);
  // `done`, taken: called at most once.
  void finish(Result<Connected> r);

  Reactor& reactor_;
  std::vector<Entry> steps_;
  Done done_;
  Liveness liveness_;
};

// A step that fails at once with the error it was made with (a dial that
// cannot begin, e.g. a proxy address without a port).
class FailedStep final : public ConnectStep {
 public:
  FailedStep(Reactor& reactor, Error error) : reactor_(reactor), error_(std::move(error)) {}
  void start(Connected below, Done done) override;

 private:
  Reactor& reactor_;
  Error error_;
  Liveness liveness_;
};

}  // namespace tlsc
