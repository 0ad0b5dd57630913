#!/usr/bin/env bash
# `openssl s_server -www` on a loopback port, with the given extra options.
# Prints {"port":N} once it accepts, stops when stdin closes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
port=$(free_port)
openssl s_server -accept "127.0.0.1:$port" -www -quiet "$@" </dev/null >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
announce_and_wait "$pid" "$port"
