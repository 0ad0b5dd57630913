// The OS and CPU this library was built for, as destroySession's "tlsClientCpp" names them
// ("linux-x86_64", "windows-x86_64", "darwin-arm64"): which release file of
// upstream's names a build stands in for.
#pragma once

namespace tlsc {

#if defined(_WIN32)
#define TLSC_TARGET_OS "windows"
#elif defined(__APPLE__)
#define TLSC_TARGET_OS "darwin"
#else
#define TLSC_TARGET_OS "linux"
#endif
#if defined(__x86_64__) || defined(_M_X64)
#define TLSC_TARGET_ARCH "x86_64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define TLSC_TARGET_ARCH "arm64"
#elif defined(__i386__) || defined(_M_IX86)
#define TLSC_TARGET_ARCH "x86"
#else
#define TLSC_TARGET_ARCH "other"
#endif

inline constexpr const char* kBuildTarget = TLSC_TARGET_OS "-" TLSC_TARGET_ARCH;

#undef TLSC_TARGET_OS
#undef TLSC_TARGET_ARCH

}  // namespace tlsc
