#include "core/url.h"

#include <catch2/catch.hpp>

using tlsc::parse_url;

TEST_CASE("url: absolute URLs split as Go's net/url does", "[url]") {
  auto u = parse_url("HTTP://User:pw@Example.COM:8080/a%20b/c?x=1&y=%2F#frag");
  REQUIRE(u.ok());
  CHECK(u->scheme == "http");
  CHECK(u->userinfo == "User:pw");
  CHECK(u->hostname == "example.com");
  CHECK(u->port == "8080");
  CHECK(u->path == "/a%20b/c");
  CHECK(u->decoded_path() == "/a b/c");
  CHECK(u->query == "x=1&y=%2F");
  CHECK(u->fragment == "frag");
  CHECK(u->host() == "example.com:8080");
  CHECK(u->request_uri() == "/a%20b/c?x=1&y=%2F");
  CHECK(u->effective_port() == 8080);
}

TEST_CASE("url: IPv6 literals, default ports, empty paths", "[url]") {
  auto u = parse_url("http://[::1]:9000");
  REQUIRE(u.ok());
  CHECK(u->hostname == "::1");
  CHECK(u->host() == "[::1]:9000");
  CHECK(u->request_uri() == "/");
  CHECK(u->to_string() == "http://[::1]:9000");
  auto h = parse_url("https://example.com");
  CHECK(h->effective_port() == 443);
  CHECK(parse_url("http://x/?")->request_uri() == "/?");
}

TEST_CASE("url: unsafe bytes are escaped on the wire", "[url]") {
  auto u = parse_url("http://x/a b/\xc3\xa9?q=a b");
  REQUIRE(u.ok());
  CHECK(u->path == "/a%20b/%C3%A9");
  CHECK(u->query == "q=a%20b");
}

TEST_CASE("url: errors in Go's words", "[url]") {
  CHECK(parse_url("127.0.0.1:80/x").error().message ==
        "parse \"127.0.0.1:80/x\": first path segment in URL cannot contain colon");
  CHECK(parse_url("http://x:8a/").error().message ==
        "parse \"http://x:8a/\": invalid port \":8a\" after host");
  CHECK(parse_url("http://a b/").error().message ==
        "parse \"http://a b/\": invalid character \" \" in host name");
  CHECK(parse_url("http://x/\x01").error().message ==
        "parse \"http://x/\x01\": net/url: invalid control character in URL");
  CHECK(parse_url("http://x/%zz").error().message == "parse \"http://x/%zz\": invalid URL escape");
  CHECK(parse_url("http://[::1/").error().message == "parse \"http://[::1/\": missing ']' in host");
  CHECK(parse_url(":foo").error().message == "parse \":foo\": missing protocol scheme");
}

TEST_CASE("url: references resolve as RFC 3986 says", "[url]") {
  auto base = parse_url("http://a/b/c/d;p?q");
  REQUIRE(base.ok());
  auto res = [&](const char* ref) {
    auto r = parse_url(ref);
    REQUIRE(r.ok());
    return tlsc::resolve_reference(*base, *r).to_string();
  };
  CHECK(res("g") == "http://a/b/c/g");
  CHECK(res("./g") == "http://a/b/c/g");
  CHECK(res("g/") == "http://a/b/c/g/");
  CHECK(res("/g") == "http://a/g");
  CHECK(res("//g") == "http://g");
  CHECK(res("?y") == "http://a/b/c/d;p?y");
  CHECK(res("g?y") == "http://a/b/c/g?y");
  CHECK(res("../g") == "http://a/b/g");
  CHECK(res("../../g") == "http://a/g");
  CHECK(res("../../../g") == "http://a/g");
  CHECK(res("https://other/x") == "https://other/x");
}

TEST_CASE("url: domain matching for sensitive headers on redirect", "[url]") {
  CHECK(tlsc::is_domain_or_subdomain("a.example.com", "example.com"));
  CHECK(tlsc::is_domain_or_subdomain("example.com", "example.com"));
  CHECK_FALSE(tlsc::is_domain_or_subdomain("badexample.com", "example.com"));
  CHECK_FALSE(tlsc::is_domain_or_subdomain("example.com", "a.example.com"));
}
