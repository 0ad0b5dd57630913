#!/usr/bin/env bash
# nginx over TLS on a loopback port, run unprivileged like nginx.sh.
# Usage: nginx_tls.sh PROTOCOLS CERT KEY [early_data]
#   e.g. nginx_tls.sh "TLSv1.3" good.pem good.key
# With early_data, TLS 1.3 tickets allow 0-RTT and nginx accepts it
# (ssl_early_data on).
# Serves index.html and big.txt; every answer carries the connection serial
# number (X-Conn), the TLS version (X-Proto), cipher (X-Cipher), group
# (X-Curve) and whether the TLS session was resumed (X-Reused: r or .).
# /echo-method answers "$request_method $http_user_agent".
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
protocols="$1" cert="$2" key="$3" early_data="off"
[ "${4:-}" = early_data ] && early_data="on"
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-nginx-tls.XXXXXX)
nginx_site "$dir" "hello from nginx over tls"
port=$(free_port)
{ nginx_prelude "$dir"; cat <<CONF
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $cert;
    ssl_certificate_key $key;
    ssl_protocols $protocols;
    ssl_session_cache shared:tlsc:1m;
    ssl_session_tickets on;
    ssl_early_data $early_data;
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
} > "$dir/nginx.conf"
run_nginx "$dir" "$port"
