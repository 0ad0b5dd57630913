// Alt-Svc (RFC 7838): the alternative services an origin advertises in its
// responses, and a client's memory of them. withAltSvc uses an https
// origin's HTTP/3 alternative ("h3", RFC 9114 section 3.1.1), as Chrome
// does: once an origin has said it speaks HTTP/3, the next requests race
// QUIC to the advertised port against TCP (http/connection_pool.h).
//
// The parser reads field values a server sends, so it takes any bytes and
// never fails loudly: what is not the RFC's syntax is not an alternative.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tlsc {

struct AltService {
  std::string protocol;                 // the ALPN protocol id, percent-decoded ("h3")
  std::string host;                     // empty: the origin's own host
  uint16_t port = 0;                    // 1..65535
  std::chrono::seconds max_age{86400};  // "ma"; the RFC's default is 24 hours
};

// One Alt-Svc field value: "clear", or alternatives in the server's order
// of preference. Alternatives that break the syntax are left out, and the
// rest of the value with them (where the next one starts is not known).
struct AltSvcField {
  bool clear = false;
  std::vector<AltService> services;
};
AltSvcField parse_alt_svc(std::string_view value);

// What one client (session) remembers: per origin, its HTTP/3 alternative
// on its own host and when that expires. Loop thread only.
class AltSvcCache {
 public:
  using Clock = std::chrono::steady_clock;
  // Past this many origins, the entry expiring first makes room.
  static constexpr size_t kMaxOrigins = 1024;

  // The Alt-Svc field values of one response from the origin ("https://
  // host:port"), host its host. RFC 7838 section 3.1: a response's
  // alternatives replace what was remembered for the origin; "clear"
  // forgets them. A response without the field changes nothing (call
  // this only with at least one value).
  void learn(const std::string& origin, std::string_view host, const std::vector<std::string_view>& values,
             Clock::time_point now);
  // The port of the origin's HTTP/3 alternative, if one is remembered and
  // has not expired.
  std::optional<uint16_t> h3_port(const std::string& origin, Clock::time_point now);
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint16_t port = 0;
    Clock::time_point expires;
  };
  void make_room(Clock::time_point now);
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace tlsc
