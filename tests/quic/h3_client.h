// A test's HTTP/3 client: the library's H3Connection (src/http/h3/) for a
// profile, opened on its own reactor to 127.0.0.1:PORT as "localhost", and
// an observer that keeps what one response said. Used by tests/quic.
#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "http/h3/h3_connection.h"
#include "profiles/profile.h"
#include "reactor/reactor.h"
#include "tls/tls_context.h"

namespace itest {

// One response as the observer heard it; `done` is set once.
struct H3Heard final : tlsc::ExchangeObserver {
  std::optional<tlsc::ResponseHead> head;
  std::string body;  // when keep_body
  bool keep_body = true;
  size_t body_bytes = 0;
  std::optional<tlsc::Error> error;
  std::promise<void> done;

  void on_response_head(const tlsc::ResponseHead& h) override { head = h; }
  void on_response_body(std::string_view bytes) override {
    body_bytes += bytes.size();
    if (keep_body) body.append(bytes);
  }
  void on_response_complete() override { done.set_value(); }
  void on_response_error(const tlsc::Error& e, bool) override {
    error = e;
    done.set_value();
  }
};

// An HTTP/3 connection to a loopback server, opened on the client's loop.
struct H3Client {
  tlsc::Reactor reactor;
  std::unique_ptr<tlsc::TlsContext> tls;
  std::shared_ptr<tlsc::H3Connection> connection;
  std::atomic<bool> retired{false};  // the connection told its owner it takes no more requests

  H3Client(const tlsc::Profile& profile, uint16_t port) {
    tlsc::TlsOptions options;
    options.spec = *profile.quic_tls;
    options.prepare_context = tlsc::prepare_quic_context;
    auto made = tlsc::TlsContext::create(std::move(options));
    REQUIRE(made);
    tls = std::move(*made);
    tlsc::QuicConnectOptions quic;
    quic.peer = *tlsc::SocketAddress::from_ip_literal("127.0.0.1", port);
    quic.host = "localhost";
    quic.port = port;
    quic.fingerprint = *profile.quic;
    auto ready = std::make_shared<std::promise<std::optional<tlsc::Error>>>();
    auto answer = ready->get_future();
    std::promise<std::optional<tlsc::Error>> connected;
    reactor.post([&, ready] {
      auto c = tlsc::H3Connection::connect(
          reactor, *tls, quic, *profile.h3, {}, "h3:localhost",
          [ready](std::optional<tlsc::Error> e) { ready->set_value(std::move(e)); },
          [this](tlsc::H3Connection*) { retired = true; });
      if (!c) return connected.set_value(c.error());
      connection = std::move(*c);
      connected.set_value(std::nullopt);
    });
    const auto connect_error = connected.get_future().get();
    REQUIRE_FALSE(connect_error.has_value());
    REQUIRE(answer.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    const auto handshake_error = answer.get();
    INFO((handshake_error ? handshake_error->message : std::string()));
    REQUIRE_FALSE(handshake_error.has_value());
  }

  ~H3Client() {
    std::promise<void> done;
    reactor.post([&] {
      if (connection) connection->close(tlsc::make_error(tlsc::ErrorCode::cancelled, "test over"));
      connection.reset();
      done.set_value();
    });
    done.get_future().get();
  }

  tlsc::OutgoingRequest request(const tlsc::Profile& profile, const std::string& method,
                                const std::string& path, std::optional<std::string> body = std::nullopt) {
    tlsc::OutgoingRequest r;
    r.scheme = "https";
    r.message.method = method;
    r.message.request_target = path;
    r.message.host = "localhost";
    r.message.headers = profile.default_headers;
    r.message.body = std::move(body);
    return r;
  }

  // Submits on the loop; the id, or the error.
  tlsc::Result<tlsc::HttpConnection::ExchangeId> submit(const tlsc::OutgoingRequest& r, H3Heard& heard) {
    std::promise<tlsc::Result<tlsc::HttpConnection::ExchangeId>> submitted;
    reactor.post([&] { submitted.set_value(connection->submit(r, &heard)); });
    return submitted.get_future().get();
  }
};

inline void wait_for(H3Heard& heard, std::chrono::seconds limit = std::chrono::seconds(10)) {
  REQUIRE(heard.done.get_future().wait_for(limit) == std::future_status::ready);
}

}  // namespace itest
