// libFuzzer target for parse_url (request URLs, redirect Locations, proxy
// URLs: all from the caller or the network). An absolute URL that parses
// must print (to_string) as something that parses again to the same
// print, and every accessor and resolution against a base must hold up.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/url.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto u = tlsc::parse_url(text);
  if (!u) return 0;
  const std::string printed = u->to_string();
  // Absolute URLs (a host, or opaque) print back to themselves; relative
  // references need not, in Go either ("////" prints as "//").
  if (!u->scheme.empty() && (!u->hostname.empty() || u->opaque)) {
    auto again = tlsc::parse_url(printed);
    if (!again) __builtin_trap();
    if (again->to_string() != printed) __builtin_trap();
  }
  (void)u->host();
  (void)u->request_uri();
  (void)u->effective_port();
  (void)u->decoded_path();
  (void)u->username();
  (void)u->password();
  static const tlsc::Url base = *tlsc::parse_url("https://user@example.com:8443/a/b/c?q=1#f");
  (void)tlsc::resolve_reference(base, *u).to_string();
  return 0;
}
