// permessage-deflate (RFC 7692): the negotiation of the server's answer,
// the inflater and deflater against the RFC's own example bytes, and the
// frame reader's RSV1 rules once the extension is in use.
#include "codec/ws_deflate.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "http/ws/ws_upgrade.h"
#include "wire/ws_extensions.h"
#include "wire/ws_frame.h"

namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

struct Recorder final : tlsc::WsFrameHandler {
  std::vector<std::pair<int, bool>> messages;
  void on_ws_message(tlsc::WsOpcode type, std::string, bool compressed) override {
    messages.emplace_back(static_cast<int>(type), compressed);
  }
  void on_ws_control(tlsc::WsOpcode, std::string_view) override {}
};

const tlsc::WsDeflateOffer kChromeOffer =
    tlsc::parse_ws_deflate_offer("permessage-deflate; client_max_window_bits");
const tlsc::WsDeflateOffer kFirefoxOffer = tlsc::parse_ws_deflate_offer("permessage-deflate");

}  // namespace

TEST_CASE("ws deflate: what an offer asks for", "[ws]") {
  CHECK(kChromeOffer.offered);
  CHECK(kChromeOffer.client_max_window_bits);
  CHECK(kFirefoxOffer.offered);
  CHECK_FALSE(kFirefoxOffer.client_max_window_bits);
  CHECK_FALSE(tlsc::parse_ws_deflate_offer("").offered);
  CHECK_FALSE(tlsc::parse_ws_deflate_offer("x-webkit-deflate-frame").offered);
  CHECK(tlsc::parse_ws_deflate_offer("foo, Permessage-Deflate ; Client_Max_Window_Bits")
            .client_max_window_bits);
}

TEST_CASE("ws deflate: the server's answer, accepted or refused as RFC 7692 section 7.1 says", "[ws]") {
  auto none = tlsc::accept_ws_extensions({}, kChromeOffer);
  REQUIRE(none);
  CHECK_FALSE(*none);
  auto plain = tlsc::accept_ws_extensions({"permessage-deflate"}, kChromeOffer);
  REQUIRE(plain);
  REQUIRE(*plain);
  CHECK((*plain)->client_max_window_bits == 15);
  CHECK_FALSE((*plain)->server_no_context_takeover);
  auto full = tlsc::accept_ws_extensions(
      {"permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
       "server_max_window_bits=10; client_max_window_bits=\"9\""},
      kChromeOffer);
  REQUIRE(full);
  REQUIRE(*full);
  CHECK((*full)->server_no_context_takeover);
  CHECK((*full)->client_no_context_takeover);
  CHECK((*full)->server_max_window_bits == 10);
  CHECK((*full)->client_max_window_bits == 9);
  const std::vector<std::pair<std::vector<std::string_view>, tlsc::WsDeflateOffer>> refused = {
      {{"permessage-deflate"}, {}},                                          // nothing offered
      {{"x-webkit-deflate-frame"}, kChromeOffer},                            // not offered
      {{"permessage-deflate, permessage-deflate"}, kChromeOffer},            // twice
      {{"permessage-deflate", "permessage-deflate"}, kChromeOffer},          // twice, two lines
      {{"permessage-deflate; client_max_window_bits=10"}, kFirefoxOffer},    // not offered
      {{"permessage-deflate; client_max_window_bits"}, kChromeOffer},        // a value is required
      {{"permessage-deflate; server_max_window_bits=7"}, kChromeOffer},      // out of range
      {{"permessage-deflate; server_max_window_bits=16"}, kChromeOffer},     // out of range
      {{"permessage-deflate; server_max_window_bits=010"}, kChromeOffer},    // leading zero
      {{"permessage-deflate; server_no_context_takeover=1"}, kChromeOffer},  // no value allowed
      {{"permessage-deflate; server_no_context_takeover; server_no_context_takeover"}, kChromeOffer},
      {{"permessage-deflate; foo"}, kChromeOffer},  // unknown parameter
      {{"permessage-deflate; =1"}, kChromeOffer},   // no name
  };
  for (const auto& [answer, offer] : refused) {
    INFO(answer[0]);
    auto r = tlsc::accept_ws_extensions(answer, offer);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "websocket: invalid compression negotiation");
  }
}

TEST_CASE("ws deflate: RFC 7692's example messages inflate, with and without context takeover", "[ws]") {
  // Section 7.2.3.1: "Hello" compressed; 7.2.3.2: the second "Hello" with
  // the first one's context.
  const std::string first = bytes({0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00});
  const std::string second = bytes({0xf2, 0x00, 0x11, 0x00, 0x00});
  tlsc::WsInflater takeover(false);
  CHECK(takeover.inflate(first, 100).value() == "Hello");
  CHECK(takeover.inflate(second, 100).value() == "Hello");
  // 7.2.3.3: an uncompressed (stored) block.
  tlsc::WsInflater stored(true);
  CHECK(stored.inflate(bytes({0x00, 0x05, 0x00, 0xfa, 0xff, 'H', 'e', 'l', 'l', 'o', 0x00}), 100).value() ==
        "Hello");
  // 7.2.3.4: a final block (BFINAL), then one octet of a block header; the
  // next message starts afresh.
  tlsc::WsInflater bfinal(false);
  CHECK(bfinal.inflate(bytes({0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00}), 100).value() == "Hello");
  CHECK(bfinal.inflate(first, 100).value() == "Hello");
  // The same with no context takeover: each message alone.
  tlsc::WsInflater alone(true);
  CHECK(alone.inflate(first, 100).value() == "Hello");
  CHECK(alone.inflate(first, 100).value() == "Hello");
}

TEST_CASE("ws deflate: bad data, and a bomb stops at the limit", "[ws]") {
  tlsc::WsInflater bad(false);
  auto r = bad.inflate(bytes({0xff, 0xff, 0xff}), 100);
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "websocket: invalid compressed message");
  // 4 MiB of zeros compress to a few KiB; the limit stops them early.
  tlsc::WsDeflater packer(15, false);
  const auto bomb = packer.deflate(std::string(4 << 20, '\0'));
  REQUIRE(bomb);
  CHECK(bomb->size() < 8192);
  tlsc::WsInflater limited(false);
  r = limited.inflate(*bomb, 1 << 20);
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "websocket: read limit exceeded");
  CHECK(r.error().code == tlsc::ErrorCode::websocket);
}

TEST_CASE("ws deflate: what the deflater writes inflates back, for every window and takeover", "[ws]") {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "message " + std::to_string(i * 7919 % 1000) + " ";
  for (int bits = 9; bits <= 15; ++bits) {
    for (bool no_takeover : {false, true}) {
      tlsc::WsDeflater out(bits, no_takeover);
      tlsc::WsInflater in(no_takeover);
      for (int round = 0; round < 3; ++round) {
        auto packed = out.deflate(text);
        REQUIRE(packed);
        // The four octets 00 00 ff ff are not sent.
        CHECK(packed->substr(packed->size() - 4) != bytes({0x00, 0x00, 0xff, 0xff}));
        CHECK(packed->size() < text.size() / 3);
        CHECK(in.inflate(*packed, 1 << 20).value() == text);
      }
    }
  }
}

TEST_CASE("ws deflate: an empty message is the one octet 0x00, and the context goes on after it", "[ws]") {
  // Found by ws_deflate_fuzz: zlib skips a sync flush right after another,
  // so an empty message came out empty and put the receiver out of step.
  tlsc::WsDeflater out(9, false);
  tlsc::WsInflater in(false);
  for (const std::string& m : {std::string("Hello"), std::string(), std::string(), std::string("World")}) {
    auto packed = out.deflate(m);
    REQUIRE(packed);
    if (m.empty()) CHECK(*packed == bytes({0x00}));
    CHECK(in.inflate(*packed, 100).value() == m);
  }
}

TEST_CASE("ws frames: RSV1 with permessage-deflate marks a message's first frame only", "[ws]") {
  tlsc::WsFrameReader r(1024);
  r.allow_compression();
  Recorder rec;
  // A compressed text in one frame, a compressed binary in two, then an
  // uncompressed text.
  CHECK_FALSE(r.feed(bytes({0xc1, 0x01, 'x', 0x42, 0x01, 'y', 0x80, 0x01, 'z', 0x81, 0x00}), rec));
  CHECK(rec.messages == std::vector<std::pair<int, bool>>{{1, true}, {2, true}, {1, false}});
  for (const std::string& wire : {bytes({0x41, 0x01, 'y', 0xc0, 0x01, 'z'}),  // on a continuation
                                  bytes({0xc9, 0x00})}) {                     // on a ping
    tlsc::WsFrameReader c(1024);
    c.allow_compression();
    auto e = c.feed(wire, rec);
    REQUIRE(e);
    CHECK(e->message == "websocket: RSV1 set");
  }
}

TEST_CASE("ws upgrade: the profile's offer goes out, a caller's own replaces it", "[ws]") {
  auto r = tlsc::make_ws_upgrade({"ws://h/", {}, {}, "permessage-deflate; client_max_window_bits"});
  REQUIRE(r);
  CHECK(r->bytes.find("\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n") !=
        std::string::npos);
  CHECK(r->deflate_offer.offered);
  CHECK(r->deflate_offer.client_max_window_bits);
  r = tlsc::make_ws_upgrade({"ws://h/",
                             {{"Sec-WebSocket-Extensions", "permessage-deflate"}},
                             {},
                             "permessage-deflate; client_max_window_bits"});
  REQUIRE(r);
  CHECK(r->bytes.find("\r\nSec-WebSocket-Extensions: permessage-deflate\r\n") != std::string::npos);
  CHECK_FALSE(r->deflate_offer.client_max_window_bits);
  r = tlsc::make_ws_upgrade({"ws://h/", {}, {}, ""});
  REQUIRE(r);
  CHECK(r->bytes.find("Sec-WebSocket-Extensions") == std::string::npos);
  CHECK_FALSE(r->deflate_offer.offered);
}
