// Profile files (profiles/*.json, TLS_CLIENT_PROFILES_DIR): a user's file
// is read at load, so its parser must refuse anything without crashing,
// and what it accepts must be usable (the QUIC block's transport
// parameters are encoded too).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "profiles/profile.h"
#include "wire/quic_transport_parameters.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto p = tlsc::parse_profile(text);
  if (p) (void)p->http2.dump();
  if (p && p->quic) {  // the QUIC block's parameters, encoded as a connection would
    uint64_t state = size;
    (void)tlsc::encode_quic_transport_parameters(p->quic->transport_parameters, "scid", [&] {
      state = state * 6364136223846793005u + 1442695040888963407u;
      return state;
    });
  }
  return 0;
}
