#!/usr/bin/env python3
"""An HTTP CONNECT proxy of the tests' own, over TLS when given a
certificate (the HTTPS proxy: TLS to the proxy, then CONNECT inside it).
Usage: connect_proxy.py [--tls CERT KEY] [--auth USER:PASSWORD]
Tunnels to loopback targets only. Every CONNECT request head is appended
to the file named by --log, if given, so tests can see what was sent.
Prints {"port": N}; runs until stdin closes."""
import argparse, base64, ssl
import relay

ap = argparse.ArgumentParser()
ap.add_argument("--tls", nargs=2)
ap.add_argument("--auth")
ap.add_argument("--log")
args = ap.parse_args()

wrap = None
if args.tls:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.tls[0], args.tls[1])
    ctx.set_alpn_protocols(["http/1.1"])
    wrap = lambda c: ctx.wrap_socket(c, server_side=True)


def handle(conn):
    head = relay.read_until(conn, b"\r\n\r\n")
    if b"\r\n\r\n" not in head:
        return
    if args.log:
        with open(args.log, "ab") as f:
            f.write(head.split(b"\r\n\r\n")[0] + b"\r\n\r\n")
    lines = head.split(b"\r\n")
    method, target, _ = lines[0].decode("latin-1").split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if b":" in line:
            k, v = line.split(b":", 1)
            headers[k.strip().lower().decode("latin-1")] = v.strip().decode("latin-1")
    if method != "CONNECT":
        conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
        return
    if args.auth:
        want = "Basic " + base64.b64encode(args.auth.encode()).decode()
        if headers.get("proxy-authorization") != want:
            conn.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                         b"Proxy-Authenticate: Basic realm=\"tlsc\"\r\nContent-Length: 0\r\n\r\n")
            return
    host, port = target.rsplit(":", 1)
    try:
        upstream = relay.connect_target(host.strip("[]"), int(port))
    except OSError:
        conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
        return
    conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    relay.pump(conn, upstream)


relay.serve(handle, wrap)
