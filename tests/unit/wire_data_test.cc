// The runner of tests/data/wire/*.json (tests/data/wire/README.md): wire
// expectations as data, one file per subject, one runner for every kind.
//   h1-request   an HTTP/1.1 request -> the exact bytes fhttp writes, or its error
//   h2-preface   an HTTP/2 fingerprint -> the connection's first frames and
//                the first request's HEADERS
//   h1-exchange  the caller's JSON through the library's whole request path
//                to a scripted loopback server -> the bytes it received and
//                the response JSON
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>
#include <variant>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "abi/json_writer.h"
#include "abi/request_input.h"
#include "abi/request_plan.h"
#include "http/h2/h2_connection.h"
#include "http/transaction.h"
#include "profiles/h2_block.h"
#include "profiles/registry.h"
#include "reactor/reactor.h"
#include "session/session_registry.h"
#include "wire/h1_request_writer.h"

using namespace tlsc;
using json = nlohmann::json;

namespace {

// A reply to a client that already left must not kill the test with
// SIGPIPE: MSG_NOSIGNAL on Linux, SO_NOSIGPIPE on the socket on macOS.
#ifdef MSG_NOSIGNAL
constexpr int kNoSigpipe = MSG_NOSIGNAL;
#else
constexpr int kNoSigpipe = 0;
#endif

const std::filesystem::path kDataDir = std::filesystem::path(TLSC_SOURCE_DIR) / "tests/data/wire";

std::vector<json> files_of_kind(const std::string& kind) {
  std::vector<json> out;
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(kDataDir)) {
    if (e.path().extension() == ".json") paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p);
    json doc = json::parse(in);
    REQUIRE(doc.contains("kind"));
    REQUIRE(doc.contains("cases"));
    if (doc["kind"] == kind) {
      doc["file"] = p.filename().string();
      out.push_back(std::move(doc));
    }
  }
  REQUIRE_FALSE(out.empty());
  return out;
}

// Wire lines as the files write them: each ends with CRLF.
std::string crlf_lines(const json& lines) {
  std::string out;
  for (const auto& l : lines) out += l.get<std::string>() + "\r\n";
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

json substitute(const json& j, const std::string& host) {
  if (j.is_string()) return replace_all(j.get<std::string>(), "{{host}}", host);
  if (j.is_array()) {
    json out = json::array();
    for (const auto& v : j) out.push_back(substitute(v, host));
    return out;
  }
  if (j.is_object()) {
    json out = json::object();
    for (const auto& [k, v] : j.items()) out[k] = substitute(v, host);
    return out;
  }
  return j;
}

template <class F>
auto on_loop(Reactor& reactor, F&& f) {
  std::promise<decltype(f())> p;
  reactor.post([&] { p.set_value(f()); });
  return p.get_future().get();
}

// --- h1-request ---

H1Request h1_request_of(const json& r) {
  H1Request req;
  req.method = r.value("method", "GET");
  req.request_target = r.value("target", "/");
  req.host = r.value("host", "example.com");
  for (const auto& h : r.value("headers", json::array())) req.headers.emplace_back(h[0], h[1]);
  for (const auto& h : r.value("extra_headers", json::array())) req.extra_headers.emplace_back(h[0], h[1]);
  for (const auto& n : r.value("header_order", json::array())) req.header_order.push_back(n);
  if (r.contains("body")) req.body = r["body"].get<std::string>();
  req.close = r.value("close", false);
  return req;
}

// --- h2-preface ---

class MemoryStream final : public Stream {
 public:
  void set_observer(StreamObserver* o) override { observer = o; }
  void write(std::string_view bytes) override { written.append(bytes); }
  bool usable() const override { return true; }
  void close() override {}
  StreamObserver* observer = nullptr;
  std::string written;
};

struct Recorder final : ExchangeObserver {
  void on_response_head(const ResponseHead&) override {}
  void on_response_body(std::string_view) override {}
  void on_response_complete() override {}
  void on_response_error(const Error&, bool) override {}
};

std::string u32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

std::string frame(uint8_t type, uint8_t flags, uint32_t stream, const std::string& payload) {
  uint32_t n = static_cast<uint32_t>(payload.size());
  std::string out{static_cast<char>(n >> 16), static_cast<char>(n >> 8), static_cast<char>(n),
                  static_cast<char>(type), static_cast<char>(flags)};
  return out + u32(stream) + payload;
}

std::string priority_bytes(const json& p) {
  uint32_t dep = p.value("depends_on", 0u) | (p.value("exclusive", false) ? 0x80000000u : 0u);
  return u32(dep) + std::string(1, static_cast<char>(p.value("weight", 16) - 1));
}

std::string frames_of(const json& frames) {
  std::string out = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  for (const auto& f : frames) {
    const std::string type = f["type"];
    if (type == "SETTINGS") {
      std::string payload;
      for (const auto& s : f["settings"]) {
        uint16_t id = s[0];
        payload += std::string{static_cast<char>(id >> 8), static_cast<char>(id)} + u32(s[1]);
      }
      out += frame(4, 0, 0, payload);
    } else if (type == "WINDOW_UPDATE") {
      out += frame(8, 0, f.value("stream", 0u), u32(f["increment"]));
    } else if (type == "PRIORITY") {
      out += frame(2, 0, f["stream"], priority_bytes(f));
    } else {
      FAIL("unknown frame type " << type);
    }
  }
  return out;
}

// --- h1-exchange: a scripted server ---

class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<std::string> replies) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    ::fcntl(fd_, F_SETFD, FD_CLOEXEC);  // portable: macOS has no SOCK_CLOEXEC
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(fd_, 8) == 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, replies = std::move(replies)] { serve(replies); });
  }
  ~ScriptedServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  // What each connection sent, in order (after the thread has finished).
  std::vector<std::string> received() {
    if (thread_.joinable()) thread_.join();
    return received_;
  }

 private:
  static bool wait_readable(int fd, int ms) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, ms) == 1;
  }

  // One request: the head, then Content-Length bytes of body. Bounded in
  // size and time.
  static std::string read_request(int c) {
    std::string in;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (in.size() < (1 << 20) && std::chrono::steady_clock::now() < deadline) {
      size_t end = in.find("\r\n\r\n");
      if (end != std::string::npos) {
        size_t want = 0;
        size_t cl = in.find("Content-Length: ");
        if (cl != std::string::npos && cl < end) want = std::stoul(in.substr(cl + 16));
        if (in.size() >= end + 4 + want) return in;
      }
      if (!wait_readable(c, 100)) continue;
      char buf[4096];
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      in.append(buf, static_cast<size_t>(n));
    }
    return in;
  }

  void serve(const std::vector<std::string>& replies) {
    for (const auto& reply : replies) {
      int c = -1;
      for (int i = 0; i < 100 && c < 0 && !stop_; ++i) {
        if (wait_readable(fd_, 50)) c = ::accept(fd_, nullptr, nullptr);
      }
      if (c < 0) return;
#ifdef SO_NOSIGPIPE
      int one = 1;
      ::setsockopt(c, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
      received_.push_back(read_request(c));
      (void)!::send(c, reply.data(), reply.size(), kNoSigpipe);
      ::shutdown(c, SHUT_WR);
      // Let the client read and close first.
      wait_readable(c, 1000);
      ::close(c);
    }
  }

  int fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::vector<std::string> received_;
  std::thread thread_;
};

}  // namespace

TEST_CASE("wire data: HTTP/1.1 requests as fhttp writes them", "[wire-data][h1]") {
  for (const json& doc : files_of_kind("h1-request")) {
    for (const json& c : doc["cases"]) {
      INFO(doc["file"].get<std::string>() << ": " << c["name"].get<std::string>());
      auto bytes = write_h1_request(h1_request_of(c["request"]));
      if (c.contains("error")) {
        REQUIRE_FALSE(bytes.ok());
        CHECK(bytes.error().message == c["error"].get<std::string>());
        CHECK(bytes.error().code == ErrorCode::invalid_input);
        continue;
      }
      INFO((bytes.ok() ? std::string() : bytes.error().message));
      REQUIRE(bytes.ok());
      if (c.contains("wire")) CHECK(*bytes == crlf_lines(c["wire"]) + c.value("wire_body", ""));
      if (c.contains("wire_starts_with")) CHECK(bytes->starts_with(c["wire_starts_with"].get<std::string>()));
      for (const auto& s : c.value("wire_contains", json::array())) {
        CHECK(bytes->find(s.get<std::string>()) != std::string::npos);
      }
      for (const auto& s : c.value("wire_lacks", json::array())) {
        CHECK(bytes->find(s.get<std::string>()) == std::string::npos);
      }
    }
  }
}

TEST_CASE("wire data: HTTP/2 prefaces of fingerprints", "[wire-data][h2]") {
  Reactor reactor;
  for (const json& doc : files_of_kind("h2-preface")) {
    for (const json& c : doc["cases"]) {
      INFO(doc["file"].get<std::string>() << ": " << c["name"].get<std::string>());
      auto f = c.contains("profile") ? Result<H2Fingerprint>(find_profile(c["profile"].get<std::string>()).h2)
                                     : h2_fingerprint_from_block(c["http2"], c.value("allow_http", false));
      REQUIRE(f);
      auto stream = std::make_unique<MemoryStream>();
      MemoryStream* mem = stream.get();
      Recorder r;
      auto written = on_loop(reactor, [&] {
        auto conn = H2Connection::create(reactor, std::move(stream), "k", *f, H2Limits{}, nullptr);
        REQUIRE(conn);
        std::string preface = mem->written;
        mem->written.clear();
        const H2HeaderBlock get = {
            {":method", "GET"}, {":authority", "a"}, {":scheme", "https"}, {":path", "/"}};
        auto id = (*conn)->submit_block(get, std::nullopt, &r);
        REQUIRE(id);
        // The HEADERS leave on the next turn (requests started together
        // share a flush); run one.
        return std::make_pair(preface, *conn);
      });
      CHECK(written.first == frames_of(c["frames"]));
      std::string headers = on_loop(reactor, [&] { return mem->written; });
      REQUIRE(headers.size() >= 9);
      const json& fh = c["first_headers"];
      uint32_t stream_id =
          (static_cast<uint32_t>(static_cast<uint8_t>(headers[5])) << 24 |
           static_cast<uint32_t>(static_cast<uint8_t>(headers[6])) << 16 |
           static_cast<uint32_t>(static_cast<uint8_t>(headers[7])) << 8 | static_cast<uint8_t>(headers[8])) &
          0x7fffffff;
      CHECK(static_cast<uint8_t>(headers[3]) == 1);  // HEADERS
      CHECK(stream_id == fh["stream"].get<uint32_t>());
      const bool has_priority = static_cast<uint8_t>(headers[4]) & 0x20;
      CHECK(has_priority == !fh["priority"].is_null());
      if (has_priority && headers.size() >= 14) CHECK(headers.substr(9, 5) == priority_bytes(fh["priority"]));
      on_loop(reactor, [&] {
        written.second.reset();
        return 0;
      });
    }
  }
}

TEST_CASE("wire data: HTTP/1.1 exchanges through the whole request path", "[wire-data][h1]") {
  Reactor reactor;
  auto resolver = on_loop(reactor, [&] { return std::make_shared<DnsResolver>(reactor); });
  SessionRegistry sessions(reactor, *resolver);
  for (const json& doc : files_of_kind("h1-exchange")) {
    for (const json& c : doc["cases"]) {
      INFO(doc["file"].get<std::string>() << ": " << c["name"].get<std::string>());
      std::vector<std::string> replies;
      for (const auto& r : c["replies"]) replies.push_back(crlf_lines(r["head"]) + r.value("body", ""));
      ScriptedServer server(std::move(replies));
      const std::string host = server.host();
      json input = substitute(c["input"], host);
      auto in = parse_request_input(input.dump());
      REQUIRE(in);
      auto prepared = prepare_request(sessions, *in, "wire-data");
      REQUIRE(std::holds_alternative<PreparedRequest>(prepared));
      auto& p = std::get<PreparedRequest>(prepared);
      std::promise<Response> done;
      reactor.post([&] {
        Transaction::start(p.session->client(), std::move(p.plan),
                           [&](Response r) { done.set_value(std::move(r)); });
      });
      auto f = done.get_future();
      REQUIRE(f.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
      json got = json::parse(response_to_json(f.get()));
      std::vector<std::string> received = server.received();
      const json& wires = c["wire"];
      REQUIRE(received.size() == wires.size());
      for (size_t i = 0; i < wires.size(); ++i) {
        std::string want = crlf_lines(substitute(wires[i], host));
        if (c.contains("wire_bodies")) want += c["wire_bodies"][i].get<std::string>();
        CHECK(received[i] == want);
      }
      json expect = substitute(c["response"], host);
      for (const auto& [k, v] : expect.items()) {
        INFO(k);
        CHECK(got[k] == v);
      }
    }
  }
  // c-ares state belongs to the loop thread.
  on_loop(reactor, [&] {
    resolver.reset();
    return 0;
  });
}
