# Shared by the loopback server scripts (source it): a free port, the
# common part of an unprivileged nginx configuration, and the protocol the
# tests' ChildServer expects (one {"port":N} line, then run until stdin ends).

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# announce_and_wait PID PORT: waits (bounded) until PORT accepts, prints the
# port line (port 0 if PID died first), then blocks until stdin closes.
announce_and_wait() {
  local pid=$1 port=$2
  for _ in $(seq 1 200); do
    (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { echo '{"port":0}'; exit 1; }
    sleep 0.025
  done
  echo "{\"port\":$port}"
  cat >/dev/null || true
}

# nginx_prelude DIR: everything of nginx.conf before the server block, for an
# nginx that runs in the foreground as one process with all files in DIR.
nginx_prelude() {
  local dir=$1
  cat <<CONF
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
CONF
}

# nginx_site DIR INDEX_TEXT: the files every nginx test serves.
nginx_site() {
  local dir=$1
  mkdir -p "$dir/www" "$dir/logs" "$dir/tmp"
  printf '%s\n' "$2" > "$dir/www/index.html"
  python3 -c "print('compressible line of text\n' * 2000, end='')" > "$dir/www/big.txt"
}

# run_nginx DIR PORT: starts nginx on DIR/nginx.conf, removes DIR when done,
# and speaks the start-up protocol (announce_and_wait).
run_nginx() {
  local dir=$1 port=$2 nginx_bin
  nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
  "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" &
  local pid=$!
  trap "kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf '$dir'" EXIT
  announce_and_wait "$pid" "$port"
}

# h2_docroot DIR: the files the HTTP/2 interop tests fetch from static
# servers (nghttpd, nginx, h2o): hello.txt, and big.bin, 50 MiB of the test
# pattern (64-byte lines "%015d " + 47 fixed characters + "\n", numbered from
# 0), which tests/integration/h2_interop_test.cc generates again to compare.
h2_docroot() {
  local dir=$1 big=/tmp/tlsc-itest-h2-big.bin
  mkdir -p "$dir"
  printf 'hello from %s\n' "$2" > "$dir/hello.txt"
  if [ "$(stat -c %s "$big" 2>/dev/null)" != 52428800 ]; then
    python3 - "$big.$$" <<'PY'
import sys
tail = b'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\n'
with open(sys.argv[1], 'wb') as f:
    f.write(b''.join(b'%015d ' % i + tail for i in range(50 * 1024 * 1024 // 64)))
PY
    mv "$big.$$" "$big"
  fi
  ln "$big" "$dir/big.bin" 2>/dev/null || cp "$big" "$dir/big.bin"
}

# await_udp PID PORT: waits (bounded) until a UDP socket is bound to PORT on
# loopback; prints the port-0 line and exits if PID dies first.
await_udp() {
  local pid=$1 port=$2
  for _ in $(seq 1 200); do
    ss -Hlun "sport = :$port" 2>/dev/null | grep -q . && return 0
    kill -0 "$pid" 2>/dev/null || { echo '{"port":0}'; exit 1; }
    sleep 0.025
  done
}
