#!/usr/bin/env bash
# nginx with HTTP/2 over TLS (Debian 12's nginx 1.22: `listen ... ssl http2`)
# on two loopback ports, run unprivileged like nginx.sh.
#   port    the h2_docroot files (hello.txt, big.bin); /echo answers the
#           request body (the echo module, bodies up to 1 MiB)
#   goaway  the same, but every connection ends after 100 requests
#           (keepalive_requests: nginx sends GOAWAY after the 100th stream)
# /gz is hello.txt, gzipped. Every answer carries X-Conn (nginx's connection serial number).
# Usage: nginx_h2.sh CERT KEY
# Prints {"port":N,"goaway":M}; stops when stdin closes.
set -euo pipefail
cert="$1" key="$2"
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-nginx-h2.XXXXXX)
trap "rm -rf '$dir'" EXIT
mkdir -p "$dir/logs" "$dir/tmp"
h2_docroot "$dir/www" nginx
port=$(free_port)
goaway=$(free_port)
site() {  # PORT KEEPALIVE_REQUESTS
  cat <<CONF
  server {
    listen 127.0.0.1:$1 ssl http2;
    ssl_certificate $cert;
    ssl_certificate_key $key;
    keepalive_requests $2;
    http2_max_concurrent_streams 128;
    root $dir/www;
    gzip off;
    add_header X-Conn \$connection always;
    location = /gz {
      alias $dir/www/hello.txt;
      default_type text/plain;
      gzip on;
      gzip_min_length 1;
      gzip_types text/plain;
    }
    location = /echo {
      client_max_body_size 1m;
      client_body_buffer_size 1m;
      echo_read_request_body;
      echo_request_body;
    }
  }
CONF
}
{ echo "load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;"
  nginx_prelude "$dir"; site "$port" 100000; site "$goaway" 100; echo "}"; } > "$dir/nginx.conf"
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf" &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; rm -rf '$dir'; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
for _ in $(seq 1 200); do
  (exec 3<>/dev/tcp/127.0.0.1/$goaway) 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.025
done
# announce_and_wait prints {"port":N}; add the second port to that line.
announce_and_wait "$pid" "$port" | sed -u "1s/}\$/,\"goaway\":$goaway}/"
