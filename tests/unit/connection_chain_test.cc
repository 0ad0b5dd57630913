// ConnectionChain: steps run in order on what the one before built, the
// first failure ends the chain (reworded by its step's wrap), and a chain
// destroyed mid-way calls nobody.
#include "conn/connection_chain.h"

#include <future>

#include <catch2/catch.hpp>

#include "on_loop.h"
#include "reactor/reactor.h"

using namespace tlsc;

namespace {

class NamedStream final : public Stream {
 public:
  explicit NamedStream(std::string n) : name(std::move(n)) {}
  void set_observer(StreamObserver*) override {}
  void write(std::string_view) override {}
  bool usable() const override { return true; }
  void close() override {}
  std::string name;
};

// Wraps what is below in a stream named below's name + this step's tag,
// later (as every real step answers).
class TagStep final : public ConnectStep {
 public:
  TagStep(Reactor& r, std::string tag, std::vector<std::string>& log)
      : reactor_(r), tag_(std::move(tag)), log_(log) {}
  void start(Connected below, Done done) override {
    std::string name = below.stream ? static_cast<NamedStream*>(below.stream.get())->name : "";
    log_.push_back(tag_);
    reactor_.post([name, tag = tag_, done = std::move(done), alive = liveness_.watch()] {
      if (alive) done(Connected{std::make_unique<NamedStream>(name + tag), tag});
    });
  }

 private:
  Reactor& reactor_;
  std::string tag_;
  std::vector<std::string>& log_;
  Liveness liveness_;
};

using utest::on_loop;

}  // namespace

TEST_CASE("connection chain: steps build on each other in order", "[conn]") {
  Reactor reactor;
  std::vector<std::string> log;
  std::promise<std::pair<std::string, std::string>> result;
  auto chain = on_loop(reactor, [&] {
    auto c = std::make_unique<ConnectionChain>(reactor);
    c->add(std::make_unique<TagStep>(reactor, "tcp", log));
    c->add(std::make_unique<TagStep>(reactor, "+tls", log));
    c->start(Connected{}, [&](Result<Connected> r) {
      REQUIRE(r);
      result.set_value({static_cast<NamedStream*>(r->stream.get())->name, r->alpn});
    });
    return c;
  });
  auto [name, alpn] = result.get_future().get();
  CHECK(name == "tcp+tls");
  CHECK(alpn == "+tls");  // the last step's protocol
  CHECK(log == std::vector<std::string>{"tcp", "+tls"});
  on_loop(reactor, [&] {
    chain.reset();
    return 0;
  });
}

TEST_CASE("connection chain: the first failure ends it, worded by its step", "[conn]") {
  Reactor reactor;
  std::vector<std::string> log;
  std::promise<Error> failed;
  auto chain = on_loop(reactor, [&] {
    auto c = std::make_unique<ConnectionChain>(reactor);
    c->add(std::make_unique<FailedStep>(reactor, make_error(ErrorCode::connect, "dial tcp: refused")),
           [](Error e) {
             e.message = "socks4 dial: " + e.message;
             return e;
           });
    c->add(std::make_unique<TagStep>(reactor, "never", log));
    c->start(Connected{}, [&](Result<Connected> r) {
      REQUIRE_FALSE(r);
      failed.set_value(r.error());
    });
    return c;
  });
  Error e = failed.get_future().get();
  CHECK(e.message == "socks4 dial: dial tcp: refused");
  CHECK(e.code == ErrorCode::connect);
  CHECK(log.empty());
  on_loop(reactor, [&] {
    chain.reset();
    return 0;
  });
}

TEST_CASE("connection chain: destroyed before it ends, it calls nobody", "[conn]") {
  Reactor reactor;
  std::vector<std::string> log;
  bool called = false;
  on_loop(reactor, [&] {
    auto c = std::make_unique<ConnectionChain>(reactor);
    c->add(std::make_unique<TagStep>(reactor, "tcp", log));
    c->start(Connected{}, [&](Result<Connected>) { called = true; });
    return 0;  // c dies here, its step's answer still posted
  });
  on_loop(reactor, [] { return 0; });  // the posted answer has run
  CHECK(log == std::vector<std::string>{"tcp"});
  CHECK_FALSE(called);
}
