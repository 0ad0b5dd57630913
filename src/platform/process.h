// Process-wide settings the runtime makes once, at load.
#pragma once

namespace tlsc {

// Raises the soft limit of open files to the hard limit, as Go's runtime
// does when it starts (Go 1.19+): thousands of requests in flight need
// thousands of sockets. Does nothing where the OS has no such limit.
void raise_open_file_limit();

// Runs `prepare` in the forking thread before every fork() of the process,
// then `parent` in the parent and `child` in the child (POSIX
// pthread_atfork; nothing where there is no fork).
void on_fork(void (*prepare)(), void (*parent)(), void (*child)());

// Keeps this library mapped until the process ends, whoever unloads it, as
// Go's c-shared libraries stay: the loop thread runs our code for good.
// On ELF the link does it (-z nodelete); on macOS the image marks itself
// (dlopen RTLD_NODELETE); on Windows the DLL pins itself.
void keep_library_loaded();

}  // namespace tlsc
