// What every POSIX system does the same way; the open-file limit and
// staying loaded are each OS's own (linux/, darwin/).
#include <pthread.h>

#include "platform/process.h"

namespace tlsc {

void on_fork(void (*prepare)(), void (*parent)(), void (*child)()) { pthread_atfork(prepare, parent, child); }

}  // namespace tlsc
