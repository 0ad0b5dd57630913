// URLs as Go's net/url sees them, for the parts a client needs: parse an
// absolute request URL, resolve a redirect Location against it, and print
// it back the way Go's URL.String() does (the response "target").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

struct Url {
  std::string scheme;        // lowercase
  std::string userinfo;      // raw, without '@'
  std::string hostname;      // without brackets or port; IPv6 literal bare
  bool bracketed = false;    // written in brackets ("[...]"), as every IPv6 literal and zone is
  std::string port;          // digits only; empty if none in the URL
  std::string path;          // escaped form, as sent on the wire ("" allowed)
  std::string query;         // raw query without '?'
  bool force_query = false;  // URL ended in a bare '?'
  std::string fragment;      // raw, without '#'
  bool opaque = false;       // "scheme:rest" with no "//": path holds the rest (Go's Opaque)

  // "host[:port]" as written in the URL (IPv6 in brackets): Host header.
  std::string host() const;
  // Port to connect to: explicit, or the scheme's default (0 if unknown).
  uint16_t effective_port() const;
  // Origin-form request target: path (or "/") plus "?query".
  std::string request_uri() const;
  // The path with %XX escapes decoded (Go's URL.Path).
  std::string decoded_path() const;
  // Go's URL.User.Username() and Password(): the userinfo's parts, decoded.
  std::string username() const;
  std::optional<std::string> password() const;
  // Go's URL.String(), without the fragment's re-escaping subtleties.
  std::string to_string() const;
};

// Parses as Go's url.Parse would for an absolute or relative reference.
// Errors carry Go's wording (`parse "<url>": <reason>`).
Result<Url> parse_url(std::string_view text);

// RFC 3986 reference resolution (Go's URL.ResolveReference).
Url resolve_reference(const Url& base, const Url& ref);

// True if the two hosts are equal or `sub` is a subdomain of `parent`
// (Go's redirect rule for keeping sensitive headers).
bool is_domain_or_subdomain(std::string_view sub, std::string_view parent);

}  // namespace tlsc
