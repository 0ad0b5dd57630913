#include "tls/crypto_primitives.h"

#include <openssl/rand.h>
#include <openssl/sha.h>

namespace tlsc {

std::string sha1_digest(std::string_view data) {
  uint8_t md[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const uint8_t*>(data.data()), data.size(), md);
  return std::string(reinterpret_cast<const char*>(md), sizeof md);
}

void secure_random_bytes(uint8_t* out, size_t n) {
  // BoringSSL's RAND_bytes does not fail (it aborts if the OS has no entropy).
  RAND_bytes(out, n);
}

}  // namespace tlsc
