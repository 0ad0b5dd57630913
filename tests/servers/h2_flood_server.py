#!/usr/bin/env python3
"""An HTTP/2 server over TLS that floods and never reads (stdlib only).

Usage: h2_flood_server.py --cert C.pem --key K.pem --mode ping|settings

After the TLS handshake (ALPN h2) it sends its SETTINGS and then, without
ever reading a byte, PING frames (mode ping) or SETTINGS frames (mode
settings), each of which the client must acknowledge. The acknowledgements
pile up: first in the kernel's buffers, then in the client. A client
without write backpressure grows without bound; one with it stops taking
frames from its HTTP/2 layer, whose outbound-flood guard then ends the
connection.

Bounded: at most 256 MiB of frames or 30 s per connection. Prints
{"port":N} once it listens on 127.0.0.1; stops when stdin closes (and
after 600 s regardless).
"""
import argparse
import json
import socket
import ssl
import struct
import sys
import threading
import time


def frame(ftype, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream) + payload


def serve(conn, ctx, mode):
    try:
        tls = ctx.wrap_socket(conn, server_side=True)
    except (ssl.SSLError, OSError):
        conn.close()
        return
    try:
        tls.sendall(frame(4, 0, 0, b""))  # our SETTINGS: none
        if mode == "ping":
            one = frame(6, 0, 0, b"floodpng")
        else:
            one = frame(4, 0, 0, struct.pack(">HI", 1, 4096))  # HEADER_TABLE_SIZE 4096
        batch = one * 4096
        sent = 0
        deadline = time.monotonic() + 30
        while sent < (256 << 20) and time.monotonic() < deadline:
            tls.sendall(batch)
            sent += len(batch)
    except (ssl.SSLError, OSError):
        pass
    finally:
        try:
            tls.close()
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--mode", choices=["ping", "settings"], required=True)
    args = ap.parse_args()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
    ctx.set_alpn_protocols(["h2"])
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)
    print(json.dumps({"port": ls.getsockname()[1]}), flush=True)

    def accept_loop():
        while True:
            try:
                conn, _ = ls.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn, ctx, args.mode), daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    stop.wait(600)


if __name__ == "__main__":
    main()
