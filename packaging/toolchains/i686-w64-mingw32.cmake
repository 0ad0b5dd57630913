# Windows 32-bit (x86), as upstream ships tls-client-windows-32: the same
# build as Windows x64 (x86_64-w64-mingw32.cmake, whose comments apply)
# with mingw-w64's i686 POSIX-threads compilers (g++-mingw-w64-i686-posix).
# Programs the build runs run under wine64, which starts 32-bit programs
# with 32-bit wine (wine32:i386) in the same prefix (WoW64).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR i686)  # lower case: BoringSSL matches "i[3-6]86" to pick its NASM sources
set(CMAKE_C_COMPILER i686-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER i686-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER i686-w64-mingw32-windres)
set(CMAKE_ASM_NASM_COMPILER nasm)
set(CMAKE_FIND_ROOT_PATH /usr/i686-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_CROSSCOMPILING_EMULATOR env WINEDEBUG=-all /usr/lib/wine/wine64)
