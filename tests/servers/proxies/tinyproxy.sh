#!/usr/bin/env bash
# tinyproxy as an HTTP CONNECT proxy on a loopback port, in the foreground,
# CONNECT allowed to any port. Usage: tinyproxy.sh [USER PASSWORD]: with
# them, Basic proxy authentication is required.
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
dir=$(mktemp -d /tmp/tlsc-tinyproxy.XXXXXX)
chmod 755 "$dir"
port=$(free_port)
{
  echo "Port $port"
  echo "Listen 127.0.0.1"
  echo "Timeout 30"
  echo "MaxClients 64"
  echo "Allow 127.0.0.1"
  echo "LogLevel Error"
  echo "LogFile \"$dir/tinyproxy.log\""
  echo "PidFile \"$dir/tinyproxy.pid\""
  echo "DisableViaHeader Yes"
  # Started as root, tinyproxy drops to this user.
  echo "User nobody"
  echo "Group nogroup"
  [ $# -ge 2 ] && echo "BasicAuth $1 $2"
} > "$dir/tinyproxy.conf"
touch "$dir/tinyproxy.log"
chown nobody "$dir" "$dir/tinyproxy.log"
tinyproxy -d -c "$dir/tinyproxy.conf" >"$dir/stdout.log" 2>&1 &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; rm -rf '$dir'; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
announce_and_wait "$pid" "$port"
