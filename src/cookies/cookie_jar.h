// The session cookie jar: the behaviour of fhttp's cookiejar (Go's
// net/http/cookiejar as of the fork) created with New(nil), i.e. without a
// public suffix list, which is what upstream's sessions use by default.
//
// Not thread-safe: a session owns its jar and serialises access to it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cookies/cookie.h"

namespace tlsc {

class CookieJar {
 public:
  // Stores the cookies a response from scheme://host/path set (or a caller
  // handed in for that URL). Only "http" and "https" are accepted, plus "ws"
  // and "wss" as the WebSocket dialer maps them to http/https before it
  // asks the jar; any other scheme is ignored.
  //
  // `host` may carry a port and may be bracketed: pass the URL's host[:port]
  // as written (Go's URL.Host) to get Go's exact behaviour, including its
  // quirk that "[::1]" without a port is not treated as an IP address. It is
  // lowercased (ASCII only), loses one trailing dot, and non-ASCII labels
  // are Punycode-encoded, as Go's canonicalHost does.
  // `path` is the decoded URL path (Go's URL.Path, not the escaped form).
  void set_cookies(std::string_view scheme, std::string_view host, std::string_view path,
                   const std::vector<Cookie>& cookies, int64_t now_unix);

  // The cookies to send to scheme://host/path, ordered as Go orders them:
  // longer path first, then earlier creation, then earlier insertion.
  // Expired entries of this host's jar key are dropped as a side effect.
  //
  // Difference from Go: Go's Jar.Cookies returns name and value only (fhttp
  // adds path, domain, expires, secure, httpOnly). We return the stored entry
  // - name, value, path, domain (the host itself for host-only cookies),
  // secure, http_only - with `expires` set only for persistent cookies
  // (max_age, same_site, raw_expires stay empty, as in fhttp's output).
  // fhttp reports a session cookie's expiry as 9999-12-31T23:59:59Z
  // (253402300799), which the ABI layer must substitute if it mirrors that.
  std::vector<Cookie> cookies(std::string_view scheme, std::string_view host, std::string_view path,
                              int64_t now_unix);

 private:
  friend struct CookieJarInspector;  // tests look at raw entries

  struct Entry {
    std::string name, value, domain, path, same_site;
    bool secure = false, http_only = false, persistent = false, host_only = false;
    int64_t expires = 0;  // unix seconds; only meaningful when persistent
    int64_t creation = 0, last_access = 0;
    uint64_t seq_num = 0;
  };
  // jar key (eTLD+1-like) -> "domain;path;name" -> entry
  using SubMap = std::map<std::string, Entry, std::less<>>;
  std::map<std::string, SubMap, std::less<>> entries_;
  uint64_t next_seq_num_ = 0;
};

}  // namespace tlsc
