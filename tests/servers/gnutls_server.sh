#!/usr/bin/env bash
# GnuTLS `gnutls-serv --http` on a loopback port, with the given extra options
# (--priority, --x509certfile/--x509keyfile, -a, -r, ...). Its page shows the
# negotiated protocol version, key exchange, cipher and the request headers.
# Prints {"port":N} once it accepts, stops when stdin closes.
# gnutls-serv has no option for the listening address: it listens on the
# wildcard address of this machine; the tests only ever connect to 127.0.0.1.
set -euo pipefail
command -v gnutls-serv >/dev/null || { echo '{"port":0,"error":"gnutls-serv not installed (Debian: gnutls-bin)"}'; exit 1; }
source "$(dirname "$0")/lib.sh"
port=$(free_port)
gnutls-serv --http -p "$port" "$@" </dev/null >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
announce_and_wait "$pid" "$port"
