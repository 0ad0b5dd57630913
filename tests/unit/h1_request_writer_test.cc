// The HTTP/1.1 writer's API beyond the wire bytes; the bytes themselves are
// data: tests/data/wire/h1-request-*.json (tests/unit/wire_data_test.cc).
#include "wire/h1_request_writer.h"

#include <catch2/catch.hpp>

using tlsc::H1Request;

TEST_CASE("write_h1_request_head omits the body", "[h1][writer]") {
  H1Request r;
  r.request_target = "/";
  r.host = "example.com";
  r.method = "PUT";
  r.body = "data";
  auto head = tlsc::write_h1_request_head(r);
  REQUIRE(head.ok());
  CHECK(head.value().find("Content-Length: 4\r\n") != std::string::npos);
  CHECK(head.value().size() >= 4);
  CHECK(head.value().substr(head.value().size() - 4) == "\r\n\r\n");
}

TEST_CASE("check_h1_request refuses what write_h1_request refuses, writing nothing", "[h1][writer]") {
  H1Request r;
  r.method = "GE T";
  r.request_target = "/";
  r.host = "example.com";
  auto e = tlsc::check_h1_request(r);
  REQUIRE(e);
  CHECK(e->message == "net/http: invalid method \"GE T\"");
  r.method = "GET";
  CHECK_FALSE(tlsc::check_h1_request(r));
}

TEST_CASE("a Host with bytes Go's ValidHostHeader refuses is refused", "[h1][writer]") {
  H1Request r;
  r.request_target = "/";
  for (std::string bad :
       {std::string("127.0.0.1\r\nx-injected: 1"), std::string("a\nb"), std::string("a\0b", 3),
        std::string("a b"), std::string("a/b"), std::string("a\"b")}) {
    r.host = bad;
    auto e = tlsc::check_h1_request(r);
    REQUIRE(e);
    CHECK(e->message == "http: invalid Host header");
  }
  for (std::string good : {"example.com:8443", "[::1]:80", "[fe80::1%25en0]", "xn--bcher-kva.example",
                           "b\xc3\xbc"
                           "cher.de",
                           "a_b-c.d~e!$&'()*+,;="}) {
    r.host = good;
    CHECK_FALSE(tlsc::check_h1_request(r));
  }
}
