#!/usr/bin/env bash
# `openssl s_server -www` on a loopback port, with the given extra options.
# Prints {"port":N} once it accepts, stops when stdin closes.
set -euo pipefail
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
openssl s_server -accept "127.0.0.1:$port" -www -quiet "$@" </dev/null >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
for _ in $(seq 1 200); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  kill -0 $pid 2>/dev/null || { echo '{"port":0}'; exit 1; }
  sleep 0.02
done
echo "{\"port\":$port}"
cat >/dev/null || true
