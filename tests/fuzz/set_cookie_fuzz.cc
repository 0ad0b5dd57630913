// Set-Cookie lines from a hostile server, and hosts/paths from a hostile
// caller, through the parser, the jar and the Cookie header builder.
//
// Input: line 1 = host, line 2 = path, line 3 = flags byte(s), the rest are
// Set-Cookie header values, one per line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cookies/cookie.h"
#include "cookies/cookie_jar.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool is_token_byte(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
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
  const std::string_view path = next_line(in);
  const std::string_view flags = next_line(in);
  const unsigned f = flags.empty() ? 0 : static_cast<unsigned char>(flags[0]);
  static constexpr std::string_view kSchemes[] = {"http", "https", "ws", "wss", "ftp", ""};
  const std::string_view scheme = kSchemes[f % 6];
  const int64_t now = 1700000000 + static_cast<int64_t>(f >> 3) * 97;

  std::vector<tlsc::Cookie> cookies;
  while (!in.empty()) {
    const std::string_view line = next_line(in);
    std::optional<tlsc::Cookie> c = tlsc::parse_set_cookie(line);
    if (!c) continue;
    check(!c->name.empty());
    for (char ch : c->name) check(is_token_byte(static_cast<unsigned char>(ch)));
    for (char ch : c->value) {
      const auto b = static_cast<unsigned char>(ch);
      check(b >= 0x20 && b < 0x7f && b != ';' && b != '\\');
    }
    check(c->max_age >= -1);
    cookies.push_back(*c);
    // The same line as a caller-supplied cookie, with its raw fields.
    cookies.push_back(tlsc::cookie_from_caller(c->name + std::string(line.substr(0, 3)), c->value,
                                               std::string(line.substr(0, 8)), c->domain, c->expires,
                                               c->max_age, c->secure, c->http_only));
  }

  const std::string header = tlsc::cookie_header_value(cookies);
  check(header.find('\r') == std::string::npos && header.find('\n') == std::string::npos);

  tlsc::CookieJar jar;
  jar.set_cookies(scheme, host, path, cookies, now);
  for (int64_t t : {now, now + 1, now + 86400, now - 86400}) {
    for (std::string_view s : {scheme, std::string_view("http"), std::string_view("https")}) {
      std::vector<tlsc::Cookie> got = jar.cookies(s, host, path, t);
      for (size_t i = 0; i < got.size(); ++i) {
        if (i > 0) check(got[i - 1].path.size() >= got[i].path.size());
        if (s == "http") check(!got[i].secure);
        check(!got[i].path.empty() && got[i].path[0] == '/');
        if (got[i].expires) check(*got[i].expires > t);
      }
      (void)tlsc::cookie_header_value(got);
    }
  }
  // Deleting everything that was set must leave nothing to send.
  for (tlsc::Cookie& c : cookies) c.max_age = -1;
  jar.set_cookies(scheme, host, path, cookies, now);
  return 0;
}
