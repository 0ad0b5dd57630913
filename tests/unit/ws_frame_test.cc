#include "wire/ws_frame.h"

#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "http/ws/ws_upgrade.h"

using tlsc::WsOpcode;

namespace {

struct Recorder final : tlsc::WsFrameHandler {
  std::vector<std::pair<int, std::string>> events;
  void on_ws_message(WsOpcode type, std::string payload, bool compressed) override {
    events.emplace_back(static_cast<int>(type) | (compressed ? 0x40 : 0), std::move(payload));
  }
  void on_ws_control(WsOpcode type, std::string_view payload) override {
    events.emplace_back(static_cast<int>(type), std::string(payload));
  }
};

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

// Fed one byte at a time, so that every state is entered mid-input.
std::optional<std::string> feed_bytewise(tlsc::WsFrameReader& r, const std::string& wire, Recorder& rec) {
  for (char c : wire) {
    if (auto e = r.feed(std::string_view(&c, 1), rec)) return e->message;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("ws frames: messages, fragments and control frames, whole or byte by byte", "[ws]") {
  const std::string wire = bytes({0x81, 0x02, 'h', 'i'}) +                   // text "hi"
                           bytes({0x01, 0x01, 'a'}) + bytes({0x89, 0x00}) +  // fragment, then a ping between
                           bytes({0x00, 0x01, 'b'}) + bytes({0x80, 0x01, 'c'}) +
                           bytes({0x82, 0x7e, 0x01, 0x00}) + std::string(256, 'z') +  // 16-bit length
                           bytes({0x82, 0x00}) +                                      // empty binary
                           bytes({0x88, 0x02, 0x03, 0xe8});                           // close 1000
  const std::vector<std::pair<int, std::string>> want = {
      {1, "hi"}, {9, ""}, {1, "abc"}, {2, std::string(256, 'z')}, {2, ""}, {8, bytes({0x03, 0xe8})}};
  {
    tlsc::WsFrameReader r(1 << 20);
    Recorder rec;
    CHECK_FALSE(r.feed(wire, rec));
    CHECK(rec.events == want);
  }
  {
    tlsc::WsFrameReader r(1 << 20);
    Recorder rec;
    CHECK_FALSE(feed_bytewise(r, wire, rec));
    CHECK(rec.events == want);
  }
}

TEST_CASE("ws frames: gorilla's protocol errors, joined, and the read limit", "[ws]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {bytes({0xc1, 0x00}), "websocket: RSV1 set"},
      {bytes({0xf1, 0x80}), "websocket: RSV1 set, RSV2 set, RSV3 set, bad MASK"},
      {bytes({0x83, 0x00}), "websocket: bad opcode 3"},
      {bytes({0x8f, 0x00}), "websocket: bad opcode 15"},
      {bytes({0x09, 0x7e}), "websocket: len > 125 for control, FIN not set on control"},
      {bytes({0x80, 0x00}), "websocket: continuation after FIN"},
      {bytes({0x01, 0x00, 0x81, 0x00}), "websocket: data before FIN"},
      {bytes({0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0}), "websocket: read limit exceeded"},
      {bytes({0x82, 0x7e, 0x04, 0x01}), "websocket: read limit exceeded"},  // 1025 > 1024
      {bytes({0x02, 0x7e, 0x02, 0x00}) + std::string(512, 'x') + bytes({0x80, 0x7e, 0x02, 0x01}),
       "websocket: read limit exceeded"},  // the fragments add up
  };
  for (const auto& [wire, text] : cases) {
    tlsc::WsFrameReader r(1024);
    Recorder rec;
    auto e = r.feed(wire, rec);
    REQUIRE(e);
    CHECK(e->message == text);
    CHECK(e->code == tlsc::ErrorCode::websocket);
    CHECK(r.protocol_error() == (text != "websocket: read limit exceeded"));
    // It stays.
    auto again = r.feed(bytes({0x81, 0x00}), rec);
    REQUIRE(again);
    CHECK(again->message == text);
  }
}

TEST_CASE("ws frames: the client's frames are masked, lengths in 7, 16 and 64 bits", "[ws]") {
  const std::array<uint8_t, 4> mask = {1, 2, 3, 4};
  std::string f = tlsc::ws_encode_frame(WsOpcode::text, true, "abcd", mask);
  CHECK(f == bytes({0x81, 0x84, 1, 2, 3, 4, 'a' ^ 1, 'b' ^ 2, 'c' ^ 3, 'd' ^ 4}));
  f = tlsc::ws_encode_frame(WsOpcode::binary, false, std::string(126, 'x'), mask);
  CHECK(f.substr(0, 8) == bytes({0x02, 0xfe, 0x00, 0x7e, 1, 2, 3, 4}));
  CHECK(f.size() == 8 + 126);
  f = tlsc::ws_encode_frame(WsOpcode::continuation, true, std::string(65536, 'x'), mask);
  CHECK(f.substr(0, 10) == bytes({0x80, 0xff, 0, 0, 0, 0, 0, 1, 0, 0}));
  CHECK(f.size() == 14 + 65536);
}

TEST_CASE("ws close: gorilla's CloseError texts and payloads", "[ws]") {
  CHECK(tlsc::ws_close_text(1000, "") == "websocket: close 1000 (normal)");
  CHECK(tlsc::ws_close_text(1001, "bye") == "websocket: close 1001 (going away): bye");
  CHECK(tlsc::ws_close_text(1006, "unexpected EOF") ==
        "websocket: close 1006 (abnormal closure): unexpected EOF");
  CHECK(tlsc::ws_close_text(1012, "") == "websocket: close 1012");
  CHECK(tlsc::ws_close_text(4000, "x") == "websocket: close 4000: x");
  CHECK(tlsc::ws_close_payload(1000, "") == bytes({0x03, 0xe8}));
  CHECK(tlsc::ws_close_payload(1002, "no") == bytes({0x03, 0xea, 'n', 'o'}));
  CHECK(tlsc::ws_close_payload(1005, "ignored").empty());
}

TEST_CASE("ws upgrade: RFC 6455's accept key, and the checks of the 101", "[ws]") {
  // RFC 6455 section 1.3's example.
  CHECK(tlsc::ws_accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  tlsc::ResponseHead h;
  h.status = 101;
  h.headers = {{"Upgrade", "WebSocket"},
               {"Connection", "keep-alive, Upgrade"},
               {"Sec-Websocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="}};
  tlsc::WsUpgradeRequest req;
  req.key = "dGhlIHNhbXBsZSBub25jZQ==";
  auto ok = tlsc::check_ws_upgrade_response(h, req);
  REQUIRE(ok);
  CHECK_FALSE(*ok);
  auto bad = h;
  bad.status = 200;
  CHECK(tlsc::check_ws_upgrade_response(bad, req).error().message == "websocket: bad handshake");
  bad = h;
  bad.headers[1].second = "keep-alive";
  CHECK(tlsc::check_ws_upgrade_response(bad, req).error().message == "websocket: bad handshake");
  bad = h;
  bad.headers[2].second = "x";
  CHECK(tlsc::check_ws_upgrade_response(bad, req).error().message == "websocket: bad handshake");
  bad = h;
  bad.headers.emplace_back("Sec-Websocket-Extensions", "permessage-deflate");
  CHECK(tlsc::check_ws_upgrade_response(bad, req).error().message ==
        "websocket: invalid compression negotiation");
}

TEST_CASE("ws upgrade: the request as fhttp writes it, and gorilla's refusals", "[ws]") {
  auto r = tlsc::make_ws_upgrade(
      {"wss://example.test:8443/chat?room=1#frag", {{"Origin", "https://a.test"}}, {}, ""});
  REQUIRE(r);
  CHECK(r->url.scheme == "https");
  CHECK(r->key.size() == 24);
  const std::string want_prefix =
      "GET /chat?room=1 HTTP/1.1\r\nConnection: Upgrade\r\nHost: example.test:8443\r\n"
      "Origin: https://a.test\r\nSec-WebSocket-Key: " +
      r->key +
      "\r\nSec-WebSocket-Version: 13\r\nUpgrade: websocket\r\n"
      "User-Agent: Go-http-client/1.1\r\n\r\n";
  CHECK(r->bytes == want_prefix);
  // The caller's exact "Sec-WebSocket-Key" replaces the generated key.
  r = tlsc::make_ws_upgrade(
      {"ws://h/", {{"Sec-WebSocket-Key", "mine"}, {"Host", "other"}}, {"HOST", "sec-websocket-key"}, ""});
  REQUIRE(r);
  CHECK(r->key == "mine");
  CHECK(r->bytes.rfind("GET / HTTP/1.1\r\nHost: other\r\nSec-WebSocket-Key: mine\r\n", 0) == 0);
  CHECK(tlsc::make_ws_upgrade({"http://h/", {}, {}, ""}).error().message == "malformed ws or wss URL");
  CHECK(tlsc::make_ws_upgrade({"ws://u:p@h/", {}, {}, ""}).error().message == "malformed ws or wss URL");
  CHECK(tlsc::make_ws_upgrade({"ws://h/", {{"Connection", "x"}}, {}, ""}).error().message ==
        "websocket: duplicate header not allowed: Connection");
}
