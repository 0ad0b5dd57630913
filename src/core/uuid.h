// Random (version 4) UUIDs: upstream names every returned object with one.
#pragma once

#include <string>

namespace tlsc {

std::string new_uuid();

}  // namespace tlsc
