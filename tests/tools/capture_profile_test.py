#!/usr/bin/env python3
"""Tests tools/capture_profile.py without a browser.

1. --url-only with our own library as the client (ctypes, tlsClientIdentifier
   chrome_133): the profile the tool writes must reproduce chrome_133's
   Akamai string, cipher list and the rest of its ClientHello fields, and
   the request's header order as default_headers.
2. --from-captures: the stored browser captures rebuild exactly the
   profiles/chromium_156.json and profiles/firefox_153.json in the tree.
3. The QUIC capture server: the stored browsers' Initial datagrams
   (tests/data/browsers/*/quic_initial.jsonl), sent to it again over UDP,
   give the same record (ClientHello, JA4 "q", transport parameters, packet
   layout), and its JA4 is fingerprint.py's.
4. The HTTP/3 capture server with Debian's HTTP/3 client (gtlsclient,
   ngtcp2 and nghttp3 on GnuTLS) as the peer: the capture it answers with
   has nghttp3's SETTINGS, the request's header fields in order, the
   transport parameter the client was told to send, and fingerprint.py's
   JA4. The stored browsers' HTTP/3 captures (h3_captures.jsonl) have the
   JA4 of their Initial flights.

Environment: TLS_CLIENT_LIB (the library), TLSC_H2_CAPTURE_SERVER,
TLSC_QUIC_CAPTURE_SERVER and TLSC_H3_CAPTURE_SERVER (the capture servers).
Exits non-zero on failure.
"""
import ctypes
import glob
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = os.path.join(REPO, "tools", "capture_profile.py")
sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, os.path.join(REPO, "profiles", "tools"))
import capture_profile  # noqa: E402
import fingerprint  # noqa: E402

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what, flush=True)
    if not cond:
        failures.append(what)


def akamai(h2):
    ids = {v: k for k, v in capture_profile.H2_SETTING_NAMES.items()}
    settings = ";".join("%d:%d" % (ids[n] if n in ids else int(n, 0), v) for n, v in h2["settings"])
    frames = ",".join("%d:%d:%d:%d" % (f["stream_id"], 1 if f["exclusive"] else 0, f["depends_on"], f["weight"])
                      for f in h2["priority_frames"]) or "0"
    pseudo = ",".join(p[1] for p in h2["pseudo_header_order"])
    return "%s|%d|%s|%s" % (settings, h2["connection_flow"], frames, pseudo)


def library_request(lib_path, url, headers):
    lib = ctypes.cdll.LoadLibrary(lib_path)
    lib.request.argtypes = [ctypes.c_char_p]
    lib.request.restype = ctypes.c_void_p
    lib.freeMemory.argtypes = [ctypes.c_char_p]
    lib.freeMemory.restype = ctypes.c_void_p
    body = {"tlsClientIdentifier": "chrome_133", "requestUrl": url, "requestMethod": "GET", "timeoutSeconds": 15,
            "insecureSkipVerify": True, "headers": dict(headers), "headerOrder": [n for n, _ in headers]}
    ptr = lib.request(json.dumps(body).encode())
    out = json.loads(ctypes.string_at(ptr).decode())
    lib.freeMemory(out["id"].encode())
    return out


def test_url_only(lib_path, server):
    work = tempfile.mkdtemp(prefix="capture-tool-test-")
    try:
        url_only_in(work, lib_path, server)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def url_only_in(work, lib_path, server):
    out, data = os.path.join(work, "captured.json"), os.path.join(work, "data")
    tool = subprocess.Popen([sys.executable, TOOL, "--url-only", "--name", "captured_chrome_133", "--loads", "1",
                             "--timeout", "30", "--out", out, "--data", data, "--server", server],
                            stdout=subprocess.PIPE, text=True)
    line = [None]
    t = threading.Thread(target=lambda: line.__setitem__(0, tool.stdout.readline()), daemon=True)
    t.start()
    t.join(30)
    check(bool(line[0]) and line[0].startswith("https://localhost:"), "--url-only prints the URL first")
    if not line[0]:
        tool.kill()
        return
    headers = [("user-agent", "capture-tool-test"), ("accept", "*/*"), ("accept-language", "de"),
               ("accept-encoding", "gzip, deflate, br")]
    r = library_request(lib_path, line[0].strip(), headers)
    check(r.get("status") == 200, "the library's request through the tool's server: %s" % r.get("status"))
    try:
        rc = tool.wait(60)
    except subprocess.TimeoutExpired:
        tool.kill()
        rc = None
    check(rc == 0, "the tool ends by itself after the capture (rc %s)" % rc)
    if rc != 0:
        return
    with open(out) as f:
        got = json.load(f)
    with open(os.path.join(REPO, "profiles", "chrome_133.json")) as f:
        want = json.load(f)
    check(akamai(got["http2"]) == "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p",
          "Akamai string of the written profile: " + akamai(got["http2"]))
    check(akamai(got["http2"]) == akamai(want["http2"]), "same Akamai string as profiles/chrome_133.json")
    check(got["tls"]["cipher_suites"] == want["tls"]["cipher_suites"], "cipher list as chrome_133's")
    for key in ("supported_groups", "key_share_groups", "signature_algorithms", "versions", "alpn", "alps",
                "cert_compression", "point_formats", "share_x25519_key"):
        check(got["tls"].get(key) == want["tls"].get(key), "tls.%s as chrome_133's" % key)
    check(sorted(got["tls"]["extensions"]) == sorted(want["tls"]["extensions"]), "the same extensions")
    # chrome_133 offers two ECH GREASE suites and picks one per connection.
    check(all(s in want["tls"]["ech_grease"]["cipher_suites"] for s in got["tls"]["ech_grease"]["cipher_suites"]),
          "ECH GREASE suite one of chrome_133's")
    check(got["tls"]["ech_grease"]["payload_lengths"][0] in want["tls"]["ech_grease"]["payload_lengths"],
          "ECH GREASE payload length one of chrome_133's")
    check(got["default_headers"] == [list(h) for h in headers], "default_headers: the request's headers in order")
    with open(os.path.join(data, "captures.jsonl")) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    check(len(lines) == 1 and "client_hello_hex" in lines[0]["tls"], "captures.jsonl: one connection, raw hello")
    if lines:
        check_server_fingerprints(lines[0]["tls"])


def check_server_fingerprints(tls):
    """The capture server's own JA3/JA4 (C++, hello_fingerprint.h) against
    profiles/tools/fingerprint.py on the same raw hello."""
    h = capture_profile.decode_client_hello(tls["client_hello_hex"])
    b = h["bodies"]
    want_ja4 = fingerprint.ja4(h["cipher_suites"], h["extensions"], b.get(13, {}).get("algorithms", []),
                               b.get(43, {}).get("versions", []), b.get(16, {}).get("protocols", []),
                               h["legacy_version"])
    check(tls.get("ja4") == want_ja4, "the server's JA4 %s is fingerprint.py's %s" % (tls.get("ja4"), want_ja4))
    check(tls.get("ja3") == capture_profile.ja3(h), "the server's JA3 is the tool's: %s" % tls.get("ja3"))
    check(tls.get("ja3_hash") == hashlib.md5(tls.get("ja3", "").encode()).hexdigest(), "the server's JA3 hash")


def test_from_captures():
    for name in ("chromium_156", "firefox_153"):
        captures = os.path.join(REPO, "tests", "data", "browsers", name, "captures.jsonl")
        out = subprocess.run([sys.executable, TOOL, "--from-captures", captures, "--name", name, "--out", "-"],
                             capture_output=True, text=True, timeout=60)
        with open(os.path.join(REPO, "profiles", name + ".json")) as f:
            stored = f.read()
        check(out.returncode == 0 and out.stdout == stored,
              "profiles/%s.json is what the tool makes of the stored captures" % name)


def test_quic_replay(server):
    stored = sorted(glob.glob(os.path.join(REPO, "tests", "data", "browsers", "*", "quic_initial.jsonl")))
    check(len(stored) >= 1, "stored QUIC captures: %d" % len(stored))
    for path in stored:
        name = os.path.basename(os.path.dirname(path))
        with open(path) as f:
            records = [json.loads(x) for x in f if x.strip()]
        log = os.path.join(tempfile.mkdtemp(prefix="quic-replay-"), "log.jsonl")
        proc = subprocess.Popen([server, "--log", log], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            port = json.loads(proc.stdout.readline())["port"]
            for rec in records:  # one socket per connection, as the browser had
                with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                    for d in rec["datagrams"]:
                        s.sendto(bytes.fromhex(d["hex"]), ("127.0.0.1", port))
            got = []
            for _ in range(100):  # at most 10 s
                if os.path.exists(log):
                    with open(log) as f:
                        got = [json.loads(x) for x in f if x.strip()]
                if len(got) >= len(records):
                    break
                threading.Event().wait(0.1)
        finally:
            proc.stdin.close()
            proc.wait(10)
        check(len(got) == len(records), "%s: every stored QUIC connection replayed (%d of %d)" %
              (name, len(got), len(records)))
        by_dcid = {r["dcid"]: r for r in got}
        for i, rec in enumerate(records):
            again = by_dcid.get(rec["dcid"], {})
            same = all(again.get(k) == rec.get(k) for k in ("client_hello_hex", "ja4", "ja3", "transport_parameters",
                                                           "datagrams"))
            check(same, "%s connection %d: the replay gives the stored record" % (name, i + 1))
            want = quic_ja4(rec["client_hello_hex"])
            check(rec.get("ja4") == want, "%s connection %d: JA4 %s is fingerprint.py's %s" %
                  (name, i + 1, rec.get("ja4"), want))


def quic_ja4(client_hello_hex):
    h = capture_profile.decode_client_hello(client_hello_hex)
    b = h["bodies"]
    return fingerprint.ja4(h["cipher_suites"], h["extensions"], b.get(13, {}).get("algorithms", []),
                           b.get(43, {}).get("versions", []), b.get(16, {}).get("protocols", []),
                           h["legacy_version"], transport="q")


def test_h3_server(server):
    client = shutil.which("gtlsclient")
    check(client is not None, "Debian's HTTP/3 client gtlsclient (package ngtcp2-client) is installed")
    if not client:
        return
    certs = capture_profile.ensure_certs(os.environ.get("TLSC_TEST_CERTS", "/tmp/tlsc-itest-certs"))
    work = tempfile.mkdtemp(prefix="h3-capture-test-")
    proc = subprocess.Popen([server, os.path.join(certs, "good.pem"), os.path.join(certs, "good.key")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = json.loads(proc.stdout.readline())["port"]
        run = subprocess.run([client, "-q", "--exit-on-all-streams-close", "--timeout=10s", "--download=" + work,
                              "--max-data=1234567", "127.0.0.1", str(port),
                              "https://localhost:%d/capture" % port], capture_output=True, text=True, timeout=30)
        path = os.path.join(work, "capture")
        check(run.returncode == 0 and os.path.exists(path), "gtlsclient fetched /capture over HTTP/3 (rc %d)" %
              run.returncode)
        if not os.path.exists(path):
            print(run.stdout[-2000:], run.stderr[-2000:])
            return
        with open(path) as f:
            cap = json.load(f)
    finally:
        proc.stdin.close()
        proc.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    check([u["type"] for u in cap["uni_streams"]][:1] == [0], "the client's first unidirectional stream is its "
          "control stream")
    settings = [f for f in cap["control_frames"] if f.get("type") == 4]
    ids = [s["id"] for s in settings[0]["settings"]] if settings else []
    check(ids[:3] == [6, 1, 7], "nghttp3's SETTINGS in its order: %s" % ids)
    headers = cap["streams"][0]["headers"] if cap["streams"] else []
    check([n for n, _ in headers][:4] == [":method", ":scheme", ":authority", ":path"] and
          dict(headers).get(":path") == "/capture", "the request's pseudo-header fields in wire order")
    params = {p["id"]: p.get("varint") for p in cap["tls"].get("transport_parameters", [])}
    check(params.get(4) == 1234567, "initial_max_data as the client was told: %s" % params.get(4))
    check(cap["tls"].get("ja4") == quic_ja4(cap["tls"]["client_hello_hex"]),
          "the server's JA4 %s is fingerprint.py's" % cap["tls"].get("ja4"))


def test_stored_h3_captures():
    for path in sorted(glob.glob(os.path.join(REPO, "tests", "data", "browsers", "*", "h3_captures.jsonl"))):
        name = os.path.basename(os.path.dirname(path))
        with open(path) as f:
            records = [json.loads(x) for x in f if x.strip()]
        with open(os.path.join(os.path.dirname(path), "quic_initial.jsonl")) as f:
            initial_ja4 = {json.loads(x)["ja4"] for x in f if x.strip()}
        for i, rec in enumerate(records):
            ja4 = rec["tls"].get("ja4")
            check(ja4 == quic_ja4(rec["tls"]["client_hello_hex"]) and initial_ja4 == {ja4},
                  "%s HTTP/3 load %d: JA4 %s is fingerprint.py's and the Initial flights'" % (name, i + 1, ja4))


def main():
    lib_path = os.environ.get("TLS_CLIENT_LIB")
    server = os.environ.get("TLSC_H2_CAPTURE_SERVER")
    test_from_captures()
    if lib_path and server:
        test_url_only(lib_path, server)
    else:
        check(False, "TLS_CLIENT_LIB and TLSC_H2_CAPTURE_SERVER must be set")
    quic_server = os.environ.get("TLSC_QUIC_CAPTURE_SERVER")
    if quic_server:
        test_quic_replay(quic_server)
    else:
        check(False, "TLSC_QUIC_CAPTURE_SERVER must be set")
    h3_server = os.environ.get("TLSC_H3_CAPTURE_SERVER")
    if h3_server:
        test_h3_server(h3_server)
    else:
        check(False, "TLSC_H3_CAPTURE_SERVER must be set")
    test_stored_h3_captures()
    print("capture_profile_test: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
