// Profile files (profiles/*.json, TLS_CLIENT_PROFILES_DIR): a user's file
// is read at load, so its parser must refuse anything without crashing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "profiles/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto p = tlsc::parse_profile(text);
  if (p) (void)p->http2.dump();
  return 0;
}
