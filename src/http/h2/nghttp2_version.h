// The version of the nghttp2 linked in, for the build information destroySession answers with.
#pragma once

#include <string>

namespace tlsc {

std::string nghttp2_library_version();

}  // namespace tlsc
