#!/usr/bin/env bash
# squid as an HTTP CONNECT proxy on a loopback port, in the foreground,
# memory only, CONNECT allowed to any port (upstream tunnels http:// targets
# too). Usage: squid.sh [USER PASSWORD]: with them, Basic proxy
# authentication is required (407 otherwise).
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
dir=$(mktemp -d /tmp/tlsc-squid.XXXXXX)
# squid started as root drops to the "proxy" user, which must reach its files.
chmod 755 "$dir"
port=$(free_port)
auth=""
if [ $# -ge 2 ]; then
  printf '%s:%s\n' "$1" "$(openssl passwd -apr1 "$2")" > "$dir/passwd"
  chmod 644 "$dir/passwd"
  auth="auth_param basic program /usr/lib/squid/basic_ncsa_auth $dir/passwd
auth_param basic realm tlsc
acl authed proxy_auth REQUIRED
http_access deny !authed"
fi
cat > "$dir/squid.conf" <<CONF
http_port 127.0.0.1:$port
visible_hostname tlsc-test
pid_filename $dir/squid.pid
cache_log $dir/cache.log
access_log none
cache deny all
cache_mem 4 MB
coredump_dir $dir
shutdown_lifetime 0 seconds
pinger_enable off
$auth
http_access allow localhost
http_access deny all
CONF
chown -R proxy "$dir" 2>/dev/null || true
squid_bin=$(command -v squid || echo /usr/sbin/squid)
"$squid_bin" -N -f "$dir/squid.conf" >"$dir/stdout.log" 2>&1 &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; rm -rf '$dir'; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
announce_and_wait "$pid" "$port"
