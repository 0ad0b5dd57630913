#!/usr/bin/env bash
# Dante (danted) as a SOCKS4, SOCKS4a and SOCKS5 proxy without
# authentication on a loopback port, in the foreground. Connections to
# 127.0.0.1 port BLOCKED_PORT (the second argument, optional) are refused
# by rule, so tests see the proxy's own failure replies.
# Usage: danted.sh [BLOCKED_PORT]. Prints {"port":N}; stops when stdin closes.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
dir=$(mktemp -d /tmp/tlsc-danted.XXXXXX)
chmod 755 "$dir"
port=$(free_port)
blocked=${1:-}
{
  echo "logoutput: $dir/danted.log"
  echo "internal: 127.0.0.1 port = $port"
  echo "external: 127.0.0.1"
  echo "clientmethod: none"
  echo "socksmethod: none"
  echo "user.privileged: root"
  echo "user.unprivileged: nobody"
  printf 'client pass {\n  from: 127.0.0.0/8 to: 0.0.0.0/0\n}\n'
  if [ -n "$blocked" ]; then
    printf 'socks block {\n  from: 0.0.0.0/0 to: 127.0.0.1/32 port = %s\n}\n' "$blocked"
  fi
  printf 'socks pass {\n  from: 127.0.0.0/8 to: 0.0.0.0/0\n  command: connect\n}\n'
} > "$dir/danted.conf"
danted_bin=$(command -v danted || echo /usr/sbin/danted)
"$danted_bin" -f "$dir/danted.conf" -p "$dir/danted.pid" -N 1 >"$dir/stdout.log" 2>&1 &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; rm -rf '$dir'; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
announce_and_wait "$pid" "$port"
