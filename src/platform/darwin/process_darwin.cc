#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/sysctl.h>

#include <cstdint>

#include "platform/process.h"

namespace tlsc {

void raise_open_file_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
  rlim_t want = lim.rlim_max;
  // macOS refuses a soft limit above kern.maxfilesperproc (the hard limit
  // is often RLIM_INFINITY); Go's runtime caps it there too.
  uint32_t per_process = 0;
  size_t size = sizeof per_process;
  if (sysctlbyname("kern.maxfilesperproc", &per_process, &size, nullptr, 0) == 0 && per_process > 0 &&
      want > static_cast<rlim_t>(per_process)) {
    want = static_cast<rlim_t>(per_process);
  }
  if (lim.rlim_cur >= want) return;
  lim.rlim_cur = want;
  setrlimit(RLIMIT_NOFILE, &lim);
}

// ld64 has no -z nodelete: the image marks itself never to be unloaded
// (RTLD_NOLOAD finds it already loaded; RTLD_NODELETE pins it), so a
// dlclose by koffi or ctypes leaves the loop thread's code in place.
void keep_library_loaded() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<const void*>(&keep_library_loaded), &self) == 0 || self.dli_fname == nullptr)
    return;
  (void)dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

}  // namespace tlsc
