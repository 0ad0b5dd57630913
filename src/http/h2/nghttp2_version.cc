#include "http/h2/nghttp2_version.h"

#include <nghttp2/nghttp2.h>

namespace tlsc {

std::string nghttp2_library_version() { return nghttp2_version(0)->version_str; }

}  // namespace tlsc
