// What the layers above need of BoringSSL's primitives, without its
// headers: SHA-1 (the WebSocket accept key) and the system CSPRNG
// (WebSocket keys and masks, which RFC 6455 wants unpredictable).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tlsc {

// The 20-byte digest.
std::string sha1_digest(std::string_view data);

void secure_random_bytes(uint8_t* out, size_t n);

}  // namespace tlsc
