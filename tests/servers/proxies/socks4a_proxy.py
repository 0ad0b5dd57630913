#!/usr/bin/env python3
"""A SOCKS4a proxy of the tests' own (Dante speaks SOCKS4 and SOCKS5 but
not 4a): reads the request, resolves the name itself, relays to loopback
targets only, and answers 0x5b when the target cannot be reached.
Prints {"port": N}; runs until stdin closes."""
import struct
import relay


def read_cstring(conn, limit=1024):
    out = b""
    while len(out) < limit:
        c = relay.read_exact(conn, 1)
        if c == b"\0":
            return out
        out += c
    raise EOFError


def handle(conn):
    head = relay.read_exact(conn, 8)
    version, command, port = head[0], head[1], struct.unpack(">H", head[2:4])[0]
    ip = head[4:8]
    read_cstring(conn)  # user id
    host = ".".join(str(b) for b in ip)
    if ip[:3] == b"\0\0\0" and ip[3] != 0:
        host = read_cstring(conn).decode("latin-1")
    if version != 4 or command != 1:
        conn.sendall(b"\0\x5b" + b"\0" * 6)
        return
    try:
        upstream = relay.connect_target(host, port)
    except OSError:
        conn.sendall(b"\0\x5b" + b"\0" * 6)
        return
    conn.sendall(b"\0\x5a" + b"\0" * 6)
    relay.pump(conn, upstream)


relay.serve(handle)
