#!/usr/bin/env python3
"""Captures the ClientHello of every connection on a loopback port, decodes
it, and appends one JSON line per connection to a log file; then closes the
connection. Prints {"port": N} and runs until stdin closes."""
import json, socket, struct, sys, threading

log_path = sys.argv[1]
lock = threading.Lock()

def read_exact(conn, n):
    buf = b""
    while len(buf) < n:
        part = conn.recv(n - len(buf))
        if not part:
            raise EOFError
        buf += part
    return buf

def u16_list(b):
    return [struct.unpack(">H", b[i:i + 2])[0] for i in range(0, len(b), 2)]

def decode(hello):
    p = 4 + 2 + 32  # handshake header, legacy version, random
    sid_len = hello[p]; p += 1 + sid_len
    n = struct.unpack(">H", hello[p:p + 2])[0]; p += 2
    ciphers = u16_list(hello[p:p + n]); p += n
    p += 1 + hello[p]  # compression methods
    ext_total = struct.unpack(">H", hello[p:p + 2])[0]; p += 2
    end = p + ext_total
    out = {"ciphers": ciphers, "extensions": [], "groups": [], "key_shares": [], "x25519_keys": {}, "sigalgs": [],
           "versions": [], "alpn": [], "cert_compression": [], "alps": [], "psk": False}
    while p < end:
        t, l = struct.unpack(">HH", hello[p:p + 4]); p += 4
        body = hello[p:p + l]; p += l
        out["extensions"].append(t)
        if t == 10: out["groups"] = u16_list(body[2:])
        elif t == 13: out["sigalgs"] = u16_list(body[2:])
        elif t == 43: out["versions"] = u16_list(body[1:])
        elif t == 27: out["cert_compression"] = u16_list(body[1:])
        elif t == 41: out["psk"] = True
        elif t in (16, 17513, 17613):
            q, names = 2, []
            while q < len(body):
                ln = body[q]; names.append(body[q + 1:q + 1 + ln].decode()); q += 1 + ln
            out["alpn" if t == 16 else "alps"] = names
        elif t == 51:
            q = 2
            while q < len(body):
                g, kl = struct.unpack(">HH", body[q:q + 4])
                key = body[q + 4:q + 4 + kl]; q += 4 + kl
                out["key_shares"].append([g, kl])
                if g == 0x11ec: out["x25519_keys"]["hybrid"] = key[-32:].hex()
                if g == 0x001d: out["x25519_keys"]["x25519"] = key.hex()
    return out

def handle(conn):
    try:
        hdr = read_exact(conn, 5)
        body = read_exact(conn, struct.unpack(">H", hdr[3:5])[0])
        need = 4 + int.from_bytes(body[1:4], "big")
        while len(body) < need:  # a ClientHello split over records
            h = read_exact(conn, 5)
            body += read_exact(conn, struct.unpack(">H", h[3:5])[0])
        record = decode(body[:need])
        with lock, open(log_path, "a") as f:
            f.write(json.dumps(record) + "\n")
    except Exception:
        pass
    finally:
        conn.close()

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(64)
srv.settimeout(0.2)
print(json.dumps({"port": srv.getsockname()[1]}), flush=True)
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
while not stop.is_set():
    try:
        c, _ = srv.accept()
    except socket.timeout:
        continue
    threading.Thread(target=handle, args=(c,), daemon=True).start()
