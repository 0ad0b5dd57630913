#!/usr/bin/env bash
# nginx on a loopback port as a real HTTP/1.1 peer: static files, gzip,
# keep-alive, and the connection serial number in X-Conn so tests can see
# connection reuse. Prints {"port":N}; stops when stdin closes.
set -euo pipefail
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
dir=$(mktemp -d /tmp/tlsc-nginx.XXXXXX)
mkdir -p "$dir/www" "$dir/logs" "$dir/tmp"
printf 'hello from nginx\n' > "$dir/www/index.html"
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
    listen 127.0.0.1:$port;
    root $dir/www;
    add_header X-Conn \$connection always;
    location /echo-method { return 200 "\$request_method \$http_user_agent"; }
  }
}
CONF
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  sleep 0.05
done
echo "{\"port\":$port}"
cat >/dev/null || true
