// The library's HTTP/3 connection against HTTP/3 servers it did not write,
// on loopback: Caddy (Debian's, on quic-go; tests/servers/caddy.sh) and
// ngtcp2's example server (Debian's ngtcp2-server on GnuTLS;
// tests/servers/ngtcp2_server.sh), with chromium_156 and firefox_153
// respectively, both serving hello.txt and a 50 MiB
// big.bin. Each: a GET, the 50 MiB body whole and byte-exact, a 4 MiB POST
// body sent whole (flow control both ways), and more requests at once than the server allows
// streams (Caddy: quic-go's 100), which wait for streams and all complete
// on the one connection. Against ngtcp2's server also: a first flight lost
// on the way (a relay drops it) and sent again, the server's Retry
// (address validation) answered, and the server's idle timeout ending the
// connection, its owner told.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "integration/servers.h"
#include "profiles/registry.h"
#include "quic/h3_client.h"
#include "quic/udp_relay.h"

namespace {

using itest::H3Client;
using itest::H3Heard;
using itest::wait_for;

std::unique_ptr<itest::ChildServer> start(const std::string& script,
                                          const std::vector<std::string>& options = {}) {
  setenv("SSL_CERT_FILE", (itest::cert_dir() + "/ca.pem").c_str(), 1);
  std::vector<std::string> argv{"bash", std::string(TLSC_SOURCE_DIR) + "/tests/servers/" + script,
                                itest::cert_dir() + "/good.pem", itest::cert_dir() + "/good.key"};
  argv.insert(argv.end(), options.begin(), options.end());
  auto server = std::make_unique<itest::ChildServer>(std::move(argv));
  REQUIRE(server->info().at("port").get<int>() != 0);
  return server;
}

// tests/servers/lib.sh h2_docroot's big.bin: line i is "%015d " i, then
// the same 48 bytes; 64-byte lines, 50 MiB.
bool is_big_bin_prefix(const std::string& body) {
  static const std::string tail = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\n";
  for (size_t line = 0; line * 64 < body.size(); ++line) {
    char number[32];
    std::snprintf(number, sizeof number, "%015zu ", line);
    const std::string expected = number + tail;
    if (body.compare(line * 64, 64, expected) != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("HTTP/3 interop: Caddy and ngtcp2's server", "[quic][h3][h3-interop]") {
  const std::string peer = GENERATE("caddy", "ngtcp2-server");
  INFO(peer);
  // ngtcp2's server with Firefox: Debian bookworm's gtlsserver runs on
  // nghttp3 0.8, which aborts when a PRIORITY_UPDATE frame (Chrome sends
  // one per request) is split after its element id (our nghttp3 has the
  // fix, packaging/nghttp3 patch 0003); Firefox sends none.
  const tlsc::Profile* profile = tlsc::lookup_profile(peer == "caddy" ? "chromium_156" : "firefox_153");
  REQUIRE(profile != nullptr);
  auto server = start(peer == "caddy" ? "caddy.sh" : "ngtcp2_server.sh");
  H3Client client(*profile, server->info().at("port").get<uint16_t>());

  SECTION("GET") {
    H3Heard heard;
    REQUIRE(client.submit(client.request(*profile, "GET", "/hello.txt"), heard));
    wait_for(heard);
    INFO((heard.error ? heard.error->message : std::string()));
    REQUIRE_FALSE(heard.error.has_value());
    CHECK(heard.head->status == 200);
    CHECK(heard.head->proto == "HTTP/3.0");
    CHECK(heard.body == "hello from " + peer + "\n");
  }
  SECTION("50 MiB down, whole and byte-exact") {
    H3Heard heard;
    REQUIRE(client.submit(client.request(*profile, "GET", "/big.bin"), heard));
    wait_for(heard, std::chrono::seconds(120));
    INFO((heard.error ? heard.error->message : std::string()));
    REQUIRE_FALSE(heard.error.has_value());
    CHECK(heard.head->status == 200);
    CHECK(heard.body.size() == 52428800);
    CHECK(is_big_bin_prefix(heard.body));
  }
  SECTION("a POST body of 4 MiB") {
    H3Heard heard;
    REQUIRE(client.submit(client.request(*profile, "POST", "/hello.txt", std::string(4 << 20, 'p')), heard));
    wait_for(heard, std::chrono::seconds(60));
    INFO((heard.error ? heard.error->message : std::string()));
    REQUIRE_FALSE(heard.error.has_value());
    // Both answer a POST to a file with the file.
    CHECK(heard.head->status == 200);
    CHECK(heard.body == "hello from " + peer + "\n");
  }
  SECTION("500 requests at once: more than the server's streams, all answered on one connection") {
    constexpr int kRequests = 500;
    std::vector<std::unique_ptr<H3Heard>> heard;
    std::vector<tlsc::OutgoingRequest> requests;
    for (int i = 0; i < kRequests; ++i) {
      heard.push_back(std::make_unique<H3Heard>());
      requests.push_back(client.request(*profile, "GET", "/hello.txt?i=" + std::to_string(i)));
    }
    // All in one turn of the loop, so no answer frees a stream between
    // them: past the server's initial stream limit (100 for both) they wait.
    std::promise<std::pair<int, size_t>> submitted;
    client.reactor.post([&] {
      int accepted = 0;
      for (int i = 0; i < kRequests; ++i)
        accepted += client.connection->submit(requests[i], heard[i].get()) ? 1 : 0;
      submitted.set_value({accepted, client.connection->waiting_requests()});
    });
    const auto [accepted, waiting] = submitted.get_future().get();
    CHECK(accepted == kRequests);
    CHECK(waiting == kRequests - 100);
    int ok = 0;
    for (auto& h : heard) {
      wait_for(*h, std::chrono::seconds(60));
      if (!h->error && h->head && h->head->status == 200 && h->body == "hello from " + peer + "\n") ++ok;
    }
    CHECK(ok == kRequests);
  }
}

TEST_CASE("HTTP/3 against ngtcp2's server: a lost first flight, a Retry, the server's idle timeout",
          "[quic][h3][h3-interop]") {
  // firefox_153: see the interop test above for why not Chrome's.
  const tlsc::Profile* profile = tlsc::lookup_profile("firefox_153");
  REQUIRE(profile != nullptr);
  const auto get_hello = [&](H3Client& client) {
    H3Heard heard;
    REQUIRE(client.submit(client.request(*profile, "GET", "/hello.txt"), heard));
    wait_for(heard);
    INFO((heard.error ? heard.error->message : std::string()));
    REQUIRE_FALSE(heard.error.has_value());
    CHECK(heard.head->status == 200);
    CHECK(heard.body == "hello from ngtcp2-server\n");
  };

  SECTION("the first flight lost on the way: sent again, the request completes") {
    auto server = start("ngtcp2_server.sh");
    // Firefox's first flight is two datagrams (its ClientHello with an
    // ML-KEM key share does not fit one): both are dropped.
    itest::UdpRelay relay(server->info().at("port").get<uint16_t>(), 2);
    H3Client client(*profile, relay.port());
    get_hello(client);
    CHECK(relay.dropped() == 2);
    CHECK(relay.forwarded() > 0);
  }
  SECTION("address validation: the server's Retry is answered with its token") {
    auto server = start("ngtcp2_server.sh", {"--validate-addr"});
    H3Client client(*profile, server->info().at("port").get<uint16_t>());
    get_hello(client);
  }
  SECTION("the server's idle timeout of 1 s ends the connection, and its owner is told") {
    auto server = start("ngtcp2_server.sh", {"--timeout=1s"});
    H3Client client(*profile, server->info().at("port").get<uint16_t>());
    get_hello(client);
    for (int i = 0; i < 100 && !client.retired; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(client.retired);
    std::promise<bool> accepts;
    client.reactor.post([&] { accepts.set_value(client.connection->accepts_requests()); });
    CHECK_FALSE(accepts.get_future().get());
  }
}
