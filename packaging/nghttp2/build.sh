#!/usr/bin/env bash
# Builds libnghttp2 as a static, position-independent library from the pinned
# Debian source (fetch.sh: Debian 12's nghttp2 with its security patches) and
# installs it with its headers:
#
#   $NGHTTP2_BUILD_ROOT/install/lib/libnghttp2.a
#   $NGHTTP2_BUILD_ROOT/install/include/nghttp2/{nghttp2.h,nghttp2ver.h}
#
#   packaging/nghttp2/build.sh
#
# Debian's own /usr/lib/x86_64-linux-gnu/libnghttp2.a is not PIC (e.g.
# nghttp2_map.o has R_X86_64_PC32 against libc's `stderr`), so it cannot go
# into our shared library (docs/ARCHITECTURE.md, "Dependencies").
#
# Environment (all optional):
#   NGHTTP2_BUILD_ROOT  default <repo>/build-nghttp2 (a link into the shared cache, packaging/lib/shared_cache.sh) (fetch.sh's too)
#   NGHTTP2_JOBS        ninja -j; default nproc
#   CC                  compiler; default cc (GCC on Debian 12)
#   TLSC_TARGET         another machine (packaging/lib/target.sh), e.g.
#                       aarch64-linux-gnu: builds into build-nghttp2-<it>
#
# Layout under $NGHTTP2_BUILD_ROOT:
#   src-cache/  downloaded, checksum-verified Debian files     (fetch.sh)
#   src/        dpkg-source -x tree, Debian's patches applied  (fetch.sh)
#   build/      CMake + Ninja build tree
#   install/    what the rest of the project links against
#
# A second run with nothing changed does no work: CMake only runs when its
# arguments change (stamp build/.configured), ninja finds nothing to do, the
# install step copies nothing, and the PIC check runs only when the archive
# changed (stamp install/lib/.pic-checked).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
log_tag=build.sh
. "$repo/packaging/lib/build_steps.sh"
. "$repo/packaging/lib/target.sh"
if [ -n "$target_suffix" ]; then
  # Another machine's build shares this machine's pinned, unpacked source.
  [ -n "${NGHTTP2_CACHE_DIR:-}${NGHTTP2_SRC_DIR:-}" ] || {
    use_shared_cache "$repo" nghttp2
    native=$(cd "$repo/build-nghttp2" && pwd -P)
    export NGHTTP2_CACHE_DIR=$native/src-cache NGHTTP2_SRC_DIR=$native/src
  }
fi
[ -n "${NGHTTP2_BUILD_ROOT:-}" ] || use_shared_cache "$repo" "nghttp2$target_suffix"
export NGHTTP2_BUILD_ROOT=${NGHTTP2_BUILD_ROOT:-$repo/build-nghttp2$target_suffix}
mkdir -p "$NGHTTP2_BUILD_ROOT"
# The physical path: the same cache gives the same paths from every clone,
# so nothing is rebuilt because the clone moved.
root=$(cd "$NGHTTP2_BUILD_ROOT" && pwd -P)
bld=$root/build
inst=$root/install

need_tools "cmake ninja-build" cmake ninja

# --- 1. the pinned, Debian-patched source ---------------------------------------
src=$(bash "$here/fetch.sh")
[ -f "$src/CMakeLists.txt" ] || die "fetch.sh gave no source tree"

# --- 2. configure -----------------------------------------------------------------
# Library only, static only, PIC. Hidden visibility as for BoringSSL (docs/ARCHITECTURE.md,
# "Dependencies"): the static archive's NGHTTP2_EXTERN is empty, so without it every
# symbol would be default-visible; our link hides them anyway
# (--exclude-libs,ALL + version script), this is belt and braces.
common="-fvisibility=hidden -ffunction-sections -fdata-sections"
cmake_args=(
  -G Ninja
  -S "$src" -B "$bld"
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_C_COMPILER="${CC:-cc}"
  -DCMAKE_C_FLAGS="$common"
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DENABLE_LIB_ONLY=ON
  -DENABLE_STATIC_LIB=ON
  -DENABLE_SHARED_LIB=OFF
  -DENABLE_DOC=OFF
  -DBUILD_TESTING=OFF
  -DCMAKE_INSTALL_PREFIX="$inst"
  -DCMAKE_INSTALL_LIBDIR=lib
  "${target_cmake_args[@]}"
)
if [[ ${TLSC_TARGET:-} == *-mingw32 ]]; then
  # mingw-w64 has clock_gettime (winpthreads) and GetTickCount64; with both,
  # 1.52.0's nghttp2_time.c calls a fallback it did not define (fixed
  # upstream in 1.53). GetTickCount64 is what upstream uses on Windows.
  cmake_args+=(-DHAVE_CLOCK_GETTIME=0)
fi
# The key includes fetch.sh's unpack stamp: a new source tree reconfigures.
conf_key=$({ printf '%s\n' "${cmake_args[@]}" "$(command -v "${CC:-cc}")"
             for s in "$src"/.unpacked-*; do basename "$s"; done; } | sha256sum | cut -d' ' -f1)
configure_once "$bld" "$conf_key" "${cmake_args[@]}"

# --- 3. build ---------------------------------------------------------------------
ninja_targets "$bld" libnghttp2.a -j "${NGHTTP2_JOBS:-$(nproc)}" nghttp2_static

# --- 4. install ---------------------------------------------------------------------
# nghttp2's install rules (what `ninja install` runs after building): the
# archive, the two headers, libnghttp2.pc. Unchanged files are left alone.
cmake --install "$bld" >"$bld/install.out" 2>&1 \
  || { cat "$bld/install.out" >&2; die "install failed"; }
n=$(grep -c '^-- Installing: ' "$bld/install.out" || true)
[ "$n" = 0 ] || log "installed $n files into $inst"
lib=$inst/lib/libnghttp2.a
for f in "$lib" "$inst/include/nghttp2/nghttp2.h" "$inst/include/nghttp2/nghttp2ver.h"; do
  [ -f "$f" ] || die "install left no $f"
done

# --- 5. check: the archive links into a shared library ------------------------------
lib_sum=$(sha256sum <"$lib" | cut -d' ' -f1)
pic_stamp=$inst/lib/.pic-checked
if [[ ${TLSC_TARGET:-} == *-mingw32 ]]; then
  log "no PIC check for Windows: a DLL is relocated by the loader, not through a GOT"
elif [ "$(uname -s)" = Darwin ]; then
  log "no PIC check on macOS: every Mach-O object on x86-64 and arm64 is position-independent"
elif [ -f "$pic_stamp" ] && [ "$(cat "$pic_stamp")" = "$lib_sum" ]; then
  log "PIC check passed before for this archive"
else
  rm -f "$pic_stamp"
  CC=${CC:-cc} bash "$repo/packaging/lib/check_pic.sh" "$lib" || die "$lib is not position-independent"
  echo "$lib_sum" >"$pic_stamp"
fi
echo "$inst"
