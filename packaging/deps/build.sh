#!/usr/bin/env bash
# Builds c-ares, zlib, brotli and zstd as static libraries for a target
# Debian ships no packages of (Windows: TLSC_TARGET=x86_64-w64-mingw32; on
# macOS, the machine's own build, without TLSC_TARGET),
# from Debian 12's source packages pinned in SHA256SUMS.in, and installs
# them with their headers:
#
#   $DEPS_BUILD_ROOT/install/lib/lib{cares,z,brotlidec,brotlicommon,zstd}.a
#   $DEPS_BUILD_ROOT/install/include/...
#
#   TLSC_TARGET=x86_64-w64-mingw32 packaging/deps/build.sh
#
# Linux builds (x64, arm64) link Debian's own packages of the same sources
# instead (packaging/setup.sh installs them). Environment (all optional):
#   DEPS_BUILD_ROOT  default <repo>/build-deps-<target> (a link into the
#                    shared cache, packaging/lib/shared_cache.sh)
#   DEPS_JOBS        ninja -j; default nproc
#
# A second run with nothing changed does no work: each package is unpacked
# once per set of pins, configured once per set of arguments, and ninja
# rebuilds nothing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
log_tag=deps/build.sh
. "$repo/packaging/lib/build_steps.sh"
. "$repo/packaging/lib/target.sh"
# macOS builds them for itself (no Debian packages there), into build-deps.
[ -n "$target_suffix" ] || [ "$(uname -s)" = Darwin ] ||
  die "TLSC_TARGET is not set: this machine's own build uses Debian's packages (packaging/setup.sh)"
need_tools "cmake ninja-build" cmake ninja

[ -n "${DEPS_BUILD_ROOT:-}" ] || use_shared_cache "$repo" "deps$target_suffix"
build_root=${DEPS_BUILD_ROOT:-$repo/build-deps$target_suffix}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd -P)
inst=$build_root/install
jobs=${DEPS_JOBS:-$(nproc)}
. "$repo/packaging/lib/debian_cmake.sh"

mkdir -p "$inst/lib" "$inst/include"

src=$(unpack_debian_source c-ares 1.18.1-3 bookworm)
# c-ares 1.18.1's inet_net_pton.c uses INADDRSZ, which only
# <arpa/nameser.h> defines; Windows has none (fixed upstream in 1.19.0).
cmake_build c-ares "$src" install -DCMAKE_C_FLAGS=-DINADDRSZ=NS_INADDRSZ -DCARES_STATIC=ON -DCARES_SHARED=OFF -DCARES_BUILD_TOOLS=OFF -DCARES_BUILD_TESTS=OFF

src=$(unpack_debian_source zlib 1:1.2.13.dfsg-1 bookworm)
# Only the static library: Debian's tarball drops win32/, which the DLL's
# resource file is in. zlib's CMake names the archive after its target on
# Windows (libz.a elsewhere), and writes zconf.h into the build folder.
cmake_build zlib "$src" zlibstatic
for a in libzlibstatic.a libz.a; do
  if [ -f "$build_root/build/zlib/$a" ]; then install -C -m 644 "$build_root/build/zlib/$a" "$inst/lib/libz.a"; break; fi
done
install -C -m 644 "$src/zlib.h" "$build_root/build/zlib/zconf.h" "$inst/include/"

src=$(unpack_debian_source brotli 1.0.9-2 bookworm)
cmake_build brotli "$src" install -DBROTLI_DISABLE_TESTS=ON
for l in brotlicommon brotlidec brotlienc; do
  [ -f "$inst/lib/lib$l-static.a" ] && install -C -m 644 "$inst/lib/lib$l-static.a" "$inst/lib/lib$l.a"
done

src=$(unpack_debian_source libzstd 1.5.4+dfsg2-5 bookworm)
cmake_build zstd "$src/build/cmake" install -DZSTD_BUILD_STATIC=ON -DZSTD_BUILD_SHARED=OFF -DZSTD_BUILD_PROGRAMS=OFF \
  -DZSTD_BUILD_TESTS=OFF -DZSTD_BUILD_CONTRIB=OFF
[ -f "$inst/lib/libzstd_static.a" ] && install -C -m 644 "$inst/lib/libzstd_static.a" "$inst/lib/libzstd.a"

# nlohmann/json and Catch2 (2.x) are headers only, the same for every
# target: Debian's packages' copies (nlohmann-json3-dev, catch2), beside
# the rest, so that the build for this target does not put the build
# machine's /usr/include first.
# macOS has no Debian packages: the same single headers from their Debian
# source packages (pinned in SHA256SUMS.in).
if [ "$(uname -s)" = Darwin ]; then
  src=$(unpack_debian_source nlohmann-json3 3.11.2-2 bookworm)
  mkdir -p "$inst/include/nlohmann" "$inst/include/catch2"
  install -C -m 644 "$src/single_include/nlohmann/json.hpp" "$src/single_include/nlohmann/json_fwd.hpp" "$inst/include/nlohmann/"
  src=$(unpack_debian_source catch2 2.13.10-1 bookworm)
  install -C -m 644 "$src/single_include/catch2/catch.hpp" "$inst/include/catch2/"
else
  for h in nlohmann/json.hpp catch2/catch.hpp; do
    [ -f "/usr/include/$h" ] || die "no /usr/include/$h (Debian: nlohmann-json3-dev, catch2)"
    d=$(dirname "$h")
    mkdir -p "$inst/include/$d"
    cp -a --update "/usr/include/$d/." "$inst/include/$d/"
  done
fi

for l in cares z brotlidec brotlicommon zstd; do
  [ -f "$inst/lib/lib$l.a" ] || die "no lib$l.a in $inst/lib"
done
echo "$inst"
