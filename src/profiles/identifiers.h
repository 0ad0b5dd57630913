// The profile identifiers tls-client accepts (profiles.MappedTLSClients).
// The profile data itself comes with the profiles issue; until then a
// profile is its name, and an unknown name falls back to the default.
#pragma once

#include <string_view>

namespace tlsc {

inline constexpr std::string_view kDefaultProfile = "chrome_133";

bool is_known_profile(std::string_view identifier);

}  // namespace tlsc
