#include "http/alt_svc.h"

#include <algorithm>

#include "core/ascii.h"

namespace tlsc {

namespace {

// The field's grammar (RFC 7838 section 3, RFC 9110 section 5.6):
//   Alt-Svc       = clear / 1#alt-value
//   alt-value     = alternative *( OWS ";" OWS parameter )
//   alternative   = protocol-id "=" alt-authority
//   alt-authority = quoted-string      ; [ uri-host ] ":" port
//   parameter     = token "=" ( token / quoted-string )
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool done() const { return i_ >= s_.size(); }
  bool take(char c) {
    if (done() || s_[i_] != c) return false;
    ++i_;
    return true;
  }
  void skip_ows() {
    while (!done() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  std::string_view token() {
    const size_t start = i_;
    while (!done() && is_tchar(static_cast<unsigned char>(s_[i_]))) ++i_;
    return s_.substr(start, i_ - start);
  }
  // A quoted-string's content, quoted pairs undone; none when it is not one.
  std::optional<std::string> quoted() {
    if (!take('"')) return std::nullopt;
    std::string out;
    while (!done()) {
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return out;
      if (c == '\\') {
        if (done()) return std::nullopt;
        out.push_back(s_[i_++]);
        continue;
      }
      // qdtext: HTAB, SP, visible ASCII but DQUOTE and backslash, obs-text.
      if (c != '\t' && (c < 0x20 || c == 0x7f)) return std::nullopt;
      out.push_back(static_cast<char>(c));
    }
    return std::nullopt;
  }

 private:
  static bool is_tchar(unsigned char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
  }
  std::string_view s_;
  size_t i_ = 0;
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// protocol-id: the ALPN id with "%" and non-token bytes percent-encoded.
std::optional<std::string> percent_decode(std::string_view id) {
  std::string out;
  for (size_t i = 0; i < id.size(); ++i) {
    if (id[i] != '%') {
      out.push_back(id[i]);
      continue;
    }
    if (i + 2 >= id.size()) return std::nullopt;
    const int hi = hex_value(id[i + 1]);
    const int lo = hex_value(id[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

// 1*DIGIT, at most `limit`; longer numbers are the limit.
std::optional<uint64_t> digits(std::string_view s, uint64_t limit) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = std::min<uint64_t>(limit, v * 10 + static_cast<uint64_t>(c - '0'));
  }
  return v;
}

// "[ uri-host ] : port", brackets of an IPv6 literal removed from the host.
bool parse_authority(std::string_view authority, AltService& out) {
  const size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos) return false;
  const auto port = digits(authority.substr(colon + 1), 65536);
  if (!port || *port == 0 || *port > 65535) return false;
  std::string_view host = authority.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  out.host = std::string(host);
  out.port = static_cast<uint16_t>(*port);
  return true;
}

// Longer than any cache should keep anything (a year), and small enough
// for time_point arithmetic.
constexpr uint64_t kMaxAgeLimit = uint64_t{365} * 24 * 3600;

}  // namespace

AltSvcField parse_alt_svc(std::string_view value) {
  AltSvcField field;
  Cursor c(value);
  c.skip_ows();
  {
    Cursor rest = c;
    if (rest.token() == "clear") {
      rest.skip_ows();
      if (rest.done()) {
        field.clear = true;
        return field;
      }
    }
  }
  while (true) {
    // Empty list elements are allowed (RFC 9110 section 5.6.1).
    while (true) {
      c.skip_ows();
      if (!c.take(',')) break;
    }
    if (c.done()) return field;
    AltService service;
    bool usable = true;
    const std::string_view id = c.token();
    if (id.empty() || !c.take('=')) return field;
    const auto authority = c.quoted();
    if (!authority) return field;
    const auto protocol = percent_decode(id);
    if (protocol) {
      service.protocol = *protocol;
    } else {
      usable = false;
    }
    if (!parse_authority(*authority, service)) usable = false;
    while (true) {
      c.skip_ows();
      if (!c.take(';')) break;
      c.skip_ows();
      const std::string_view name = c.token();
      if (name.empty() || !c.take('=')) return field;
      std::string param;
      if (auto q = c.quoted()) {
        param = std::move(*q);
      } else {
        const std::string_view t = c.token();
        if (t.empty()) return field;
        param = std::string(t);
      }
      if (equal_ascii_icase(name, "ma")) {
        const auto ma = digits(param, kMaxAgeLimit);
        if (ma) {
          service.max_age = std::chrono::seconds(*ma);
        } else {
          usable = false;
        }
      }
    }
    if (usable) field.services.push_back(std::move(service));
    c.skip_ows();
    if (c.done()) return field;
    if (!c.take(',')) return field;
  }
}

void AltSvcCache::learn(const std::string& origin, std::string_view host,
                        const std::vector<std::string_view>& values, Clock::time_point now) {
  std::optional<AltService> h3;
  for (std::string_view v : values) {
    AltSvcField field = parse_alt_svc(v);
    if (field.clear) {
      entries_.erase(origin);
      return;
    }
    for (AltService& s : field.services) {
      // Only the origin's own host: another host is trusted by Chrome once
      // its certificate covers the origin, which this cache does not check.
      if (!h3 && s.protocol == "h3" && (s.host.empty() || equal_ascii_icase(s.host, host))) h3 = std::move(s);
    }
  }
  if (!h3 || h3->max_age.count() == 0) {
    entries_.erase(origin);
    return;
  }
  if (!entries_.contains(origin)) make_room(now);
  entries_[origin] = Entry{h3->port, now + h3->max_age};
}

std::optional<uint16_t> AltSvcCache::h3_port(const std::string& origin, Clock::time_point now) {
  auto it = entries_.find(origin);
  if (it == entries_.end()) return std::nullopt;
  if (it->second.expires <= now) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.port;
}

void AltSvcCache::make_room(Clock::time_point now) {
  if (entries_.size() < kMaxOrigins) return;
  std::erase_if(entries_, [now](const auto& e) { return e.second.expires <= now; });
  if (entries_.size() < kMaxOrigins) return;
  auto first = std::min_element(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
    return a.second.expires < b.second.expires;
  });
  entries_.erase(first);
}

}  // namespace tlsc
