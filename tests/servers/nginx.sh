#!/usr/bin/env bash
# nginx on a loopback port as a real HTTP/1.1 peer: static files, gzip,
# keep-alive, and the connection serial number in X-Conn so tests can see
# connection reuse. Prints {"port":N}; stops when stdin closes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-nginx.XXXXXX)
nginx_site "$dir" "hello from nginx"
port=$(free_port)
{ nginx_prelude "$dir"; cat <<CONF
  server {
    listen 127.0.0.1:$port;
    root $dir/www;
    add_header X-Conn \$connection always;
    location /echo-method { return 200 "\$request_method \$http_user_agent"; }
  }
}
CONF
} > "$dir/nginx.conf"
run_nginx "$dir" "$port"
