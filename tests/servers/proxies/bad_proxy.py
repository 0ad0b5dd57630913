#!/usr/bin/env python3
"""Proxies that fail on purpose, one behaviour per run, for the error paths.
Usage: bad_proxy.py MODE [ARG]
  drop             read the CONNECT request head, then close
  hang             read the CONNECT request head, then say nothing
  status LINE      answer CONNECT with the status line LINE and close
  garbage          answer anything with bytes that are no HTTP
  socks5-code N    SOCKS5: accept no-auth, answer the request with code N
  socks5-drop      SOCKS5: close after the greeting
  socks5-noauth    SOCKS5: answer the greeting with 0xff
  socks4-code N    SOCKS4: answer the request with code N
Prints {"port": N}; runs until stdin closes."""
import sys
import relay

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else ""


def handle(conn):
    if mode == "drop":
        relay.read_until(conn, b"\r\n\r\n")
        return
    elif mode == "hang":
        relay.read_until(conn, b"\r\n\r\n")
        relay.read_until(conn, b"never")  # until the client gives up
    elif mode == "status":
        relay.read_until(conn, b"\r\n\r\n")
        conn.sendall(arg.encode() + b"\r\nContent-Length: 0\r\n\r\n")
    elif mode == "garbage":
        relay.read_until(conn, b"\r\n\r\n")
        conn.sendall(b"\x16\x03\x01 this is no proxy\r\n")
    elif mode.startswith("socks5"):
        greeting = relay.read_exact(conn, 2)
        relay.read_exact(conn, greeting[1])
        if mode == "socks5-drop":
            return
        if mode == "socks5-noauth":
            conn.sendall(b"\x05\xff")
            return
        conn.sendall(b"\x05\x00")
        req = relay.read_exact(conn, 4)
        if req[3] == 1:
            relay.read_exact(conn, 4 + 2)
        elif req[3] == 4:
            relay.read_exact(conn, 16 + 2)
        else:
            n = relay.read_exact(conn, 1)[0]
            relay.read_exact(conn, n + 2)
        conn.sendall(bytes([5, int(arg), 0, 1, 0, 0, 0, 0, 0, 0]))
    elif mode == "socks4-code":
        relay.read_exact(conn, 8)
        conn.sendall(bytes([0, int(arg)]) + b"\0" * 6)
    # Let the client see the close after what was sent.
    try:
        conn.recv(1)
    except OSError:
        pass


relay.serve(handle)
