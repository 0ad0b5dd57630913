// H2Connection against scripted server bytes: the health check that finds a
// silent connection, on the reactor's manual clock.
#include "http/h2/h2_connection.h"

#include <chrono>
#include <future>

#include <catch2/catch.hpp>

#include "reactor/reactor.h"

using namespace tlsc;

namespace {

class MemoryStream final : public Stream {
 public:
  void set_observer(StreamObserver* o) override { observer = o; }
  void write(std::string_view bytes) override { written.append(bytes); }
  bool usable() const override { return open; }
  void close() override { open = false; }

  StreamObserver* observer = nullptr;
  std::string written;
  bool open = true;
};

struct Recorder final : ExchangeObserver {
  int status = 0;
  std::string body;
  bool complete = false;
  std::string error;
  void on_response_head(const ResponseHead& h) override { status = h.status; }
  void on_response_body(std::string_view b) override { body.append(b); }
  void on_response_complete() override { complete = true; }
  void on_response_error(const Error& e, bool) override { error = e.message; }
};

template <class F>
auto on_loop(Reactor& reactor, F&& f) {
  std::promise<decltype(f())> p;
  reactor.post([&] { p.set_value(f()); });
  return p.get_future().get();
}

std::string frame(uint8_t type, uint8_t flags, uint32_t stream, std::string payload) {
  std::string out;
  uint32_t n = static_cast<uint32_t>(payload.size());
  out += static_cast<char>(n >> 16);
  out += static_cast<char>(n >> 8);
  out += static_cast<char>(n);
  out += static_cast<char>(type);
  out += static_cast<char>(flags);
  for (int shift : {24, 16, 8, 0}) out += static_cast<char>(stream >> shift);
  return out + payload;
}

const H2HeaderBlock kGet = {{":method", "GET"}, {":authority", "a"}, {":scheme", "https"}, {":path", "/"}};

// A connection with one GET in flight whose server has sent its (empty)
// SETTINGS and nothing else yet.
std::shared_ptr<H2Connection> open_with_get(Reactor& reactor, H2Limits limits, MemoryStream*& mem,
                                            Recorder& r) {
  auto stream = std::make_unique<MemoryStream>();
  mem = stream.get();
  return on_loop(reactor, [&] {
    auto c = H2Connection::create(reactor, std::move(stream), "k", H2Fingerprint{}, limits, nullptr);
    REQUIRE(c);
    REQUIRE((*c)->submit_block(kGet, std::nullopt, &r));
    mem->observer->on_stream_data(frame(4, 0, 0, ""));
    return *c;
  });
}

}  // namespace

// The preface bytes of fingerprints are data: tests/data/wire/h2-preface.json.

TEST_CASE("h2 connection: a silent server is pinged, then given up", "[h2]") {
  // The reactor's manual clock: time moves only when the test says so.
  Reactor reactor(Reactor::ClockMode::manual);
  H2Limits limits;
  limits.read_idle_timeout = std::chrono::milliseconds(100);
  limits.ping_timeout = std::chrono::milliseconds(100);
  MemoryStream* mem = nullptr;
  Recorder r;
  auto conn = open_with_get(reactor, limits, mem, r);
  std::string ping = frame(6, 0, 0, std::string(8, '\0'));
  reactor.advance_clock(std::chrono::milliseconds(99));
  CHECK(on_loop(reactor, [&] { return mem->written.find(ping); }) == std::string::npos);
  // Read idle for 100 ms: a PING goes out.
  reactor.advance_clock(std::chrono::milliseconds(1));
  CHECK(on_loop(reactor, [&] { return mem->written.find(ping); }) != std::string::npos);
  CHECK(on_loop(reactor, [&] { return r.error; }).empty());
  // No answer within the ping timeout: the connection is given up.
  reactor.advance_clock(std::chrono::milliseconds(100));
  CHECK(on_loop(reactor, [&] { return r.error; }) == "http2: client connection lost");
  on_loop(reactor, [&] {
    conn.reset();
    return 0;
  });
}

TEST_CASE("h2 connection: a slow answer within the health window completes", "[h2]") {
  Reactor reactor(Reactor::ClockMode::manual);
  H2Limits limits;
  limits.read_idle_timeout = std::chrono::milliseconds(300);
  limits.ping_timeout = std::chrono::milliseconds(300);
  MemoryStream* mem = nullptr;
  Recorder r;
  auto conn = open_with_get(reactor, limits, mem, r);
  reactor.advance_clock(std::chrono::milliseconds(150));
  on_loop(reactor, [&] {
    // :status 200 (static table index 8), then the body.
    mem->observer->on_stream_data(frame(1, 4, 1, "\x88") + frame(0, 1, 1, "hello"));
    return 0;
  });
  CHECK(on_loop(reactor, [&] { return r.complete; }));
  CHECK(r.status == 200);
  CHECK(r.body == "hello");
  CHECK(r.error.empty());
  on_loop(reactor, [&] {
    conn.reset();
    return 0;
  });
}

TEST_CASE("h2 connection: an answered PING keeps the connection", "[h2]") {
  Reactor reactor(Reactor::ClockMode::manual);
  H2Limits limits;
  limits.read_idle_timeout = std::chrono::milliseconds(100);
  limits.ping_timeout = std::chrono::milliseconds(100);
  MemoryStream* mem = nullptr;
  Recorder r;
  auto conn = open_with_get(reactor, limits, mem, r);
  reactor.advance_clock(std::chrono::milliseconds(100));
  // The server acks the PING 50 ms later, then answers the request.
  reactor.advance_clock(std::chrono::milliseconds(50));
  on_loop(reactor, [&] {
    mem->observer->on_stream_data(frame(6, 1, 0, std::string(8, '\0')));
    return 0;
  });
  reactor.advance_clock(std::chrono::milliseconds(60));
  CHECK(on_loop(reactor, [&] { return r.error; }).empty());
  on_loop(reactor, [&] {
    mem->observer->on_stream_data(frame(1, 5, 1, "\x88"));
    return 0;
  });
  CHECK(on_loop(reactor, [&] { return r.complete; }));
  CHECK(r.status == 200);
  on_loop(reactor, [&] {
    conn.reset();
    return 0;
  });
}

namespace {

// An HPACK literal field without indexing, new name, no Huffman (short
// strings only).
std::string literal(const std::string& name, const std::string& value) {
  return std::string(1, '\0') + static_cast<char>(name.size()) + name + static_cast<char>(value.size()) +
         value;
}

}  // namespace

TEST_CASE("h2 connection: a response Go refuses resets its stream only", "[h2][h2-block]") {
  Reactor reactor(Reactor::ClockMode::manual);
  MemoryStream* mem = nullptr;
  Recorder first, second;
  auto conn = open_with_get(reactor, H2Limits{}, mem, first);
  on_loop(reactor, [&] {
    REQUIRE(conn->submit_block(kGet, std::nullopt, &second));
    mem->observer->on_stream_data({});  // flushes the second HEADERS
    mem->written.clear();
    // Stream 1: an upper-case name (fhttp: a stream error). Stream 3: a
    // `connection` header and a value with spaces, which Go takes.
    mem->observer->on_stream_data(
        frame(1, 0x4 | 0x1, 1, literal(":status", "200") + literal("X-Upper", "1")) +
        frame(1, 0x4, 3,
              literal(":status", "200") + literal("connection", "keep-alive") + literal("x-space", " v ")) +
        frame(0, 0x1, 3, "ok"));
    return 0;
  });
  CHECK(on_loop(reactor, [&] { return first.error; }) ==
        "stream error: stream ID 1; PROTOCOL_ERROR; invalid header field name \"X-Upper\"");
  CHECK(on_loop(reactor, [&] { return first.status; }) == 0);  // no head reached the request
  // RST_STREAM(PROTOCOL_ERROR) on stream 1, as fhttp writes it.
  CHECK(on_loop(reactor, [&] { return mem->written.find(frame(3, 0, 1, std::string("\0\0\0\1", 4))); }) !=
        std::string::npos);
  CHECK(on_loop(reactor, [&] { return second.complete; }));
  CHECK(on_loop(reactor, [&] { return second.status; }) == 200);
  CHECK(on_loop(reactor, [&] { return second.body; }) == "ok");
  CHECK(on_loop(reactor, [&] { return conn->accepts_requests(); }));
  on_loop(reactor, [&] {
    conn.reset();
    return 0;
  });
}

TEST_CASE("h2 connection: a body past its Content-Length is cut there, with Go's error", "[h2][h2-block]") {
  Reactor reactor(Reactor::ClockMode::manual);
  MemoryStream* mem = nullptr;
  Recorder r;
  auto conn = open_with_get(reactor, H2Limits{}, mem, r);
  on_loop(reactor, [&] {
    mem->observer->on_stream_data(
        frame(1, 0x4, 1, literal(":status", "200") + literal("content-length", "4")) + frame(0, 0, 1, "abc") +
        frame(0, 0x1, 1, "defg"));
    return 0;
  });
  CHECK(on_loop(reactor, [&] { return r.body; }) == "abcd");
  CHECK(on_loop(reactor, [&] { return r.error; }) ==
        "net/http: server replied with more than declared Content-Length; truncated");
  CHECK_FALSE(on_loop(reactor, [&] { return r.complete; }));
  on_loop(reactor, [&] {
    conn.reset();
    return 0;
  });
}

TEST_CASE("h2 connection: informational heads are skipped, at most five", "[h2][h2-block]") {
  Reactor reactor(Reactor::ClockMode::manual);
  MemoryStream* mem = nullptr;
  Recorder ok, too_many;
  auto conn = open_with_get(reactor, H2Limits{}, mem, ok);
  std::string early;
  for (int i = 0; i < 5; ++i) early += frame(1, 0x4, 1, literal(":status", "103"));
  on_loop(reactor, [&] {
    mem->observer->on_stream_data(early + frame(1, 0x4 | 0x1, 1, literal(":status", "204")));
    return 0;
  });
  CHECK(on_loop(reactor, [&] { return ok.status; }) == 204);
  CHECK(on_loop(reactor, [&] { return ok.complete; }));
  on_loop(reactor, [&] {
    REQUIRE(conn->submit_block(kGet, std::nullopt, &too_many));
    mem->observer->on_stream_data({});
    std::string six;
    for (int i = 0; i < 6; ++i) six += frame(1, 0x4, 3, literal(":status", "100"));
    mem->observer->on_stream_data(six);
    return 0;
  });
  CHECK(on_loop(reactor, [&] { return too_many.error; }) == "http2: too many 1xx informational responses");
  on_loop(reactor, [&] {
    conn.reset();
    return 0;
  });
}
