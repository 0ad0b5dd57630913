#!/usr/bin/env bash
# h2o (Debian's 2.2.5, with mruby) over TLS on a loopback port, serving the
# h2_docroot files (hello.txt, big.bin); mruby handlers answer
#   POST /echo    the request body
#   POST /upload  the size of the request body, in decimal
#   GET  /conn    the client's port: one per TCP connection
# Usage: h2o.sh CERT KEY
# Prints {"port":N}; stops when stdin closes.
set -euo pipefail
cert="$1" key="$2"
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d /tmp/tlsc-h2o.XXXXXX)
trap "rm -rf '$dir'" EXIT
# Started as root, h2o serves as nobody: the files must be readable by all.
chmod 755 "$dir"
h2_docroot "$dir/www" h2o
port=$(free_port)
cat > "$dir/h2o.conf" <<CONF
error-log: $dir/error.log
num-threads: 1
limit-request-body: 104857600
listen:
  host: 127.0.0.1
  port: $port
  ssl:
    certificate-file: $cert
    key-file: $key
    # No OCSP fetcher: there is no OCSP responder here.
    ocsp-update-interval: 0
hosts:
  "127.0.0.1:$port":
    paths:
      /echo:
        mruby.handler: |
          Proc.new do |env|
            body = env["rack.input"] ? env["rack.input"].read : ""
            [200, {"content-type" => "application/octet-stream"}, [body]]
          end
      /upload:
        mruby.handler: |
          Proc.new do |env|
            body = env["rack.input"] ? env["rack.input"].read : ""
            [200, {"content-type" => "text/plain"}, [body.bytesize.to_s]]
          end
      /conn:
        mruby.handler: |
          Proc.new do |env|
            [200, {"content-type" => "text/plain"}, [env["REMOTE_PORT"].to_s]]
          end
      /:
        file.dir: $dir/www
CONF
/usr/bin/h2o -c "$dir/h2o.conf" >/dev/null 2>&1 &
pid=$!
# The tests close stdin and send SIGTERM at once: a TERM exits through the
# clean-up, and the clean-up itself is not cut short by one.
trap "trap '' TERM; kill $pid 2>/dev/null; rm -rf '$dir'; wait $pid 2>/dev/null" EXIT
trap 'exit 143' TERM
announce_and_wait "$pid" "$port"
