// The "tlsClientCpp" object of destroySession's answer: which build is loaded (our version, the
// upstream behaviour it follows, the dependencies linked in) and every
// profile identifier it knows, so that a user can tell builds apart and a
// tool can list profiles through the ABI alone.
#pragma once

#include <string>
#include <string_view>

namespace tlsc {

// A profile identifier read as client, version and variant:
// "safari_ios_18_0" -> {"safari_ios", "18.0", ""}, "chrome_116_PSK_PQ" ->
// {"chrome", "116", "PSK_PQ"}, "nike_android_mobile" -> {"nike_android_mobile", "", ""}.
struct ProfileNameParts {
  std::string client;
  std::string version;
  std::string variant;
};
ProfileNameParts split_profile_name(std::string_view name);

// The JSON object (include/tls_client.h, abi/CONTRACT.md), made once (the
// profile list is fixed once read).
const std::string& library_info_json();

}  // namespace tlsc
