// An IP endpoint as a plain value: family, address bytes, port. No OS type
// appears here, so every layer above can hold and compare addresses; only
// the platform's socket code turns them into the OS's sockaddr.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tlsc {

enum class IpFamily : uint8_t { v4, v6 };

struct SocketAddress {
  IpFamily family = IpFamily::v4;
  std::array<uint8_t, 16> ip{};  // network order; v4 uses the first 4 bytes
  uint16_t port = 0;
  uint32_t scope_id = 0;  // IPv6 zone

  bool is_v4() const { return family == IpFamily::v4; }
  // "127.0.0.1:80" or "[::1]:80", as Go prints a TCP address.
  std::string to_string() const;
  // The address alone, as the OS prints it ("::1").
  std::string ip_string() const;
  // A numeric IPv4 or IPv6 address (the OS's inet_pton rules), or nullopt.
  // IPv6 may carry a zone ("fe80::1%eth0" or "%2"): its interface index.
  static std::optional<SocketAddress> from_ip_literal(std::string_view ip, uint16_t port);
};

// The OS's sockaddr (sockaddr_in or sockaddr_in6, `size` bytes) as a
// SocketAddress: for the resolver, whose library (c-ares) hands out the OS
// type. nullopt for any other family or a short buffer.
std::optional<SocketAddress> socket_address_from_native(const void* sockaddr, size_t size);

// An address in the OS's own form (sockaddr_in or sockaddr_in6) in an
// opaque buffer, for a library that takes one (ngtcp2's paths): only the
// platform's code knows the OS type.
struct NativeSocketAddress {
  alignas(8) std::array<unsigned char, 128> storage{};
  size_t size = 0;
};
NativeSocketAddress to_native_address(const SocketAddress& a);

// True for a numeric IPv4 or IPv6 address ("127.0.0.1", "::1").
inline bool is_ip_literal(std::string_view host) {
  return SocketAddress::from_ip_literal(host, 0).has_value();
}

}  // namespace tlsc
