#!/usr/bin/env bash
# Builds c-ares, zlib, brotli and zstd as static libraries for a target
# Debian ships no packages of (Windows: TLSC_TARGET=x86_64-w64-mingw32),
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
[ -n "$target_suffix" ] || die "TLSC_TARGET is not set: this machine's own build uses Debian's packages (packaging/setup.sh)"
need_tools "cmake ninja-build dpkg-dev" cmake ninja dpkg-source

[ -n "${DEPS_BUILD_ROOT:-}" ] || use_shared_cache "$repo" "deps$target_suffix"
build_root=${DEPS_BUILD_ROOT:-$repo/build-deps$target_suffix}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd -P)
inst=$build_root/install
sums_file=$repo/SHA256SUMS.in
jobs=${DEPS_JOBS:-$(nproc)}
# The sources are the same for every target: fetched once, next to ours.
cache=$build_root/src-cache

# unpack PKG VERSION: the Debian-patched source tree's path on stdout.
unpack() {
  local pkg=$1 version=$2 pinned dsc key src
  bash "$repo/packaging/lib/debian_source.sh" \
    --package "$pkg" --version "$version" --suites bookworm \
    --sources-file tls-client-deps-src.sources \
    --comment "Added by packaging/deps/build.sh: source packages only, for c-ares, zlib, brotli, zstd." \
    --cache "$cache" --sums "$sums_file" --log-name "$log_tag"
  pinned=$(grep -Ev '^[[:space:]]*(#|$)' "$sums_file" | awk -v p="${pkg}_" 'index($2, p) == 1')
  dsc=$(awk '$2 ~ /\.dsc$/ {print $2}' <<<"$pinned")
  key=$(sha256sum <<<"$pinned" | cut -d' ' -f1)
  src=$build_root/src/$pkg
  if [ ! -f "$src/.unpacked-$key" ]; then
    log "unpacking $dsc (dpkg-source -x, with debian/patches)"
    rm -rf "$src" "$src.tmp"
    mkdir -p "$build_root/src"
    (cd "$cache" && dpkg-source -x "$dsc" "$src.tmp") >"$build_root/src/$pkg.dpkg-source.out" 2>&1 \
      || { cat "$build_root/src/$pkg.dpkg-source.out" >&2; die "dpkg-source -x $dsc failed"; }
    mv "$src.tmp" "$src"
    touch "$src/.unpacked-$key"
  fi
  echo "$src"
}

# build NAME SOURCE_DIR NINJA_TARGET CMAKE_ARGS...: configure once, build
# (NINJA_TARGET "install": into $inst).
build() {
  local name=$1 src=$2 target=$3; shift 3
  local bld=$build_root/build/$name
  local flags="-O2 -DNDEBUG -ffunction-sections -fdata-sections"
  local args=(-G Ninja -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_FLAGS_RELEASE="$flags" -DCMAKE_INSTALL_PREFIX="$inst" -DCMAKE_INSTALL_LIBDIR=lib
    -DBUILD_SHARED_LIBS=OFF "${target_cmake_args[@]}" "$@")
  configure_once "$bld" "$(printf '%s\n' "${args[@]}" "$(command -v "$CC")" | sha256sum | cut -d' ' -f1)" "${args[@]}"
  ninja_targets "$bld" "$name" -j "$jobs" "$target"
}

mkdir -p "$inst/lib" "$inst/include"

src=$(unpack c-ares 1.18.1-3)
# c-ares 1.18.1's inet_net_pton.c uses INADDRSZ, which only
# <arpa/nameser.h> defines; Windows has none (fixed upstream in 1.19.0).
build c-ares "$src" install -DCMAKE_C_FLAGS=-DINADDRSZ=NS_INADDRSZ -DCARES_STATIC=ON -DCARES_SHARED=OFF -DCARES_BUILD_TOOLS=OFF -DCARES_BUILD_TESTS=OFF

src=$(unpack zlib 1:1.2.13.dfsg-1)
# Only the static library: Debian's tarball drops win32/, which the DLL's
# resource file is in. zlib's CMake names the archive after its target on
# Windows, and writes zconf.h into the build folder.
build zlib "$src" zlibstatic
install -C -m 644 "$build_root/build/zlib/libzlibstatic.a" "$inst/lib/libz.a"
install -C -m 644 "$src/zlib.h" "$build_root/build/zlib/zconf.h" "$inst/include/"

src=$(unpack brotli 1.0.9-2)
build brotli "$src" install -DBROTLI_DISABLE_TESTS=ON
for l in brotlicommon brotlidec brotlienc; do
  [ -f "$inst/lib/lib$l-static.a" ] && install -C -m 644 "$inst/lib/lib$l-static.a" "$inst/lib/lib$l.a"
done

src=$(unpack libzstd 1.5.4+dfsg2-5)
build zstd "$src/build/cmake" install -DZSTD_BUILD_STATIC=ON -DZSTD_BUILD_SHARED=OFF -DZSTD_BUILD_PROGRAMS=OFF \
  -DZSTD_BUILD_TESTS=OFF -DZSTD_BUILD_CONTRIB=OFF
[ -f "$inst/lib/libzstd_static.a" ] && install -C -m 644 "$inst/lib/libzstd_static.a" "$inst/lib/libzstd.a"

# nlohmann/json and Catch2 (2.x) are headers only, the same for every
# target: Debian's packages' copies (nlohmann-json3-dev, catch2), beside
# the rest, so that the build for this target does not put the build
# machine's /usr/include first.
for h in nlohmann/json.hpp catch2/catch.hpp; do
  [ -f "/usr/include/$h" ] || die "no /usr/include/$h (Debian: nlohmann-json3-dev, catch2)"
  d=$(dirname "$h")
  mkdir -p "$inst/include/$d"
  cp -a --update "/usr/include/$d/." "$inst/include/$d/"
done

for l in cares z brotlidec brotlicommon zstd; do
  [ -f "$inst/lib/lib$l.a" ] || die "no lib$l.a in $inst/lib"
done
echo "$inst"
