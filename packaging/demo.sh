#!/usr/bin/env bash
# The main job: build the library, its command-line client and the capture
# server, then request that local HTTPS server through the library with a
# few profiles and print what the server saw of each (protocol, JA4, the
# Akamai HTTP/2 string, header order) against what the profile should look
# like (packaging/demo.py). Exits 0 when every profile matches.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/packaging/boringssl/build.sh" >/dev/null
bash "$root/packaging/nghttp2/build.sh" >/dev/null
bash "$root/packaging/ngtcp2/build.sh" >/dev/null  # QUIC and HTTP/3, for the capture servers
bash "$root/packaging/nghttp3/build.sh" >/dev/null
launcher=()
if command -v ccache >/dev/null 2>&1; then  # the cache tests/run_all.sh uses
  export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tls-client-cpp/ccache} CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  mkdir -p "$CCACHE_DIR" && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The same configuration as tests/run_all.sh's release build, so that the two
# share one build folder without rebuilding each other's objects.
cmake -S "$root" -B "$root/build" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" --target tls-client tls-client-cpp h2_capture_server
echo
"$root/build/tls-client-cpp" version | head -1
python3 "$root/packaging/demo.py" "$root/build"
