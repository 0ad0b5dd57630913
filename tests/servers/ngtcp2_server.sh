#!/usr/bin/env bash
# ngtcp2's example HTTP/3 server (Debian's ngtcp2-server, gtlsserver: ngtcp2
# 0.12 on GnuTLS) serving the h2_docroot files (hello.txt, big.bin) on a
# loopback UDP port with the test PKI's certificate. It reads a request's
# body whole and answers with the file the path names.
# Extra arguments go to the server (e.g. --validate-addr: a Retry first;
# --timeout=1s: its idle timeout).
# Usage: ngtcp2_server.sh CERT KEY [gtlsserver options]
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
cert="$1" key="$2"
shift 2
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-ngtcp2.XXXXXX)
trap "rm -rf '$dir'" EXIT
h2_docroot "$dir/www" ngtcp2-server
port=$(free_port)
/usr/sbin/gtlsserver --quiet --htdocs="$dir/www" "$@" 127.0.0.1 "$port" "$key" "$cert" >"$dir/server.log" 2>&1 &
pid=$!
trap "trap '' TERM; kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf '$dir'" EXIT
trap 'exit 143' TERM
await_udp "$pid" "$port"
echo "{\"port\":$port}"
cat >/dev/null || true
