#!/usr/bin/env bash
# Builds BoringSSL's crypto and ssl as static, position-independent libraries
# from the pinned Debian source (fetch.sh), with our patch series applied, and
# installs them with the headers:
#
#   $BORINGSSL_BUILD_ROOT/install/lib/libcrypto.a
#   $BORINGSSL_BUILD_ROOT/install/lib/libssl.a
#   $BORINGSSL_BUILD_ROOT/install/include/openssl/*.h
#
#   packaging/boringssl/build.sh
#
# Environment (all optional):
#   BORINGSSL_BUILD_ROOT  default <repo>/build-boringssl (a link into the shared cache, packaging/lib/shared_cache.sh) (fetch.sh's too)
#   BORINGSSL_JOBS        ninja -j; default: ninja's own choice
#   CC, CXX               compilers; default cc / c++ (GCC on Debian 12)
#   TLSC_TARGET           another machine (packaging/lib/target.sh), e.g.
#                         aarch64-linux-gnu: builds into build-boringssl-<it>
#
# Layout under $BORINGSSL_BUILD_ROOT:
#   src-cache/  downloaded, checksum-verified Debian files   (fetch.sh)
#   orig/       the pristine unpacked orig tarball            (fetch.sh)
#   src/        orig/src + build fix-ups + patches/*.patch    (this script)
#   build/      CMake + Ninja build tree
#   install/    what the rest of the project links against
#
# A second run with nothing changed does no work: the patched tree is only
# rebuilt when the tarball, the patch series or this script's preparation
# step change (stamp src/.prepared), CMake only runs when its arguments change
# (stamp build/.configured), and ninja and the install step only touch what
# changed. When the patch series changes, only files whose content differs
# are rewritten, so ninja recompiles just what the patches touch.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
log_tag=build.sh
. "$repo/packaging/lib/build_steps.sh"
. "$repo/packaging/lib/target.sh"
if [ -n "$target_suffix" ]; then
  # Another machine's build shares this machine's pinned source: fetched
  # and checked once, under the native build root.
  [ -n "${BORINGSSL_CACHE_DIR:-}${BORINGSSL_ORIG_DIR:-}" ] || {
    use_shared_cache "$repo" boringssl
    native=$(cd "$repo/build-boringssl" && pwd -P)
    export BORINGSSL_CACHE_DIR=$native/src-cache BORINGSSL_ORIG_DIR=$native/orig
  }
fi
[ -n "${BORINGSSL_BUILD_ROOT:-}" ] || use_shared_cache "$repo" "boringssl$target_suffix"
export BORINGSSL_BUILD_ROOT=${BORINGSSL_BUILD_ROOT:-$repo/build-boringssl$target_suffix}
mkdir -p "$BORINGSSL_BUILD_ROOT"
# The physical path: the same cache gives the same paths from every clone,
# so nothing is rebuilt because the clone moved.
root=$(cd "$BORINGSSL_BUILD_ROOT" && pwd -P)
work=$root/src
bld=$root/build
inst=$root/install
patch_dir=$here/patches

need_tools "cmake ninja-build perl golang-go python3 patch" cmake ninja perl go python3 patch

# --- 1. the pinned source ---------------------------------------------------
orig=$("$here/fetch.sh")
[ -f "$orig/src/CMakeLists.txt" ] || die "fetch.sh gave no source tree"

# --- 2. the patched work tree -------------------------------------------------
shopt -s nullglob
patches=("$patch_dir"/*.patch)
shopt -u nullglob
if [ ${#patches[@]} -gt 0 ]; then
  mapfile -t patches < <(printf '%s\n' "${patches[@]}" | LC_ALL=C sort)
fi

# Bump PREP_VERSION when the preparation below changes in a way that must
# redo the work tree.
PREP_VERSION=1
prep_key=$({
  echo "prep $PREP_VERSION"
  for s in "$orig"/.unpacked-*; do basename "$s"; done  # the tarball's SHA-256
  for p in "${patches[@]}"; do echo "patch $(basename "$p")"; cat "$p"; done
} | sha256sum | cut -d' ' -f1)

# Copy only files whose content differs (new mtime), delete files that are
# gone; unchanged files keep their mtime, so ninja rebuilds only what changed.
sync_tree() {  # sync_tree SRC DST
  python3 - "$1" "$2" <<'PY'
import filecmp, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
changed = 0
os.makedirs(dst, exist_ok=True)
for d, dirs, files in os.walk(src):
    rel = os.path.relpath(d, src)
    t = os.path.normpath(os.path.join(dst, rel))
    os.makedirs(t, exist_ok=True)
    for f in files:
        s, o = os.path.join(d, f), os.path.join(t, f)
        if os.path.islink(o) or (os.path.exists(o) and not os.path.isfile(o)):
            shutil.rmtree(o) if os.path.isdir(o) and not os.path.islink(o) else os.remove(o)
        if not os.path.exists(o) or not filecmp.cmp(s, o, shallow=False):
            shutil.copy(s, o)          # content + mode, fresh mtime
            changed += 1
for d, dirs, files in os.walk(dst, topdown=False):
    rel = os.path.relpath(d, dst)
    s = os.path.normpath(os.path.join(src, rel))
    for f in files:
        if f.startswith(".prepared"):
            continue
        if not os.path.isfile(os.path.join(s, f)):
            os.remove(os.path.join(d, f)); changed += 1
    if not os.path.isdir(s):
        os.rmdir(d)
print(changed)
PY
}

if [ -f "$work/.prepared" ] && [ "$(cat "$work/.prepared")" = "$prep_key" ]; then
  log "source tree up to date ($work, ${#patches[@]} patches)"
else
  staging=$root/src-staging
  rm -rf "$staging"
  cp -a "$orig/src" "$staging"
  # Build fix-up: the CMake files declare a googletest library from
  # third_party/googletest/src/gtest-all.cc, which Debian strips. We never
  # build that target (only crypto and ssl), but CMake needs the file to exist.
  mkdir -p "$staging/third_party/googletest/src"
  : >"$staging/third_party/googletest/src/gtest-all.cc"
  for p in "${patches[@]}"; do
    log "applying $(basename "$p")"
    patch -p1 --batch --forward --no-backup-if-mismatch -s -d "$staging" -i "$p" \
      || die "$(basename "$p") does not apply (patch -p1 in the tarball's src/)"
  done
  n=$(sync_tree "$staging" "$work")
  rm -rf "$staging"
  echo "$prep_key" >"$work/.prepared"
  log "source tree prepared: $work ($n files written, ${#patches[@]} patches)"
fi

# --- 3. configure -------------------------------------------------------------
# Go is needed only to generate crypto/err_data.c (`go run`). Debian's Go 1.19
# does that offline in GOPATH mode; a wrapper bakes the environment into
# GO_EXECUTABLE so a bare `ninja -C build` works too.
mkdir -p "$bld"
gowrap=$bld/go-offline.sh
gowrap_text="#!/bin/sh
# Written by packaging/boringssl/build.sh: Go, offline, GOPATH mode.
GO111MODULE=off GOFLAGS= GOPROXY=off GOTOOLCHAIN=local GOCACHE='$root/go-cache' GOPATH='$root/go-path'
export GO111MODULE GOFLAGS GOPROXY GOTOOLCHAIN GOCACHE GOPATH
exec '$(command -v go)' \"\$@\""
if [ ! -f "$gowrap" ] || [ "$(cat "$gowrap")" != "$gowrap_text" ]; then
  printf '%s\n' "$gowrap_text" >"$gowrap"
  chmod +x "$gowrap"
fi

# -Wno-error: GCC 12 raises false -Wstringop-overflow warnings and BoringSSL
# adds -Werror after CMAKE_C_FLAGS; the per-config flags come after both.
opt="-O2 -DNDEBUG -Wno-error"
common="-fPIC -fvisibility=hidden -ffunction-sections -fdata-sections"
cmake_args=(
  -G Ninja
  -S "$work" -B "$bld"
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_C_COMPILER="${CC:-cc}"
  -DCMAKE_CXX_COMPILER="${CXX:-c++}"
  -DCMAKE_C_FLAGS="$common"
  -DCMAKE_CXX_FLAGS="$common"
  -DCMAKE_ASM_FLAGS="-fPIC"
  -DCMAKE_C_FLAGS_RELEASE="$opt"
  -DCMAKE_CXX_FLAGS_RELEASE="$opt"
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DBUILD_SHARED_LIBS=OFF
  -DGO_EXECUTABLE="$gowrap"
  -DCMAKE_INSTALL_PREFIX="$inst"
  "${target_cmake_args[@]}"
)
conf_key=$(printf '%s\n' "${cmake_args[@]}" "$(command -v "${CC:-cc}")" "$(command -v "${CXX:-c++}")" | sha256sum | cut -d' ' -f1)
configure_once "$bld" "$conf_key" "${cmake_args[@]}"

# --- 4. build -----------------------------------------------------------------
jobs=()
[ -n "${BORINGSSL_JOBS:-}" ] && jobs=(-j "$BORINGSSL_JOBS")
ninja_targets "$bld" "crypto and ssl" "${jobs[@]}" crypto ssl

# --- 5. install -----------------------------------------------------------------
# BoringSSL's own install rules also want the bssl tool, which we do not
# build; copy what we need. install -C leaves unchanged files untouched.
mkdir -p "$inst/lib" "$inst/include"
install -C -m 644 "$bld/crypto/libcrypto.a" "$inst/lib/libcrypto.a"
install -C -m 644 "$bld/ssl/libssl.a" "$inst/lib/libssl.a"
n=$(sync_tree "$work/include" "$inst/include")
[ "$n" = 0 ] || log "installed $n header files"
echo "$inst"
