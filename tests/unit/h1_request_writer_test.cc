#include <catch2/catch.hpp>

#include "wire/h1_request_writer.h"

using tlsc::H1Request;

namespace {

H1Request base_get() {
  H1Request r;
  r.method = "GET";
  r.request_target = "/";
  r.host = "example.com";
  return r;
}

std::string write_ok(const H1Request& r) {
  auto res = tlsc::write_h1_request(r);
  INFO((res.ok() ? std::string() : res.error().message));
  REQUIRE(res.ok());
  return res.value();
}

std::string write_err(const H1Request& r) {
  auto res = tlsc::write_h1_request(r);
  REQUIRE_FALSE(res.ok());
  CHECK(res.error().code == tlsc::ErrorCode::invalid_input);
  return res.error().message;
}

}  // namespace

TEST_CASE("GET without headers gets Host and the Go User-Agent, sorted", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"Accept", "*/*"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Accept: */*\r\n"
        "Host: example.com\r\n"
        "User-Agent: Go-http-client/1.1\r\n"
        "\r\n");
}

TEST_CASE("empty method is written as GET", "[h1][writer]") {
  H1Request r = base_get();
  r.method.clear();
  CHECK(write_ok(r).rfind("GET / HTTP/1.1\r\n", 0) == 0);
}

TEST_CASE("header_order puts listed headers first, the rest bytewise", "[h1][writer]") {
  H1Request r = base_get();
  r.request_target = "/a?b=c";
  r.headers = {{"accept-language", "en"}, {"User-Agent", "UA"}, {"Zeta", "z"},
               {"Accept", "*/*"},         {"X-B", "b"},         {"X-A", "a"}};
  r.header_order = {"user-agent", "host", "accept", "accept-language"};
  CHECK(write_ok(r) ==
        "GET /a?b=c HTTP/1.1\r\n"
        "User-Agent: UA\r\n"
        "Host: example.com\r\n"
        "Accept: */*\r\n"
        "accept-language: en\r\n"
        "X-A: a\r\n"
        "X-B: b\r\n"
        "Zeta: z\r\n"
        "\r\n");
}

TEST_CASE("unlisted keys sort bytewise, so uppercase precedes lowercase", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"sec-fetch-mode", "cors"}, {"Accept", "x"}, {"cookie", "a=b"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Accept: x\r\n"
        "Host: example.com\r\n"
        "User-Agent: Go-http-client/1.1\r\n"
        "cookie: a=b\r\n"
        "sec-fetch-mode: cors\r\n"
        "\r\n");
}

TEST_CASE("a name listed twice in header_order takes its last position", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"A", "1"}, {"B", "2"}, {"User-Agent", "u"}};
  r.header_order = {"a", "b", "a", "host", "user-agent"};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "B: 2\r\n"
        "A: 1\r\n"
        "Host: example.com\r\n"
        "User-Agent: u\r\n"
        "\r\n");
}

TEST_CASE("header_order entries match case-insensitively", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"B", "2"}, {"A", "1"}};
  r.header_order = {"B", "A"};  // tls-client lowercases these before fhttp sees them
  CHECK(write_ok(r).rfind("GET / HTTP/1.1\r\nB: 2\r\nA: 1\r\n", 0) == 0);
}

TEST_CASE("caller-given host and user-agent in any of Go's two spellings suppress the defaults",
          "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"host", "other.example"}, {"user-agent", "mine"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "host: other.example\r\n"
        "user-agent: mine\r\n"
        "\r\n");

  // Only "Host"/"host" count: "HOST" gets a second, default Host line.
  r.headers = {{"HOST", "x"}, {"User-Agent", "mine"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "HOST: x\r\n"
        "Host: example.com\r\n"
        "User-Agent: mine\r\n"
        "\r\n");
}

TEST_CASE("Content-Length follows shouldSendContentLength", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"User-Agent", "u"}};

  SECTION("POST with body") {
    r.method = "POST";
    r.body = "hello";
    CHECK(write_ok(r) ==
          "POST / HTTP/1.1\r\n"
          "Content-Length: 5\r\n"
          "Host: example.com\r\n"
          "User-Agent: u\r\n"
          "\r\n"
          "hello");
  }
  SECTION("POST, PUT, PATCH without body send 0") {
    for (const char* m : {"POST", "PUT", "PATCH"}) {
      r.method = m;
      r.body.reset();
      CHECK(write_ok(r).find("Content-Length: 0\r\n") != std::string::npos);
      r.body = "";
      CHECK(write_ok(r).find("Content-Length: 0\r\n") != std::string::npos);
    }
  }
  SECTION("GET, HEAD, DELETE, OPTIONS, lowercase post without body send none") {
    for (const char* m : {"GET", "HEAD", "DELETE", "OPTIONS", "post"}) {
      r.method = m;
      r.body = "";
      CHECK(write_ok(r).find("Content-Length") == std::string::npos);
    }
  }
  SECTION("GET with body") {
    r.body = "xy";
    CHECK(write_ok(r) ==
          "GET / HTTP/1.1\r\n"
          "Content-Length: 2\r\n"
          "Host: example.com\r\n"
          "User-Agent: u\r\n"
          "\r\n"
          "xy");
  }
  SECTION("a caller Content-Length is kept and Go's is added to it") {
    r.method = "POST";
    r.body = "abc";
    r.headers.push_back({"Content-Length", "3"});
    CHECK(write_ok(r).find("Content-Length: 3\r\nContent-Length: 3\r\n") != std::string::npos);
  }
  SECTION("header_order positions Content-Length") {
    r.method = "POST";
    r.body = "abc";
    r.header_order = {"host", "content-length", "user-agent"};
    CHECK(write_ok(r) ==
          "POST / HTTP/1.1\r\n"
          "Host: example.com\r\n"
          "Content-Length: 3\r\n"
          "User-Agent: u\r\n"
          "\r\n"
          "abc");
  }
}

TEST_CASE("write_h1_request_head omits the body", "[h1][writer]") {
  H1Request r = base_get();
  r.method = "PUT";
  r.body = "data";
  auto head = tlsc::write_h1_request_head(r);
  REQUIRE(head.ok());
  CHECK(head.value().find("Content-Length: 4\r\n") != std::string::npos);
  CHECK(head.value().size() >= 4);
  CHECK(head.value().substr(head.value().size() - 4) == "\r\n\r\n");
}

TEST_CASE("close adds Connection: close unless the canonical key already has it", "[h1][writer]") {
  H1Request r = base_get();
  r.close = true;
  r.headers = {{"User-Agent", "u"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Connection: close\r\n"
        "Host: example.com\r\n"
        "User-Agent: u\r\n"
        "\r\n");

  r.headers = {{"User-Agent", "u"}, {"Connection", "Keep-Alive, CLOSE"}};
  CHECK(write_ok(r).find("Connection: Keep-Alive, CLOSE\r\nHost") != std::string::npos);

  r.headers = {{"User-Agent", "u"}, {"Connection", "keep-alive"}};
  CHECK(write_ok(r).find("Connection: keep-alive\r\nConnection: close\r\n") != std::string::npos);

  r.headers = {{"User-Agent", "u"}, {"Connection", "closed"}};
  CHECK(write_ok(r).find("Connection: closed\r\nConnection: close\r\n") != std::string::npos);

  // Go's Header.get("Connection") does not see a lowercase key.
  r.headers = {{"User-Agent", "u"}, {"connection", "close"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Connection: close\r\n"
        "Host: example.com\r\n"
        "User-Agent: u\r\n"
        "connection: close\r\n"
        "\r\n");
}

TEST_CASE("values of one key are written one line each, in order", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"Cookie", "a=1"}, {"User-Agent", "u"}, {"Cookie", "b=2"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Cookie: a=1\r\n"
        "Cookie: b=2\r\n"
        "Host: example.com\r\n"
        "User-Agent: u\r\n"
        "\r\n");
}

TEST_CASE("keys differing only in case keep their own values together", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"accept", "1"}, {"Accept", "2"}, {"accept", "3"}, {"User-Agent", "u"}};
  r.header_order = {"accept", "user-agent", "host"};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "accept: 1\r\n"
        "accept: 3\r\n"
        "Accept: 2\r\n"
        "User-Agent: u\r\n"
        "Host: example.com\r\n"
        "\r\n");
}

TEST_CASE("values are trimmed and CR/LF become spaces", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"X-Pad", " \t padded \t "}, {"User-Agent", "u"}};
  r.host = " example.com ";
  r.extra_headers = {{"X-Extra", "\r\n a\r\nb \n"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Host: example.com\r\n"
        "User-Agent: u\r\n"
        "X-Pad: padded\r\n"
        "X-Extra: a  b\r\n"
        "\r\n");
}

TEST_CASE("extra headers come last, sorted among themselves", "[h1][writer]") {
  H1Request r = base_get();
  r.headers = {{"Zzz", "1"}, {"User-Agent", "u"}};
  r.extra_headers = {{"Connection", "close"}, {"Accept-Encoding", "gzip, deflate, br"}};
  CHECK(write_ok(r) ==
        "GET / HTTP/1.1\r\n"
        "Host: example.com\r\n"
        "User-Agent: u\r\n"
        "Zzz: 1\r\n"
        "Accept-Encoding: gzip, deflate, br\r\n"
        "Connection: close\r\n"
        "\r\n");
}

TEST_CASE("absolute-form target for proxies is written verbatim", "[h1][writer]") {
  H1Request r = base_get();
  r.request_target = "http://example.com/x?y";
  r.headers = {{"User-Agent", "u"}};
  CHECK(write_ok(r).rfind("GET http://example.com/x?y HTTP/1.1\r\n", 0) == 0);
}

TEST_CASE("invalid input is refused with Go's messages", "[h1][writer]") {
  H1Request r = base_get();
  SECTION("method") {
    r.method = "GE T";
    CHECK(write_err(r) == "net/http: invalid method \"GE T\"");
    r.method = "G\xC3\xA9T";
    CHECK(write_err(r) == "net/http: invalid method \"G\xC3\xA9T\"");
  }
  SECTION("header name") {
    r.headers = {{"Bad Name", "v"}};
    CHECK(write_err(r) == "net/http: invalid header field name \"Bad Name\"");
    r.headers = {{"", "v"}};
    CHECK(write_err(r) == "net/http: invalid header field name \"\"");
    r.headers = {{"X:Y", "v"}};
    CHECK(write_err(r) == "net/http: invalid header field name \"X:Y\"");
  }
  SECTION("header value with control bytes") {
    r.headers = {{"X-Evil", "a\r\nInjected: 1"}};
    CHECK(write_err(r) == "net/http: invalid header field value \"a\\r\\nInjected: 1\" for Key X-Evil");
    r.headers = {{"X-Del", "\x7f"}};
    CHECK(write_err(r) == "net/http: invalid header field value \"\\x7f\" for Key X-Del");
    r.headers = {{"X-Tab", "a\tb"}};  // HTAB is allowed
    CHECK(tlsc::write_h1_request(r).ok());
  }
  SECTION("request target with control bytes") {
    r.request_target = "/a b\x01";
    CHECK(write_err(r) == "net/http: can't write control character in Request.URL");
    r.request_target = "/\x7f";
    CHECK(write_err(r) == "net/http: can't write control character in Request.URL");
    r.request_target = "/a b";  // a space is not a control byte
    CHECK(tlsc::write_h1_request(r).ok());
  }
  SECTION("no host at all") {
    r.host.clear();
    CHECK(write_err(r) == "http: no Host in request URL");
    r.headers = {{"Host", "h"}};
    CHECK(tlsc::write_h1_request(r).ok());
  }
  SECTION("header errors are reported before method errors") {
    r.method = "B AD";
    r.headers = {{"B d", "v"}};
    CHECK(write_err(r) == "net/http: invalid header field name \"B d\"");
  }
}
