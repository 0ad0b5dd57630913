// The library's QUIC connection (src/conn/quic/quic_connection.h) on a real
// reactor and real UDP sockets on loopback:
//  - its first flight for chromium_156, read by the QUIC capture server
//    (tests/servers/quic_capture_server.cc) as it reads a browser's, has the
//    JA4 of the real Chromium's QUIC Initial, Chromium's connection-ID
//    lengths and its transport parameters (the same ids and values);
//  - against the HTTP/3 capture server (ngtcp2 and nghttp3 on our BoringSSL)
//    the handshake completes with the test PKI's certificate verified and
//    h3 chosen, a name the certificate does not cover fails as over TCP
//    (Go's x509 words), and a port nobody listens on fails the connection
//    (ICMP port unreachable on the connected socket) rather than hanging.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "conn/quic/quic_connection.h"
#include "integration/servers.h"
#include "profiles/registry.h"
#include "reactor/reactor.h"
#include "tls/tls_context.h"

namespace {

using json = nlohmann::json;

// A QUIC TlsContext for a profile, as a session would make one.
std::unique_ptr<tlsc::TlsContext> quic_tls(const tlsc::Profile& profile, bool verify) {
  tlsc::TlsOptions options;
  options.spec = *profile.quic_tls;
  options.prepare_context = tlsc::prepare_quic_context;
  options.insecure_skip_verify = !verify;
  auto tls = tlsc::TlsContext::create(std::move(options));
  REQUIRE(tls);
  return std::move(*tls);
}

// Opens a connection on the loop and waits (at most `wait`) for the
// handshake's answer; nullopt in the outer optional: no answer in time.
struct Opened {
  std::optional<std::optional<tlsc::Error>> answer;
  std::string alpn;
  std::optional<tlsc::Error> connect_error;
};

Opened open_connection(tlsc::Reactor& reactor, tlsc::TlsContext& tls, tlsc::QuicConnectOptions options,
                       std::chrono::milliseconds wait, std::unique_ptr<tlsc::QuicConnection>& keep) {
  auto answered = std::make_shared<std::promise<std::optional<tlsc::Error>>>();
  auto future = answered->get_future();
  std::promise<std::optional<tlsc::Error>> connected;
  reactor.post([&, answered] {
    auto c = tlsc::QuicConnection::connect(
        reactor, tls, options, [answered](std::optional<tlsc::Error> e) { answered->set_value(e); });
    if (!c) {
      connected.set_value(c.error());
      return;
    }
    keep = std::move(*c);
    connected.set_value(std::nullopt);
  });
  Opened out;
  out.connect_error = connected.get_future().get();
  if (out.connect_error) return out;
  if (future.wait_for(wait) == std::future_status::ready) out.answer = future.get();
  std::promise<std::string> alpn;
  reactor.post([&] { alpn.set_value(keep && keep->handshake_completed() ? keep->alpn() : std::string()); });
  out.alpn = alpn.get_future().get();
  return out;
}

void destroy_on_loop(tlsc::Reactor& reactor, std::unique_ptr<tlsc::QuicConnection>& c, bool close_first) {
  std::promise<void> done;
  reactor.post([&] {
    if (c && close_first) c->close();
    c.reset();
    done.set_value();
  });
  done.get_future().get();
}

tlsc::SocketAddress loopback(uint16_t port) {
  return *tlsc::SocketAddress::from_ip_literal("127.0.0.1", port);
}

// Our first flight for a profile, as the QUIC capture server read it (one
// JSON line), sent to the server's address `ip` (127.0.0.1 or ::1).
json first_flight(const tlsc::Profile& profile, const std::string& ip) {
  const std::string log = "/tmp/tlsc-quic-conn-" + std::to_string(getpid()) + ".jsonl";
  std::remove(log.c_str());
  itest::ChildServer server({TLSC_QUIC_CAPTURE_SERVER, "--log", log});
  const auto port = server.info().at("port").get<uint16_t>();

  tlsc::Reactor reactor;
  auto tls = quic_tls(profile, false);
  tlsc::QuicConnectOptions options;
  options.peer = *tlsc::SocketAddress::from_ip_literal(ip, port);
  options.host = "localhost";
  options.port = port;
  options.fingerprint = *profile.quic;
  std::unique_ptr<tlsc::QuicConnection> connection;
  // The capture server never answers: the handshake does not complete,
  // and the first flight is what is compared.
  const Opened opened = open_connection(reactor, *tls, options, std::chrono::milliseconds(0), connection);
  REQUIRE_FALSE(opened.connect_error.has_value());

  json seen;
  for (int i = 0; i < 100 && seen.is_null(); ++i) {  // up to 10 s
    std::ifstream in(log);
    std::string line;
    if (std::getline(in, line) && !line.empty()) seen = json::parse(line);
    if (seen.is_null()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  destroy_on_loop(reactor, connection, false);
  std::remove(log.c_str());
  REQUIRE_FALSE(seen.is_null());
  return seen;
}

}  // namespace

TEST_CASE("QuicConnection: chromium_156's first flight is Chromium 156's to the QUIC capture server",
          "[quic]") {
  const tlsc::Profile* profile = tlsc::lookup_profile("chromium_156");
  REQUIRE(profile != nullptr);
  REQUIRE(profile->quic.has_value());
  REQUIRE(profile->quic_tls.has_value());

  // What the real Chromium sent: its JA4 and its transport parameters (id
  // → value, GREASE ones aside; 15 and 17 carry per-connection values).
  std::ifstream captures(std::string(TLSC_SOURCE_DIR) +
                         "/tests/data/browsers/chromium_156/quic_initial.jsonl");
  std::string first;
  REQUIRE(std::getline(captures, first));
  const json chromium = json::parse(first);
  std::map<uint64_t, std::string> chromium_params;
  for (const auto& tp : chromium.at("transport_parameters")) {
    if (tp.at("grease").get<bool>()) continue;
    const uint64_t id = tp.at("id").get<uint64_t>();
    chromium_params[id] = id == 15 || id == 17 ? "" : tp.at("hex").get<std::string>();
  }

  const json seen = first_flight(*profile, "127.0.0.1");
  REQUIRE_FALSE(seen.is_null());
  CHECK(seen.at("ja4") == chromium.at("ja4"));
  const json& packet = seen.at("datagrams").at(0).at("packets").at(0);
  CHECK(packet.at("dcid_length") == 8);
  CHECK(packet.at("scid_length") == 0);
  std::map<uint64_t, std::string> ours;
  int grease = 0;
  for (const auto& tp : seen.at("transport_parameters")) {
    if (tp.at("grease").get<bool>()) {
      ++grease;
      continue;
    }
    const uint64_t id = tp.at("id").get<uint64_t>();
    ours[id] = id == 15 || id == 17 ? "" : tp.at("hex").get<std::string>();
  }
  CHECK(ours == chromium_params);
  CHECK(grease == 1);
}

TEST_CASE("QuicConnection: the first flight's datagrams are the browser's size, per address family",
          "[quic]") {
  const std::string browser = GENERATE("chromium_156", "firefox_153");
  const std::string ip = GENERATE("127.0.0.1", "::1");
  INFO(browser << " to " << ip);
  const tlsc::Profile* profile = tlsc::lookup_profile(browser);
  REQUIRE(profile != nullptr);
  const size_t size =
      ip == "::1" ? profile->quic->max_datagram_size.ipv6 : profile->quic->max_datagram_size.ipv4;
  REQUIRE(size >= 1200);

  // The real browser's datagrams, to the family it was captured on.
  std::ifstream captures(std::string(TLSC_SOURCE_DIR) + "/tests/data/browsers/" + browser +
                         "/quic_initial.jsonl");
  std::string first;
  REQUIRE(std::getline(captures, first));
  const json real = json::parse(first);
  const bool real_ipv6 = real.at("peer").get<std::string>().find(':') != std::string::npos;
  if (real_ipv6 == (ip == "::1")) {
    for (const auto& d : real.at("datagrams")) CHECK(d.at("size") == size);
  }

  const json seen = first_flight(*profile, ip);
  REQUIRE(seen.at("datagrams").size() >= 1);
  for (const auto& d : seen.at("datagrams")) CHECK(d.at("size") == size);
}

TEST_CASE("QuicConnection: a handshake with the HTTP/3 capture server, the certificate verified as over TCP",
          "[quic]") {
  const tlsc::Profile* profile = tlsc::lookup_profile("chromium_156");
  REQUIRE(profile != nullptr);
  // The test PKI's root is the only trusted root (read on first use).
  setenv("SSL_CERT_FILE", (itest::cert_dir() + "/ca.pem").c_str(), 1);
  itest::ChildServer server(
      {TLSC_H3_CAPTURE_SERVER, itest::cert_dir() + "/good.pem", itest::cert_dir() + "/good.key"});
  const auto port = server.info().at("port").get<uint16_t>();
  tlsc::Reactor reactor;
  auto tls = quic_tls(*profile, true);

  tlsc::QuicConnectOptions options;
  options.peer = loopback(port);
  options.port = port;
  options.fingerprint = *profile->quic;

  SECTION("localhost: verified, h3") {
    options.host = "localhost";
    std::unique_ptr<tlsc::QuicConnection> connection;
    const Opened opened = open_connection(reactor, *tls, options, std::chrono::seconds(10), connection);
    REQUIRE_FALSE(opened.connect_error.has_value());
    REQUIRE(opened.answer.has_value());
    INFO((*opened.answer ? (*opened.answer)->message : std::string()));
    CHECK_FALSE(opened.answer->has_value());
    CHECK(opened.alpn == "h3");
    destroy_on_loop(reactor, connection, true);
  }
  SECTION("a name the certificate does not cover") {
    options.host = "wrong.example";
    std::unique_ptr<tlsc::QuicConnection> connection;
    const Opened opened = open_connection(reactor, *tls, options, std::chrono::seconds(10), connection);
    REQUIRE_FALSE(opened.connect_error.has_value());
    REQUIRE(opened.answer.has_value());
    REQUIRE(opened.answer->has_value());
    CHECK((*opened.answer)->code == tlsc::ErrorCode::tls_verify);
    CHECK((*opened.answer)->message ==
          "tls: failed to verify certificate: x509: certificate is valid for localhost, not wrong.example");
    destroy_on_loop(reactor, connection, false);
  }
  SECTION("a port nobody listens on: the connection fails, it does not hang") {
    options.host = "localhost";
    uint16_t unused = 0;
    {  // a port that was just free, and is again once its server has gone
      itest::ChildServer gone({TLSC_QUIC_CAPTURE_SERVER});
      unused = gone.info().at("port").get<uint16_t>();
    }
    options.peer = loopback(unused);
    options.port = unused;
    options.handshake_timeout = std::chrono::milliseconds(3000);
    std::unique_ptr<tlsc::QuicConnection> connection;
    const Opened opened = open_connection(reactor, *tls, options, std::chrono::seconds(10), connection);
    // Refused at the first flight's second datagram (connect's answer) or
    // at a read after it (the handshake's): either way a failure in words.
    const std::optional<tlsc::Error> failure =
        opened.connect_error ? opened.connect_error : opened.answer.value_or(std::nullopt);
    REQUIRE(failure.has_value());
    INFO(failure->message);
    CHECK(failure->code == tlsc::ErrorCode::connection_closed);
    CHECK(failure->message.find("connection refused") != std::string::npos);
    destroy_on_loop(reactor, connection, false);
  }
}
