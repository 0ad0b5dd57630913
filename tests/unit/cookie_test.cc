// Set-Cookie parsing and Cookie header building, mirroring the table tests
// of Go's net/http cookie_test.go (fhttp v0.6.8 flavour) plus the edges of
// time.Parse and strconv.Atoi that the attributes go through.
#include "cookies/cookie.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

using tlsc::Cookie;
using tlsc::cookie_from_caller;
using tlsc::cookie_header_value;
using tlsc::parse_set_cookie;

namespace {

Cookie must_parse(const std::string& line) {
  auto c = parse_set_cookie(line);
  INFO("line: " << line);
  REQUIRE(c.has_value());
  return *c;
}

Cookie nv(std::string name, std::string value, bool quoted = false) {
  Cookie c;
  c.name = std::move(name);
  c.value = std::move(value);
  c.quoted = quoted;
  return c;
}

}  // namespace

TEST_CASE("readSetCookies table from Go", "[cookie]") {
  SECTION("plain") {
    Cookie c = must_parse("Cookie-1=v$1");
    CHECK(c.name == "Cookie-1");
    CHECK(c.value == "v$1");
    CHECK(c.path.empty());
    CHECK(c.domain.empty());
    CHECK_FALSE(c.expires);
    CHECK(c.max_age == 0);
    CHECK_FALSE(c.secure);
    CHECK_FALSE(c.http_only);
    CHECK(c.same_site.empty());
    CHECK_FALSE(c.quoted);
  }
  SECTION("NID with dashed expires") {
    Cookie c = must_parse(
        "NID=99=YsDT5i3E-CXax-; expires=Wed, 23-Nov-2011 01:05:03 GMT; path=/; "
        "domain=.google.ch; HttpOnly");
    CHECK(c.name == "NID");
    CHECK(c.value == "99=YsDT5i3E-CXax-");
    CHECK(c.path == "/");
    CHECK(c.domain == ".google.ch");
    CHECK(c.http_only);
    CHECK(c.expires == 1322010303);
    CHECK(c.raw_expires == "Wed, 23-Nov-2011 01:05:03 GMT");
  }
  SECTION(".ASPXAUTH") {
    Cookie c = must_parse(".ASPXAUTH=7E3AA; expires=Wed, 07-Mar-2012 14:25:06 GMT; path=/; HttpOnly");
    CHECK(c.name == ".ASPXAUTH");
    CHECK(c.value == "7E3AA");
    CHECK(c.path == "/");
    CHECK(c.expires == 1331130306);
    CHECK(c.raw_expires == "Wed, 07-Mar-2012 14:25:06 GMT");
    CHECK(c.http_only);
  }
  SECTION("ASP.NET_SessionId") {
    Cookie c = must_parse("ASP.NET_SessionId=foo; path=/; HttpOnly");
    CHECK(c.name == "ASP.NET_SessionId");
    CHECK(c.value == "foo");
    CHECK(c.path == "/");
    CHECK(c.http_only);
    CHECK_FALSE(c.expires);
  }
  SECTION("SameSite modes") {
    CHECK(must_parse("samesitedefault=foo; SameSite").same_site == "Default");
    CHECK(must_parse("samesiteinvalidisdefault=foo; SameSite=invalid").same_site == "Default");
    CHECK(must_parse("samesitelax=foo; SameSite=Lax").same_site == "Lax");
    CHECK(must_parse("samesitestrict=foo; SameSite=Strict").same_site == "Strict");
    CHECK(must_parse("samesitenone=foo; SameSite=None").same_site == "None");
    CHECK(must_parse("x=y; samesite=LAX").same_site == "Lax");
  }
  SECTION("values with spaces and commas") {
    CHECK(must_parse("special-1=a z").value == "a z");
    CHECK(must_parse("special-2=\" z\"").value == " z");
    CHECK(must_parse("special-3=\"a \"").value == "a ");
    CHECK(must_parse("special-4=\" \"").value == " ");
    CHECK(must_parse("special-5=a,z").value == "a,z");
    CHECK(must_parse("special-6=\",z\"").value == ",z");
    CHECK(must_parse("special-7=a,").value == "a,");
    CHECK(must_parse("special-8=\",\"").value == ",");
    CHECK(must_parse("special-2=\" z\"").quoted);
    CHECK_FALSE(must_parse("special-1=a z").quoted);
  }
  SECTION("TestSetCookieDoubleQuotes") {
    Cookie q0 = must_parse("quoted0=none; max-age=30");
    CHECK(q0.value == "none");
    CHECK(q0.max_age == 30);
    Cookie q1 = must_parse("quoted1=\"cookieValue\"; max-age=31");
    CHECK(q1.value == "cookieValue");
    CHECK(q1.quoted);
    CHECK(q1.max_age == 31);
    Cookie q2 = must_parse("quoted2=cookieAV; max-age=\"32\"");
    CHECK(q2.value == "cookieAV");
    CHECK(q2.max_age == 0);
    Cookie q3 = must_parse("quoted3=\"both\"; max-age=\"33\"");
    CHECK(q3.value == "both");
    CHECK(q3.max_age == 0);
  }
}

TEST_CASE("Set-Cookie name and value rules", "[cookie]") {
  SECTION("lines that are skipped") {
    for (const char* line :
         {"", "   ", ";", "noequals", "=value", "a b=c", "a =b", "a\t=b", "a;=b", "a=b\\c", "a=\x01",
          "a=b\x7f", "a=\xc3\xa9", "n\xc3\xa9=v", "a(b)=c", "a@b=c", "[x]=1", "a/b=c"}) {
      INFO("line: " << line);
      CHECK_FALSE(parse_set_cookie(line).has_value());
    }
  }
  SECTION("outer whitespace is trimmed, inner is kept") {
    CHECK(must_parse("  \t a=b \r\n").value == "b");
    CHECK(must_parse("a= b").value == " b");
    CHECK(must_parse("a=b ;Path=/p").value == "b");
  }
  SECTION("fhttp allows double quotes inside values") {
    CHECK(must_parse("a=b\"c").value == "b\"c");
    CHECK(must_parse("a=\"").value == "\"");
    CHECK_FALSE(must_parse("a=\"").quoted);
    CHECK(must_parse("a=\"\"").value.empty());
    CHECK(must_parse("a=\"\"").quoted);
    CHECK(must_parse("a=\"x\"y\"").value == "x\"y");
  }
  SECTION("empty value and '=' in value") {
    CHECK(must_parse("a=").value.empty());
    CHECK(must_parse("a==b=").value == "=b=");
  }
  SECTION("token characters in names") {
    CHECK(must_parse("!#$%&'*+-.^_`|~09AZaz=v").name == "!#$%&'*+-.^_`|~09AZaz");
  }
}

TEST_CASE("Set-Cookie attributes", "[cookie]") {
  SECTION("names are case-insensitive, values kept verbatim") {
    Cookie c = must_parse("a=b; PATH=/Some/Path; DOMAIN=.Example.COM; SECURE; HTTPONLY");
    CHECK(c.path == "/Some/Path");
    CHECK(c.domain == ".Example.COM");
    CHECK(c.secure);
    CHECK(c.http_only);
  }
  SECTION("flag attributes ignore any value") {
    CHECK(must_parse("a=b; secure=no").secure);
    CHECK(must_parse("a=b; httponly=0").http_only);
  }
  SECTION("attribute names are not trimmed around '='") {
    CHECK(must_parse("a=b; path =/x").path.empty());
    CHECK(must_parse("a=b; path= /x").path == " /x");
  }
  SECTION("attribute values with illegal bytes are ignored") {
    CHECK(must_parse("a=b; path=/x\\y").path.empty());
    CHECK(must_parse("a=b; domain=\x01x.com").domain.empty());
    CHECK(must_parse("a=b; path=/\xc3\xa9").path.empty());
  }
  SECTION("later attributes win") {
    CHECK(must_parse("a=b; path=/one; path=/two").path == "/two");
    CHECK(must_parse("a=b; domain=x.com; domain=").domain.empty());
  }
  SECTION("empty attributes are skipped") {
    Cookie c = must_parse("a=b;;; ;\t; secure");
    CHECK(c.secure);
  }
  SECTION("unknown attributes are harmless") {
    Cookie c = must_parse("a=b; Priority=High; Partitioned; Comment=x");
    CHECK(c.value == "b");
  }
}

TEST_CASE("Set-Cookie Max-Age follows strconv.Atoi and Go's rules", "[cookie]") {
  struct Case {
    const char* attr;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"max-age=3600", 3600},
      {"Max-Age=0", -1},
      {"max-age=00", -1},
      {"max-age=-0", -1},
      {"max-age=-1", -1},
      {"max-age=-100", -1},
      {"max-age=05", 0},  // leading zero on non-zero: ignored
      {"max-age=+05", 5},
      {"max-age=+0", -1},
      {"max-age=", 0},
      {"max-age=+", 0},
      {"max-age=-", 0},
      {"max-age=abc", 0},
      {"max-age=1e3", 0},
      {"max-age=1_000", 0},
      {"max-age= 5", 0},
      {"max-age=5 ", 5},  // trailing space is trimmed with the part
      {"max-age=9223372036854775807", INT64_MAX},
      {"max-age=9223372036854775808", 0},  // out of range: ignored
      {"max-age=-9223372036854775808", -1},
      {"max-age=-9223372036854775809", 0},
      {"max-age=99999999999999999999999", 0},
      {"max-age=1000000000000", 1000000000000},
  };
  for (const auto& tc : cases) {
    INFO("attr: " << tc.attr);
    CHECK(must_parse(std::string("a=b; ") + tc.attr).max_age == tc.want);
  }
  // An ignored Max-Age leaves an earlier good one in place.
  CHECK(must_parse("a=b; max-age=5; max-age=x").max_age == 5);
  CHECK(must_parse("a=b; max-age=5; max-age=0").max_age == -1);
}

TEST_CASE("Set-Cookie Expires follows time.Parse", "[cookie]") {
  struct Case {
    const char* value;
    std::optional<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"Wed, 09 Jun 2021 10:18:14 GMT", 1623233894},
      {"Wed, 09-Jun-2021 10:18:14 GMT", 1623233894},
      {"wed, 09 JUN 2021 10:18:14 GMT", 1623233894},         // names are case-insensitive
      {"Fri, 09 Jun 2021 10:18:14 GMT", 1623233894},         // weekday is not checked
      {"Wed,   09 Jun   2021 10:18:14    GMT", 1623233894},  // space runs
      {"Wed, 09 Jun 2021 1:18:14 GMT", 1623201494},          // one-digit hour is fine
      {"Wed, 09 Jun 2021 10:18:14 UTC", 1623233894},
      {"Wed, 09 Jun 2021 10:18:14 CEST", 1623233894},  // zone taken as UTC
      {"Wed, 09 Jun 2021 10:18:14 PST", 1623233894},
      {"Wed, 09 Jun 2021 10:18:14 GMT+2", 1623233894},  // fake zone, instant unchanged
      {"Wed, 09 Jun 2021 10:18:14 WITA", 1623233894},
      {"Wed, 09 Jun 2021 10:18:14 ChST", 1623233894},
      {"Wed, 09 Jun 2021 10:18:14 +03", 1623233894},
      {"Wed, 09 Jun 2021 10:18:14.999 GMT", 1623233894},  // fraction dropped
      {"Wed, 09 Jun 2021 10:18:14,5 GMT", 1623233894},
      {"Thu, 01 Jan 1970 00:00:00 GMT", 0},
      {"Sat, 29 Feb 2020 00:00:00 GMT", 1582934400},
      {"Fri, 31 Dec 9999 23:59:59 GMT", 253402300799},
      {"Mon, 01 Jan 0001 00:00:01 GMT", -62135596799},
      {"Sat, 01 Jan 0000 00:00:00 GMT", -62167219200},
      {"Mon, 01 Jan 0001 00:00:00 GMT", std::nullopt},    // Go's zero time = unset
      {"Mon, 01 Jan 0001 00:00:00.5 GMT", -62135596800},  // not zero any more
      // Rejected by both layouts:
      {"Wed, 9 Jun 2021 10:18:14 GMT", std::nullopt},
      {"Wed, 09 Jun 21 10:18:14 GMT", std::nullopt},
      {"Wednesday, 09-Jun-21 10:18:14 GMT", std::nullopt},
      {"Wed Jun  9 10:18:14 2021", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 gmt", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 GMTX", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 GMT+24", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 +0100", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 ABCDE", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 ABCDEF", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:14 GMT x", std::nullopt},  // extra text
      {"Wed, 09 Jun 2021 24:00:00 GMT", std::nullopt},
      {"Wed, 09 Jun 2021 10:60:00 GMT", std::nullopt},
      {"Wed, 09 Jun 2021 10:18:60 GMT", std::nullopt},
      {"Wed, 09 Jun 2021 10:8:14 GMT", std::nullopt},
      {"Wed, 31 Jun 2021 10:18:14 GMT", std::nullopt},
      {"Wed, 29 Feb 2021 10:18:14 GMT", std::nullopt},
      {"Wed, 00 Jun 2021 10:18:14 GMT", std::nullopt},
      {"Wed,09 Jun 2021 10:18:14 GMT", std::nullopt},
      {"Wed, 09-Jun 2021 10:18:14 GMT", std::nullopt},  // mixed separators
      {"Wed, 09 Jux 2021 10:18:14 GMT", std::nullopt},
      {"Xyz, 09 Jun 2021 10:18:14 GMT", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& tc : cases) {
    INFO("expires: " << tc.value);
    Cookie c = must_parse(std::string("a=b; expires=") + tc.value);
    CHECK(c.expires == tc.want);
    CHECK(c.raw_expires == tc.value);
  }
  // The part is trimmed, so surrounding whitespace is not "extra text".
  CHECK(must_parse("a=b; expires=Wed, 09 Jun 2021 10:18:14 GMT   ").expires == 1623233894);
  // A later unparseable Expires clears an earlier valid one, as in Go.
  Cookie c = must_parse("a=b; expires=Wed, 09 Jun 2021 10:18:14 GMT; expires=never");
  CHECK_FALSE(c.expires);
  CHECK(c.raw_expires == "never");
}

TEST_CASE("Cookie header as Request.AddCookie builds it", "[cookie]") {
  CHECK(cookie_header_value({}) == "");
  CHECK(cookie_header_value({nv("cookie-1", "v$1")}) == "cookie-1=v$1");
  CHECK(cookie_header_value({nv("cookie-1", "v$1"), nv("cookie-2", "v$2"), nv("cookie-3", "v$3")}) ==
        "cookie-1=v$1; cookie-2=v$2; cookie-3=v$3");

  SECTION("value sanitising (TestCookieSanitizeValue, fhttp keeps quotes)") {
    struct Case {
      std::string in, want;
    };
    const std::vector<Case> cases = {
        {"foo", "foo"},
        {"foo;bar", "foobar"},
        {"foo\\bar", "foobar"},
        {"foo\"bar", "foo\"bar"},
        {std::string("\x00\x7e\x7f\x80", 4), "\x7e"},
        {"\"withquotes\"", "\"withquotes\""},
        {"a z", "\"a z\""},
        {" z", "\" z\""},
        {"a ", "\"a \""},
        {"a,z", "\"a,z\""},
        {",z", "\",z\""},
        {"a,", "\"a,\""},
        {"", ""},
        {"\x01\x02", ""},
    };
    for (const auto& tc : cases) {
      INFO("value: " << tc.in);
      CHECK(cookie_header_value({nv("n", tc.in)}) == "n=" + tc.want);
    }
  }
  SECTION("quoted cookies are quoted again") {
    CHECK(cookie_header_value({nv("a", "b", true)}) == "a=\"b\"");
    CHECK(cookie_header_value({nv("a", "", true)}) == "a=");
  }
  SECTION("names only lose CR and LF") {
    CHECK(cookie_header_value({nv("a\r\nb", "v")}) == "a--b=v");
    CHECK(cookie_header_value({nv("a b", "v")}) == "a b=v");
    CHECK(cookie_header_value({nv("", "v"), nv("x", "")}) == "=v; x=");
  }
  SECTION("round trip through parse keeps the quoting") {
    Cookie c = must_parse("sid=\"abc def\"; Path=/");
    CHECK(cookie_header_value({c}) == "sid=\"abc def\"");
  }
}

TEST_CASE("cookie_from_caller", "[cookie]") {
  SECTION("absent, null and 0 expires are session cookies (our fix)") {
    CHECK_FALSE(cookie_from_caller("a", "b", "/", "x.com", std::nullopt, 0, false, false).expires);
    CHECK_FALSE(cookie_from_caller("a", "b", "/", "x.com", 0, 0, false, false).expires);
  }
  SECTION("Go's zero instant is 'unset' in Go as well") {
    CHECK_FALSE(cookie_from_caller("a", "b", "", "", -62135596800, 0, false, false).expires);
  }
  SECTION("everything else is kept as given") {
    Cookie c = cookie_from_caller("n", "v;x", "/p", ".Example.com", 1700000000, 60, true, true);
    CHECK(c.name == "n");
    CHECK(c.value == "v;x");
    CHECK(c.path == "/p");
    CHECK(c.domain == ".Example.com");
    CHECK(c.expires == 1700000000);
    CHECK(c.max_age == 60);
    CHECK(c.secure);
    CHECK(c.http_only);
    CHECK(cookie_from_caller("a", "b", "", "", -1, 0, false, false).expires == -1);
  }
}
