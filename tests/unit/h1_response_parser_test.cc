#include "wire/h1_response_parser.h"

#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

using tlsc::H1ResponseParser;
using Headers = std::vector<std::pair<std::string, std::string>>;

namespace {

struct Outcome {
  std::optional<std::string> error;
  bool head_complete = false;
  bool complete = false;
  bool keep_alive = false;
  int status = 0;
  std::string proto;
  std::string reason;
  std::string status_text;
  Headers headers;
  Headers trailers;
  std::string body;
  size_t consumed = 0;
  int64_t content_length = 0;
  bool chunked = false;

  bool operator==(const Outcome&) const = default;
};

// Feeds `wire` in `step`-byte pieces, stopping where the parser stops
// consuming, then signals EOF when asked.
Outcome run(std::string_view method, std::string_view wire, bool eof, size_t step,
            size_t limit = H1ResponseParser::kDefaultMaxHeaderBytes, size_t read_buffer = 0) {
  H1ResponseParser p(method, limit, read_buffer);
  Outcome o;
  size_t pos = 0;
  while (pos < wire.size()) {
    const std::string_view piece = wire.substr(pos, step);
    auto r = p.feed(piece, o.body);
    if (!r.ok()) {
      CHECK(r.error().code == tlsc::ErrorCode::http_protocol);
      o.error = r.error().message;
      break;
    }
    pos += r.value();
    if (r.value() < piece.size()) break;
  }
  if (!o.error && eof) {
    if (auto e = p.on_eof()) o.error = e->message;
  }
  // Where a failing parse stopped depends on how the bytes were split.
  o.consumed = o.error ? 0 : pos;
  o.head_complete = p.head_complete();
  o.complete = p.message_complete();
  o.keep_alive = p.keep_alive();
  o.status = p.head().status;
  o.proto = p.head().proto;
  o.reason = p.head().reason;
  o.status_text = p.head().status_text;
  o.headers = p.head().headers;
  o.trailers = p.trailers();
  o.content_length = p.content_length();
  o.chunked = p.chunked();
  return o;
}

// Every scenario must come out the same whether the bytes arrive at once
// or one at a time.
Outcome parse(std::string_view wire, bool eof = false, std::string_view method = "GET",
              size_t limit = H1ResponseParser::kDefaultMaxHeaderBytes, size_t read_buffer = 0) {
  const Outcome whole = run(method, wire, eof, wire.size() + 1, limit, read_buffer);
  const Outcome bytewise = run(method, wire, eof, 1, limit, read_buffer);
  CHECK(whole == bytewise);
  const Outcome threes = run(method, wire, eof, 3, limit, read_buffer);
  CHECK(whole == threes);
  return whole;
}

std::string parse_error(std::string_view wire, bool eof = false, std::string_view method = "GET",
                        size_t limit = H1ResponseParser::kDefaultMaxHeaderBytes, size_t read_buffer = 0) {
  const Outcome o = parse(wire, eof, method, limit, read_buffer);
  REQUIRE(o.error.has_value());
  return *o.error;
}

}  // namespace

namespace Catch {
template <>
struct StringMaker<Outcome> {
  static std::string convert(const Outcome& o) {
    std::string s = "{error=" + (o.error ? *o.error : std::string("none")) +
                    " status=" + std::to_string(o.status) + " complete=" + std::to_string(o.complete) +
                    " body=" + std::to_string(o.body.size()) + "B consumed=" + std::to_string(o.consumed) +
                    " headers=" + std::to_string(o.headers.size()) +
                    " trailers=" + std::to_string(o.trailers.size()) + "}";
    return s;
  }
};
}  // namespace Catch

TEST_CASE("Content-Length response, leftover bytes not consumed", "[h1][parser]") {
  const std::string wire =
      "HTTP/1.1 200 OK\r\n"
      "content-type: text/plain\r\n"
      "Content-Length: 5\r\n"
      "X-custom-HEADER: v\r\n"
      "\r\n"
      "helloHTTP/1.1 200 OK\r\n";
  const Outcome o = parse(wire);
  CHECK_FALSE(o.error);
  CHECK(o.complete);
  CHECK(o.keep_alive);
  CHECK(o.status == 200);
  CHECK(o.proto == "HTTP/1.1");
  CHECK(o.reason == "OK");
  CHECK(o.status_text == "200 OK");
  CHECK(o.headers ==
        Headers{{"Content-Type", "text/plain"}, {"Content-Length", "5"}, {"X-Custom-Header", "v"}});
  CHECK(o.body == "hello");
  CHECK(o.content_length == 5);
  CHECK(o.consumed == wire.find("helloHTTP") + 5);
}

TEST_CASE("status line variants Go accepts", "[h1][parser]") {
  Outcome o = parse("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n");
  CHECK(o.status == 404);
  CHECK(o.reason.empty());
  CHECK(o.status_text == "404");

  o = parse("HTTP/1.1   200   Very  OK\r\nContent-Length: 0\r\n\r\n");
  CHECK(o.status == 200);
  CHECK(o.status_text == "200   Very  OK");
  CHECK(o.reason == "  Very  OK");

  o = parse("HTTP/1.1 +20 odd\r\nContent-Length: 0\r\n\r\n");  // strconv.Atoi accepts a sign
  CHECK_FALSE(o.error);
  CHECK(o.status == 20);

  o = parse("HTTP/01.01 200 OK\r\nContent-Length: 0\r\n\r\n");
  CHECK_FALSE(o.error);
  CHECK(o.keep_alive);

  o = parse("HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n");
  CHECK_FALSE(o.error);
  CHECK(o.proto == "HTTP/2.0");
}

TEST_CASE("bad status lines", "[h1][parser]") {
  CHECK(parse_error("HTTP/1.1\r\n\r\n") == "malformed HTTP response \"HTTP/1.1\"");
  CHECK(parse_error("\r\nHTTP/1.1 200 OK\r\n\r\n") == "malformed HTTP response \"\"");
  CHECK(parse_error("SSH-2.0-OpenSSH_9.6\r\n") == "malformed HTTP response \"SSH-2.0-OpenSSH_9.6\"");
  CHECK(parse_error("HTTP/1.1 abc OK\r\n\r\n") == "malformed HTTP status code \"abc\"");
  CHECK(parse_error("HTTP/1.1 20 OK\r\n\r\n") == "malformed HTTP status code \"20\"");
  CHECK(parse_error("HTTP/1.1 2000 OK\r\n\r\n") == "malformed HTTP status code \"2000\"");
  CHECK(parse_error("HTTP/1.1 -20 OK\r\n\r\n") == "malformed HTTP status code \"-20\"");
  CHECK(parse_error("HTTP/1.1 2x0 OK\r\n\r\n") == "malformed HTTP status code \"2x0\"");
  CHECK(parse_error("HTTP/1.1  \r\n\r\n") == "malformed HTTP status code \"\"");
  CHECK(parse_error("HTP/1.1 200 OK\r\n\r\n") == "malformed HTTP version \"HTP/1.1\"");
  CHECK(parse_error("HTTP/1 200 OK\r\n\r\n") == "malformed HTTP version \"HTTP/1\"");
  CHECK(parse_error("HTTP/1.x 200 OK\r\n\r\n") == "malformed HTTP version \"HTTP/1.x\"");
  CHECK(parse_error("HTTP/1000001.0 200 OK\r\n\r\n") == "malformed HTTP version \"HTTP/1000001.0\"");
  // The status code is judged before the version.
  CHECK(parse_error("FOO 9 OK\r\n\r\n") == "malformed HTTP status code \"9\"");
}

TEST_CASE("bare LF line endings are accepted", "[h1][parser]") {
  const Outcome o = parse("HTTP/1.1 200 OK\nContent-Length: 2\nA: b\n\nhi");
  CHECK_FALSE(o.error);
  CHECK(o.complete);
  CHECK(o.headers == Headers{{"Content-Length", "2"}, {"A", "b"}});
  CHECK(o.body == "hi");
}

TEST_CASE("obs-fold continuation lines are joined with one space", "[h1][parser]") {
  const Outcome o = parse(
      "HTTP/1.1 200 OK\r\n"
      "X-Long: first  \r\n"
      "   second\r\n"
      "\t third \r\n"
      "Content-Length: 0\r\n"
      "\r\n");
  CHECK_FALSE(o.error);
  CHECK(o.headers == Headers{{"X-Long", "first second third"}, {"Content-Length", "0"}});
}

TEST_CASE("header value whitespace and odd keys", "[h1][parser]") {
  const Outcome o = parse(
      "HTTP/1.1 200 OK\r\n"
      "A:no-space\r\n"
      "B:   \t lots   \r\n"
      "C:\r\n"
      "bad key: kept as is\r\n"
      "Set-Cookie: a=1\r\n"
      "set-cookie: b=2\r\n"
      "Obs: caf\xC3\xA9\r\n"
      "Content-Length: 0\r\n"
      "\r\n");
  CHECK_FALSE(o.error);
  CHECK(o.headers == Headers{{"A", "no-space"},
                             {"B", "lots"},
                             {"C", ""},
                             {"bad key", "kept as is"},
                             {"Set-Cookie", "a=1"},
                             {"Set-Cookie", "b=2"},
                             {"Obs", "caf\xC3\xA9"},
                             {"Content-Length", "0"}});
}

TEST_CASE("malformed header lines", "[h1][parser]") {
  CHECK(parse_error("HTTP/1.1 200 OK\r\nNoColon\r\n\r\n") ==
        "malformed MIME header: missing colon: \"NoColon\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\n Leading: space\r\n\r\n") ==
        "malformed MIME header initial line:  Leading: space");
  CHECK(parse_error("HTTP/1.1 200 OK\r\n " + std::string(90, 'x') + "\r\n\r\n") == "message too large");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nBad@Key: v\r\n\r\n") == "malformed MIME header line: Bad@Key: v");
  CHECK(parse_error("HTTP/1.1 200 OK\r\n: empty key\r\n\r\n") == "malformed MIME header line: : empty key");
  CHECK(parse_error(std::string("HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n", 27)) ==
        std::string("malformed MIME header line: X: a\0b", 34));
  CHECK(parse_error("HTTP/1.1 200 OK\r\nX: a\r\r\n\r\n") == "malformed MIME header line: X: a\r");
}

TEST_CASE("header block over the limit", "[h1][parser]") {
  const std::string head =
      "HTTP/1.1 200 OK\r\n"
      "X-Fill: " +
      std::string(40, 'f') +
      "\r\n"
      "Content-Length: 0\r\n"
      "\r\n";
  SECTION("exactly at the limit passes") {
    const Outcome o = parse(head, false, "GET", head.size());
    CHECK_FALSE(o.error);
    CHECK(o.complete);
  }
  SECTION("one byte less fails with Go's message") {
    CHECK(parse_error(head, false, "GET", head.size() - 1) == "net/http: server response headers exceeded " +
                                                                  std::to_string(head.size() - 1) +
                                                                  " bytes; aborted");
  }
  SECTION("a line that never ends stops at the limit") {
    const std::string endless = "HTTP/1.1 200 OK\r\nX: " + std::string(5000, 'a');
    CHECK(parse_error(endless, false, "GET", 1024) ==
          "net/http: server response headers exceeded 1024 bytes; aborted");
  }
  SECTION("EOF right at the limit reports the limit") {
    CHECK(parse_error(head.substr(0, 30), true, "GET", 30) ==
          "net/http: server response headers exceeded 30 bytes; aborted");
  }
  SECTION("body bytes do not count") {
    const std::string wire = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + std::string(100, 'b');
    const Outcome o = parse(wire, false, "GET", 40);
    CHECK_FALSE(o.error);
    CHECK(o.body.size() == 100);
  }
  SECTION("each 1xx head gets its own budget") {
    const std::string wire =
        "HTTP/1.1 100 Continue\r\nX: 0123456789\r\n\r\n"
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    const Outcome o = parse(wire, false, "GET", 40);
    CHECK_FALSE(o.error);
    CHECK(o.status == 200);
  }
}

TEST_CASE("1xx informational responses are skipped, 101 is final", "[h1][parser]") {
  SECTION("100 and 103 skipped") {
    const Outcome o = parse(
        "HTTP/1.1 100 Continue\r\n\r\n"
        "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    CHECK_FALSE(o.error);
    CHECK(o.status == 200);
    CHECK(o.headers == Headers{{"Content-Length", "2"}});
    CHECK(o.body == "ok");
    CHECK(o.keep_alive);
  }
  SECTION("101 completes at the head, rest left for the new protocol") {
    const std::string wire =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        "\x81\x05hello";
    const Outcome o = parse(wire);
    CHECK(o.status == 101);
    CHECK(o.complete);
    CHECK_FALSE(o.keep_alive);
    CHECK(o.body.empty());
    CHECK(o.consumed == wire.find('\x81'));
  }
  SECTION("more than five are refused") {
    std::string wire;
    for (int i = 0; i < 6; ++i) wire += "HTTP/1.1 102 Processing\r\n\r\n";
    wire += "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    CHECK(parse_error(wire) == "net/http: too many 1xx informational responses");
  }
  SECTION("five are fine") {
    std::string wire;
    for (int i = 0; i < 5; ++i) wire += "HTTP/1.1 102 Processing\r\n\r\n";
    wire += "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    CHECK_FALSE(parse(wire).error);
  }
}

TEST_CASE("chunked bodies", "[h1][parser]") {
  SECTION("chunks, extensions, trailers") {
    const std::string wire =
        "HTTP/1.1 200 OK\r\n"
        "Transfer-Encoding: chunked\r\n"
        "Trailer: X-Checksum\r\n"
        "\r\n"
        "5;name=value\r\nhello\r\n"
        "1 \t\r\n \r\n"
        "A;quoted=\"a;b\"\r\n0123456789\r\n"
        "0;last\r\n"
        "x-checksum: abc\r\n"
        "\r\n"
        "NEXT";
    const Outcome o = parse(wire);
    CHECK_FALSE(o.error);
    CHECK(o.complete);
    CHECK(o.chunked);
    CHECK(o.content_length == -1);
    CHECK(o.keep_alive);
    CHECK(o.body == "hello 0123456789");
    CHECK(o.headers.empty());  // Transfer-Encoding and Trailer are removed
    CHECK(o.trailers == Headers{{"X-Checksum", "abc"}});
    CHECK(o.consumed == wire.size() - 4);
  }
  SECTION("upper-case and padded chunked token, hex case") {
    const Outcome o = parse(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding:  Chunked \r\n\r\n"
        "a\r\n0123456789\r\nB\r\nabcdefghijk\r\n0\r\n\r\n");
    CHECK_FALSE(o.error);
    CHECK(o.body == "0123456789abcdefghijk");
  }
  SECTION("an empty size line ends the body, as in fhttp") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n\r\n\r\n");
    CHECK_FALSE(o.error);
    CHECK(o.complete);
    CHECK(o.body == "ab");
  }
  SECTION("chunked wins over Content-Length, which is dropped") {
    const Outcome o = parse(
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
        "3\r\nabc\r\n0\r\n\r\n");
    CHECK_FALSE(o.error);
    CHECK(o.complete);
    CHECK(o.body == "abc");
    CHECK(o.headers.empty());
  }
  SECTION("chunked + an invalid Content-Length is still fine") {
    const Outcome o =
        parse("HTTP/1.1 200 OK\r\nContent-Length: nope\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    CHECK_FALSE(o.error);
    CHECK(o.complete);
  }
  SECTION("HEAD and 204 with chunked have no body") {
    Outcome o = parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n", false, "HEAD");
    CHECK(o.complete);
    CHECK(o.body.empty());
    o = parse("HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n");
    CHECK(o.complete);
  }
}

TEST_CASE("bad chunk framing", "[h1][parser]") {
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(parse_error(head + "zz\r\n") == "invalid byte in chunk length");
  CHECK(parse_error(head + "-1\r\n") == "invalid byte in chunk length");
  CHECK(parse_error(head + " 5\r\nhello\r\n") == "invalid byte in chunk length");
  CHECK(parse_error(head + "5 ;x\r\nhello\r\n") == "invalid byte in chunk length");
  CHECK(parse_error(head + "0x5\r\n") == "invalid byte in chunk length");
  CHECK(parse_error(head + "10000000000000000\r\n") == "http chunk length too large");
  CHECK(parse_error(head + "00000000000000001\r\n") == "http chunk length too large");
  CHECK(parse_error(head + "5\r\nhelloXY") == "malformed chunked encoding");
  CHECK(parse_error(head + "5\r\nhello\n3\r\nabc\r\n") == "malformed chunked encoding");
  CHECK(parse_error(head + "5\r\nhello\r0\r\n\r\n") == "malformed chunked encoding");
  CHECK(parse_error(head + std::string(5000, '1')) == "header line too long");
  CHECK(parse_error(head + "1;" + std::string(4093, 'e') + "\n") == "header line too long");
  CHECK_FALSE(parse(head + "1;" + std::string(4092, 'e') + "\nx\r\n0\r\n\r\n").error);
  // At EOF a 4095-byte line has not yet filled the 4 KiB buffer.
  CHECK(parse_error(head + std::string(4095, '1'), true) == "unexpected EOF");
}

TEST_CASE("the Transport's ReadBufferSize bounds chunk lines and trailers", "[h1][parser]") {
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  const auto limit = H1ResponseParser::kDefaultMaxHeaderBytes;
  CHECK_FALSE(
      parse(head + "1;" + std::string(12, 'e') + "\r\nx\r\n0\r\n\r\n", false, "GET", limit, 16).error);
  // A full buffer without LF fails at once, EOF or not.
  CHECK(parse_error(head + "1;" + std::string(14, 'e'), true, "GET", limit, 16) == "header line too long");
  CHECK(parse_error(head + "1;" + std::string(14, 'e'), false, "GET", limit, 16) == "header line too long");
  // Sizes below bufio's minimum are raised to 16.
  CHECK_FALSE(parse(head + "1;" + std::string(12, 'e') + "\r\nx\r\n0\r\n\r\n", false, "GET", limit, 4).error);
  CHECK_FALSE(parse(head + "1\r\nx\r\n0\r\nX-T: 1234567\r\n\r\n", false, "GET", limit, 16).error);
  CHECK(parse_error(head + "1\r\nx\r\n0\r\nX-T: 12345678\r\n\r\n", false, "GET", limit, 16) ==
        "http: suspiciously long trailer after chunked body");
  // A bigger buffer allows longer trailers, but not longer size lines.
  CHECK_FALSE(
      parse(head + "0\r\nX: " + std::string(5000, 'a') + "\r\n\r\n", false, "GET", limit, 8192).error);
  CHECK(parse_error(head + "1;" + std::string(4093, 'e') + "\n", false, "GET", limit, 8192) ==
        "header line too long");
}

TEST_CASE("Transfer-Encoding other than a single chunked is refused", "[h1][parser]") {
  CHECK(parse_error("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n") ==
        "unsupported transfer encoding: \"gzip\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") ==
        "unsupported transfer encoding: \"gzip, chunked\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n") ==
        "too many transfer encodings: [\"chunked\" \"chunked\"]");
  SECTION("ignored on HTTP/1.0") {
    const Outcome o = parse("HTTP/1.0 200 OK\r\nTransfer-Encoding: bogus\r\nContent-Length: 3\r\n\r\nabc");
    CHECK_FALSE(o.error);
    CHECK(o.body == "abc");
    CHECK(o.headers == Headers{{"Content-Length", "3"}});
  }
}

TEST_CASE("Content-Length validation", "[h1][parser]") {
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n") == "bad Content-Length \"abc\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") == "bad Content-Length \"-1\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\n") == "bad Content-Length \"+5\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\n") == "bad Content-Length \"1 2\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775808\r\n\r\n") ==
        "bad Content-Length \"9223372036854775808\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") ==
        "http: message cannot contain multiple Content-Length headers; got [\"1\" \"2\"]");
  SECTION("agreeing duplicates are merged into the first") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nX: y\r\ncontent-length:   3\r\n\r\nabc");
    CHECK_FALSE(o.error);
    CHECK(o.body == "abc");
    CHECK(o.headers == Headers{{"Content-Length", "3"}, {"X", "y"}});
  }
  SECTION("an empty Content-Length means close-delimited") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\nall of it", true);
    CHECK_FALSE(o.error);
    CHECK(o.body == "all of it");
    CHECK(o.headers.empty());
    CHECK_FALSE(o.keep_alive);
  }
  SECTION("leading zeros are fine") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nContent-Length: 003\r\n\r\nabc");
    CHECK(o.body == "abc");
  }
  SECTION("bad value ignored for 204/304, refused for HEAD") {
    CHECK(parse("HTTP/1.1 304 Not Modified\r\nContent-Length: x\r\n\r\n").complete);
    CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", false, "HEAD") ==
          "bad Content-Length \"x\"");
  }
}

TEST_CASE("responses without a body", "[h1][parser]") {
  SECTION("HEAD keeps Content-Length but reads no body") {
    const std::string wire = "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\nHTTP/1.1";
    const Outcome o = parse(wire, false, "HEAD");
    CHECK(o.complete);
    CHECK(o.body.empty());
    CHECK(o.content_length == 1234);
    CHECK(o.keep_alive);
    CHECK(o.consumed == wire.size() - 8);
  }
  SECTION("HEAD without length is not close-delimited") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\n\r\n", false, "HEAD");
    CHECK(o.complete);
    CHECK(o.keep_alive);
    CHECK(o.content_length == -1);
  }
  SECTION("204 and 304 ignore Content-Length") {
    for (const char* status : {"204 No Content", "304 Not Modified"}) {
      const std::string wire = std::string("HTTP/1.1 ") + status + "\r\nContent-Length: 10\r\n\r\nX";
      const Outcome o = parse(wire);
      CHECK(o.complete);
      CHECK(o.body.empty());
      CHECK(o.keep_alive);
      CHECK(o.consumed == wire.size() - 1);
    }
  }
  SECTION("Content-Length: 0") { CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").complete); }
}

TEST_CASE("close-delimited bodies and keep-alive", "[h1][parser]") {
  SECTION("no length on HTTP/1.1 reads to EOF") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nServer: x\r\n\r\nsome body", true);
    CHECK_FALSE(o.error);
    CHECK(o.complete);
    CHECK(o.body == "some body");
    CHECK_FALSE(o.keep_alive);
    CHECK(o.content_length == -1);
  }
  SECTION("not complete until EOF") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\n\r\nabc", false);
    CHECK_FALSE(o.complete);
    CHECK(o.body == "abc");
  }
  SECTION("HTTP/1.0 closes by default") {
    const Outcome o = parse("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\na");
    CHECK(o.complete);
    CHECK_FALSE(o.keep_alive);
  }
  SECTION("HTTP/1.0 with keep-alive") {
    const Outcome o = parse("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\na");
    CHECK(o.keep_alive);
    CHECK(o.headers == Headers{{"Connection", "Keep-Alive"}, {"Content-Length", "1"}});
  }
  SECTION("HTTP/1.1 Connection: close is honoured and removed") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n");
    CHECK_FALSE(o.keep_alive);
    CHECK(o.headers == Headers{{"Content-Length", "0"}});
  }
  SECTION("HTTP/1.1 Connection token must match exactly") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nConnection: closed\r\nContent-Length: 0\r\n\r\n");
    CHECK(o.keep_alive);
  }
  SECTION("HTTP/0.9-style versions always close") {
    const Outcome o = parse("HTTP/0.9 200 OK\r\nContent-Length: 0\r\n\r\n");
    CHECK_FALSE(o.keep_alive);
  }
}

TEST_CASE("Pragma: no-cache implies Cache-Control", "[h1][parser]") {
  Outcome o = parse("HTTP/1.1 200 OK\r\nPragma: no-cache\r\nContent-Length: 0\r\n\r\n");
  CHECK(o.headers == Headers{{"Pragma", "no-cache"}, {"Content-Length", "0"}, {"Cache-Control", "no-cache"}});
  o = parse("HTTP/1.1 200 OK\r\nPragma: no-cache\r\nCache-Control: max-age=1\r\nContent-Length: 0\r\n\r\n");
  CHECK(o.headers.size() == 3);
}

TEST_CASE("truncated messages at EOF", "[h1][parser]") {
  const std::string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(parse_error("", true) == "EOF");
  CHECK(parse_error("HTTP/1.1 200", true) == "unexpected EOF");
  CHECK(parse_error("HTTP/1.1", true) == "malformed HTTP response \"HTTP/1.1\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", true) == "unexpected EOF");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nbroken", true) == "malformed MIME header: missing colon: \"broken\"");
  CHECK(parse_error("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", true) == "unexpected EOF");
  CHECK(parse_error(chunked, true) == "unexpected EOF");
  CHECK(parse_error(chunked + "5\r", true) == "unexpected EOF");
  CHECK(parse_error(chunked + "5\r\nhel", true) == "http: unexpected EOF reading trailer");
  CHECK(parse_error(chunked + "5\r\nhello", true) == "http: unexpected EOF reading trailer");
  CHECK(parse_error(chunked + "5\r\nhello\r", true) == "unexpected EOF");
  CHECK(parse_error(chunked + "5\r\nhelloX", true) == "unexpected EOF");
  CHECK(parse_error(chunked + "0\r\n", true) == "http: unexpected EOF reading trailer");
  CHECK(parse_error(chunked + "0\r\n\r", true) == "http: unexpected EOF reading trailer");
  CHECK(parse_error(chunked + "0\r\nX: y\r\n", true) == "http: suspiciously long trailer after chunked body");
  SECTION("1xx then EOF") { CHECK(parse_error("HTTP/1.1 100 Continue\r\n\r\n", true) == "unexpected EOF"); }
  SECTION("complete messages are unaffected by EOF") {
    CHECK_FALSE(parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx", true).error);
    CHECK_FALSE(parse(chunked + "0\r\n\r\n", true).error);
  }
}

TEST_CASE("trailer rules", "[h1][parser]") {
  const std::string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n";
  CHECK(parse_error(chunked + "Trailer: X-A, Content-Length\r\n\r\n0\r\n\r\n") ==
        "bad trailer Key \"Content-Length\"");
  CHECK(parse_error(chunked + "Trailer: transfer-encoding\r\n\r\n0\r\n\r\n") ==
        "bad trailer Key \"Transfer-Encoding\"");
  SECTION("Trailer header without chunking is kept and not checked") {
    const Outcome o = parse("HTTP/1.1 200 OK\r\nTrailer: Content-Length\r\nContent-Length: 0\r\n\r\n");
    CHECK_FALSE(o.error);
    CHECK(o.headers.size() == 2);
  }
  SECTION("a malformed trailer is reported once its CRLFCRLF arrives") {
    CHECK(parse_error(chunked + "\r\n0\r\nno colon\r\n\r\n") ==
          "malformed MIME header: missing colon: \"no colon\"");
  }
  SECTION("a malformed trailer without CRLFCRLF before EOF") {
    CHECK(parse_error(chunked + "\r\n0\r\nno colon\r\n", true) ==
          "http: suspiciously long trailer after chunked body");
  }
  SECTION("trailers larger than the bufio window") {
    CHECK(parse_error(chunked + "\r\n0\r\nX: " + std::string(5000, 'a') + "\r\n\r\n") ==
          "http: suspiciously long trailer after chunked body");
  }
}

TEST_CASE("reset reuses the parser for pipelined responses", "[h1][parser]") {
  const std::string wire =
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none"
      "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n"
      "HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nthree";
  H1ResponseParser p("GET");
  std::string_view rest = wire;
  std::vector<std::string> bodies;
  std::vector<int> statuses;
  for (int i = 0; i < 3; ++i) {
    std::string body;
    auto r = p.feed(rest, body);
    REQUIRE(r.ok());
    REQUIRE(p.message_complete());
    rest.remove_prefix(r.value());
    bodies.push_back(body);
    statuses.push_back(p.head().status);
    p.reset("GET");
  }
  CHECK(rest.empty());
  CHECK(bodies == std::vector<std::string>{"one", "two", "three"});
  CHECK(statuses == std::vector<int>{200, 201, 404});
}

TEST_CASE("h1 parser: errors are sticky", "[h1][parser]") {
  H1ResponseParser p("GET");
  std::string body;
  auto r = p.feed("BAD\r\n", body);
  REQUIRE_FALSE(r.ok());
  auto again = p.feed("HTTP/1.1 200 OK\r\n\r\n", body);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message == r.error().message);
  REQUIRE(p.on_eof().has_value());
  CHECK(p.failed());
}
