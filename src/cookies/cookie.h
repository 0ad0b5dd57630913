// Cookies as upstream sees them. Upstream parses Set-Cookie with
// bogdanfinn/fhttp v0.6.8 (a fork of Go's net/http cookie.go), so that fork
// is the reference where it differs from Go: a double quote is a legal byte
// inside a cookie value, the name is not trimmed after the '=' split, and a
// quoted value remembers that it was quoted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlsc {

struct Cookie {
  std::string name, value, path, domain;
  // Unix seconds. nullopt is Go's zero time.Time: no Expires attribute, an
  // unparseable one, or exactly 0001-01-01T00:00:00Z (which Go also treats
  // as "unset"). Fractions of a second in an Expires date are dropped.
  std::optional<int64_t> expires;
  // Go semantics: 0 = no Max-Age, <0 = delete now ('Max-Age=0' or negative),
  // >0 = seconds. 64-bit because Go's int is, and upstream's JSON is too.
  int64_t max_age = 0;
  bool secure = false, http_only = false;
  // "" when absent, else "Default", "Lax", "Strict" or "None" (an unknown
  // value is Go's SameSiteDefaultMode).
  std::string same_site;
  std::string raw_expires;  // the Expires attribute text, even if unparseable
  // The value arrived in double quotes; fhttp puts them back when sending.
  bool quoted = false;
};

// One Set-Cookie header line, as fhttp's readSetCookies reads it; nullopt
// where it would skip the line (blank, no '=', bad name, bad value).
// Date zone abbreviations are taken as UTC: Go would instead apply the
// offset of the process's local zone when the abbreviation names it.
std::optional<Cookie> parse_set_cookie(std::string_view header_value);

// The Cookie request header value Request.AddCookie builds for these cookies,
// in order: "a=b; c=d", names with CR/LF turned into '-', values stripped of
// bytes a cookie value cannot carry and quoted when they contain a space or
// a comma or were quoted on arrival.
std::string cookie_header_value(const std::vector<Cookie>& cookies);

// A cookie handed in by the caller (requestCookies, addCookiesToSession).
// Deliberate difference from upstream: an absent, null or 0 expires means
// "no expiry". Upstream turns null/0 into 1970-01-01, so the jar drops the
// cookie as already expired, which is the bug Python's tls_client hits
// because it always sends "expires": 0/null. Nothing else is validated here,
// as upstream validates nothing (the jar and AddCookie do what they do).
Cookie cookie_from_caller(std::string name, std::string value, std::string path, std::string domain,
                          std::optional<int64_t> expires, int64_t max_age, bool secure, bool http_only);

}  // namespace tlsc
