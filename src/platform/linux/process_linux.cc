#include <sys/resource.h>

#include "platform/process.h"

namespace tlsc {

void raise_open_file_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
  if (lim.rlim_cur >= lim.rlim_max) return;
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);
}

void keep_library_loaded() {}  // -z nodelete (CMakeLists.txt)

}  // namespace tlsc
