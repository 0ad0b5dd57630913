#!/usr/bin/env bash
# packaging/install.sh against throw-away copies of the bindings' folders:
#   - node-tls-client 2.1.0 (tests/bindings/node_modules, unchanged): its
#     cache folder is os.tmpdir(), so TMPDIR points at a temp folder that
#     holds an "upstream" placeholder under the name the package loads;
#   - Python's tls_client: a fake site-packages with tls_client/dependencies/
#     holding an "upstream" placeholder, and a cffi.py that picks the file
#     name as tls_client's does.
# Install, check the files are the library byte for byte and the
# placeholders were saved, show node-tls-client and ctypes really load ours
# (a GET to a loopback server, destroySession's "tlsClientCpp", the mapped
# file), install again (no change, the saved files kept), refuse a library
# for another CPU and one that is not ours, then --uninstall and check the
# placeholders are back. No network; about 5 s.
#
#   tests/packaging/install_test.sh          (TLS_CLIENT_LIB: the library, default build/libtls-client.so;
#                                             INSTALL_SH: the script under test)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lib=${TLS_CLIENT_LIB:-$root/build/libtls-client.so}
install_sh=${INSTALL_SH:-$root/packaging/install.sh}
pkg=$root/tests/bindings/node_modules/node-tls-client
checks=0

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { checks=$((checks + 1)); echo "ok $checks - $*"; }

[ -f "$lib" ] || fail "no library $lib (build it first, or set TLS_CLIENT_LIB)"
[ -f "$pkg/package.json" ] || fail "no $pkg (npm ci in tests/bindings)"
case "$(uname -m)" in
  x86_64) node_name=tls-client-x64.so py_name=tls-client-x86.so other_cpu='\xb7' other_name=aarch64 koffi_dir=linux_x64 ;;
  aarch64) node_name=tls-client-arm64.so py_name=tls-client-arm64.so other_cpu='\x3e' other_name=x86-64 koffi_dir=linux_arm64 ;;
  *) fail "no expectations for $(uname -m)" ;;
esac

tmp=$(mktemp -d /tmp/tlsc-install-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ncache=$tmp/node-tmpdir                 # os.tmpdir() of the node processes below
site=$tmp/site-packages
deps=$site/tls_client/dependencies
mkdir -p "$ncache" "$deps"
echo "upstream placeholder (node-tls-client)" >"$ncache/$node_name"
echo "upstream placeholder (tls_client)" >"$deps/$py_name"
cp "$ncache/$node_name" "$tmp/node.orig"
cp "$deps/$py_name" "$tmp/py.orig"
: >"$site/tls_client/__init__.py"
# tls_client/cffi.py's choice of name (Python-Tls-Client), then ctypes.
cat >"$site/tls_client/cffi.py" <<'EOF'
import ctypes, os
from platform import machine
from sys import platform
if platform == "darwin":
    ext = "-arm64.dylib" if machine() == "arm64" else "-x86.dylib"
elif machine() == "aarch64":
    ext = "-arm64.so"
elif "x86" in machine():
    ext = "-x86.so"
else:
    ext = "-amd64.so"
path = os.path.join(os.path.abspath(os.path.dirname(__file__)), "dependencies", "tls-client" + ext)
library = ctypes.cdll.LoadLibrary(path)
destroySession = library.destroySession
destroySession.argtypes = [ctypes.c_char_p]
destroySession.restype = ctypes.c_char_p
EOF

run_install() {  # install.sh with the test's TMPDIR; output kept in $tmp/out
  local rc=0
  TMPDIR=$ncache timeout -k 5 60 bash "$install_sh" "$@" >"$tmp/out" 2>&1 || rc=$?
  sed 's/^/    /' "$tmp/out"
  return $rc
}
same() { cmp -s "$1" "$2" || fail "$3: $1 is not $2"; }

# --- install: a project folder for node-tls-client, a site-packages for tls_client
echo "# install.sh --node tests/bindings --python-dir SITE $lib"
run_install --node "$root/tests/bindings" --python-dir "$site" "$lib" || fail "install.sh failed"
same "$lib" "$ncache/$node_name" "node-tls-client"
same "$tmp/node.orig" "$ncache/$node_name.upstream" "node-tls-client's saved file"
ok "node-tls-client: $node_name in os.tmpdir() is the library, byte for byte; the placeholder is $node_name.upstream"
same "$lib" "$deps/$py_name" "tls_client"
same "$tmp/py.orig" "$deps/$py_name.upstream" "tls_client's saved file"
ok "tls_client: dependencies/$py_name is the library, byte for byte; the placeholder is $py_name.upstream"
leftover=$(find "$ncache" "$deps" -name '.*' -type f)
[ -z "$leftover" ] || fail "temporary files left: $leftover"
ok "no temporary files left"

# --- node-tls-client loads it: GET on loopback, destroySession's tlsClientCpp, /proc/self/maps
echo "# node-tls-client 2.1.0 with TMPDIR=$ncache"
TMPDIR=$ncache timeout -k 5 60 node "$root/tests/packaging/node_loads_ours.js" "$pkg" "$ncache/$node_name" 2>&1 |
  sed 's/^/    /'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "node-tls-client did not load the installed library"
ok "node-tls-client loads the installed file, and it is ours"

# --- tls_client's loader (ctypes) loads it
echo "# tls_client.cffi (name chosen as tls_client does) with PYTHONPATH=$site"
PYTHONPATH=$site timeout -k 5 30 python3 - "$deps/$py_name" <<'EOF' 2>&1 | sed 's/^/    /'
import json, os, sys
import tls_client.cffi as c
assert c.path == sys.argv[1], (c.path, sys.argv[1])
out = json.loads(c.destroySession(b'{"sessionId": "install-test"}'))
assert "tlsClientCpp" in out, out
real = os.path.realpath(sys.argv[1])
assert any(l.rstrip("\n").endswith(" " + real) for l in open("/proc/self/maps")), real
print("ctypes loaded %s: tlsClientCpp %s" % (real, out["tlsClientCpp"]["version"]))
EOF
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "tls_client's loader did not load the installed library"
ok "tls_client's loader loads the installed file, and it is ours"

# --- again, found without targets (cache file in os.tmpdir(), tls_client on PYTHONPATH): nothing changes
echo "# install.sh (no target: found) from an empty folder"
(cd "$tmp" && PYTHONPATH=$site run_install "$lib") || fail "install.sh (found) failed"
grep -q "node-tls-client: .* is this library already" "$tmp/out" || fail "node-tls-client not found by default"
grep -q "tls_client: .* is this library already" "$tmp/out" || fail "tls_client not found by default"
same "$tmp/node.orig" "$ncache/$node_name.upstream" "node-tls-client's saved file after a second install"
same "$tmp/py.orig" "$deps/$py_name.upstream" "tls_client's saved file after a second install"
ok "a second install finds both, changes nothing, keeps the saved placeholders"

# --- refusals: another CPU, not ours; the target stays as it was
other=$tmp/other-cpu.so
head -c 64 "$lib" >"$other"
# shellcheck disable=SC2059  # the escape is the point
printf "$other_cpu" | dd of="$other" bs=1 seek=18 conv=notrunc status=none
fresh=$tmp/fresh-site/tls_client/dependencies
mkdir -p "$fresh"
cp "$tmp/py.orig" "$fresh/$py_name"
echo "# install.sh with an ELF header for $other_name"
if run_install --python-dir "$tmp/fresh-site" "$other"; then fail "a library for $other_name was installed"; fi
grep -q "refusing .*built for $other_name" "$tmp/out" || fail "no clear refusal for $other_name"
same "$tmp/py.orig" "$fresh/$py_name" "target after a refused library"
ok "a library for $other_name is refused, the target untouched"
# a shared library for this CPU that is not ours: koffi's own
notours=$root/tests/bindings/node_modules/koffi/build/koffi/$koffi_dir/koffi.node
[ -f "$notours" ] || fail "no $notours"
echo "# install.sh with koffi's $koffi_dir/koffi.node"
if run_install --python-dir "$tmp/fresh-site" "$notours"; then fail "koffi.node was installed"; fi
grep -q "refusing .*not a build of tls-client-cpp" "$tmp/out" || fail "no clear refusal for koffi.node"
same "$tmp/py.orig" "$fresh/$py_name" "target after a refused library"
ok "a library that is not ours is refused, the target untouched"

# --- uninstall: the cache folder named directly this time; placeholders back
echo "# install.sh --uninstall --node NODE_TMPDIR --python-dir SITE"
run_install --uninstall --node "$ncache" --python-dir "$site" || fail "install.sh --uninstall failed"
same "$tmp/node.orig" "$ncache/$node_name" "node-tls-client after --uninstall"
same "$tmp/py.orig" "$deps/$py_name" "tls_client after --uninstall"
if [ -e "$ncache/$node_name.upstream" ] || [ -e "$deps/$py_name.upstream" ]; then fail ".upstream files left after --uninstall"; fi
ok "--uninstall puts both placeholders back"

# --- nothing there before: install then --uninstall leaves nothing
empty=$tmp/empty-cache
mkdir "$empty"
echo "# install.sh --node EMPTY_CACHE, then --uninstall"
run_install --node "$empty" "$lib" || fail "install.sh into an empty cache failed"
same "$lib" "$empty/$node_name" "empty cache"
run_install --uninstall --node "$empty" || fail "install.sh --uninstall (empty cache) failed"
[ -z "$(ls -A "$empty")" ] || fail "left in the empty cache: $(ls -A "$empty")"
ok "with nothing saved, --uninstall removes ours and leaves the folder empty"

echo "install_test: $checks passed"
