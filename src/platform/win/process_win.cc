// Windows has neither an open-file soft limit (sockets are handles, bounded
// only by memory) nor fork().
#include "platform/process.h"
#include "platform/win/winsock.h"

namespace tlsc {

void raise_open_file_limit() {}

void on_fork(void (*)(), void (*)(), void (*)()) {}

void keep_library_loaded() {
  // FreeLibrary by koffi or ctypes would unmap the DLL under the loop
  // thread; a pinned module stays until the process exits.
  HMODULE self = nullptr;
  GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                     reinterpret_cast<LPCWSTR>(&keep_library_loaded), &self);
}

}  // namespace tlsc
