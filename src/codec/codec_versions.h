// The versions of the compression libraries linked in (zlib, brotli, zstd),
// for the build information destroySession answers with: a user tells builds apart by them.
#pragma once

#include <string>

namespace tlsc {

std::string zlib_library_version();
std::string brotli_library_version();
std::string zstd_library_version();

}  // namespace tlsc
