// WebSocket (wsConnect, wsRead, wsWrite, wsClose) through the library as a
// binding loads it, against Node's `ws` server over TLS and plain TCP and
// against hand-written upgrades that break the protocol
// (tests/servers/ws_server.js).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

namespace {

using itest::call_fn;
using itest::cert_dir;
using itest::json;
using itest::lib;
using Clock = std::chrono::steady_clock;

const json& server() {
  static itest::ChildServer child({"node", std::string(TLSC_SOURCE_DIR) + "/tests/servers/ws_server.js",
                                   "--cert", cert_dir() + "/good.pem", "--key", cert_dir() + "/good.key"});
  if (child.info().value("tls", 0) == 0) FAIL("ws_server.js did not start");
  return child.info();
}

std::string wss(const std::string& path) {
  return "wss://127.0.0.1:" + std::to_string(int(server()["tls"])) + path;
}
std::string ws(const std::string& path) {
  return "ws://127.0.0.1:" + std::to_string(int(server()["plain"])) + path;
}

json connect(const std::string& url, json extra = json::object()) {
  json in = {{"url", url}, {"tlsClientIdentifier", "chrome_133"}, {"insecureSkipVerify", true}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call_fn(lib().wsConnect, in);
}

json ws_read(const std::string& id, int timeout_ms = 10000) {
  return call_fn(lib().wsRead, {{"connectionId", id}, {"timeoutMilliseconds", timeout_ms}});
}

json ws_write(const std::string& id, int type, const std::string& data) {
  return call_fn(lib().wsWrite, {{"connectionId", id}, {"messageType", type}, {"data", data}});
}

json ws_close(const std::string& id) { return call_fn(lib().wsClose, {{"connectionId", id}}); }

// Python's websockets (Debian's python3-websockets): {"deflate", "plain"} ports.
const json& python_server() {
  static itest::ChildServer child(
      {"/usr/bin/python3", std::string(TLSC_SOURCE_DIR) + "/tests/servers/ws_python_server.py"});
  if (child.info().value("deflate", 0) == 0) FAIL("ws_python_server.py did not start");
  return child.info();
}

std::string python_ws(const char* which, const std::string& path) {
  return "ws://127.0.0.1:" + std::to_string(int(python_server()[which])) + path;
}

std::string ws_open(const std::string& url, json extra = json::object()) {
  json c = connect(url, extra);
  REQUIRE(c["status"] == 101);
  REQUIRE(c["connectionId"].is_string());
  return c["connectionId"];
}

}  // namespace

TEST_CASE("ws: text and binary messages go both ways, over wss and ws", "[ws]") {
  for (bool tls : {true, false}) {
    DYNAMIC_SECTION((tls ? "wss" : "ws")) {
      json c = connect(tls ? wss("/echo") : ws("/echo"));
      REQUIRE(c["status"] == 101);
      CHECK(c.size() == 3);  // id, connectionId, status: no sessionId without one
      const std::string id = c["connectionId"];
      json w = ws_write(id, 1, "h\xc3\xa9llo <&>");
      CHECK(w["success"] == true);
      CHECK(w["connectionId"] == id);
      json r = ws_read(id);
      CHECK(r["messageType"] == 1);
      CHECK(r["data"] == "h\xc3\xa9llo <&>");
      CHECK(r["connectionId"] == id);
      // Binary, base64 both ways, bigger than a frame (write buffer 4096).
      std::string bin(70000, '\0');
      for (size_t i = 0; i < bin.size(); ++i) bin[i] = static_cast<char>(i * 7);
      CHECK(ws_write(id, 2, itest::base64_encode(bin))["success"] == true);
      r = ws_read(id);
      CHECK(r["messageType"] == 2);
      CHECK(itest::base64_decode(r["data"]) == bin);
      CHECK(ws_write(id, 1, "")["success"] == true);
      CHECK(ws_read(id)["data"] == "");
      json cl = ws_close(id);
      CHECK(cl["success"] == true);
      CHECK(cl.size() == 2);
      json again = ws_close(id);
      CHECK(again["status"] == 0);
      CHECK(again["body"] == "no websocket connection found for connectionId: " + id);
    }
  }
}

TEST_CASE("ws: the upgrade carries the caller's headers in headerOrder, with TLS offering http/1.1 only",
          "[ws]") {
  const std::string id =
      ws_open(wss("/headers?x=1"),
              {{"headers", {{"User-Agent", "UA/1"}, {"Origin", "https://example.test"}, {"X-B", "b"}}},
               {"headerOrder", {"origin", "user-agent", "host", "x-b"}}});
  json r = ws_read(id);
  REQUIRE(r["messageType"] == 1);
  json seen = json::parse(r["data"].get<std::string>());
  // The server offered h2 first: only a client that offered http/1.1 alone gets http/1.1.
  CHECK(seen["alpn"] == "http/1.1");
  CHECK(seen["url"] == "/headers?x=1");
  std::vector<std::string> names;
  for (size_t i = 0; i < seen["rawHeaders"].size(); i += 2) names.push_back(seen["rawHeaders"][i]);
  // fhttp's order: the listed names first, in the list's order, then the
  // rest sorted by their bytes.
  const std::vector<std::string> want = {"Origin",
                                         "User-Agent",
                                         "Host",
                                         "X-B",
                                         "Connection",
                                         "Sec-WebSocket-Extensions",
                                         "Sec-WebSocket-Key",
                                         "Sec-WebSocket-Version",
                                         "Upgrade"};
  CHECK(names == want);
  ws_close(id);

  // Without headers: Go's own, sorted, with its User-Agent.
  const std::string plain = ws_open(ws("/headers"));
  seen = json::parse(ws_read(plain)["data"].get<std::string>());
  names.clear();
  std::vector<std::string> values;
  for (size_t i = 0; i < seen["rawHeaders"].size(); i += 2) {
    names.push_back(seen["rawHeaders"][i]);
    values.push_back(seen["rawHeaders"][i + 1]);
  }
  CHECK(names == std::vector<std::string>{"Connection", "Host", "Sec-WebSocket-Extensions",
                                          "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Upgrade",
                                          "User-Agent"});
  CHECK(values[6] == "Go-http-client/1.1");
  CHECK(values[4] == "13");
  // chrome_133 offers what Chromium offers; this server takes no extension.
  CHECK(values[2] == "permessage-deflate; client_max_window_bits");
  CHECK(seen["extensions"] == "");
  ws_close(plain);
}

TEST_CASE("ws: a session's client is used and its id echoed; an unknown one is refused", "[ws]") {
  const std::string sid = "ws-session-1";
  // A session whose requests offer h2 (this server's HTTPS port prefers h2
  // and then speaks HTTP/1.1 only, so the request itself fails): its
  // WebSocket still offers http/1.1 alone, as upstream dials one.
  call_fn(lib().request, {{"sessionId", sid},
                          {"tlsClientIdentifier", "firefox_147"},
                          {"requestUrl", "https://127.0.0.1:" + std::to_string(int(server()["tls"])) + "/"},
                          {"requestMethod", "GET"},
                          {"timeoutSeconds", 5},
                          {"insecureSkipVerify", true}});
  json c = call_fn(lib().wsConnect, {{"sessionId", sid}, {"url", wss("/headers")}});
  REQUIRE(c["status"] == 101);
  CHECK(c["sessionId"] == sid);
  json seen = json::parse(ws_read(c["connectionId"])["data"].get<std::string>());
  CHECK(seen["alpn"] == "http/1.1");
  ws_close(c["connectionId"]);
  json bad = call_fn(lib().wsConnect, {{"sessionId", "nope"}, {"url", wss("/echo")}});
  CHECK(bad["status"] == 0);
  CHECK(bad["body"] == "no client found for sessionId: nope");
  CHECK(bad["sessionId"] == "nope");
  call_fn(lib().destroySession, {{"sessionId", sid}});
}

TEST_CASE("ws: the server's pings are answered and its close is reported as gorilla words it", "[ws]") {
  const std::string id = ws_open(wss("/ping?data=abc"));
  json r = ws_read(id);
  CHECK(r["data"] == "pong:abc");
  ws_close(id);

  const std::string closing = ws_open(ws("/close?code=4001&reason=bye"));
  r = ws_read(closing);
  CHECK(r["status"] == 0);
  CHECK(r["body"] == "failed to read message: websocket: close 4001: bye");
  CHECK(r["errorCode"] == "websocket");
  // The failure stays: a second read says the same at once.
  CHECK(ws_read(closing)["body"] == r["body"]);
  // After the peer's close, writes fail (the close was echoed).
  CHECK(ws_write(closing, 1, "x")["body"] == "failed to write message: websocket: close sent");
  ws_close(closing);

  const std::string normal = ws_open(ws("/close?code=1000"));
  CHECK(ws_read(normal)["body"] == "failed to read message: websocket: close 1000 (normal)");
  ws_close(normal);
}

TEST_CASE("ws: a read times out, and the connection still works after it", "[ws]") {
  const std::string id = ws_open(wss("/echo"));
  const auto t0 = Clock::now();
  json r = ws_read(id, 200);
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "timeout");
  CHECK(r["body"].get<std::string>().find("i/o timeout") != std::string::npos);
  CHECK(s >= 0.19);
  CHECK(s < itest::time_limit(3));
  CHECK(ws_write(id, 1, "after")["success"] == true);
  CHECK(ws_read(id)["data"] == "after");
  ws_close(id);
}

TEST_CASE("ws: wsClose wakes a read that waits with no deadline", "[ws]") {
  const std::string id = ws_open(wss("/echo"));
  json result;
  std::thread reader([&] { result = ws_read(id, 0); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ws_close(id);
  reader.join();
  CHECK(result["status"] == 0);
  CHECK(result["body"] == "failed to read message: use of closed network connection");
}

TEST_CASE("ws: frames no server may send end the connection with gorilla's words", "[ws]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"rsv", "websocket: RSV1 set"},
      {"rsv2mask", "websocket: RSV1 set, RSV2 set, bad MASK"},
      {"badop", "websocket: bad opcode 3"},
      {"bigctl", "websocket: len > 125 for control"},
      {"fragctl", "websocket: FIN not set on control"},
      {"contfirst", "websocket: continuation after FIN"},
      {"badclose", "websocket: bad close code 1005"},
      {"huge", "websocket: read limit exceeded"},
      {"eof", "websocket: close 1006 (abnormal closure): unexpected EOF"},
      {"midframe", "websocket: close 1006 (abnormal closure): unexpected EOF"},
      // RFC 6455 section 8.1 (gorilla passes such text on; abi/COMPAT.md).
      {"badutf8", "websocket: invalid utf8 payload in text message"},
      // permessage-deflate taken, then a message that is not DEFLATE, and
      // one that inflates past the 64 MiB limit.
      {"deflatebad", "websocket: invalid compressed message"},
      {"deflatebomb", "websocket: read limit exceeded"},
  };
  for (const auto& [kind, text] : cases) {
    DYNAMIC_SECTION(kind) {
      const std::string id = ws_open(ws("/bad/" + kind));
      json r = ws_read(id);
      CHECK(r["status"] == 0);
      CHECK(r["body"] == "failed to read message: " + text);
      ws_close(id);
    }
  }
}

TEST_CASE("ws: fragments are joined, with a ping between them", "[ws]") {
  const std::string id = ws_open(ws("/bad/fragments"));
  json r = ws_read(id);
  CHECK(r["messageType"] == 1);
  CHECK(r["data"] == "hello");
  r = ws_read(id);
  CHECK(r["messageType"] == 2);
  CHECK(itest::base64_decode(r["data"]) == "bin");
  ws_close(id);
}

TEST_CASE("ws: a refused upgrade, a bad URL and bad input answer in the normal shape", "[ws]") {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"wrongaccept", "failed to connect websocket: websocket: bad handshake"},
      {"status200", "failed to connect websocket: websocket: bad handshake"},
      {"deflate", "failed to connect websocket: websocket: invalid compression negotiation"},
  };
  for (const auto& [kind, text] : refused) {
    // safari_ios_18_0 offers no extension, as upstream's client.
    json r = connect(ws("/bad/" + kind), {{"tlsClientIdentifier", "safari_ios_18_0"}});
    CHECK(r["status"] == 0);
    CHECK(r["body"] == text);
    CHECK(r["errorCode"] == "websocket");
  }
  json r = connect("https://127.0.0.1:1/");
  CHECK(r["body"] == "failed to connect websocket: malformed ws or wss URL");
  r = connect("");
  CHECK(r["body"] == "failed to create websocket: url cannot be empty for websocket connection");
  r = connect("ws://127.0.0.1:1/");
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "connect");
  r = connect(ws("/echo"), {{"headers", {{"Sec-Websocket-Key", "x"}}}});
  CHECK(r["body"] ==
        "failed to connect websocket: websocket: duplicate header not allowed: Sec-Websocket-Key");
  // A server that never answers the upgrade: the handshake timeout.
  const auto t0 = Clock::now();
  r = connect(ws("/bad/silent"), {{"handshakeTimeoutMilliseconds", 300}});
  CHECK(r["errorCode"] == "timeout");
  CHECK(std::chrono::duration<double>(Clock::now() - t0).count() < itest::time_limit(5));

  CHECK(ws_read("nope")["body"] == "no websocket connection found for connectionId: nope");
  CHECK(ws_write("nope", 1, "x")["body"] == "no websocket connection found for connectionId: nope");
  json bad = call_fn(lib().wsRead, {{"connectionId", 5}});
  CHECK(bad["status"] == 0);
  CHECK(bad["errorCode"] == "invalid_input");
  CHECK(itest::call_raw(nullptr)["status"] == 0);

  const std::string id = ws_open(ws("/echo"));
  CHECK(ws_write(id, 0, "x")["body"] == "failed to write message: websocket: bad write message type");
  CHECK(ws_write(id, 2, "!!")["body"].get<std::string>().rfind("failed to base64 decode binary message: ",
                                                               0) == 0);
  CHECK(ws_write(id, 9, std::string(126, 'p'))["body"] ==
        "failed to write message: websocket: invalid control frame");
  CHECK(ws_write(id, 9, "ok")["success"] == true);
  CHECK(ws_write(id, 1, "still")["success"] == true);
  CHECK(ws_read(id)["data"] == "still");
  ws_close(id);
}

TEST_CASE("ws: a reader that stops reading holds the server back", "[ws]") {
  // 128 messages of 1 MiB; the inbox holds 16 MiB before the socket is paused.
  const std::string id = ws_open(wss("/burst?n=128&size=1048576&key=bp"));
  const std::string stats = ws_open(wss("/stats"));
  auto flushed = [&] {
    ws_write(stats, 1, "bp");
    return json::parse(ws_read(stats)["data"].get<std::string>());
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  json st = flushed();
  CHECK(st["sent"] == 128);
  CHECK(st["flushed"] < 64);  // the kernel's buffers and our inbox hold well under half
  for (int m = 0; m < 128; ++m) {
    json r = ws_read(id);
    REQUIRE(r["messageType"] == 2);
    const std::string b = itest::base64_decode(r["data"]);
    REQUIRE(b.size() == 1048576);
    CHECK(static_cast<uint8_t>(b[1000]) == ((m + 1000) & 255));
  }
  CHECK(ws_read(id)["data"] == "done");
  CHECK(flushed()["flushed"] == 128);
  ws_close(id);
  ws_close(stats);
}

TEST_CASE("ws: destroyAll closes every WebSocket", "[ws]") {
  const std::string a = ws_open(ws("/echo"));
  const std::string b = ws_open(wss("/echo"));
  itest::json d = json::parse(std::string(lib().destroyAll()));
  CHECK(d["success"] == true);
  CHECK(ws_read(a, 100)["body"] == "no websocket connection found for connectionId: " + a);
  CHECK(ws_write(b, 1, "x")["body"] == "no websocket connection found for connectionId: " + b);
}

TEST_CASE("ws: through an HTTP CONNECT proxy (squid) and a SOCKS5 proxy (microsocks)", "[ws][proxy]") {
  const std::string proxies = std::string(TLSC_SOURCE_DIR) + "/tests/servers/proxies/";
  for (const char* kind : {"squid", "microsocks"}) {
    DYNAMIC_SECTION(kind) {
      itest::ChildServer proxy({"bash", proxies + kind + ".sh"});
      const int port = proxy.info().value("port", 0);
      REQUIRE(port > 0);
      const std::string scheme = std::string(kind) == "squid" ? "http://" : "socks5://";
      for (const char* path : {"/echo", "/deflate/echo"}) {
        const std::string id =
            ws_open(wss(path), {{"proxyUrl", scheme + "127.0.0.1:" + std::to_string(port)}});
        CHECK(ws_write(id, 1, "via proxy")["success"] == true);
        CHECK(ws_read(id)["data"] == "via proxy");
        const std::string big(100000, 'p');
        CHECK(ws_write(id, 2, itest::base64_encode(big))["success"] == true);
        CHECK(ws_read(id)["data"] == itest::base64_encode(big));
        ws_close(id);
      }
    }
  }
}

TEST_CASE("ws: the ClientHello is the profile's, as a forceHttp1 request sends it", "[ws][client_hello]") {
  const std::string log = "/tmp/tlsc-ws-capture-" + std::to_string(getpid()) + ".jsonl";
  std::remove(log.c_str());
  itest::ChildServer capture(
      {"python3", std::string(TLSC_SOURCE_DIR) + "/tests/servers/capture_tls.py", log});
  const std::string host = "localhost:" + std::to_string(capture.info()["port"].get<int>());
  // A JA3 client: its hello has no GREASE and no shuffled order to tell apart.
  const json custom = {
      {"ja3String", "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-5-13-51-45-43-27,29-23-24,0"},
      {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
      {"supportedVersions", {"1.3", "1.2"}},
      {"keyShareCurves", {"X25519"}},
      {"alpnProtocols", {"h2", "http/1.1"}},
      {"certCompressionAlgos", {"brotli"}}};
  json r = call_fn(lib().request, {{"requestUrl", "https://" + host + "/"},
                                   {"requestMethod", "GET"},
                                   {"timeoutSeconds", 5},
                                   {"forceHttp1", true},
                                   {"customTlsClient", custom}});
  CHECK(r["errorCode"] == "tls_handshake");  // the capture server hangs up after the hello
  r = connect("wss://" + host + "/", {{"customTlsClient", custom}, {"tlsClientIdentifier", nullptr}});
  CHECK(r["status"] == 0);
  std::vector<json> records;
  std::ifstream f(log);
  for (std::string line; std::getline(f, line);) records.push_back(json::parse(line));
  std::remove(log.c_str());
  REQUIRE(records.size() == 2);
  for (json& rec : records) {  // fresh keys per connection
    rec.erase("x25519_keys");
    if (rec.contains("bodies")) rec["bodies"].erase("51");
  }
  CHECK(records[1] == records[0]);
  CHECK(records[0]["extensions"] == json::array({0, 23, 65281, 10, 11, 16, 5, 13, 51, 45, 43, 27}));
}

namespace {

// Messages of mixed kinds and sizes (0 bytes to 200 KiB; text is UTF-8 with
// multi-byte characters, binary every byte value), the same for each seed.
std::pair<int, std::string> mixed_message(uint32_t seed) {
  uint32_t x = seed * 2654435761u + 12345;
  auto next = [&x] { return x = x * 1664525u + 1013904223u; };
  const uint32_t pick = next() % 100;
  const size_t size = pick < 60 ? next() % 128 : pick < 95 ? next() % 8192 : next() % (200 * 1024);
  std::string data;
  if (next() % 2) {
    while (data.size() < size)
      data += (next() % 4 == 0) ? "\xc3\xa9" : std::string(1, char('a' + next() % 26));
    return {1, data};
  }
  data.resize(size);
  for (auto& c : data) c = static_cast<char>(next() >> 24);
  return {2, data};
}

// Writes `count` messages in batches of 100 and reads each echo back.
void echo_many(const std::string& id, int count) {
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  for (int base = 0; base < count; base += 100) {
    REQUIRE(Clock::now() < deadline);
    const int n = std::min(100, count - base);
    for (int i = 0; i < n; ++i) {
      auto [type, data] = mixed_message(static_cast<uint32_t>(base + i));
      json w = ws_write(id, type, type == 2 ? itest::base64_encode(data) : data);
      REQUIRE(w["success"] == true);
    }
    for (int i = 0; i < n; ++i) {
      auto [type, data] = mixed_message(static_cast<uint32_t>(base + i));
      json r = ws_read(id);
      REQUIRE(r["messageType"] == type);
      if (type == 2) {
        REQUIRE(itest::base64_decode(r["data"]) == data);
      } else {
        REQUIRE(r["data"] == data);
      }
    }
  }
}

}  // namespace

TEST_CASE("ws: permessage-deflate as the profile's browser offers it, against ws and Python's websockets",
          "[ws][deflate]") {
  // Node's ws: every message compressed, with and without context takeover
  // (10-bit windows both ways there).
  for (const char* prefix : {"/deflate", "/deflate-nct"}) {
    DYNAMIC_SECTION("ws " << prefix) {
      const std::string id = ws_open(wss(std::string(prefix) + "/headers"));
      json seen = json::parse(ws_read(id)["data"].get<std::string>());
      CHECK(seen["extensions"] == "permessage-deflate");
      echo_many(id, 300);
      ws_close(id);
    }
  }
  SECTION("python websockets") {
    const std::string id = ws_open(python_ws("deflate", "/extensions"));
    CHECK(ws_read(id)["data"] == "permessage-deflate");
    echo_many(id, 300);
    ws_close(id);
    const std::string plain = ws_open(python_ws("plain", "/extensions"));
    CHECK(ws_read(plain)["data"] == "");
    echo_many(plain, 100);
    ws_close(plain);
  }
  SECTION("a compressed message from a hand-written server") {
    const std::string id = ws_open(ws("/bad/deflateok"));
    CHECK(ws_read(id)["data"] == "squeezed");
    ws_close(id);
  }
}

TEST_CASE("ws: 10,000 messages of mixed kinds and sizes echo back intact", "[ws][deflate]") {
  SECTION("python websockets, permessage-deflate") {
    const std::string id = ws_open(python_ws("deflate", "/echo"));
    echo_many(id, 10000);
    ws_close(id);
  }
  SECTION("node ws, no extension") {
    const std::string id = ws_open(ws("/echo"));
    echo_many(id, 10000);
    ws_close(id);
  }
}

TEST_CASE("ws: each profile offers the extensions its browser offers", "[ws][deflate]") {
  // The real browsers' offers, captured on this machine.
  auto captured = [](const std::string& name) {
    std::ifstream f(std::string(TLSC_SOURCE_DIR) + "/tests/data/browsers/" + name + "/websocket_upgrade.txt");
    std::string line, value;
    while (std::getline(f, line, '\n')) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("Sec-WebSocket-Extensions: ", 0) == 0) value = line.substr(26);
    }
    return value;
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"chromium_156", captured("chromium_156")},
      {"chrome_146", captured("chromium_156")},
      {"firefox_153", captured("firefox_153")},
      {"firefox_147", captured("firefox_153")},
      {"safari_ios_18_0", ""},
  };
  CHECK(cases[0].second == "permessage-deflate; client_max_window_bits");
  CHECK(cases[2].second == "permessage-deflate");
  for (const auto& [profile, offer] : cases) {
    DYNAMIC_SECTION(profile) {
      const std::string id = ws_open(ws("/deflate/headers"), {{"tlsClientIdentifier", profile}});
      json seen = json::parse(ws_read(id)["data"].get<std::string>());
      std::string sent;
      for (size_t i = 0; i < seen["rawHeaders"].size(); i += 2) {
        if (seen["rawHeaders"][i] == "Sec-WebSocket-Extensions") sent = seen["rawHeaders"][i + 1];
      }
      CHECK(sent == offer);
      CHECK(seen["extensions"] == (offer.empty() ? "" : "permessage-deflate"));
      CHECK(ws_write(id, 1, "after")["success"] == true);
      CHECK(ws_read(id)["data"] == "after");
      ws_close(id);
    }
  }
  // A caller's own Sec-WebSocket-Extensions replaces the profile's.
  const std::string id =
      ws_open(ws("/deflate/headers"), {{"headers", {{"Sec-WebSocket-Extensions", "x-none"}}}});
  json seen = json::parse(ws_read(id)["data"].get<std::string>());
  CHECK(seen["extensions"] == "");
  ws_close(id);
}

TEST_CASE("ws: notifyOnData tells through waitNext when a read would not wait", "[ws][notify]") {
  json c = connect(ws("/echo"), {{"notifyOnData", true}});
  REQUIRE(c["status"] == 101);
  const std::string id = c["connectionId"];
  for (const char* m : {"one", "two", "three"}) REQUIRE(ws_write(id, 1, m)["success"] == true);
  std::vector<std::string> got;
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (got.size() < 3) {
    REQUIRE(Clock::now() < deadline);
    for (const auto& e : json::parse(lib().waitNext(5000))) {
      REQUIRE(e == json({{"event", "readable"}, {"connectionId", id}}));
      // One message per event, there already: a 1 ms read does not time out.
      json r = ws_read(id, 1);
      REQUIRE(r["messageType"] == 1);
      got.push_back(r["data"]);
    }
  }
  CHECK(got == std::vector<std::string>{"one", "two", "three"});
  CHECK(std::string(lib().waitNext(300)) == "[]");
  ws_close(id);
  // Closed: waitNext(-1) waits for nothing of it.
  CHECK(std::string(lib().waitNext(-1)) == "[]");

  // The server's close is told once; the read returns it, then no event.
  json closing = connect(ws("/close?code=4001&reason=bye"), {{"notifyOnData", true}});
  REQUIRE(closing["status"] == 101);
  const std::string cid = closing["connectionId"];
  json batch = json::parse(lib().waitNext(5000));
  REQUIRE(batch.size() == 1);
  CHECK(batch[0]["connectionId"] == cid);
  CHECK(ws_read(cid, 1)["body"] == "failed to read message: websocket: close 4001: bye");
  CHECK(std::string(lib().waitNext(300)) == "[]");
  ws_close(cid);
}
