// The profile identifiers: upstream's default, and whether an identifier
// names a profile (built-in or from TLS_CLIENT_PROFILES_DIR).
#pragma once

#include <string_view>

namespace tlsc {

inline constexpr std::string_view kDefaultProfile = "chrome_133";

bool is_known_profile(std::string_view identifier);

}  // namespace tlsc
