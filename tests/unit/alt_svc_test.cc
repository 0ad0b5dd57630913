// Alt-Svc field values (RFC 7838) as servers send them, and what a
// session's cache keeps of them: the examples are the RFC's own and the
// fields of Caddy (quic-go), Cloudflare and Google.
#include "http/alt_svc.h"

#include <catch2/catch.hpp>

using tlsc::AltSvcCache;
using tlsc::parse_alt_svc;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> described(const tlsc::AltSvcField& f) {
  std::vector<std::string> out;
  for (const auto& s : f.services) {
    out.push_back(s.protocol + " " + s.host + ":" + std::to_string(s.port) +
                  " ma=" + std::to_string(s.max_age.count()));
  }
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("Alt-Svc: the field values servers send", "[alt_svc]") {
  // Caddy and quic-go's http3.Server.SetQUICHeaders.
  CHECK(described(parse_alt_svc(R"(h3=":443"; ma=2592000)")) == V{"h3 :443 ma=2592000"});
  // Cloudflare: a list, one parameter each.
  CHECK(described(parse_alt_svc(R"(h3=":443"; ma=86400, h3-29=":443"; ma=86400)")) ==
        V{"h3 :443 ma=86400", "h3-29 :443 ma=86400"});
  // Google: several parameters, and "persist".
  CHECK(described(parse_alt_svc(R"(h3=":443"; ma=2592000,h3-29=":443"; ma=2592000; persist=1)")) ==
        V{"h3 :443 ma=2592000", "h3-29 :443 ma=2592000"});
  // RFC 7838's examples: another host, the default max-age, a
  // percent-encoded protocol id, a quoted parameter value.
  CHECK(described(parse_alt_svc(R"(h2="new.example.org:80")")) == V{"h2 new.example.org:80 ma=86400"});
  CHECK(described(parse_alt_svc(R"(w%3D%3Dx=":443")")) == V{"w==x :443 ma=86400"});
  CHECK(described(parse_alt_svc(R"(h3=":8443";ma="60")")) == V{"h3 :8443 ma=60"});
  CHECK(described(parse_alt_svc(R"(h3="[::1]:8443")")) == V{"h3 ::1:8443 ma=86400"});
  // Empty list elements and white space around everything.
  CHECK(described(parse_alt_svc(" , h3=\":1\" ;\tma=5 ,, h3=\":2\" , ")) ==
        V{"h3 :1 ma=5", "h3 :2 ma=86400"});
  CHECK(parse_alt_svc("clear").clear);
  CHECK(parse_alt_svc("  clear  ").clear);
  CHECK_FALSE(parse_alt_svc("clear, h3=\":1\"").clear);
}

TEST_CASE("Alt-Svc: what is not the syntax is no alternative", "[alt_svc]") {
  // The alternative itself is broken: it and what follows are dropped.
  CHECK(parse_alt_svc(R"(h3=:443)").services.empty());   // not quoted
  CHECK(parse_alt_svc(R"(h3=":443)").services.empty());  // unterminated
  CHECK(parse_alt_svc(R"(=":443")").services.empty());   // no protocol
  CHECK(described(parse_alt_svc(R"(h3=":1", h3 ":2", h3=":3")")) == V{"h3 :1 ma=86400"});
  CHECK(parse_alt_svc(R"(h3=":1"; ma, h3=":3")").services.empty());  // a parameter without value
  // A bad value inside a well-formed alternative: that one is left out.
  CHECK(described(parse_alt_svc(R"(h3=":0", h3=":2")")) == V{"h3 :2 ma=86400"});
  CHECK(described(parse_alt_svc(R"(h3=":65536", h3=":2")")) == V{"h3 :2 ma=86400"});
  CHECK(described(parse_alt_svc(R"(h3="host", h3=":2")")) == V{"h3 :2 ma=86400"});
  CHECK(described(parse_alt_svc(R"(h3=":1"; ma=-5, h3=":2")")) == V{"h3 :2 ma=86400"});
  CHECK(described(parse_alt_svc(R"(h3%G0=":1", h3=":2")")) == V{"h3 :2 ma=86400"});
  CHECK(described(parse_alt_svc(R"(h3%4=":1", h3=":2")")) == V{"h3 :2 ma=86400"});
  // A control byte inside the quoted string.
  CHECK(parse_alt_svc(std::string("h3=\":4\x01"
                                  "43\""))
            .services.empty());
  // A max-age past a year is a year.
  CHECK(parse_alt_svc(R"(h3=":1"; ma=99999999999999999999999)").services.at(0).max_age ==
        std::chrono::seconds(365 * 24 * 3600));
}

TEST_CASE("Alt-Svc cache: an origin's HTTP/3 alternative, replaced, cleared, expired", "[alt_svc]") {
  AltSvcCache cache;
  const auto t0 = AltSvcCache::Clock::time_point{} + 1000h;
  const std::string origin = "https://example.com:443";
  CHECK_FALSE(cache.h3_port(origin, t0));

  cache.learn(origin, "example.com", {R"(h3-29=":443", h3=":8443"; ma=60)"}, t0);
  CHECK(cache.h3_port(origin, t0) == 8443);
  CHECK(cache.h3_port(origin, t0 + 59s) == 8443);
  CHECK_FALSE(cache.h3_port(origin, t0 + 60s));
  CHECK(cache.size() == 0);  // an expired entry goes when it is looked at

  // Several fields of one response are one list; the first h3 wins.
  cache.learn(origin, "example.com", {R"(h2=":443")", R"(h3=":1001", h3=":1002")"}, t0);
  CHECK(cache.h3_port(origin, t0) == 1001);
  // A later response replaces the alternatives, HTTP/3 gone included.
  cache.learn(origin, "example.com", {R"(h2=":443")"}, t0);
  CHECK_FALSE(cache.h3_port(origin, t0));
  cache.learn(origin, "example.com", {R"(h3=":1003")"}, t0);
  CHECK(cache.h3_port(origin, t0 + 23h) == 1003);
  cache.learn(origin, "example.com", {"clear"}, t0);
  CHECK_FALSE(cache.h3_port(origin, t0));
  // ma=0: gone at once.
  cache.learn(origin, "example.com", {R"(h3=":1004"; ma=0)"}, t0);
  CHECK_FALSE(cache.h3_port(origin, t0));
  // Another host is not used (its certificate is not checked for the
  // origin); the origin's own name is, in any case.
  cache.learn(origin, "example.com", {R"(h3="alt.example.net:443")"}, t0);
  CHECK_FALSE(cache.h3_port(origin, t0));
  cache.learn(origin, "example.com", {R"(h3="EXAMPLE.com:1005")"}, t0);
  CHECK(cache.h3_port(origin, t0) == 1005);
  // Origins are apart.
  CHECK_FALSE(cache.h3_port("https://example.com:8443", t0));
}

TEST_CASE("Alt-Svc cache: bounded, the entry expiring first makes room", "[alt_svc]") {
  AltSvcCache cache;
  const auto t0 = AltSvcCache::Clock::time_point{} + 1000h;
  for (size_t i = 0; i < AltSvcCache::kMaxOrigins; ++i) {
    cache.learn("https://h" + std::to_string(i) + ":443", "h" + std::to_string(i),
                {"h3=\":443\"; ma=" + std::to_string(100 + i)}, t0);
  }
  CHECK(cache.size() == AltSvcCache::kMaxOrigins);
  cache.learn("https://new:443", "new", {R"(h3=":443")"}, t0);
  CHECK(cache.size() == AltSvcCache::kMaxOrigins);
  CHECK_FALSE(cache.h3_port("https://h0:443", t0));  // expired first
  CHECK(cache.h3_port("https://h1:443", t0) == 443);
  CHECK(cache.h3_port("https://new:443", t0) == 443);
  // Expired entries go first, all of them.
  cache.learn("https://newer:443", "newer", {R"(h3=":443")"}, t0 + 200s);
  CHECK(cache.size() < AltSvcCache::kMaxOrigins);
}
