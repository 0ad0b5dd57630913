#include "platform/os_root_certificates.h"

namespace tlsc {

std::vector<std::string> os_root_certificates() { return {}; }

}  // namespace tlsc
