#!/usr/bin/env bash
# Builds every release file this machine can build and writes dist/ with
# upstream's file names (tls-client's GitHub releases, which
# node-tls-client 2.1.0 downloads by these names):
#
#   dist/tls-client-linux-ubuntu-amd64-<version>.so   Linux x86-64
#   dist/tls-client-linux-arm64-<version>.so          Linux arm64 (cross-built)
#   dist/tls-client-windows-64-<version>.dll          Windows x64 (cross-built, mingw-w64)
#   dist/tls-client-windows-32-<version>.dll          Windows 32-bit (cross-built, mingw-w64)
#   dist/tls-client-darwin-arm64-<version>.dylib      macOS arm64 (on a Mac: --target darwin-arm64)
#   dist/tls-client-darwin-amd64-<version>.dylib      macOS x86-64 (on an Intel Mac: --target darwin-amd64)
#   dist/THIRD_PARTY_NOTICES.txt                      every linked component's licence
#   dist/SHA256SUMS                                   `sha256sum -c SHA256SUMS` there
#
# <version> is the library's own, from include/tls_client.h (CMake refuses
# to configure when project() says otherwise). The macOS files are built on
# a Mac (the release workflow's GitHub macOS runners), never here. Each file is
# checked before it is written: its CPU, exactly the ABI exported, nothing
# needed but the system's own libraries (tests/check_symbols.sh).
#
#   packaging/release.sh                       every file above
#   packaging/release.sh --target windows-64   one (repeatable); or
#   RELEASE_TARGETS="linux-amd64 linux-arm64" packaging/release.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
version=$(sed -n 's/^#define TLS_CLIENT_CPP_VERSION "\(.*\)"$/\1/p' include/tls_client.h)
[ -n "$version" ] || { echo "release.sh: no TLS_CLIENT_CPP_VERSION in include/tls_client.h" >&2; exit 1; }
targets=${RELEASE_TARGETS:-linux-amd64 linux-arm64 windows-64 windows-32}
given=()
while [ $# -gt 0 ]; do
  case $1 in
    --target) given+=("$2"); shift 2 ;;
    *) echo "release.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ ${#given[@]} -eq 0 ] || targets=${given[*]}
dist=$root/dist

launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tls-client-cpp/ccache} CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# release_file DIR LIB STRIP ARCH NAME [cmake args...]: the library alone
# (LIB in DIR), stripped of what the dynamic linker does not need (STRIP:
# the target's strip), checked to be for ARCH (a pattern of what `file`
# says), written as NAME.
release_file() {
  local dir=$1 lib=$2 strip=$3 arch=$4 name=$5; shift 5
  cmake -S "$root" -B "$dir" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTLSC_TESTS=OFF -DTLSC_TOOLS=OFF "$@" >/dev/null
  cmake --build "$dir" --target tls-client >/dev/null
  if [ "$strip" = macos ]; then
    strip -x -o "$dist/$name" "$dir/$lib"  # Apple's strip: local symbols out, the exported ones stay
  else
    "$strip" --strip-unneeded -o "$dist/$name" "$dir/$lib"
  fi
  file -b "$dist/$name" | grep -q -E "$arch" || { echo "release.sh: $name is not $arch" >&2; return 1; }
  bash "$root/tests/check_symbols.sh" "$dist/$name" >/dev/null
  echo "release.sh: $name ($(stat -c %s "$dist/$name") bytes; $(file -b "$dist/$name" | cut -d, -f1))"
}

# The cross builds run this machine's profile_compiler (CMakeLists.txt,
# TLSC_HOST_PROFILE_COMPILER) rather than their own under qemu or wine.
native_dependencies() {
  for s in boringssl nghttp2 ngtcp2 nghttp3; do bash "$root/packaging/$s/build.sh" >/dev/null; done
}

host_profile_compiler() {
  native_dependencies
  cmake -S "$root" -B "$root/build-release" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTLSC_TESTS=OFF -DTLSC_TOOLS=OFF >/dev/null
  cmake --build "$root/build-release" --target profile_compiler >/dev/null
  echo "$root/build-release/profile_compiler"
}

# The notices quote the licence files of the sources the builds unpack
# (and Debian's /usr/share/doc, which a Mac has not: the Linux job checks
# the same file there).
if [ "$(uname -s)" = Darwin ]; then
  bash "$root/packaging/deps/build.sh" >/dev/null
  native_dependencies
else
  native_dependencies
  python3 "$root/packaging/notices.py" --check >/dev/null ||
    { echo "release.sh: THIRD_PARTY_NOTICES.txt is stale: run packaging/notices.py" >&2; exit 1; }
fi
rm -rf "$dist"
mkdir -p "$dist"
for t in $targets; do
  case "$t" in
    linux-amd64)
      native_dependencies  # with HTTP/3 (ngtcp2, nghttp3)
      release_file "$root/build-release" libtls-client.so strip "x86-64" "tls-client-linux-ubuntu-amd64-$version.so"
      ;;
    linux-arm64)
      for s in boringssl nghttp2 ngtcp2 nghttp3; do
        TLSC_TARGET=aarch64-linux-gnu bash "$root/packaging/$s/build.sh" >/dev/null
      done
      release_file "$root/build-release-aarch64" libtls-client.so aarch64-linux-gnu-strip "ARM aarch64" \
        "tls-client-linux-arm64-$version.so" \
        -DCMAKE_TOOLCHAIN_FILE="$root/packaging/toolchains/aarch64-linux-gnu.cmake" \
        -DTLSC_HOST_PROFILE_COMPILER="$(host_profile_compiler)" \
        -DTLSC_BORINGSSL_ROOT="$root/build-boringssl-aarch64-linux-gnu/install" \
        -DTLSC_NGHTTP2_ROOT="$root/build-nghttp2-aarch64-linux-gnu/install" \
        -DTLSC_NGTCP2_ROOT="$root/build-ngtcp2-aarch64-linux-gnu/install" \
        -DTLSC_NGHTTP3_ROOT="$root/build-nghttp3-aarch64-linux-gnu/install"
      ;;
    windows-64 | windows-32)
      if [ "$t" = windows-64 ]; then cpu=x86_64 dir=build-release-win64 arch="PE32\+ executable \(DLL\).*x86-64"
      else cpu=i686 dir=build-release-win32 arch="PE32 executable \(DLL\).*Intel 80386"; fi
      for s in deps boringssl nghttp2 ngtcp2 nghttp3; do
        TLSC_TARGET=$cpu-w64-mingw32 bash "$root/packaging/$s/build.sh" >/dev/null
      done
      release_file "$root/$dir" libtls-client.dll $cpu-w64-mingw32-strip "$arch" "tls-client-$t-$version.dll" \
        -DCMAKE_TOOLCHAIN_FILE="$root/packaging/toolchains/$cpu-w64-mingw32.cmake" \
        -DTLSC_HOST_PROFILE_COMPILER="$(host_profile_compiler)" \
        -DTLSC_DEPS_ROOT="$root/build-deps-$cpu-w64-mingw32/install" \
        -DTLSC_BORINGSSL_ROOT="$root/build-boringssl-$cpu-w64-mingw32/install" \
        -DTLSC_NGHTTP2_ROOT="$root/build-nghttp2-$cpu-w64-mingw32/install" \
        -DTLSC_NGTCP2_ROOT="$root/build-ngtcp2-$cpu-w64-mingw32/install" \
        -DTLSC_NGHTTP3_ROOT="$root/build-nghttp3-$cpu-w64-mingw32/install"
      ;;
    darwin-arm64 | darwin-amd64)
      # On the Mac itself, with Apple's clang and the OS's libc++: no
      # cross toolchain for macOS exists on Debian.
      if [ "$t" = darwin-arm64 ]; then cpu=arm64; else cpu=x86_64; fi
      [ "$(uname -s)" = Darwin ] && [ "$(uname -m)" = "$cpu" ] ||
        { echo "release.sh: $t is built on a $cpu Mac (the release workflow's macOS runners), not on $(uname -s) $(uname -m)" >&2; exit 1; }
      release_file "$root/build-release" libtls-client.dylib macos "Mach-O 64-bit dynamically linked shared library $cpu" \
        "tls-client-$t-$version.dylib" -DTLSC_DEPS_ROOT="$root/build-deps/install"
      ;;
    *)
      echo "release.sh: no build for $t (linux-amd64, linux-arm64, windows-64, windows-32; on a Mac darwin-arm64, darwin-amd64)" >&2
      exit 1
      ;;
  esac
done
cp "$root/THIRD_PARTY_NOTICES.txt" "$dist/"
(cd "$dist" && sha256sum tls-client-* THIRD_PARTY_NOTICES.txt >SHA256SUMS && sha256sum -c --quiet SHA256SUMS)
echo "release.sh: $dist (version $version)"
