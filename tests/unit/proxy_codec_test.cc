// The proxy protocol cores without a network: proxy URL rules, the CONNECT
// request and response head, SOCKS5 and SOCKS4/4a, with upstream's texts.
#include <catch2/catch.hpp>

#include "conn/proxy/http_connect.h"
#include "conn/proxy/proxy_url.h"
#include "conn/proxy/socks4_handshake.h"
#include "conn/proxy/socks5_handshake.h"

using namespace tlsc;
using namespace std::string_literals;

namespace {

std::string url_error(std::string_view text) {
  auto r = parse_proxy_url(text);
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

// Feeds the whole reply; returns the error text or "" once done.
std::string feed_all(ProxyHandshake& h, std::string_view in, std::string* sent = nullptr) {
  std::string out;
  auto e = h.feed(in, out);
  if (sent) *sent = out;
  return e ? e->message : "";
}

}  // namespace

TEST_CASE("proxy URLs: kinds, default ports, credentials", "[proxy][url]") {
  auto p = parse_proxy_url("http://user:p%40ss@127.0.0.1:3128");
  REQUIRE(p.ok());
  CHECK(p->kind == ProxyKind::http);
  CHECK(p->host_port == "127.0.0.1:3128");
  CHECK(p->port == 3128);
  REQUIRE(p->credentials);
  CHECK(p->credentials->username == "user");
  CHECK(p->credentials->password == "p@ss");

  p = parse_proxy_url("http://proxy.local");
  REQUIRE(p.ok());
  CHECK(p->host_port == "proxy.local:80");
  CHECK_FALSE(p->credentials);
  p = parse_proxy_url("https://[::1]");
  REQUIRE(p.ok());
  CHECK(p->kind == ProxyKind::https);
  CHECK(p->host_port == "[::1]:443");
  CHECK(p->hostname == "::1");

  CHECK(parse_proxy_url("socks5://127.0.0.1:1080")->kind == ProxyKind::socks5);
  CHECK(parse_proxy_url("socks5h://127.0.0.1:1080")->kind == ProxyKind::socks5);
  CHECK(parse_proxy_url("socks4://127.0.0.1:1080")->kind == ProxyKind::socks4);
  CHECK(parse_proxy_url("socks4a://127.0.0.1:1080")->kind == ProxyKind::socks4a);
  // SOCKS gets no default port: dialing says so later, as Go's does.
  p = parse_proxy_url("socks5://127.0.0.1");
  REQUIRE(p.ok());
  CHECK(p->port == 0);
  CHECK(p->host_port == "127.0.0.1");
  // "user@" alone: user info present, empty password.
  p = parse_proxy_url("socks5://user@127.0.0.1:1080");
  REQUIRE(p->credentials);
  CHECK(p->credentials->username == "user");
  CHECK(p->credentials->password.empty());
}

TEST_CASE("proxy URLs: upstream's errors", "[proxy][url]") {
  CHECK(url_error("127.0.0.1:8080") ==
        "parse \"127.0.0.1:8080\": first path segment in URL cannot contain colon");
  CHECK(url_error("localhost:8080") ==
        "invalid url `localhost:8080`, make sure to specify full url like "
        "https://username:password@hostname.com:443/");
  CHECK(url_error("//127.0.0.1:8080") == "specify scheme explicitly (https://)");
  CHECK(url_error("ftp://127.0.0.1:21") == "scheme ftp is not supported");
  CHECK(url_error("http://[::1") == "parse \"http://[::1\": missing ']' in host");
  CHECK(url_error("http://us er@127.0.0.1:1") ==
        "parse \"http://us er@127.0.0.1:1\": net/url: invalid userinfo");
  CHECK(url_error("http://user:%zz@127.0.0.1:1") ==
        "parse \"http://user:%zz@127.0.0.1:1\": invalid URL escape \"%zz\"");
}

TEST_CASE("CONNECT request as fhttp writes it", "[proxy][connect]") {
  ConnectRequest req;
  req.authority = "example.com:443";
  req.headers = {{"X-Session", {"abc"}}, {"Proxy-Authorization", {"Bearer caller"}}};
  req.credentials = ProxyCredentials{"alice", "secret"};
  auto bytes = write_connect_request(req);
  REQUIRE(bytes.ok());
  CHECK(*bytes ==
        "CONNECT example.com:443 HTTP/1.1\r\n"
        "Host: example.com:443\r\n"
        "Proxy-Authorization: Basic YWxpY2U6c2VjcmV0\r\n"
        "User-Agent: Go-http-client/1.1\r\n"
        "X-Session: abc\r\n"
        "\r\n");
  // An empty user name sends no credentials; the caller's header stays.
  req.credentials = ProxyCredentials{"", "secret"};
  bytes = write_connect_request(req);
  CHECK(bytes->find("Proxy-Authorization: Bearer caller\r\n") != std::string::npos);
  req.authority = "[::1]:8443";
  req.headers.clear();
  req.credentials.reset();
  CHECK(*write_connect_request(req) ==
        "CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\nUser-Agent: Go-http-client/1.1\r\n\r\n");
}

TEST_CASE("CONNECT response head", "[proxy][connect]") {
  auto make = [] { return HttpConnectHandshake(ConnectRequest{"example.com:443", {}, {}}); };
  SECTION("200 opens the tunnel, split anywhere") {
    std::string reply = "HTTP/1.1 200 Connection established\r\nVia: squid\r\n\r\n";
    for (size_t cut = 0; cut <= reply.size(); ++cut) {
      auto h = make();
      std::string out;
      REQUIRE_FALSE(h.feed(reply.substr(0, cut), out));
      REQUIRE_FALSE(h.feed(reply.substr(cut), out));
      REQUIRE(h.done());
      CHECK(h.leftover().empty());
    }
  }
  SECTION("HTTP/1.0 and bare LF lines") {
    auto h = make();
    CHECK(feed_all(h, "HTTP/1.0 200 Connection established\n\n").empty());
    CHECK(h.done());
  }
  SECTION("bytes after the head are kept") {
    auto h = make();
    CHECK(feed_all(h, "HTTP/1.1 200 OK\r\n\r\nxyz").empty());
    CHECK(h.leftover() == "xyz");
  }
  SECTION("other statuses quote the status line") {
    auto h = make();
    CHECK(feed_all(h, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n") ==
          "Proxy responded with non 200 code: 407 Proxy Authentication Required");
    auto h2 = make();
    CHECK(feed_all(h2, "HTTP/1.1 201 Created\r\n\r\n") == "Proxy responded with non 200 code: 201 Created");
    auto h3 = make();
    CHECK(feed_all(h3, "HTTP/1.1 403\r\n\r\n") == "Proxy responded with non 200 code: 403");
  }
  SECTION("malformed status lines") {
    auto h = make();
    CHECK(feed_all(h, "garbage\r\n") == "malformed HTTP response \"garbage\"");
    auto h2 = make();
    CHECK(feed_all(h2, "HTTP/1.1 20 OK\r\n") == "malformed HTTP status code \"20\"");
    auto h3 = make();
    CHECK(feed_all(h3, "SPDY/3 200 OK\r\n") == "malformed HTTP version \"SPDY/3\"");
  }
  SECTION("a close before the head ends") {
    auto h = make();
    CHECK(h.on_eof().message == "unexpected EOF");
    auto h2 = make();
    CHECK(feed_all(h2, "HTTP/1.1 200 OK\r\nVia: x\r\n").empty());
    CHECK(h2.on_eof().message == "unexpected EOF");
    // A last line without its newline is still judged.
    auto h3 = make();
    CHECK(feed_all(h3, "bad").empty());
    CHECK(h3.on_eof().message == "malformed HTTP response \"bad\"");
  }
  SECTION("the head is bounded") {
    HttpConnectHandshake h(ConnectRequest{"a:1", {}, {}}, 64);
    std::string out;
    auto e = h.feed("HTTP/1.1 200 OK\r\nX: " + std::string(100, 'a') + "\r\n\r\n", out);
    REQUIRE(e);
    CHECK(e->message == "proxy CONNECT response head exceeded 64 bytes; aborted");
  }
}

TEST_CASE("SOCKS5 without authentication", "[proxy][socks5]") {
  Socks5Handshake h("example.com", 443, std::nullopt, "socks connect tcp 127.0.0.1:1080->example.com:443: ");
  CHECK(*h.start() == "\x05\x01\x00"s);
  std::string sent;
  CHECK(feed_all(h, "\x05\x00"s, &sent).empty());
  CHECK(sent ==
        "\x05\x01\x00\x03\x0b"
        "example.com"
        "\x01\xbb"s);
  // The reply arrives in pieces; the bound address is an IPv4 one.
  CHECK(feed_all(h, "\x05\x00\x00"s).empty());
  CHECK_FALSE(h.done());
  CHECK(feed_all(h, "\x01\x7f\x00\x00\x01\x04"s).empty());
  CHECK(feed_all(h, "\x38"s).empty());
  CHECK(h.done());
  CHECK(h.bound_address() == "127.0.0.1:1080");
}

TEST_CASE("SOCKS5 targets: IP literals and long names", "[proxy][socks5]") {
  Socks5Handshake v4("10.1.2.3", 80, std::nullopt, "");
  std::string sent;
  v4.start();
  feed_all(v4, "\x05\x00"s, &sent);
  CHECK(sent == "\x05\x01\x00\x01\x0a\x01\x02\x03\x00\x50"s);
  Socks5Handshake v6("::1", 80, std::nullopt, "");
  v6.start();
  feed_all(v6, "\x05\x00"s, &sent);
  CHECK(sent == "\x05\x01\x00\x04"s + std::string(15, '\0') + "\x01\x00\x50"s);
  Socks5Handshake longname(std::string(256, 'a'), 80, std::nullopt, "p: ");
  longname.start();
  CHECK(feed_all(longname, "\x05\x00"s) == "p: FQDN too long");
}

TEST_CASE("SOCKS5 with user name and password", "[proxy][socks5]") {
  Socks5Handshake h("example.com", 80, ProxyCredentials{"bob", "pw"}, "p: ");
  CHECK(*h.start() == "\x05\x02\x00\x02"s);
  std::string sent;
  CHECK(feed_all(h, "\x05\x02"s, &sent).empty());
  CHECK(sent ==
        "\x01\x03"
        "bob"
        "\x02"
        "pw"s);
  CHECK(feed_all(h, "\x01\x00"s, &sent).empty());
  CHECK(sent.starts_with("\x05\x01\x00\x03"s));
  CHECK(feed_all(h, "\x05\x00\x00\x03\x04host\x00\x50"s).empty());
  CHECK(h.done());
  CHECK(h.bound_address() == "host:80");

  Socks5Handshake bad("example.com", 80, ProxyCredentials{"bob", "wrong"}, "p: ");
  bad.start();
  feed_all(bad, "\x05\x02"s);
  CHECK(feed_all(bad, "\x01\x01"s) == "p: username/password authentication failed");
  Socks5Handshake empty_user("example.com", 80, ProxyCredentials{"", "pw"}, "p: ");
  empty_user.start();
  CHECK(feed_all(empty_user, "\x05\x02"s) == "p: invalid username/password");
}

TEST_CASE("SOCKS5 failures have their own texts", "[proxy][socks5]") {
  auto reply_error = [](std::string reply) {
    Socks5Handshake h("example.com", 443, std::nullopt, "p: ");
    h.start();
    std::string out;
    if (auto e = h.feed("\x05\x00"s + reply, out)) return e->message;
    return std::string();
  };
  CHECK(reply_error("\x05\x01\x00\x01"s) == "p: unknown error general SOCKS server failure");
  CHECK(reply_error("\x05\x02\x00\x01"s) == "p: unknown error connection not allowed by ruleset");
  CHECK(reply_error("\x05\x03\x00\x01"s) == "p: unknown error network unreachable");
  CHECK(reply_error("\x05\x04\x00\x01"s) == "p: unknown error host unreachable");
  CHECK(reply_error("\x05\x05\x00\x01"s) == "p: unknown error connection refused");
  CHECK(reply_error("\x05\x06\x00\x01"s) == "p: unknown error TTL expired");
  CHECK(reply_error("\x05\x07\x00\x01"s) == "p: unknown error command not supported");
  CHECK(reply_error("\x05\x08\x00\x01"s) == "p: unknown error address type not supported");
  CHECK(reply_error("\x05\x09\x00\x01"s) == "p: unknown error unknown code: 9");
  CHECK(reply_error("\x04\x00\x00\x01"s) == "p: unexpected protocol version 4");
  CHECK(reply_error("\x05\x00\x01\x01"s) == "p: non-zero reserved field");
  CHECK(reply_error("\x05\x00\x00\x07"s) == "p: unknown address type 7");

  Socks5Handshake h("example.com", 443, std::nullopt, "p: ");
  h.start();
  CHECK(feed_all(h, "\x05\xff"s) == "p: no acceptable authentication methods");
  Socks5Handshake v("example.com", 443, std::nullopt, "p: ");
  v.start();
  CHECK(feed_all(v, "\x04\x00"s) == "p: unexpected protocol version 4");
  Socks5Handshake m("example.com", 443, ProxyCredentials{"a", "b"}, "p: ");
  m.start();
  CHECK(feed_all(m, "\x05\x01"s) == "p: unsupported authentication method 1");

  Socks5Handshake eof("example.com", 443, std::nullopt, "p: ");
  eof.start();
  CHECK(eof.on_eof().message == "p: EOF");
  Socks5Handshake part("example.com", 443, std::nullopt, "p: ");
  part.start();
  feed_all(part, "\x05"s);
  CHECK(part.on_eof().message == "p: unexpected EOF");
}

TEST_CASE("SOCKS4 and SOCKS4a", "[proxy][socks4]") {
  auto h = Socks4Handshake::socks4("\x7f\x00\x00\x01"s, 8080);
  CHECK(*h.start() ==
        "\x04\x01\x1f\x90\x7f\x00\x00\x01"
        "nobody@0.0.0.0"
        "\x00"s);
  CHECK(feed_all(h, "\x00\x5a\x00\x00\x00\x00"s).empty());
  CHECK_FALSE(h.done());
  CHECK(feed_all(h, "\x00\x00"s).empty());
  CHECK(h.done());

  auto a = Socks4Handshake::socks4a("example.com", 443);
  CHECK(*a.start() ==
        "\x04\x01\x01\xbb\x00\x00\x00\x01"
        "nobody@0.0.0.0"
        "\x00"
        "example.com"
        "\x00"s);

  auto code = [](uint8_t c) {
    auto x = Socks4Handshake::socks4a("example.com", 443);
    x.start();
    std::string reply = "\x00"s;
    reply.push_back(static_cast<char>(c));
    reply += std::string(6, '\0');
    return feed_all(x, reply);
  };
  CHECK(code(0x5b) == "connection to remote host was rejected");
  CHECK(code(0x5c) == "valid ident required");
  CHECK(code(0x5d) == "valid ident required");
  CHECK(code(0x42) == "unknown socks4 server response 66");
  auto eof = Socks4Handshake::socks4a("example.com", 443);
  eof.start();
  feed_all(eof, "\x00\x5a"s);
  CHECK(eof.on_eof().message == "i\\o error: unexpected EOF");
}
