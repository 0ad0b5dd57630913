#!/usr/bin/env python3
"""Captures the ClientHello of every connection on a loopback port, decodes
it, and appends one JSON line per connection to a log file; then closes the
connection, or with --forward PORT relays the connection (hello included)
to a TLS server on that loopback port, so that handshakes complete and
sessions resume. Prints {"port": N} and runs until stdin closes."""
import json, os, socket, struct, sys, threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "profiles", "tools"))
import fingerprint  # noqa: E402

log_path = sys.argv[1]
forward_port = int(sys.argv[sys.argv.index("--forward") + 1]) if "--forward" in sys.argv else 0
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

def names_list(body):
    q, names = 2, []
    while q < len(body):
        ln = body[q]; names.append(body[q + 1:q + 1 + ln].decode()); q += 1 + ln
    return names

def decode(hello):
    p = 4
    legacy_version = struct.unpack(">H", hello[p:p + 2])[0]
    p += 2 + 32  # legacy version, random
    sid_len = hello[p]; p += 1 + sid_len
    n = struct.unpack(">H", hello[p:p + 2])[0]; p += 2
    ciphers = u16_list(hello[p:p + n]); p += n
    p += 1 + hello[p]  # compression methods
    ext_total = struct.unpack(">H", hello[p:p + 2])[0]; p += 2
    end = p + ext_total
    out = {"length": len(hello), "legacy_version": legacy_version, "session_id_length": sid_len,
           "ciphers": ciphers, "extensions": [], "groups": [], "key_shares": [], "x25519_keys": {}, "sigalgs": [],
           "versions": [], "alpn": [], "cert_compression": [], "alps": [], "alps_codepoint": 0, "psk": False,
           "point_formats": [], "psk_modes": [], "bodies": {}}
    while p < end:
        t, l = struct.unpack(">HH", hello[p:p + 4]); p += 4
        body = hello[p:p + l]; p += l
        out["extensions"].append(t)
        out["bodies"][str(t)] = body.hex()
        if t == 10: out["groups"] = u16_list(body[2:])
        elif t == 11: out["point_formats"] = list(body[1:])
        elif t == 13: out["sigalgs"] = u16_list(body[2:])
        elif t == 43: out["versions"] = u16_list(body[1:])
        elif t == 45: out["psk_modes"] = list(body[1:])
        elif t == 27: out["cert_compression"] = u16_list(body[1:])
        elif t == 28: out["record_size_limit"] = struct.unpack(">H", body)[0]
        elif t == 34: out["delegated_credentials"] = u16_list(body[2:])
        elif t == 21: out["padding_length"] = l
        elif t == 41: out["psk"] = True
        elif t == 16: out["alpn"] = names_list(body)
        elif t in (17513, 17613):
            out["alps"] = names_list(body); out["alps_codepoint"] = t
        elif t == 65037:
            q = 6
            enc_len = struct.unpack(">H", body[q:q + 2])[0]; q += 2 + enc_len
            payload_len = struct.unpack(">H", body[q:q + 2])[0]
            out["ech"] = {"type": body[0], "kdf": struct.unpack(">H", body[1:3])[0],
                          "aead": struct.unpack(">H", body[3:5])[0], "enc_length": enc_len,
                          "payload_length": payload_len}
        elif t == 51:
            q = 2
            while q < len(body):
                g, kl = struct.unpack(">HH", body[q:q + 4])
                key = body[q + 4:q + 4 + kl]; q += 4 + kl
                out["key_shares"].append([g, kl])
                # X25519MLKEM768: ML-KEM first, X25519 last; the Kyber draft: X25519 first.
                if g == 0x11ec: out["x25519_keys"]["hybrid"] = key[-32:].hex()
                if g == 0x6399: out["x25519_keys"]["hybrid"] = key[:32].hex()
                if g == 0x001d: out["x25519_keys"]["x25519"] = key.hex()
    out["ja3"] = fingerprint.ja3(ciphers, out["extensions"], out["groups"], out["point_formats"], legacy_version)
    out["ja4"] = fingerprint.ja4(ciphers, out["extensions"], out["sigalgs"], out["versions"], out["alpn"],
                                 legacy_version)
    # The same two without padding, for profiles whose padding depends on
    # a random ECH payload length.
    no_pad = [e for e in out["extensions"] if e != 21]
    out["ja3_without_padding"] = fingerprint.ja3(ciphers, no_pad, out["groups"], out["point_formats"], legacy_version)
    out["ja4_without_padding"] = fingerprint.ja4(ciphers, no_pad, out["sigalgs"], out["versions"], out["alpn"],
                                                 legacy_version)
    return out

def relay(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

def handle(conn):
    try:
        hdr = read_exact(conn, 5)
        body = read_exact(conn, struct.unpack(">H", hdr[3:5])[0])
        raw = hdr + body
        need = 4 + int.from_bytes(body[1:4], "big")
        while len(body) < need:  # a ClientHello split over records
            h = read_exact(conn, 5)
            more = read_exact(conn, struct.unpack(">H", h[3:5])[0])
            body += more
            raw += h + more
        record = decode(body[:need])
        with lock, open(log_path, "a") as f:
            f.write(json.dumps(record) + "\n")
        if forward_port:
            up = socket.create_connection(("127.0.0.1", forward_port), timeout=10)
            up.settimeout(None)
            up.sendall(raw)
            t = threading.Thread(target=relay, args=(up, conn), daemon=True)
            t.start()
            relay(conn, up)
            t.join(10)
            up.close()
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
