#!/usr/bin/env bash
# The tests a Mac runs: the macOS jobs of .github/workflows/ci.yml and
# release.yml, on GitHub's macOS runners (arm64 and x86-64). No machine of
# this project builds for macOS or runs it, so this script runs there only.
# The workflow first puts on PATH what a Mac lacks (Homebrew): bash 4+,
# GNU coreutils, sed, grep and patch ahead of the BSD ones, Ninja, Go
# (BoringSSL's generated sources) and OpenSSL 3 (the test PKI); CMake,
# Python 3 and Node are on the runners.
#
#   tests/run_macos.sh
#   tests/run_macos.sh --print-integration-spec   the integration tests it picks
#
# Steps, each reported as run_all.sh reports them:
# - the dependencies, from the pinned Debian sources (SHA256SUMS.in),
#   downloaded from Debian's archive and unpacked without dpkg
#   (tests/packaging/debian_extract_test.sh checks that way on Linux);
# - the library and its tests with Apple's clang and the OS's libc++;
#   the exported symbols and the libraries the dylib loads;
# - the unit tests, and BoringSSL's patch tests;
# - the integration tests whose peers run on a Mac: Node's servers, Python's
#   ClientHello capture, OpenSSL's s_server and the project's own
#   (BoringSSL's server, the HTTP/2 capture server), that is HTTP/1.1, the
#   async trio, TLS, streams, HTTP/3, and every profile's ClientHello and
#   HTTP/2 frames (and HTTP/3's QUIC hello) against the expected files and
#   captures Linux's run uses. Not here: the tests that need Debian's
#   servers (nginx, nghttpd, h2o, caddy, GnuTLS, squid, dante ...), the
#   memory-bound ones (prlimit, /proc) and fork();
# - the bindings in the Mac's Node and Python: node-tls-client 2.1.0
#   unchanged, ctypes, koffi's async trio, streams and WebSockets.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
passed=0 failed=0 failures=()
step() {
  local name=$1; shift
  echo "=== $name"
  local t0=$SECONDS
  if "$@"; then
    passed=$((passed + 1)); echo "=== $name: ok ($((SECONDS - t0)) s)"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "=== $name: FAILED ($((SECONDS - t0)) s)"
  fi
}

build_dir=$root/build
lib=$build_dir/libtls-client.dylib

dependencies() {
  local s
  # ngtcp2 after BoringSSL: its crypto backend links it.
  for s in deps boringssl nghttp2 ngtcp2 nghttp3; do
    bash "$root/packaging/$s/build.sh" >/dev/null || return 1
  done
}

library() {
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLSC_TESTS=ON \
    -DTLSC_DEPS_ROOT="$root/build-deps/install" >/dev/null &&
    cmake --build "$build_dir" -j "$jobs" &&
    file "$lib" | grep -q "Mach-O 64-bit dynamically linked shared library $(uname -m)" &&
    bash "$root/tests/check_symbols.sh" "$lib"
}

unit() {
  "$build_dir/tests/unit_tests" &&
    (cd "$root/tests/boringssl/mlkem_noble" && { [ -d node_modules ] || npm ci --no-audit --no-fund >/dev/null; }) &&
    "$build_dir/tests/boringssl_tests"
}

# Catch2's test spec: groups separated by commas are alternatives, the
# ~exclusions inside a group apply to it.
# HTTP/3 against the project's HTTP/3 capture server (the others need
# Caddy and nghttpd): each HTTP/3 profile's QUIC hello, transport
# parameters, control stream and header order against the real browsers'
# captures, cancel and the server's close and Stateless Reset, Version
# Negotiation, a lost TCP leg. Names with a comma are given by their start.
integration_h3='"withProtocolRacing: HTTP/3 with the real browser*","over HTTP/3: cancelRequest resets the stream*","withProtocolRacing: a server without QUIC v1*","withProtocolRacing: the TCP leg fails first*"'
# [profiles], [client_hello], [h2-fingerprint] and [browsers-id] hold every
# profile's ClientHello (JA3/JA4 inputs) and HTTP/2 frames (Akamai string)
# to the same expected files as Linux's run: the Mac's build looks the same.
integration_spec='[h1]~[limits]~[slow]~[oom-child],[async]~[limits]~[slow],[tls]~[limits],[h2-fingerprint],[profiles],[client_hello]~[proxy],[browsers-id],[info],[stream]~[limits]~"stream: a large body goes through readStream in flat memory",'"$integration_h3"

# tests/run_all.sh runs this spec on Linux with none of Debian's servers on
# PATH: a test the spec picks up that needs one fails there first.
if [ "${1:-}" = --print-integration-spec ]; then
  printf '%s\n' "$integration_spec"
  exit 0
fi
[ "$(uname -s)" = Darwin ] || { echo "run_macos.sh: runs on macOS only (this is $(uname -s)); tests/run_all.sh is Linux's"; exit 2; }
jobs=$(sysctl -n hw.ncpu)

integration() {
  TLSC_TEST_TIME_SCALE=2 timeout 1800 "$build_dir/tests/integration_tests" -d yes "$integration_spec"
}

bindings() {
  TLS_CLIENT_LIB="$lib" bash "$root/tests/bindings/run.sh"
}

step "dependencies from the pinned Debian sources (c-ares, zlib, brotli, zstd, BoringSSL + our patches, nghttp2, ngtcp2, nghttp3)" dependencies
step "library and tests (Apple clang), exported symbols and loaded libraries" library
step "unit tests and BoringSSL's patch tests" unit
step "integration tests with Node's and our own servers" integration
step "bindings: node-tls-client, ctypes, koffi" bindings
echo "$passed passed, $failed failed"
for f in "${failures[@]}"; do echo "failed: $f"; done
[ "$failed" -eq 0 ]
