#include "platform/win/winsock.h"

#include <mutex>

namespace tlsc {

bool ensure_winsock() {
  // Never WSACleanup: the library stays loaded for the process's life (as
  // Go's c-shared DLLs do), and other code in the process may use Winsock.
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    WSADATA data;
    ok = WSAStartup(MAKEWORD(2, 2), &data) == 0;
  });
  return ok;
}

}  // namespace tlsc
