// Random (version 4) UUIDs: upstream names every returned object with one.
#pragma once

#include <string>

namespace tlsc {

std::string new_uuid();
// After fork(): every thread draws from a new seed on its next new_uuid,
// so that children of one parent do not repeat each other's ids.
void reseed_uuids();

}  // namespace tlsc
