#!/usr/bin/env bash
# Builds ngtcp2 (QUIC) and its BoringSSL crypto backend as static,
# position-independent libraries with hidden symbols, from the pinned Debian
# source package (ngtcp2 1.24.0-1, Debian forky/sid, pinned in
# SHA256SUMS.in) with our patches (patches/), against our patched BoringSSL
# (packaging/boringssl):
#
#   $NGTCP2_BUILD_ROOT/install/lib/libngtcp2.a
#   $NGTCP2_BUILD_ROOT/install/lib/libngtcp2_crypto_boringssl.a
#   $NGTCP2_BUILD_ROOT/install/include/ngtcp2/{ngtcp2.h,ngtcp2_crypto.h,ngtcp2_crypto_boringssl.h,version.h}
#
#   packaging/ngtcp2/build.sh        (after packaging/boringssl/build.sh)
#
# Debian builds ngtcp2 with its GnuTLS and OpenSSL backends only; the
# BoringSSL backend is in the same upstream tarball (crypto/boringssl/).
# 1.24 rather than trixie's 1.11: only 1.15 and later split and shuffle the
# client's Initial CRYPTO data with PING and PADDING frames, as Chrome does.
#
# Environment (all optional):
#   NGTCP2_BUILD_ROOT  default <repo>/build-ngtcp2[-<target>] (a link into the shared cache)
#   NGTCP2_JOBS        ninja -j; default nproc
#   TLSC_TARGET        another machine (packaging/lib/target.sh)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
log_tag=ngtcp2/build.sh
. "$repo/packaging/lib/build_steps.sh"
. "$repo/packaging/lib/target.sh"
need_tools "cmake ninja-build" cmake ninja

[ -n "${NGTCP2_BUILD_ROOT:-}" ] || use_shared_cache "$repo" "ngtcp2$target_suffix"
build_root=${NGTCP2_BUILD_ROOT:-$repo/build-ngtcp2$target_suffix}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd -P)
inst=$build_root/install
jobs=${NGTCP2_JOBS:-$(nproc)}
. "$repo/packaging/lib/debian_cmake.sh"

bssl=$repo/build-boringssl$target_suffix/install
[ -f "$bssl/lib/libssl.a" ] || die "no BoringSSL in $bssl: run packaging/boringssl/build.sh first"
bssl=$(cd "$bssl" && pwd -P)

VERSION=1.24.0-1
debian_src=$(unpack_debian_source ngtcp2 "$VERSION" "trixie forky")
# Our patches (patches/*.patch; README.md says what each is for).
src=$(patched_tree "$debian_src" "$here/patches")
# Hidden, as BoringSSL and nghttp2 are: only the library's ABI is exported.
# NGTCP2_STATICLIB: the headers' declarations without dllimport on Windows.
cmake_build ngtcp2 "$src" install \
  -DCMAKE_C_FLAGS="-fvisibility=hidden -DNGTCP2_STATICLIB" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DENABLE_LIB_ONLY=ON -DENABLE_STATIC_LIB=ON -DENABLE_SHARED_LIB=OFF -DBUILD_TESTING=OFF \
  -DENABLE_OPENSSL=OFF -DENABLE_GNUTLS=OFF -DENABLE_BORINGSSL=ON \
  -DBORINGSSL_INCLUDE_DIR="$bssl/include" \
  -DBORINGSSL_LIBRARIES="$bssl/lib/libssl.a;$bssl/lib/libcrypto.a;-lpthread"
for f in lib/libngtcp2.a lib/libngtcp2_crypto_boringssl.a include/ngtcp2/ngtcp2_crypto_boringssl.h; do
  [ -f "$inst/$f" ] || die "the install left no $inst/$f"
done
echo "$inst"
