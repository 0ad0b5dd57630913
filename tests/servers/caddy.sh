#!/usr/bin/env bash
# Caddy (Debian's, on quic-go) serving the h2_docroot files (hello.txt,
# big.bin) over HTTP/1.1, HTTP/2 and HTTP/3 on one loopback port (TCP and
# UDP), with the test PKI's certificate; no admin endpoint, nothing kept.
# Also: /redirect (302 to /hello.txt), /cookie (sets h3=yes),
# /echo-cookie (answers with the Cookie header it got), /gzip (2 600 bytes
# of "compressible ", gzip-encoded when the client accepts it),
# /alt-svc?v=VALUE (answers with the field Alt-Svc: VALUE instead of
# Caddy's own, which is h3=":PORT"; ma=2592000 on HTTP/1.1 and HTTP/2).
# Usage: caddy.sh CERT KEY
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
cert="$1" key="$2"
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-caddy.XXXXXX)
trap "rm -rf '$dir'" EXIT
h2_docroot "$dir/www" caddy
port=$(free_port)
# 2 600 bytes that compress, for /gzip.
gzip_text=$(for _ in $(seq 200); do printf 'compressible '; done)
cat > "$dir/Caddyfile" <<CONF
{
	admin off
	auto_https off
	storage file_system $dir/data
	servers {
		protocols h1 h2 h3
	}
}
https://localhost:$port, https://127.0.0.1:$port {
	bind 127.0.0.1
	tls $cert $key
	root * $dir/www
	handle /redirect {
		redir * /hello.txt 302
	}
	handle /cookie {
		header Set-Cookie "h3=yes; Path=/"
		respond "cookie set" 200
	}
	handle /echo-cookie {
		respond "cookie: {http.request.header.Cookie}" 200
	}
	handle /alt-svc {
		header Alt-Svc "{query.v}"
		respond "alt-svc set" 200
	}
	handle /gzip {
		encode gzip
		header Content-Type "text/plain; charset=utf-8"
		respond "$gzip_text" 200
	}
	handle {
		file_server
	}
}
CONF
XDG_DATA_HOME=$dir/data XDG_CONFIG_HOME=$dir/config HOME=$dir \
  caddy run --config "$dir/Caddyfile" --adapter caddyfile >"$dir/caddy.log" 2>&1 &
pid=$!
trap "trap '' TERM; kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf '$dir'" EXIT
trap 'exit 143' TERM
await_udp "$pid" "$port"  # HTTP/3's listener, then TCP's
announce_and_wait "$pid" "$port"
