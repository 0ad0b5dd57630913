// The library's HTTP/3 connection (src/http/h3/h3_connection.h) on a real
// reactor against the HTTP/3 capture server (ngtcp2 and nghttp3 on our
// BoringSSL; tests/servers/h3_capture_server.cc), which answers each
// request with what it saw of the connection:
//  - chromium_156 and firefox_153 requests complete (HTTP/3.0, 200) and the
//    server saw the real browser's control stream (tests/data/browsers/
//    */h3_captures.jsonl): the SETTINGS identifiers and values in its
//    order, its GREASE setting (Chrome) and GREASE frame, Chrome's
//    PRIORITY_UPDATE, the control stream as the first unidirectional
//    stream (id 2; Firefox's QPACK streams after it, as Firefox), the
//    request's pseudo-headers in the browser's order;
//  - a POST body arrives whole in DATA frames; many requests at once share
//    one connection; a cancelled request stops without failing the others.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration/servers.h"
#include "profiles/registry.h"
#include "quic/h3_capture_shape.h"
#include "quic/h3_client.h"

namespace {

using itest::H3Client;
using itest::H3Heard;
using itest::wait_for;
using json = nlohmann::json;

std::unique_ptr<itest::ChildServer> capture_server() {
  setenv("SSL_CERT_FILE", (itest::cert_dir() + "/ca.pem").c_str(), 1);
  return std::make_unique<itest::ChildServer>(std::vector<std::string>{
      TLSC_H3_CAPTURE_SERVER, itest::cert_dir() + "/good.pem", itest::cert_dir() + "/good.key"});
}

}  // namespace

TEST_CASE("H3Connection: the browser's control stream and pseudo-header order, as the real browser's",
          "[quic][h3]") {
  const std::string browser = GENERATE("chromium_156", "firefox_153");
  INFO(browser);
  const tlsc::Profile* profile = tlsc::lookup_profile(browser);
  REQUIRE(profile != nullptr);
  REQUIRE(profile->h3.has_value());
  auto server = capture_server();
  H3Client client(*profile, server->info().at("port").get<uint16_t>());

  H3Heard heard;
  REQUIRE(client.submit(client.request(*profile, "GET", "/h3-first"), heard));
  wait_for(heard);
  INFO((heard.error ? heard.error->message : std::string()));
  REQUIRE_FALSE(heard.error.has_value());
  REQUIRE(heard.head.has_value());
  CHECK(heard.head->status == 200);
  CHECK(heard.head->proto == "HTTP/3.0");
  const json seen = json::parse(heard.body);
  const json real = itest::first_h3_capture(browser);

  CHECK(itest::h3_control_shape(seen) == itest::h3_control_shape(real));
  CHECK(seen.at("uni_streams").at(0) == json({{"id", 2}, {"type", 0}}));
  if (browser == "firefox_153") {
    CHECK(seen.at("uni_streams") == real.at("uni_streams"));  // control, QPACK encoder, QPACK decoder
  } else {
    // Chromium writes a QPACK stream's type with its first instruction
    // only, so its capture shows the control stream alone; nghttp3 sends
    // all three at once (a patch of its own is still to come).
    CHECK(real.at("uni_streams").size() == 1);
    CHECK(seen.at("uni_streams").size() == 3);
  }
  REQUIRE(seen.at("streams").size() == 1);
  CHECK(itest::h3_pseudo_order(seen.at("streams").at(0)) == itest::h3_pseudo_order(real.at("streams").at(0)));
  CHECK(seen.at("streams").at(0).at("headers").at(3) == json({":path", "/h3-first"}));
}

TEST_CASE("H3Connection: a POST body, many requests at once on one connection, a cancel", "[quic][h3]") {
  const tlsc::Profile* profile = tlsc::lookup_profile("chromium_156");
  REQUIRE(profile != nullptr);
  auto server = capture_server();
  H3Client client(*profile, server->info().at("port").get<uint16_t>());

  SECTION("a POST of 200 000 bytes arrives whole, in DATA frames after HEADERS") {
    H3Heard heard;
    const std::string body(200'000, 'x');
    REQUIRE(client.submit(client.request(*profile, "POST", "/upload", body), heard));
    wait_for(heard);
    REQUIRE_FALSE(heard.error.has_value());
    CHECK(heard.head->status == 200);
    const json seen = json::parse(heard.body);
    const json& frames = seen.at("streams").at(0).at("frames");
    REQUIRE(frames.size() >= 2);
    CHECK(frames.at(0).at("type") == 1);
    uint64_t data_bytes = 0;
    for (size_t i = 1; i < frames.size(); ++i) {
      CHECK(frames.at(i).at("type") == 0);
      data_bytes += frames.at(i).at("length").get<uint64_t>();
    }
    CHECK(data_bytes == body.size());
  }
  SECTION("40 requests at once: every one answered, all on the one connection") {
    constexpr int kRequests = 40;
    std::vector<std::unique_ptr<H3Heard>> heard;
    for (int i = 0; i < kRequests; ++i) {
      heard.push_back(std::make_unique<H3Heard>());
      REQUIRE(client.submit(client.request(*profile, "GET", "/many-" + std::to_string(i)), *heard.back()));
    }
    size_t most_streams = 0;
    for (auto& h : heard) {
      wait_for(*h);
      REQUIRE_FALSE(h->error.has_value());
      CHECK(h->head->status == 200);
      most_streams = std::max(most_streams, json::parse(h->body).at("streams").size());
    }
    CHECK(most_streams == kRequests);
  }
  SECTION("a cancelled request is not heard of again; the next one on the connection completes") {
    // Submitted and cancelled in one reactor task: the loop reads no answer in between, so the
    // cancel always comes first (a separate task let a fast server answer before it).
    H3Heard cancelled;
    const tlsc::OutgoingRequest request = client.request(*profile, "GET", "/cancelled");
    std::promise<bool> submitted;
    client.reactor.post([&] {
      auto id = client.connection->submit(request, &cancelled);
      if (id) client.connection->cancel(*id);
      submitted.set_value(static_cast<bool>(id));
    });
    REQUIRE(submitted.get_future().get());
    H3Heard next;
    REQUIRE(client.submit(client.request(*profile, "GET", "/after"), next));
    wait_for(next);
    REQUIRE_FALSE(next.error.has_value());
    CHECK(next.head->status == 200);
    CHECK(cancelled.done.get_future().wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout);
  }
}
