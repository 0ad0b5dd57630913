// SocketAddress parsing and printing with Winsock's inet_pton / inet_ntop,
// as the POSIX version does with the C library's.
#include "platform/win/winsock.h"
// if_nametoindex; after winsock2.h, which must come before windows.h.
#include <iphlpapi.h>

#include <charconv>
#include <cstring>

#include "platform/socket_address.h"

namespace tlsc {

std::string SocketAddress::ip_string() const {
  ensure_winsock();
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(is_v4() ? AF_INET : AF_INET6, ip.data(), buf, sizeof buf);
  std::string out = buf;
  if (!is_v4() && scope_id != 0) {
    // As Go prints a zoned address on Windows: the interface's number.
    out.push_back('%');
    out.append(std::to_string(scope_id));
  }
  return out;
}

std::string SocketAddress::to_string() const {
  std::string out;
  if (!is_v4()) out.push_back('[');
  out.append(ip_string());
  if (!is_v4()) out.push_back(']');
  out.push_back(':');
  out.append(std::to_string(port));
  return out;
}

std::optional<SocketAddress> SocketAddress::from_ip_literal(std::string_view text, uint16_t port) {
  if (text.find('\0') != std::string_view::npos || text.size() > 64) return std::nullopt;
  ensure_winsock();
  std::string ip(text);
  SocketAddress out;
  out.port = port;
  if (ip.find('%') == std::string::npos && inet_pton(AF_INET, ip.c_str(), out.ip.data()) == 1) {
    out.family = IpFamily::v4;
    return out;
  }
  // An IPv6 zone: an interface number, or a name Windows knows.
  std::string zone;
  if (size_t pct = ip.find('%'); pct != std::string::npos) {
    zone = ip.substr(pct + 1);
    ip.resize(pct);
    if (zone.empty()) return std::nullopt;
  }
  if (inet_pton(AF_INET6, ip.c_str(), out.ip.data()) == 1) {
    out.family = IpFamily::v6;
    if (!zone.empty()) {
      uint32_t n = 0;
      auto [end, ec] = std::from_chars(zone.data(), zone.data() + zone.size(), n);
      if (ec == std::errc() && end == zone.data() + zone.size()) {
        out.scope_id = n;
      } else {
        out.scope_id = if_nametoindex(zone.c_str());
      }
    }
    return out;
  }
  return std::nullopt;
}

int to_native(const SocketAddress& a, sockaddr_storage& out) {
  std::memset(&out, 0, sizeof out);
  if (a.is_v4()) {
    auto* sin = reinterpret_cast<sockaddr_in*>(&out);
    sin->sin_family = AF_INET;
    sin->sin_port = htons(a.port);
    std::memcpy(&sin->sin_addr, a.ip.data(), 4);
    return sizeof(sockaddr_in);
  }
  auto* sin6 = reinterpret_cast<sockaddr_in6*>(&out);
  sin6->sin6_family = AF_INET6;
  sin6->sin6_port = htons(a.port);
  sin6->sin6_scope_id = a.scope_id;
  std::memcpy(&sin6->sin6_addr, a.ip.data(), 16);
  return sizeof(sockaddr_in6);
}

std::optional<SocketAddress> socket_address_from_native(const void* native, size_t len) {
  const auto* sa = static_cast<const sockaddr*>(native);
  if (sa == nullptr || len < sizeof(sa->sa_family)) return std::nullopt;
  SocketAddress out;
  if (sa->sa_family == AF_INET && len >= sizeof(sockaddr_in)) {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(sa);
    out.family = IpFamily::v4;
    out.port = ntohs(sin->sin_port);
    std::memcpy(out.ip.data(), &sin->sin_addr, 4);
    return out;
  }
  if (sa->sa_family == AF_INET6 && len >= sizeof(sockaddr_in6)) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(sa);
    out.family = IpFamily::v6;
    out.port = ntohs(sin6->sin6_port);
    out.scope_id = sin6->sin6_scope_id;
    std::memcpy(out.ip.data(), &sin6->sin6_addr, 16);
    return out;
  }
  return std::nullopt;
}

NativeSocketAddress to_native_address(const SocketAddress& a) {
  static_assert(sizeof(sockaddr_storage) <= sizeof(NativeSocketAddress::storage));
  sockaddr_storage ss{};
  const int len = to_native(a, ss);
  NativeSocketAddress out;
  std::memcpy(out.storage.data(), &ss, static_cast<size_t>(len));
  out.size = static_cast<size_t>(len);
  return out;
}

}  // namespace tlsc
