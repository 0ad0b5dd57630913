# Windows x64, cross-built on Debian with mingw-w64's POSIX-threads variant
# (g++-mingw-w64-x86-64-posix): std::thread and std::mutex need it; the
# win32 variant has neither. Every dependency is built from the pinned
# Debian sources for this target (packaging/deps, boringssl, nghttp2), and
# the C++ runtime and winpthreads are linked in statically, so the DLL needs
# only Windows' own DLLs. Programs the build runs (profile_compiler) are
# built for Windows too and run under wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_ASM_NASM_COMPILER nasm)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# Both: header-only packages (nlohmann/json, Catch2) under /usr are the same
# for every target; the libraries come from our own builds' install trees,
# found by path (TLSC_DEPS_ROOT, TLSC_BORINGSSL_ROOT, TLSC_NGHTTP2_ROOT).
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# wine64: Debian's `wine` wrapper asks for wine32 first. Quiet: its
# diagnostics about a missing display are noise for command-line programs.
set(CMAKE_CROSSCOMPILING_EMULATOR env WINEDEBUG=-all /usr/lib/wine/wine64)
