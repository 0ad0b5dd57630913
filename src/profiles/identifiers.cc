#include "profiles/identifiers.h"

#include "profiles/registry.h"

namespace tlsc {

bool is_known_profile(std::string_view identifier) { return lookup_profile(identifier) != nullptr; }

}  // namespace tlsc
