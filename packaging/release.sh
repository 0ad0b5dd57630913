#!/usr/bin/env bash
# Builds every release file this machine can build and writes dist/ with
# upstream's file names (tls-client's GitHub releases, which
# node-tls-client 2.1.0 downloads by these names):
#
#   dist/tls-client-linux-ubuntu-amd64-<version>.so   Linux x86-64
#   dist/tls-client-linux-arm64-<version>.so          Linux arm64 (cross-built)
#   dist/THIRD_PARTY_NOTICES.txt                      every linked component's licence
#   dist/SHA256SUMS                                   `sha256sum -c SHA256SUMS` there
#
# <version> is the library's own, from include/tls_client.h (CMake refuses
# to configure when project() says otherwise). Windows and macOS files are
# not built here yet. Each file is checked before it is written: its CPU,
# exactly the ABI exported, nothing needed but libc (tests/check_symbols.sh).
#
#   packaging/release.sh                 both Linux files
#   RELEASE_TARGETS=linux-amd64 packaging/release.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
version=$(sed -n 's/^#define TLS_CLIENT_CPP_VERSION "\(.*\)"$/\1/p' include/tls_client.h)
[ -n "$version" ] || { echo "release.sh: no TLS_CLIENT_CPP_VERSION in include/tls_client.h" >&2; exit 1; }
targets=${RELEASE_TARGETS:-linux-amd64 linux-arm64}
dist=$root/dist

launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tls-client-cpp/ccache} CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# release_file DIR STRIP ARCH NAME [cmake args...]: the library alone,
# stripped of what the dynamic linker does not need (STRIP: the target's
# strip), checked to be for ARCH (as `file` says it), written as NAME.
release_file() {
  local dir=$1 strip=$2 arch=$3 name=$4; shift 4
  cmake -S "$root" -B "$dir" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTLSC_TESTS=OFF -DTLSC_TOOLS=OFF "$@" >/dev/null
  cmake --build "$dir" --target tls-client >/dev/null
  "$strip" --strip-unneeded -o "$dist/$name" "$dir/libtls-client.so"
  file -b "$dist/$name" | grep -q "$arch" || { echo "release.sh: $name is not $arch" >&2; return 1; }
  bash "$root/tests/check_symbols.sh" "$dist/$name" >/dev/null
  echo "release.sh: $name ($(stat -c %s "$dist/$name") bytes, $arch)"
}

python3 "$root/packaging/notices.py" --check >/dev/null ||
  { echo "release.sh: THIRD_PARTY_NOTICES.txt is stale: run packaging/notices.py" >&2; exit 1; }
rm -rf "$dist"
mkdir -p "$dist"
for t in $targets; do
  case "$t" in
    linux-amd64)
      bash "$root/packaging/boringssl/build.sh" >/dev/null
      bash "$root/packaging/nghttp2/build.sh" >/dev/null
      release_file "$root/build-release" strip "x86-64" "tls-client-linux-ubuntu-amd64-$version.so"
      ;;
    linux-arm64)
      TLSC_TARGET=aarch64-linux-gnu bash "$root/packaging/boringssl/build.sh" >/dev/null
      TLSC_TARGET=aarch64-linux-gnu bash "$root/packaging/nghttp2/build.sh" >/dev/null
      release_file "$root/build-release-aarch64" aarch64-linux-gnu-strip "ARM aarch64" \
        "tls-client-linux-arm64-$version.so" \
        -DCMAKE_TOOLCHAIN_FILE="$root/packaging/toolchains/aarch64-linux-gnu.cmake" \
        -DTLSC_BORINGSSL_ROOT="$root/build-boringssl-aarch64-linux-gnu/install" \
        -DTLSC_NGHTTP2_ROOT="$root/build-nghttp2-aarch64-linux-gnu/install"
      ;;
    *)
      echo "release.sh: no build for $t here (linux-amd64, linux-arm64)" >&2
      exit 1
      ;;
  esac
done
cp "$root/THIRD_PARTY_NOTICES.txt" "$dist/"
(cd "$dist" && sha256sum tls-client-* THIRD_PARTY_NOTICES.txt >SHA256SUMS && sha256sum -c --quiet SHA256SUMS)
echo "release.sh: $dist (version $version)"
