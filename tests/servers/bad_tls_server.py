#!/usr/bin/env python3
"""A scripted, misbehaving TLS 1.3 server (stdlib only, raw sockets).

Usage: bad_tls_server.py --mode MODE [--log FILE]

It reads the ClientHello, parses it minimally (session id, cipher suites,
supported_groups, key_share, extension types) and answers with one protocol
violation picked by MODE:

  bad-cipher      ServerHello choosing a cipher suite the client did not offer
  bad-group       ServerHello whose key_share names a group the client did not
                  offer in supported_groups
  unshared-group  ServerHello whose key_share names a group the client offered
                  but sent no key share for (that needs a HelloRetryRequest)
  bad-extension   ServerHello carrying an extension the client did not offer
  hrr-twice       two HelloRetryRequests in a row
  hrr-shared-group  a HelloRetryRequest for a group the client already sent a
                  key share for
  bad-version     a TLS 1.1 ServerHello (legacy version 0x0302, no
                  supported_versions) to a client that offers 1.2 and 1.3
  bad-key-share   ServerHello whose X25519 key share is all zeros (a
                  low-order point: no shared secret)
  alert           a fatal unrecognized_name alert (112)
  garbage         bytes that are not TLS records
  truncated       the start of a record, then close
  close           close at once, at a record boundary (nothing sent)
  stall           nothing at all (the client's timeout has to end it)

Except for `truncated` and `close`, the connection then stays open until the client
closes it (at most 20 s), so a client that does not notice the violation
hangs rather than seeing EOF.

Prints {"port":N} once it listens on 127.0.0.1; stops when stdin closes
(and after 600 s regardless). With --log, one JSON line per connection is
appended to FILE saying what it saw and sent.
"""
import argparse
import json
import os
import socket
import struct
import sys
import threading

HRR_RANDOM = bytes.fromhex("cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c")
KEY_LEN = {0x001D: 32, 0x0017: 65, 0x0018: 97, 0x0019: 133, 0x001E: 56, 0x11EC: 1120, 0x6399: 1120}
CONN_BOUND = 20.0


def is_grease(v):
    return (v & 0x0F0F) == 0x0A0A and (v >> 8) == (v & 0xFF)


class Closed(Exception):
    pass


def recv_exact(sock, n):
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise Closed("peer closed after %d of %d bytes" % (len(out), n))
        out += chunk
    return out


def read_record(sock):
    hdr = recv_exact(sock, 5)
    ctype, _ver, length = struct.unpack("!BHH", hdr)
    return ctype, recv_exact(sock, length)


def read_handshake(sock):
    """Returns (type, body) of the next handshake message, skipping CCS."""
    buf = b""
    while True:
        if len(buf) >= 4:
            mlen = int.from_bytes(buf[1:4], "big")
            if len(buf) >= 4 + mlen:
                return buf[0], buf[4:4 + mlen]
        ctype, body = read_record(sock)
        if ctype == 20:
            continue
        if ctype != 22:
            raise Closed("record type %d where a handshake was expected" % ctype)
        buf += body


def parse_client_hello(body):
    p = 2 + 32
    sid_len = body[p]
    session_id = body[p + 1:p + 1 + sid_len]
    p += 1 + sid_len
    cs_len = struct.unpack("!H", body[p:p + 2])[0]
    suites = [struct.unpack("!H", body[p + 2 + i:p + 4 + i])[0] for i in range(0, cs_len, 2)]
    p += 2 + cs_len
    p += 1 + body[p]  # compression methods
    ch = {"session_id": session_id, "suites": suites, "groups": [], "shares": [], "versions": [], "exts": []}
    if p + 2 > len(body):
        return ch
    end = p + 2 + struct.unpack("!H", body[p:p + 2])[0]
    p += 2
    while p + 4 <= end:
        et, el = struct.unpack("!HH", body[p:p + 4])
        ed = body[p + 4:p + 4 + el]
        p += 4 + el
        ch["exts"].append(et)
        if et == 0x000A and len(ed) >= 2:
            n = struct.unpack("!H", ed[:2])[0]
            ch["groups"] = [struct.unpack("!H", ed[2 + i:4 + i])[0] for i in range(0, n, 2)]
        elif et == 0x0033 and len(ed) >= 2:
            q = 2
            while q + 4 <= len(ed):
                g, kl = struct.unpack("!HH", ed[q:q + 4])
                ch["shares"].append(g)
                q += 4 + kl
        elif et == 0x002B and len(ed) >= 1:
            ch["versions"] = [struct.unpack("!H", ed[1 + i:3 + i])[0] for i in range(0, ed[0], 2)]
    return ch


def ext(etype, data):
    return struct.pack("!HH", etype, len(data)) + data


def server_hello(ch, suite, extensions, random=None):
    body = struct.pack("!H", 0x0303) + (random or os.urandom(32))
    body += bytes([len(ch["session_id"])]) + ch["session_id"]
    body += struct.pack("!HB", suite, 0)
    exts = b"".join(extensions)
    body += struct.pack("!H", len(exts)) + exts
    msg = bytes([2]) + len(body).to_bytes(3, "big") + body
    return bytes([22]) + struct.pack("!HH", 0x0303, len(msg)) + msg


def key_share(group):
    return ext(0x0033, struct.pack("!HH", group, KEY_LEN.get(group, 32)) + os.urandom(KEY_LEN.get(group, 32)))


SUPPORTED_VERSIONS_13 = ext(0x002B, struct.pack("!H", 0x0304))


def offered_tls13_suite(ch):
    for s in ch["suites"]:
        if 0x1301 <= s <= 0x1305:
            return s
    return 0x1301


def pick(candidates, exclude):
    for c in candidates:
        if c not in exclude:
            return c
    raise ValueError("no candidate left")


def shared_group(ch):
    for g in ch["shares"]:
        if not is_grease(g) and g == 0x001D:
            return g
    for g in ch["shares"]:
        if not is_grease(g):
            return g
    return 0x001D


def drain_until_closed(conn):
    conn.settimeout(CONN_BOUND)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


LOG = None
LOG_LOCK = threading.Lock()


def handle(conn, mode):
    conn.settimeout(CONN_BOUND)
    note = {"mode": mode}
    try:
        htype, body = read_handshake(conn)
        if htype != 1:
            note["error"] = "first handshake message is type %d" % htype
            return
        ch = parse_client_hello(body)
        note["client_suites"] = ["0x%04x" % s for s in ch["suites"] if not is_grease(s)]
        note["client_groups"] = ["0x%04x" % g for g in ch["groups"] if not is_grease(g)]
        note["client_shares"] = ["0x%04x" % g for g in ch["shares"] if not is_grease(g)]
        suite = offered_tls13_suite(ch)
        if mode == "bad-cipher":
            bad = pick([0x1305, 0x1304, 0x00FF, 0x1399], ch["suites"])
            note["sent"] = "ServerHello cipher 0x%04x" % bad
            conn.sendall(server_hello(ch, bad, [SUPPORTED_VERSIONS_13, key_share(shared_group(ch))]))
        elif mode == "bad-group":
            bad = pick([0x001E, 0x0019, 0x0100, 0x0101, 0x0016, 0x001A, 0x0015, 0x0001], ch["groups"])
            note["sent"] = "ServerHello key_share group 0x%04x" % bad
            conn.sendall(server_hello(ch, suite, [SUPPORTED_VERSIONS_13, key_share(bad)]))
        elif mode == "unshared-group":
            g = pick([x for x in (0x0017, 0x0018) if x in ch["groups"]] + [0x0017], ch["shares"])
            note["sent"] = "ServerHello key_share group 0x%04x (offered, not shared)" % g
            conn.sendall(server_hello(ch, suite, [SUPPORTED_VERSIONS_13, key_share(g)]))
        elif mode == "bad-extension":
            bad = pick([0x1234, 0x4321, 0x5678], ch["exts"])
            note["sent"] = "ServerHello with extension 0x%04x" % bad
            conn.sendall(server_hello(ch, suite, [SUPPORTED_VERSIONS_13, key_share(shared_group(ch)),
                                                  ext(bad, b"")]))
        elif mode == "hrr-twice":
            unshared = [g for g in ch["groups"] if g not in ch["shares"] and not is_grease(g)]
            first = unshared[0] if unshared else 0x0017
            hrr = server_hello(ch, suite, [SUPPORTED_VERSIONS_13, ext(0x0033, struct.pack("!H", first))],
                               random=HRR_RANDOM)
            conn.sendall(hrr)
            htype, body = read_handshake(conn)
            ch2 = parse_client_hello(body)
            note["second_client_shares"] = ["0x%04x" % g for g in ch2["shares"] if not is_grease(g)]
            second = pick([g for g in ch2["groups"] if not is_grease(g)], ch["shares"] + ch2["shares"] + [first])
            note["sent"] = "HelloRetryRequest 0x%04x, then HelloRetryRequest 0x%04x" % (first, second)
            conn.sendall(server_hello(ch2, suite, [SUPPORTED_VERSIONS_13, ext(0x0033, struct.pack("!H", second))],
                                      random=HRR_RANDOM))
        elif mode == "hrr-shared-group":
            shared = shared_group(ch)
            note["sent"] = "HelloRetryRequest 0x%04x (already shared)" % shared
            conn.sendall(server_hello(ch, suite, [SUPPORTED_VERSIONS_13, ext(0x0033, struct.pack("!H", shared))],
                                      random=HRR_RANDOM))
        elif mode == "bad-version":
            note["sent"] = "ServerHello TLS 1.1"
            body = struct.pack("!H", 0x0302) + os.urandom(32) + bytes([len(ch["session_id"])]) + ch["session_id"]
            body += struct.pack("!HBH", 0xC013, 0, 0)  # ECDHE-RSA-AES128-SHA, no compression, no extensions
            msg = bytes([2]) + len(body).to_bytes(3, "big") + body
            conn.sendall(bytes([22]) + struct.pack("!HH", 0x0302, len(msg)) + msg)
        elif mode == "bad-key-share":
            note["sent"] = "ServerHello X25519 key share of zeros"
            zeros = ext(0x0033, struct.pack("!HH", 0x001D, 32) + bytes(32))
            conn.sendall(server_hello(ch, suite, [SUPPORTED_VERSIONS_13, zeros]))
        elif mode == "alert":
            note["sent"] = "alert unrecognized_name"
            conn.sendall(bytes([21]) + struct.pack("!HH", 0x0303, 2) + bytes([2, 112]))
        elif mode == "garbage":
            note["sent"] = "garbage"
            conn.sendall(b"this is not TLS at all, just garbage bytes \x00\xff\x7f" * 8)
        elif mode == "truncated":
            note["sent"] = "truncated record, then close"
            full = server_hello(ch, suite, [SUPPORTED_VERSIONS_13, key_share(shared_group(ch))])
            conn.sendall(full[:5 + 20])
            conn.shutdown(socket.SHUT_WR)
            return
        elif mode == "close":
            note["sent"] = "nothing, then close"
            return
        elif mode == "stall":
            note["sent"] = "nothing"
        drain_until_closed(conn)
    except (Closed, OSError, ValueError, IndexError, struct.error) as e:
        note["error"] = "%s: %s" % (type(e).__name__, e)
    finally:
        try:
            conn.close()
        except OSError:
            pass
        if LOG:
            with LOG_LOCK, open(LOG, "a") as f:
                f.write(json.dumps(note) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True,
                    choices=["bad-cipher", "bad-group", "unshared-group", "bad-extension", "hrr-twice",
                             "hrr-shared-group", "bad-version", "bad-key-share", "alert",
                             "garbage", "truncated", "close", "stall"])
    ap.add_argument("--log")
    args = ap.parse_args()
    global LOG
    LOG = args.log
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    print(json.dumps({"port": srv.getsockname()[1], "mode": args.mode}), flush=True)

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except OSError:
            pass
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Timer(600, lambda: os._exit(0)).start()
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=handle, args=(conn, args.mode), daemon=True).start()


if __name__ == "__main__":
    main()
