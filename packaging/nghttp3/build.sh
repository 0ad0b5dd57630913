#!/usr/bin/env bash
# Builds nghttp3 (HTTP/3 framing and QPACK) as a static, position-independent
# library with hidden symbols, from the pinned Debian source package
# (nghttp3 0.8.0-2, Debian bookworm, pinned in SHA256SUMS.in), with our
# patches (patches/):
#
#   $NGHTTP3_BUILD_ROOT/install/lib/libnghttp3.a
#   $NGHTTP3_BUILD_ROOT/install/include/nghttp3/{nghttp3.h,version.h}
#
#   packaging/nghttp3/build.sh
#
# Why bookworm's 0.8.0 and not forky's 1.17.0: see README.md next to this.
#
# Environment (all optional):
#   NGHTTP3_BUILD_ROOT  default <repo>/build-nghttp3[-<target>] (a link into the shared cache)
#   NGHTTP3_JOBS        ninja -j; default nproc
#   TLSC_TARGET         another machine (packaging/lib/target.sh)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
log_tag=nghttp3/build.sh
. "$repo/packaging/lib/build_steps.sh"
. "$repo/packaging/lib/target.sh"
need_tools "cmake ninja-build" cmake ninja

[ -n "${NGHTTP3_BUILD_ROOT:-}" ] || use_shared_cache "$repo" "nghttp3$target_suffix"
build_root=${NGHTTP3_BUILD_ROOT:-$repo/build-nghttp3$target_suffix}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd -P)
inst=$build_root/install
jobs=${NGHTTP3_JOBS:-$(nproc)}
. "$repo/packaging/lib/debian_cmake.sh"

VERSION=0.8.0-2
debian_src=$(unpack_debian_source nghttp3 "$VERSION" bookworm)
# Our patches (patches/*.patch; README.md says what each is for).
src=$(patched_tree "$debian_src" "$here/patches")
# Hidden, as the other libraries: only the library's ABI is exported.
# NGHTTP3_STATICLIB: the headers' declarations without dllimport on Windows.
cmake_build nghttp3 "$src" install \
  -DCMAKE_C_FLAGS="-fvisibility=hidden -DNGHTTP3_STATICLIB" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DENABLE_LIB_ONLY=ON -DENABLE_STATIC_LIB=ON -DENABLE_SHARED_LIB=OFF
for f in lib/libnghttp3.a include/nghttp3/nghttp3.h; do
  [ -f "$inst/$f" ] || die "the install left no $inst/$f"
done
echo "$inst"
