#!/usr/bin/env bash
# microsocks as a SOCKS5 proxy on a loopback port. Usage: microsocks.sh
# [USER PASSWORD]: with them, only user/password authentication is accepted.
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
port=$(free_port)
args=(-i 127.0.0.1 -p "$port")
[ $# -ge 2 ] && args+=(-u "$1" -P "$2")
microsocks "${args[@]}" >/dev/null 2>&1 &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
announce_and_wait "$pid" "$port"
