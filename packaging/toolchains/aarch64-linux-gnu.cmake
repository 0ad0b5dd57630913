# Linux arm64, cross-built on Debian with g++-aarch64-linux-gnu. The
# dependencies Debian builds (c-ares, zlib, brotli, zstd) come from its
# arm64 packages through multiarch (/usr/lib/aarch64-linux-gnu:
# packaging/setup.sh installs them); BoringSSL and nghttp2 from our own
# builds with TLSC_TARGET=aarch64-linux-gnu. Programs the build runs
# (profile_compiler) and the tests run under qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# Both: the multiarch folders under /usr hold the arm64 archives, and
# header-only packages (nlohmann/json, Catch2) are the same for every target.
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# No -L /usr/aarch64-linux-gnu: that folder's C library (libc6-arm64-cross)
# is another build than the multiarch one the arm64 -dev packages pull in,
# and qemu would load the dynamic linker from one and libc.so.6 from the
# other (the first pthread_create then loops for ever in glibc's stack
# cache). The multiarch root has both, and libstdc++6:arm64.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
