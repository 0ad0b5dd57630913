// Alt-Svc field values from a hostile server, through the parser and a
// session's cache (http/alt_svc.h).
//
// Input: line 1 = the origin's host, the rest are Alt-Svc field values of
// one response, one per line; the first byte of line 1 also picks the time.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "http/alt_svc.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

std::string_view next_line(std::string_view& in) {
  size_t nl = in.find('\n');
  std::string_view line = in.substr(0, nl);
  in = nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::string_view host = next_line(in);
  std::vector<std::string_view> values;
  bool any_h3 = false;
  while (!in.empty()) {
    const std::string_view value = next_line(in);
    values.push_back(value);
    const tlsc::AltSvcField field = tlsc::parse_alt_svc(value);
    if (field.clear) check(field.services.empty());
    for (const tlsc::AltService& s : field.services) {
      check(s.port != 0);
      check(s.max_age.count() >= 0 && s.max_age.count() <= 365 * 24 * 3600);
      if (s.protocol == "h3" && s.max_age.count() > 0) any_h3 = true;
    }
  }
  tlsc::AltSvcCache cache;
  const auto now = tlsc::AltSvcCache::Clock::time_point{} + std::chrono::hours(1000);
  const std::string origin = "https://" + std::string(host) + ":443";
  cache.learn(origin, host, values, now);
  const auto port = cache.h3_port(origin, now);
  // Only an h3 alternative that lasts is remembered.
  if (port) check(any_h3 && *port != 0);
  check(cache.size() <= 1);
  // Everything ends by a year and a second later.
  check(!cache.h3_port(origin, now + std::chrono::hours(365 * 24) + std::chrono::seconds(1)));
  return 0;
}
