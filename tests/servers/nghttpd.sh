#!/usr/bin/env bash
# nghttpd (nghttp2's HTTP/2 server) over TLS on a loopback port, serving the
# h2_docroot files (hello.txt, big.bin) and echoing POST/PUT bodies
# (--echo-upload). Extra arguments go to nghttpd (e.g. -m 10 for
# SETTINGS_MAX_CONCURRENT_STREAMS 10).
# Usage: nghttpd.sh CERT KEY [nghttpd options]
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
cert="$1" key="$2"
shift 2
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-nghttpd.XXXXXX)
trap "rm -rf '$dir'" EXIT
h2_docroot "$dir/www" nghttpd
port=$(free_port)
/usr/sbin/nghttpd -a 127.0.0.1 -d "$dir/www" --echo-upload "$@" "$port" "$key" "$cert" >/dev/null 2>&1 &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; rm -rf '$dir'; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
announce_and_wait "$pid" "$port"
