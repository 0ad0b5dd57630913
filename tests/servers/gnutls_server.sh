#!/usr/bin/env bash
# GnuTLS `gnutls-serv --http` on a loopback port, with the given extra options
# (--priority, --x509certfile/--x509keyfile, -a, -r, ...). Its page shows the
# negotiated protocol version, key exchange, cipher and the request headers.
# Prints {"port":N} once it accepts, stops when stdin closes.
# gnutls-serv has no option for the listening address: it listens on the
# wildcard address of this machine; the tests only ever connect to 127.0.0.1.
set -euo pipefail
command -v gnutls-serv >/dev/null || { echo '{"port":0,"error":"gnutls-serv not installed (Debian: gnutls-bin)"}'; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
gnutls-serv --http -p "$port" "$@" </dev/null >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
for _ in $(seq 1 200); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  kill -0 $pid 2>/dev/null || { echo '{"port":0}'; exit 1; }
  sleep 0.02
done
echo "{\"port\":$port}"
cat >/dev/null || true
