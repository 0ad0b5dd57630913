#!/usr/bin/env bash
# nginx over TLS on a loopback port, run unprivileged like nginx.sh.
# Usage: nginx_tls.sh PROTOCOLS CERT KEY   e.g. nginx_tls.sh "TLSv1.3" good.pem good.key
# Serves index.html and big.txt; every answer carries the connection serial
# number (X-Conn), the TLS version (X-Proto), cipher (X-Cipher), group
# (X-Curve) and whether the TLS session was resumed (X-Reused: r or .).
# /echo-method answers "$request_method $http_user_agent".
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
protocols="$1" cert="$2" key="$3"
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
dir=$(mktemp -d /tmp/tlsc-nginx-tls.XXXXXX)
mkdir -p "$dir/www" "$dir/logs" "$dir/tmp"
printf 'hello from nginx over tls\n' > "$dir/www/index.html"
python3 -c "print('compressible line of text\n' * 2000, end='')" > "$dir/www/big.txt"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
cat > "$dir/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
error_log $dir/logs/error.log;
pid $dir/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp;
  proxy_temp_path $dir/tmp;
  fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp;
  scgi_temp_path $dir/tmp;
  default_type text/plain;
  keepalive_timeout 60s;
  keepalive_requests 1000;
  gzip on;
  gzip_types text/plain;
  gzip_min_length 100;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $cert;
    ssl_certificate_key $key;
    ssl_protocols $protocols;
    ssl_session_cache shared:tlsc:1m;
    ssl_session_tickets on;
    root $dir/www;
    add_header X-Conn \$connection always;
    add_header X-Proto \$ssl_protocol always;
    add_header X-Cipher \$ssl_cipher always;
    add_header X-Curve \$ssl_curve always;
    add_header X-Reused \$ssl_session_reused always;
    location /echo-method { return 200 "\$request_method \$http_user_agent"; }
  }
}
CONF
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  kill -0 $pid 2>/dev/null || { echo '{"port":0}'; exit 1; }
  sleep 0.05
done
echo "{\"port\":$port}"
cat >/dev/null || true
