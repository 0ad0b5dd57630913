#!/usr/bin/env bash
# Runs the binding tests in sequence against the library:
#   node_tls_client.test.js  (node-tls-client 2.1.0, unchanged)
#   ctypes_test.py           (Python ctypes, the way tls_client does it)
#   koffi_async.test.js      (koffi: requestAsync/waitNext/setNotify, threads)
#   koffi_stream.test.js     (koffi: requestStream/readStream on the main thread, never blocking it)
#   koffi_ws.test.js         (koffi: wsConnect/wsRead/wsWrite/wsClose against the ws package's server)
#   https.test.js            (HTTPS through the library inside Node, which has its own OpenSSL)
# Library: $TLS_CLIENT_LIB, default build/libtls-client.so of this repository.
# Installs node_modules with `npm ci` when missing. Exits non-zero if any test
# fails; the last line is "N passed, N failed".
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

# a relative TLS_CLIENT_LIB is relative to the caller's directory
lib="${TLS_CLIENT_LIB:-$REPO/build/libtls-client.so}"
case "$lib" in /*) ;; *) lib="$(pwd -P)/$lib" ;; esac
export TLS_CLIENT_LIB="$lib"
cd "$HERE"
FILE_TIMEOUT="${BINDINGS_FILE_TIMEOUT:-300}"

passed=0
failed=0
logdir="$(mktemp -d "${TMPDIR:-/tmp}/bindings-run.XXXXXX")"
trap 'rm -rf "$logdir"' EXIT

if [ ! -f "$TLS_CLIENT_LIB" ]; then
  echo "library not found: $TLS_CLIENT_LIB" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
echo "library: $TLS_CLIENT_LIB"

if [ ! -d node_modules ]; then
  echo "== npm ci"
  if ! npm ci --no-audit --no-fund; then
    echo "npm ci failed" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
fi

# node --test with the TAP reporter; counts from its "# pass N" / "# fail N".
run_node() {
  local f="$1" log="$logdir/$1.log" rc p fl c
  echo "== node --test $f"
  timeout -k 10 "$FILE_TIMEOUT" node --test --test-reporter=tap "$f" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # node-tls-client's piscina pool ends idle workers while new ones start;
  # now and then koffi's addon aborts while registering in a worker that is
  # going away (node's FATAL ERROR from napi_module_register_by_symbol, before
  # our library is even loaded there). That one crash, and only it, is run
  # once more and reported.
  if [ "$rc" -ne 0 ] && grep -q "napi_module_register_by_symbol" "$log" && grep -q "koffi.node" "$log"; then
    echo "== $f: koffi aborted while loading in a worker thread (not our library); running it once more"
    timeout -k 10 "$FILE_TIMEOUT" node --test --test-reporter=tap "$f" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
  fi
  p=$(sed -n 's/^# pass \([0-9]\+\)$/\1/p' "$log" | tail -1)
  fl=$(sed -n 's/^# fail \([0-9]\+\)$/\1/p' "$log" | tail -1)
  c=$(sed -n 's/^# cancelled \([0-9]\+\)$/\1/p' "$log" | tail -1)
  p=${p:-0}; fl=$(( ${fl:-0} + ${c:-0} ))
  if [ "$rc" -ne 0 ] && [ "$fl" -eq 0 ]; then fl=1; echo "$f: exit $rc (timeout 124 = hung)"; fi
  passed=$((passed + p)); failed=$((failed + fl))
}

run_python() {
  local f="$1" log="$logdir/$1.log" rc line p fl
  echo "== python3 $f"
  timeout -k 10 "$FILE_TIMEOUT" python3 "$f" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^ctypes_test: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
  p=$(echo "$line" | sed -n 's/^ctypes_test: \([0-9]\+\) passed.*/\1/p')
  fl=$(echo "$line" | sed -n 's/.* \([0-9]\+\) failed$/\1/p')
  p=${p:-0}; fl=${fl:-0}
  if [ "$rc" -ne 0 ] && [ "$fl" -eq 0 ]; then fl=1; echo "$f: exit $rc (timeout 124 = hung)"; fi
  passed=$((passed + p)); failed=$((failed + fl))
}

run_node node_tls_client.test.js
run_python ctypes_test.py
run_node koffi_async.test.js
run_node koffi_stream.test.js
run_node koffi_ws.test.js
run_node https.test.js

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
