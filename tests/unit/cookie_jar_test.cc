// The jar against the table tests of fhttp's cookiejar/jar_test.go (Go's
// net/http/cookiejar of that era). Go runs most of them with a two-rule
// test PSL; our jar is New(nil), so the cases whose answer depends on the
// public suffix list carry the nil-PSL answer, marked "nil PSL".
#include "cookies/cookie_jar.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cookies/cookie.h"

namespace tlsc {

// Reads the raw entries, as Go's test reads jar.entries.
struct CookieJarInspector {
  static std::string content(const CookieJar& jar, int64_t now) {
    std::vector<std::string> cs;
    for (const auto& [key, sub] : jar.entries_) {
      for (const auto& [id, e] : sub) {
        if (e.persistent && e.expires <= now) continue;
        cs.push_back(e.name + "=" + e.value);
      }
    }
    std::sort(cs.begin(), cs.end());
    std::string out;
    for (const std::string& s : cs) {
      if (!out.empty()) out.push_back(' ');
      out += s;
    }
    return out;
  }
  static size_t keys(const CookieJar& jar) { return jar.entries_.size(); }
};

}  // namespace tlsc

using tlsc::Cookie;
using tlsc::CookieJar;
using tlsc::CookieJarInspector;

namespace {

// 2013-01-01T12:00:00Z, Go's tNow.
constexpr int64_t kNow = 1357041600;

struct TestUrl {
  std::string scheme, host, path;
};

// Just enough of url.Parse for the test URLs: Host keeps any port, Path is
// empty when the URL has none.
TestUrl split_url(std::string_view u) {
  TestUrl r;
  size_t p = u.find("://");
  REQUIRE(p != std::string_view::npos);
  r.scheme = std::string(u.substr(0, p));
  std::string_view rest = u.substr(p + 3);
  size_t slash = rest.find('/');
  r.host = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) r.path = std::string(rest.substr(slash));
  return r;
}

std::vector<Cookie> parse_lines(const std::vector<std::string>& lines) {
  std::vector<Cookie> out;
  for (const std::string& l : lines) {
    auto c = tlsc::parse_set_cookie(l);
    INFO("Set-Cookie: " << l);
    REQUIRE(c.has_value());
    out.push_back(*c);
  }
  return out;
}

void set_from(CookieJar& jar, const std::string& url, const std::vector<Cookie>& cookies, int64_t now) {
  TestUrl u = split_url(url);
  jar.set_cookies(u.scheme, u.host, u.path, cookies, now);
}

std::vector<Cookie> get_for(CookieJar& jar, const std::string& url, int64_t now) {
  TestUrl u = split_url(url);
  return jar.cookies(u.scheme, u.host, u.path, now);
}

std::string names(const std::vector<Cookie>& cs) {
  std::string out;
  for (const Cookie& c : cs) {
    if (!out.empty()) out.push_back(' ');
    out += c.name + "=" + c.value;
  }
  return out;
}

struct Query {
  std::string to_url, want;
};

struct JarTest {
  std::string description;
  std::string from_url;
  std::vector<std::string> set_cookies;
  std::string content;
  std::vector<Query> queries;
};

// Go's jarTest.run: set at tNow, check content at tNow+1s, query n at
// tNow+(n+2)s (Go uses 1001 ms steps; whole seconds give the same answers).
void run(const JarTest& t, CookieJar& jar) {
  INFO("test: " << t.description);
  set_from(jar, t.from_url, parse_lines(t.set_cookies), kNow);
  CHECK(CookieJarInspector::content(jar, kNow + 1) == t.content);
  int64_t now = kNow + 1;
  for (size_t i = 0; i < t.queries.size(); ++i) {
    ++now;
    INFO("query #" << i << " " << t.queries[i].to_url);
    CHECK(names(get_for(jar, t.queries[i].to_url, now)) == t.queries[i].want);
  }
}

std::string two_digits(int64_t v) {
  return std::string(1, static_cast<char>('0' + v / 10)) + static_cast<char>('0' + v % 10);
}

// Go's expiresIn: RFC 1123 text for kNow + delta (small deltas only, so
// the date stays 2013-01-01).
std::string expires_in(int64_t delta) {
  int64_t secs = 12 * 3600 + delta;
  return "expires=Tue, 01 Jan 2013 " + two_digits(secs / 3600) + ":" + two_digits(secs / 60 % 60) + ":" +
         two_digits(secs % 60) + " GMT";
}

}  // namespace

TEST_CASE("jar basics", "[cookie_jar]") {
  const std::vector<JarTest> tests = {
      {"Retrieval of a plain host cookie.",
       "http://www.host.test/",
       {"A=a"},
       "A=a",
       {{"http://www.host.test", "A=a"},
        {"http://www.host.test/", "A=a"},
        {"http://www.host.test/some/path", "A=a"},
        {"https://www.host.test", "A=a"},
        {"https://www.host.test/", "A=a"},
        {"https://www.host.test/some/path", "A=a"},
        {"ftp://www.host.test", ""},
        {"ftp://www.host.test/", ""},
        {"ftp://www.host.test/some/path", ""},
        {"http://www.other.org", ""},
        {"http://sibling.host.test", ""},
        {"http://deep.www.host.test", ""}}},
      {"Secure cookies are not returned to http.",
       "http://www.host.test/",
       {"A=a; secure"},
       "A=a",
       {{"http://www.host.test", ""},
        {"http://www.host.test/", ""},
        {"http://www.host.test/some/path", ""},
        {"https://www.host.test", "A=a"},
        {"https://www.host.test/", "A=a"},
        {"https://www.host.test/some/path", "A=a"}}},
      {"Explicit path.",
       "http://www.host.test/",
       {"A=a; path=/some/path"},
       "A=a",
       {{"http://www.host.test", ""},
        {"http://www.host.test/", ""},
        {"http://www.host.test/some", ""},
        {"http://www.host.test/some/", ""},
        {"http://www.host.test/some/path", "A=a"},
        {"http://www.host.test/some/paths", ""},
        {"http://www.host.test/some/path/foo", "A=a"},
        {"http://www.host.test/some/path/foo/", "A=a"}}},
      {"Implicit path #1: path is a directory.",
       "http://www.host.test/some/path/",
       {"A=a"},
       "A=a",
       {{"http://www.host.test", ""},
        {"http://www.host.test/", ""},
        {"http://www.host.test/some", ""},
        {"http://www.host.test/some/", ""},
        {"http://www.host.test/some/path", "A=a"},
        {"http://www.host.test/some/paths", ""},
        {"http://www.host.test/some/path/foo", "A=a"},
        {"http://www.host.test/some/path/foo/", "A=a"}}},
      {"Implicit path #2: path is not a directory.",
       "http://www.host.test/some/path/index.html",
       {"A=a"},
       "A=a",
       {{"http://www.host.test", ""},
        {"http://www.host.test/", ""},
        {"http://www.host.test/some", ""},
        {"http://www.host.test/some/", ""},
        {"http://www.host.test/some/path", "A=a"},
        {"http://www.host.test/some/paths", ""},
        {"http://www.host.test/some/path/foo", "A=a"},
        {"http://www.host.test/some/path/foo/", "A=a"}}},
      {"Implicit path #3: no path in URL at all.",
       "http://www.host.test",
       {"A=a"},
       "A=a",
       {{"http://www.host.test", "A=a"},
        {"http://www.host.test/", "A=a"},
        {"http://www.host.test/some/path", "A=a"}}},
      {"Cookies are sorted by path length.",
       "http://www.host.test/",
       {"A=a; path=/foo/bar", "B=b; path=/foo/bar/baz/qux", "C=c; path=/foo/bar/baz", "D=d; path=/foo"},
       "A=a B=b C=c D=d",
       {{"http://www.host.test/foo/bar/baz/qux", "B=b C=c A=a D=d"},
        {"http://www.host.test/foo/bar/baz/", "C=c A=a D=d"},
        {"http://www.host.test/foo/bar", "A=a D=d"}}},
      {"Creation time determines sorting on same length paths.",
       "http://www.host.test/",
       {"A=a; path=/foo/bar", "X=x; path=/foo/bar", "Y=y; path=/foo/bar/baz/qux",
        "B=b; path=/foo/bar/baz/qux", "C=c; path=/foo/bar/baz", "W=w; path=/foo/bar/baz", "Z=z; path=/foo",
        "D=d; path=/foo"},
       "A=a B=b C=c D=d W=w X=x Y=y Z=z",
       {{"http://www.host.test/foo/bar/baz/qux", "Y=y B=b C=c W=w A=a X=x Z=z D=d"},
        {"http://www.host.test/foo/bar/baz/", "C=c W=w A=a X=x Z=z D=d"},
        {"http://www.host.test/foo/bar", "A=a X=x Z=z D=d"}}},
      {"Sorting of same-name cookies.",
       "http://www.host.test/",
       {"A=1; path=/", "A=2; path=/path", "A=3; path=/quux", "A=4; path=/path/foo",
        "A=5; domain=.host.test; path=/path", "A=6; domain=.host.test; path=/quux",
        "A=7; domain=.host.test; path=/path/foo"},
       "A=1 A=2 A=3 A=4 A=5 A=6 A=7",
       {{"http://www.host.test/path", "A=2 A=5 A=1"},
        {"http://www.host.test/path/foo", "A=4 A=7 A=2 A=5 A=1"}}},
      {"nil PSL: a domain cookie on a public suffix is accepted.",
       "http://www.bbc.co.uk",
       {"a=1", "b=2; domain=co.uk"},
       "a=1 b=2",
       {{"http://www.bbc.co.uk", "a=1 b=2"}, {"http://other.co.uk", "b=2"}}},
      {"Host cookie on IP.", "http://192.168.0.10", {"a=1"}, "a=1", {{"http://192.168.0.10", "a=1"}}},
      {"Port is ignored #1.",
       "http://www.host.test/",
       {"a=1"},
       "a=1",
       {{"http://www.host.test", "a=1"}, {"http://www.host.test:8080/", "a=1"}}},
      {"Port is ignored #2.",
       "http://www.host.test:8080/",
       {"a=1"},
       "a=1",
       {{"http://www.host.test", "a=1"},
        {"http://www.host.test:8080/", "a=1"},
        {"http://www.host.test:1234/", "a=1"}}},
  };
  for (const JarTest& t : tests) {
    CookieJar jar;
    run(t, jar);
  }
}

TEST_CASE("jar update and delete", "[cookie_jar]") {
  const std::vector<JarTest> tests = {
      {"Set initial cookies.",
       "http://www.host.test",
       {"a=1", "b=2; secure", "c=3; httponly", "d=4; secure; httponly"},
       "a=1 b=2 c=3 d=4",
       {{"http://www.host.test", "a=1 c=3"}, {"https://www.host.test", "a=1 b=2 c=3 d=4"}}},
      {"Update value via http.",
       "http://www.host.test",
       {"a=w", "b=x; secure", "c=y; httponly", "d=z; secure; httponly"},
       "a=w b=x c=y d=z",
       {{"http://www.host.test", "a=w c=y"}, {"https://www.host.test", "a=w b=x c=y d=z"}}},
      {"Clear Secure flag from a http.",
       "http://www.host.test/",
       {"b=xx", "d=zz; httponly"},
       "a=w b=xx c=y d=zz",
       {{"http://www.host.test", "a=w b=xx c=y d=zz"}}},
      {"Delete all.",
       "http://www.host.test/",
       {"a=1; max-Age=-1", "b=2; " + expires_in(-10), "c=2; max-age=-1; " + expires_in(-10),
        "d=4; max-age=-1; " + expires_in(10)},
       "",
       {{"http://www.host.test", ""}}},
      {"Refill #1.",
       "http://www.host.test",
       {"A=1", "A=2; path=/foo", "A=3; domain=.host.test", "A=4; path=/foo; domain=.host.test"},
       "A=1 A=2 A=3 A=4",
       {{"http://www.host.test/foo", "A=2 A=4 A=1 A=3"}}},
      {"Refill #2.",
       "http://www.google.com",
       {"A=6", "A=7; path=/foo", "A=8; domain=.google.com", "A=9; path=/foo; domain=.google.com"},
       "A=1 A=2 A=3 A=4 A=6 A=7 A=8 A=9",
       {{"http://www.host.test/foo", "A=2 A=4 A=1 A=3"}, {"http://www.google.com/foo", "A=7 A=9 A=6 A=8"}}},
      {"Delete A7.",
       "http://www.google.com",
       {"A=; path=/foo; max-age=-1"},
       "A=1 A=2 A=3 A=4 A=6 A=8 A=9",
       {{"http://www.host.test/foo", "A=2 A=4 A=1 A=3"}, {"http://www.google.com/foo", "A=9 A=6 A=8"}}},
      {"Delete A4.",
       "http://www.host.test",
       {"A=; path=/foo; domain=host.test; max-age=-1"},
       "A=1 A=2 A=3 A=6 A=8 A=9",
       {{"http://www.host.test/foo", "A=2 A=1 A=3"}, {"http://www.google.com/foo", "A=9 A=6 A=8"}}},
      {"Delete A6.",
       "http://www.google.com",
       {"A=; max-age=-1"},
       "A=1 A=2 A=3 A=8 A=9",
       {{"http://www.host.test/foo", "A=2 A=1 A=3"}, {"http://www.google.com/foo", "A=9 A=8"}}},
      {"Delete A3.",
       "http://www.host.test",
       {"A=; domain=host.test; max-age=-1"},
       "A=1 A=2 A=8 A=9",
       {{"http://www.host.test/foo", "A=2 A=1"}, {"http://www.google.com/foo", "A=9 A=8"}}},
      {"No cross-domain delete.",
       "http://www.host.test",
       {"A=; domain=google.com; max-age=-1", "A=; path=/foo; domain=google.com; max-age=-1"},
       "A=1 A=2 A=8 A=9",
       {{"http://www.host.test/foo", "A=2 A=1"}, {"http://www.google.com/foo", "A=9 A=8"}}},
      {"Delete A8 and A9.",
       "http://www.google.com",
       {"A=; domain=google.com; max-age=-1", "A=; path=/foo; domain=google.com; max-age=-1"},
       "A=1 A=2",
       {{"http://www.host.test/foo", "A=2 A=1"}, {"http://www.google.com/foo", ""}}},
  };
  CookieJar jar;
  for (const JarTest& t : tests) run(t, jar);
}

TEST_CASE("jar expiration", "[cookie_jar]") {
  CookieJar jar;
  run({"Expiration.",
       "http://www.host.test",
       {"a=1", "b=2; max-age=3", "c=3; " + expires_in(3), "d=4; max-age=5", "e=5; " + expires_in(5),
        "f=6; max-age=100"},
       "a=1 b=2 c=3 d=4 e=5 f=6",
       {{"http://www.host.test", "a=1 b=2 c=3 d=4 e=5 f=6"},
        {"http://www.host.test", "a=1 d=4 e=5 f=6"},
        {"http://www.host.test", "a=1 d=4 e=5 f=6"},
        {"http://www.host.test", "a=1 f=6"},
        {"http://www.host.test", "a=1 f=6"}}},
      jar);
}

TEST_CASE("jar chromium basics", "[cookie_jar]") {
  const std::vector<JarTest> tests = {
      {"DomainWithTrailingDotTest.",
       "http://www.google.com/",
       {"a=1; domain=.www.google.com.", "b=2; domain=.www.google.com.."},
       "",
       {{"http://www.google.com", ""}}},
      {"ValidSubdomainTest #1.",
       "http://a.b.c.d.com",
       {"a=1; domain=.a.b.c.d.com", "b=2; domain=.b.c.d.com", "c=3; domain=.c.d.com", "d=4; domain=.d.com"},
       "a=1 b=2 c=3 d=4",
       {{"http://a.b.c.d.com", "a=1 b=2 c=3 d=4"},
        {"http://b.c.d.com", "b=2 c=3 d=4"},
        {"http://c.d.com", "c=3 d=4"},
        {"http://d.com", "d=4"}}},
      {"ValidSubdomainTest #2.",
       "http://a.b.c.d.com",
       {"a=1; domain=.a.b.c.d.com", "b=2; domain=.b.c.d.com", "c=3; domain=.c.d.com", "d=4; domain=.d.com",
        "X=bcd; domain=.b.c.d.com", "X=cd; domain=.c.d.com"},
       "X=bcd X=cd a=1 b=2 c=3 d=4",
       {{"http://b.c.d.com", "b=2 c=3 d=4 X=bcd X=cd"}, {"http://c.d.com", "c=3 d=4 X=cd"}}},
      {"InvalidDomainTest #1.",
       "http://foo.bar.com",
       {"a=1; domain=.yo.foo.bar.com", "b=2; domain=.foo.com", "c=3; domain=.bar.foo.com",
        "d=4; domain=.foo.bar.com.net", "e=5; domain=ar.com", "f=6; domain=.", "g=7; domain=/",
        "h=8; domain=http://foo.bar.com", "i=9; domain=..foo.bar.com", "j=10; domain=..bar.com",
        "k=11; domain=.foo.bar.com?blah", "l=12; domain=.foo.bar.com/blah", "m=12; domain=.foo.bar.com:80",
        "n=14; domain=.foo.bar.com:", "o=15; domain=.foo.bar.com#sup"},
       "",
       {{"http://foo.bar.com", ""}}},
      {"InvalidDomainTest #2.",
       "http://foo.com.com",
       {"a=1; domain=.foo.com.com.com"},
       "",
       {{"http://foo.bar.com", ""}}},
      {"DomainWithoutLeadingDotTest #1.",
       "http://manage.hosted.filefront.com",
       {"a=1; domain=filefront.com"},
       "a=1",
       {{"http://www.filefront.com", "a=1"}}},
      {"DomainWithoutLeadingDotTest #2.",
       "http://www.google.com",
       {"a=1; domain=www.google.com"},
       "a=1",
       {{"http://www.google.com", "a=1"},
        {"http://sub.www.google.com", "a=1"},
        {"http://something-else.com", ""}}},
      {"CaseInsensitiveDomainTest.",
       "http://www.google.com",
       {"a=1; domain=.GOOGLE.COM", "b=2; domain=.www.gOOgLE.coM"},
       "a=1 b=2",
       {{"http://www.google.com", "a=1 b=2"}}},
      {"TestIpAddress #1.", "http://1.2.3.4/foo", {"a=1; path=/"}, "a=1", {{"http://1.2.3.4/foo", "a=1"}}},
      {"TestIpAddress #2.",
       "http://1.2.3.4/foo",
       {"a=1; domain=.1.2.3.4", "b=2; domain=.3.4"},
       "",
       {{"http://1.2.3.4/foo", ""}}},
      // fhttp predates Go 1.x accepting Domain=<the IP>: still rejected.
      {"TestIpAddress #3.", "http://1.2.3.4/foo", {"a=1; domain=1.2.3.4"}, "", {{"http://1.2.3.4/foo", ""}}},
      {"TestNonDottedAndTLD #2.",
       "http://com./index.html",
       {"a=1"},
       "a=1",
       {{"http://com./index.html", "a=1"}, {"http://no-cookies.com./index.html", ""}}},
      {"nil PSL: TestNonDottedAndTLD #3.",
       "http://a.b",
       {"a=1; domain=.b", "b=2; domain=b"},
       "a=1 b=2",
       {{"http://bar.foo", ""}, {"http://a.b", "a=1 b=2"}}},
      {"nil PSL: TestNonDottedAndTLD #4.",
       "http://google.com",
       {"a=1; domain=.com", "b=2; domain=com"},
       "a=1 b=2",
       {{"http://google.com", "a=1 b=2"}}},
      {"nil PSL: TestNonDottedAndTLD #5.",
       "http://google.co.uk",
       {"a=1; domain=.co.uk", "b=2; domain=.uk"},
       "a=1 b=2",
       {{"http://google.co.uk", "a=1 b=2"}, {"http://else.co.com", ""}, {"http://else.uk", ""}}},
      {"TestHostEndsWithDot.",
       "http://www.google.com",
       {"a=1", "b=2; domain=.www.google.com."},
       "a=1",
       {{"http://www.google.com", "a=1"}}},
      {"PathTest",
       "http://www.google.izzle",
       {"a=1; path=/wee"},
       "a=1",
       {{"http://www.google.izzle/wee", "a=1"},
        {"http://www.google.izzle/wee/", "a=1"},
        {"http://www.google.izzle/wee/war", "a=1"},
        {"http://www.google.izzle/wee/war/more/more", "a=1"},
        {"http://www.google.izzle/weehee", ""},
        {"http://www.google.izzle/", ""}}},
  };
  for (const JarTest& t : tests) {
    CookieJar jar;
    run(t, jar);
  }
}

TEST_CASE("jar chromium domain", "[cookie_jar]") {
  const std::vector<JarTest> tests = {
      {"Fill #1.", "http://www.google.izzle", {"A=B"}, "A=B", {{"http://www.google.izzle", "A=B"}}},
      {"Fill #2.",
       "http://www.google.izzle",
       {"C=D; domain=.google.izzle"},
       "A=B C=D",
       {{"http://www.google.izzle", "A=B C=D"}}},
      {"Verify A is a host cookie and not accessible from subdomain.",
       "http://unused.nil",
       {},
       "A=B C=D",
       {{"http://foo.www.google.izzle", "C=D"}}},
      {"Verify domain cookies are found on proper domain.",
       "http://www.google.izzle",
       {"E=F; domain=.www.google.izzle"},
       "A=B C=D E=F",
       {{"http://www.google.izzle", "A=B C=D E=F"}}},
      {"Leading dots in domain attributes are optional.",
       "http://www.google.izzle",
       {"G=H; domain=www.google.izzle"},
       "A=B C=D E=F G=H",
       {{"http://www.google.izzle", "A=B C=D E=F G=H"}}},
      {"Verify domain enforcement works #1.",
       "http://www.google.izzle",
       {"K=L; domain=.bar.www.google.izzle"},
       "A=B C=D E=F G=H",
       {{"http://bar.www.google.izzle", "C=D E=F G=H"}}},
      {"Verify domain enforcement works #2.",
       "http://unused.nil",
       {},
       "A=B C=D E=F G=H",
       {{"http://www.google.izzle", "A=B C=D E=F G=H"}}},
  };
  CookieJar jar;
  for (const JarTest& t : tests) run(t, jar);
}

TEST_CASE("jar chromium deletion", "[cookie_jar]") {
  const std::vector<JarTest> tests = {
      {"Create session cookie a1.",
       "http://www.google.com",
       {"a=1"},
       "a=1",
       {{"http://www.google.com", "a=1"}}},
      {"Delete sc a1 via MaxAge.",
       "http://www.google.com",
       {"a=1; max-age=-1"},
       "",
       {{"http://www.google.com", ""}}},
      {"Create session cookie b2.",
       "http://www.google.com",
       {"b=2"},
       "b=2",
       {{"http://www.google.com", "b=2"}}},
      {"Delete sc b2 via Expires.",
       "http://www.google.com",
       {"b=2; " + expires_in(-10)},
       "",
       {{"http://www.google.com", ""}}},
      {"Create persistent cookie c3.",
       "http://www.google.com",
       {"c=3; max-age=3600"},
       "c=3",
       {{"http://www.google.com", "c=3"}}},
      {"Delete pc c3 via MaxAge.",
       "http://www.google.com",
       {"c=3; max-age=-1"},
       "",
       {{"http://www.google.com", ""}}},
      {"Create persistent cookie d4.",
       "http://www.google.com",
       {"d=4; max-age=3600"},
       "d=4",
       {{"http://www.google.com", "d=4"}}},
      {"Delete pc d4 via Expires.",
       "http://www.google.com",
       {"d=4; " + expires_in(-10)},
       "",
       {{"http://www.google.com", ""}}},
  };
  CookieJar jar;
  for (const JarTest& t : tests) run(t, jar);
}

TEST_CASE("jar domain handling", "[cookie_jar]") {
  const std::vector<Query> idna_host_only = {
      {"http://www.bücher.test", "a=1"},  {"http://www.xn--bcher-kva.test", "a=1"},
      {"http://bücher.test", ""},         {"http://xn--bcher-kva.test", ""},
      {"http://bar.bücher.test", ""},     {"http://bar.xn--bcher-kva.test", ""},
      {"http://foo.www.bücher.test", ""}, {"http://foo.www.xn--bcher-kva.test", ""},
      {"http://other.test", ""},          {"http://test", ""}};
  const std::vector<Query> idna_domain = {{"http://www.bücher.test", "a=1"},
                                          {"http://www.xn--bcher-kva.test", "a=1"},
                                          {"http://bücher.test", "a=1"},
                                          {"http://xn--bcher-kva.test", "a=1"},
                                          {"http://bar.bücher.test", "a=1"},
                                          {"http://bar.xn--bcher-kva.test", "a=1"},
                                          {"http://foo.www.bücher.test", "a=1"},
                                          {"http://foo.www.xn--bcher-kva.test", "a=1"},
                                          {"http://other.test", ""},
                                          {"http://test", ""}};
  const std::vector<JarTest> tests = {
      {"Host cookie",
       "http://www.host.test",
       {"a=1"},
       "a=1",
       {{"http://www.host.test", "a=1"},
        {"http://host.test", ""},
        {"http://bar.host.test", ""},
        {"http://foo.www.host.test", ""},
        {"http://other.test", ""},
        {"http://test", ""}}},
      {"Domain cookie #1",
       "http://www.host.test",
       {"a=1; domain=host.test"},
       "a=1",
       {{"http://www.host.test", "a=1"},
        {"http://host.test", "a=1"},
        {"http://bar.host.test", "a=1"},
        {"http://foo.www.host.test", "a=1"},
        {"http://other.test", ""},
        {"http://test", ""}}},
      {"Domain cookie #2",
       "http://www.host.test",
       {"a=1; domain=.host.test"},
       "a=1",
       {{"http://www.host.test", "a=1"},
        {"http://host.test", "a=1"},
        {"http://bar.host.test", "a=1"},
        {"http://foo.www.host.test", "a=1"},
        {"http://other.test", ""},
        {"http://test", ""}}},
      {"Host cookie on IDNA domain #1", "http://www.bücher.test", {"a=1"}, "a=1", idna_host_only},
      {"Host cookie on IDNA domain #2", "http://www.xn--bcher-kva.test", {"a=1"}, "a=1", idna_host_only},
      {"Domain cookie on IDNA domain #1",
       "http://www.bücher.test",
       {"a=1; domain=xn--bcher-kva.test"},
       "a=1",
       idna_domain},
      {"Domain cookie on IDNA domain #2",
       "http://www.xn--bcher-kva.test",
       {"a=1; domain=xn--bcher-kva.test"},
       "a=1",
       idna_domain},
      {"Host cookie on TLD.",
       "http://com",
       {"a=1"},
       "a=1",
       {{"http://com", "a=1"}, {"http://any.com", ""}, {"http://any.test", ""}}},
      {"nil PSL: domain cookie on TLD (a domain cookie, but keyed apart).",
       "http://com",
       {"a=1; domain=com"},
       "a=1",
       {{"http://com", "a=1"}, {"http://any.com", ""}, {"http://any.test", ""}}},
      {"Host cookie on public suffix.",
       "http://co.uk",
       {"a=1"},
       "a=1",
       {{"http://co.uk", "a=1"},
        {"http://uk", ""},
        {"http://some.co.uk", ""},
        {"http://foo.some.co.uk", ""},
        {"http://any.uk", ""}}},
      {"nil PSL: domain cookie on public suffix is accepted.",
       "http://some.co.uk",
       {"a=1; domain=co.uk"},
       "a=1",
       {{"http://co.uk", "a=1"},
        {"http://uk", ""},
        {"http://some.co.uk", "a=1"},
        {"http://foo.some.co.uk", "a=1"},
        {"http://any.uk", ""}}},
  };
  for (const JarTest& t : tests) {
    CookieJar jar;
    run(t, jar);
  }
}

TEST_CASE("jar issue 19384: odd hosts", "[cookie_jar]") {
  for (const char* host : {"", ".", "..", "..."}) {
    INFO("host: '" << host << "'");
    CookieJar jar;
    CHECK(jar.cookies("http", host, "/", kNow).empty());
    Cookie c;
    c.name = "name";
    c.value = "value";
    jar.set_cookies("http", host, "/", {c}, kNow);
    auto got = jar.cookies("http", host, "/", kNow);
    REQUIRE(got.size() == 1);
    CHECK(got[0].value == "value");
  }
}

TEST_CASE("jar host canonicalisation (canonicalHost table)", "[cookie_jar]") {
  struct Case {
    const char* host;
    const char* stored_domain;  // nullptr: Go's canonicalHost fails, nothing stored
  };
  const std::vector<Case> cases = {
      {"www.example.com", "www.example.com"},
      {"WWW.EXAMPLE.COM", "www.example.com"},
      {"wWw.eXAmple.CoM", "www.example.com"},
      {"www.example.com:80", "www.example.com"},
      {"192.168.0.10", "192.168.0.10"},
      {"192.168.0.5:8080", "192.168.0.5"},
      {"2001:4860:0:2001::68", "2001:4860:0:2001::68"},
      {"[2001:4860:0:::68]:8080", "2001:4860:0:::68"},
      {"[::1]", "[::1]"},  // no port: brackets stay, as in Go
      {"www.bücher.de", "www.xn--bcher-kva.de"},
      {"münchen.de", "xn--mnchen-3ya.de"},
      {"españa.com", "xn--espaa-rta.com"},
      {"日本.jp", "xn--wgv71a.jp"},
      {"a\xff"
       "b.test",
       "xn--ab-gg4n.test"},  // invalid UTF-8 is U+FFFD
      {"www.example.com.", "www.example.com"},
      {".", ""},
      {"..", "."},
      {"...", ".."},
      {".net", ".net"},
      {".net.", ".net"},
      {"a..", "a."},
      {"b.a..", "b.a."},
      {"weird.stuff...", "weird.stuff.."},
      {"[bad.unmatched.bracket:", nullptr},
      {"a:b:c", "a:b:c"},  // two colons, no brackets: not a port
      {"[::1]:80:", nullptr},
  };
  for (const auto& tc : cases) {
    INFO("host: " << tc.host);
    CookieJar jar;
    Cookie c;
    c.name = "n";
    c.value = "v";
    jar.set_cookies("http", tc.host, "/", {c}, kNow);
    auto got = jar.cookies("http", tc.host, "/", kNow);
    if (tc.stored_domain == nullptr) {
      CHECK(got.empty());
      CHECK(CookieJarInspector::keys(jar) == 0);
    } else {
      REQUIRE(got.size() == 1);
      CHECK(got[0].domain == tc.stored_domain);
    }
  }
}

TEST_CASE("jar IP detection (isIP table) via Domain attributes", "[cookie_jar]") {
  // A Domain attribute on an IP host is rejected (errNoHostname); on a
  // hostname equal to the domain it makes a domain cookie.
  struct Case {
    const char* host;
    bool is_ip;
  };
  const std::vector<Case> cases = {
      {"127.0.0.1", true},        {"1.2.3.4", true},    {"2001:4860:0:2001::68", true},
      {"::ffff:1.2.3.4", true},   {"::", true},         {"example.com", false},
      {"1.1.1.300", false},       {"01.1.1.1", false},  // leading zeros are not IPv4 to Go
      {"1.1.1", false},           {"1.1.1.1.1", false}, {"www.foo.bar.net", false},
      {"123.foo.bar.net", false},
  };
  for (const auto& tc : cases) {
    INFO("host: " << tc.host);
    CookieJar jar;
    Cookie c;
    c.name = "n";
    c.value = "v";
    c.domain = tc.host;
    jar.set_cookies("http", tc.host, "/", {c}, kNow);
    CHECK(jar.cookies("http", tc.host, "/", kNow).empty() == tc.is_ip);
  }
}

TEST_CASE("jar default path (defaultPath table)", "[cookie_jar]") {
  struct Case {
    const char* url_path;
    const char* want;
  };
  const std::vector<Case> cases = {
      {"/", "/"},
      {"/abc", "/"},
      {"/abc/", "/abc"},
      {"/abc/xyz", "/abc"},
      {"/abc/xyz/", "/abc/xyz"},
      {"/a/b/c.html", "/a/b"},
      {"", "/"},
      {"strange", "/"},
      {"//", "/"},
      {"/a//b", "/a/"},
      {"/a/./b", "/a/."},
      {"/a/../b", "/a/.."},
  };
  for (const auto& tc : cases) {
    INFO("path: " << tc.url_path);
    CookieJar jar;
    Cookie c;
    c.name = "n";
    c.value = "v";
    jar.set_cookies("http", "h.test", tc.url_path, {c}, kNow);
    auto got = jar.cookies("http", "h.test", tc.want, kNow);
    REQUIRE(got.size() == 1);
    CHECK(got[0].path == tc.want);
  }
  SECTION("a Path attribute not starting with '/' falls back to the default") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/x/y", {*tlsc::parse_set_cookie("n=v; path=rel")}, kNow);
    auto got = jar.cookies("http", "h.test", "/x/y", kNow);
    REQUIRE(got.size() == 1);
    CHECK(got[0].path == "/x");
  }
}

TEST_CASE("jar output carries the stored entry", "[cookie_jar]") {
  CookieJar jar;
  jar.set_cookies("https", "www.host.test", "/",
                  {*tlsc::parse_set_cookie("s=1"), *tlsc::parse_set_cookie("p=2; Max-Age=60; Secure"),
                   *tlsc::parse_set_cookie("d=3; Domain=HOST.test; Path=/; HttpOnly; "
                                           "Expires=Wed, 09 Jun 2100 10:18:14 GMT")},
                  kNow);
  auto got = jar.cookies("https", "www.host.test", "/", kNow + 1);
  REQUIRE(got.size() == 3);
  CHECK(got[0].name == "s");
  CHECK(got[0].domain == "www.host.test");  // host-only: the host
  CHECK(got[0].path == "/");
  CHECK_FALSE(got[0].expires);  // session cookie
  CHECK(got[1].name == "p");
  CHECK(got[1].expires == kNow + 60);
  CHECK(got[1].secure);
  CHECK(got[1].max_age == 0);
  CHECK(got[2].name == "d");
  CHECK(got[2].domain == "host.test");
  CHECK(got[2].http_only);
  CHECK(got[2].expires == 4116219494);
  CHECK(got[2].same_site.empty());
  CHECK(jar.cookies("http", "www.host.test", "/", kNow + 1).size() == 2);
}

TEST_CASE("jar ordering: creation time across calls, updates keep their place", "[cookie_jar]") {
  CookieJar jar;
  auto one = [](const char* line) { return std::vector<Cookie>{*tlsc::parse_set_cookie(line)}; };
  jar.set_cookies("http", "h.test", "/", one("a=1"), kNow);
  jar.set_cookies("http", "h.test", "/", one("b=1"), kNow + 5);
  jar.set_cookies("http", "h.test", "/", one("c=1"), kNow + 5);
  // A clock that went backwards still sorts by creation time first.
  jar.set_cookies("http", "h.test", "/", one("z=1"), kNow - 5);
  CHECK(names(jar.cookies("http", "h.test", "/", kNow + 10)) == "z=1 a=1 b=1 c=1");
  // Updating a cookie keeps its creation time and sequence number.
  jar.set_cookies("http", "h.test", "/", one("a=2"), kNow + 20);
  CHECK(names(jar.cookies("http", "h.test", "/", kNow + 21)) == "z=1 a=2 b=1 c=1");
  // Deleting and re-adding moves it to the end.
  jar.set_cookies("http", "h.test", "/", one("a=; max-age=0"), kNow + 22);
  jar.set_cookies("http", "h.test", "/", one("a=3"), kNow + 23);
  CHECK(names(jar.cookies("http", "h.test", "/", kNow + 24)) == "z=1 b=1 c=1 a=3");
  // Same-id duplicates in one call: the last value wins, the first slot stays.
  jar.set_cookies("http", "h.test", "/", {*tlsc::parse_set_cookie("y=1"), *tlsc::parse_set_cookie("y=2")},
                  kNow + 30);
  CHECK(names(jar.cookies("http", "h.test", "/", kNow + 31)) == "z=1 b=1 c=1 a=3 y=2");
}

TEST_CASE("jar expiry edges", "[cookie_jar]") {
  auto one = [](Cookie c) { return std::vector<Cookie>{std::move(c)}; };
  SECTION("Expires equal to now deletes (not After)") {
    CookieJar jar;
    Cookie c = *tlsc::parse_set_cookie("a=1");
    c.expires = kNow;
    jar.set_cookies("http", "h.test", "/", one(c), kNow);
    CHECK(jar.cookies("http", "h.test", "/", kNow).empty());
  }
  SECTION("a persistent cookie disappears exactly at its expiry") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/", one(*tlsc::parse_set_cookie("a=1; max-age=10")), kNow);
    CHECK(jar.cookies("http", "h.test", "/", kNow + 9).size() == 1);
    CHECK(jar.cookies("http", "h.test", "/", kNow + 10).empty());
    CHECK(CookieJarInspector::keys(jar) == 0);
  }
  SECTION("Max-Age beats Expires") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/",
                    one(*tlsc::parse_set_cookie("a=1; max-age=100; " + expires_in(-10))), kNow);
    auto got = jar.cookies("http", "h.test", "/", kNow);
    REQUIRE(got.size() == 1);
    CHECK(got[0].expires == kNow + 100);
  }
  SECTION("huge Max-Age wraps like Go's Duration and lands in the past") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/", one(*tlsc::parse_set_cookie("a=1")), kNow);
    jar.set_cookies("http", "h.test", "/", one(*tlsc::parse_set_cookie("a=2; max-age=31536000000")), kNow);
    CHECK(jar.cookies("http", "h.test", "/", kNow).empty());
  }
  SECTION("largest Max-Age that does not wrap") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/", one(*tlsc::parse_set_cookie("a=1; max-age=9223372036")), kNow);
    auto got = jar.cookies("http", "h.test", "/", kNow);
    REQUIRE(got.size() == 1);
    CHECK(got[0].expires == kNow + 9223372036);
  }
  SECTION("caller expiry near INT64_MAX wraps in Go and deletes") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/", one(*tlsc::parse_set_cookie("a=1")), kNow);
    jar.set_cookies("http", "h.test", "/",
                    one(tlsc::cookie_from_caller("a", "2", "/", "", INT64_MAX, 0, false, false)), kNow);
    CHECK(jar.cookies("http", "h.test", "/", kNow).empty());
  }
  SECTION("caller cookies: 0 / null expires are session cookies, a real past date deletes") {
    CookieJar jar;
    jar.set_cookies("http", "h.test", "/",
                    {tlsc::cookie_from_caller("a", "1", "", "", 0, 0, false, false),
                     tlsc::cookie_from_caller("b", "2", "", "", std::nullopt, 0, false, false),
                     tlsc::cookie_from_caller("c", "3", "", "", 1, 0, false, false),
                     tlsc::cookie_from_caller("d", "4", "", "h.test", kNow + 3600, 0, true, true)},
                    kNow);
    auto got = jar.cookies("https", "sub.h.test", "/", kNow);
    REQUIRE(got.size() == 1);
    CHECK(got[0].name == "d");
    CHECK(got[0].expires == kNow + 3600);
    CHECK(names(jar.cookies("http", "h.test", "/", kNow)) == "a=1 b=2");
  }
  SECTION("a raw Cookie with expires 0 (1970) is deleted, as in Go") {
    CookieJar jar;
    Cookie c = *tlsc::parse_set_cookie("a=1");
    c.expires = 0;
    jar.set_cookies("http", "h.test", "/", one(c), kNow);
    CHECK(jar.cookies("http", "h.test", "/", kNow).empty());
  }
}

TEST_CASE("jar schemes", "[cookie_jar]") {
  CookieJar jar;
  std::vector<Cookie> cs = {*tlsc::parse_set_cookie("a=1"), *tlsc::parse_set_cookie("s=1; secure")};
  jar.set_cookies("ftp", "h.test", "/", cs, kNow);
  CHECK(CookieJarInspector::keys(jar) == 0);
  jar.set_cookies("HTTP", "h.test", "/", cs, kNow);  // Go's url.Parse lowercases; we expect lowercase
  CHECK(CookieJarInspector::keys(jar) == 0);
  jar.set_cookies("ws", "h.test", "/", cs, kNow);
  CHECK(names(jar.cookies("http", "h.test", "/", kNow)) == "a=1");
  CHECK(names(jar.cookies("ws", "h.test", "/", kNow)) == "a=1");
  CHECK(names(jar.cookies("wss", "h.test", "/", kNow)) == "a=1 s=1");
  CHECK(names(jar.cookies("https", "h.test", "/", kNow)) == "a=1 s=1");
  CHECK(jar.cookies("ftp", "h.test", "/", kNow).empty());
}

TEST_CASE("jar: cookies set for one host key never leak to another", "[cookie_jar]") {
  CookieJar jar;
  jar.set_cookies("http", "a.example.com", "/", {*tlsc::parse_set_cookie("x=1; domain=example.com")}, kNow);
  CHECK(names(jar.cookies("http", "b.example.com", "/", kNow)) == "x=1");
  CHECK(names(jar.cookies("http", "example.com", "/", kNow)) == "x=1");
  CHECK(jar.cookies("http", "example.org", "/", kNow).empty());
  CHECK(jar.cookies("http", "notexample.com", "/", kNow).empty());
}
