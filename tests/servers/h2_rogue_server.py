#!/usr/bin/env python3
"""An HTTP/2 server over TLS that breaks the protocol on purpose, one way
per mode (stdlib only), so that the client's error texts can be checked
against Go's (fhttp's) for each kind of violation.

Usage: h2_rogue_server.py --cert C.pem --key K.pem

It listens on one port per mode (so that it need not decode the request):
  rst                RST_STREAM(INTERNAL_ERROR) in place of an answer
  rst-in-body        a 200 head, 5 bytes of body, then RST_STREAM(PROTOCOL_ERROR)
  window-overflow    WINDOW_UPDATE on the connection past 2^31-1
  settings-window    SETTINGS_INITIAL_WINDOW_SIZE 2^31 (past the maximum)
  upper-header       a response header name in upper case ("X-Upper")
  bad-header-value   a header value with a NUL byte
  no-status          a response head without ":status"
  data-first         DATA on the stream before any HEADERS
  zero-increment     WINDOW_UPDATE of 0 on the request's stream
  ok                 a 200 with body "ok" (to check the server itself)
Every connection ends after its one answer (or 10 s). Prints
{"port":N,"ports":{"<mode>":N,...}} once it listens on 127.0.0.1 ("port" is
the "ok" one); stops when stdin closes (and after 600 s
regardless).
"""
import argparse
import json
import socket
import ssl
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = 0, 1, 3, 4, 6, 7, 8, 9
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1


MODES = ["rst", "rst-in-body", "window-overflow", "settings-window", "upper-header", "bad-header-value",
         "no-status", "data-first", "zero-increment", "connection-header", "space-value", "ctl-value",
         "pseudo-after-regular", "unknown-pseudo", "bad-status", "length-mismatch", "length-short",
         "info-then-200", "odd-name", "ok"]


def frame(ftype, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream) + payload


def hpack_literal(name, value):
    """A literal header field without indexing, new name, no Huffman."""
    def string(s):
        assert len(s) < 127
        return bytes([len(s)]) + s
    return b"\x00" + string(name) + string(value)


def read_exact(tls, n):
    buf = b""
    while len(buf) < n:
        chunk = tls.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def read_frame(tls):
    hdr = read_exact(tls, 9)
    length = int.from_bytes(hdr[:3], "big")
    return hdr[3], hdr[4], int.from_bytes(hdr[5:9], "big") & 0x7FFFFFFF, read_exact(tls, length)


def head_only():
    s200 = hpack_literal(b":status", b"200")
    return {
        "connection-header": s200 + hpack_literal(b"connection", b"keep-alive") + hpack_literal(b"keep-alive", b"timeout=5"),
        "space-value": s200 + hpack_literal(b"x-space", b" padded "),
        "ctl-value": s200 + hpack_literal(b"x-ctl", b"a\x01b"),
        "pseudo-after-regular": hpack_literal(b"x-a", b"1") + s200,
        "unknown-pseudo": s200 + hpack_literal(b":foo", b"bar"),
        "bad-status": hpack_literal(b":status", b"abc"),
        "odd-name": s200 + hpack_literal(b"x@y", b"1"),
    }


def answer(tls, mode, stream):
    status200 = hpack_literal(b":status", b"200")
    if mode == "rst":
        tls.sendall(frame(RST_STREAM, 0, stream, struct.pack(">I", 2)))
    elif mode == "rst-in-body":
        tls.sendall(frame(HEADERS, END_HEADERS, stream, status200) + frame(DATA, 0, stream, b"hello") +
                    frame(RST_STREAM, 0, stream, struct.pack(">I", 1)))
    elif mode == "window-overflow":
        tls.sendall(frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", 0x7FFFFFFF)))
    elif mode == "settings-window":
        tls.sendall(frame(SETTINGS, 0, 0, struct.pack(">HI", 4, 0x80000000)))
    elif mode == "upper-header":
        tls.sendall(frame(HEADERS, END_HEADERS | END_STREAM, stream,
                          status200 + hpack_literal(b"X-Upper", b"1")))
    elif mode == "bad-header-value":
        tls.sendall(frame(HEADERS, END_HEADERS | END_STREAM, stream,
                          status200 + hpack_literal(b"x-bad", b"a\x00b")))
    elif mode == "no-status":
        tls.sendall(frame(HEADERS, END_HEADERS | END_STREAM, stream, hpack_literal(b"x-a", b"1")))
    elif mode == "data-first":
        tls.sendall(frame(DATA, END_STREAM, stream, b"early"))
    elif mode == "zero-increment":
        tls.sendall(frame(WINDOW_UPDATE, 0, stream, struct.pack(">I", 0)))
    elif mode in HEAD_ONLY:
        tls.sendall(frame(HEADERS, END_HEADERS, stream, HEAD_ONLY[mode]) + frame(DATA, END_STREAM, stream, b"ok"))
    elif mode == "length-mismatch":
        tls.sendall(frame(HEADERS, END_HEADERS, stream, status200 + hpack_literal(b"content-length", b"10")) +
                    frame(DATA, END_STREAM, stream, b"0123456789abc"))
    elif mode == "length-short":
        tls.sendall(frame(HEADERS, END_HEADERS, stream, status200 + hpack_literal(b"content-length", b"10")) +
                    frame(DATA, END_STREAM, stream, b"ok"))
    elif mode == "info-then-200":
        tls.sendall(frame(HEADERS, END_HEADERS, stream, hpack_literal(b":status", b"103") +
                          hpack_literal(b"link", b"</a.css>")) +
                    frame(HEADERS, END_HEADERS, stream, status200) + frame(DATA, END_STREAM, stream, b"ok"))
    else:
        tls.sendall(frame(HEADERS, END_HEADERS, stream, status200) + frame(DATA, END_STREAM, stream, b"ok"))


def serve(conn, ctx, mode):
    conn.settimeout(10)
    try:
        tls = ctx.wrap_socket(conn, server_side=True)
    except (ssl.SSLError, OSError):
        conn.close()
        return
    try:
        if read_exact(tls, len(PREFACE)) != PREFACE:
            return
        tls.sendall(frame(SETTINGS, 0, 0))
        stream = 0
        while True:  # up to the end of the request's header block
            ftype, flags, sid, _ = read_frame(tls)
            if ftype == SETTINGS and not flags & ACK:
                tls.sendall(frame(SETTINGS, ACK, 0))
            elif ftype == HEADERS:
                stream = sid
            if ftype in (HEADERS, CONTINUATION) and flags & END_HEADERS:
                break
        answer(tls, mode, stream)
        # Let the client see it and answer (a GOAWAY, a reset) before the end.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            read_frame(tls)
    except (ssl.SSLError, OSError, EOFError, IndexError):
        pass
    finally:
        try:
            tls.close()
        except (OSError, UnboundLocalError):
            pass


HEAD_ONLY = head_only()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    args = ap.parse_args()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
    ctx.set_alpn_protocols(["h2"])
    ports = {}

    def accept_loop(ls, mode):
        while True:
            try:
                conn, _ = ls.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn, ctx, mode), daemon=True).start()

    for mode in MODES:
        ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", 0))
        ls.listen(16)
        ports[mode] = ls.getsockname()[1]
        threading.Thread(target=accept_loop, args=(ls, mode), daemon=True).start()
    print(json.dumps({"port": ports["ok"], "ports": ports}), flush=True)
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    stop.wait(600)


if __name__ == "__main__":
    main()
