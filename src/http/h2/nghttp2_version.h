// The version of the nghttp2 linked in, for tlsClientCppInfo.
#pragma once

#include <string>

namespace tlsc {

std::string nghttp2_library_version();

}  // namespace tlsc
