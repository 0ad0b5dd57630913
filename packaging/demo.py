#!/usr/bin/env python3
"""The main job's second half: what a fingerprinting server sees of the
library's requests, profile by profile.

Makes a throw-away CA and a certificate for localhost, starts the capture
server (build/tools/h2_capture_server: TLS on our BoringSSL, HTTP/2 through
nghttp2, answering each request with what it saw), and requests it once
per profile with the command-line client (build/tls-client-cpp, which uses
only the library's public ABI), verifying the certificate against that CA.
For each profile it prints the protocol, JA4, the Akamai HTTP/2 string and
the header order the server saw, each against what it should be:
  - JA4 and Akamai: profiles/expected/<profile>.json (computed from
    upstream's Go literals, apart from the profile files the library
    reads); for chromium_156, the real Chromium 156 captured on this
    machine (tests/data/browsers/chromium_156);
  - header order: the profile's pseudo-header order, then the headers in
    the order the request asked for (a browser's own set and order).
Exits 0 when every profile matches, 1 otherwise.

  packaging/demo.py BUILD_DIR
  TLSC_DEMO_CLIENT="wine64 build-win64/tls-client-cpp.exe" packaging/demo.py BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import threading

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, os.path.join(REPO, "profiles", "tools"))
import capture_profile  # noqa: E402
import fingerprint  # noqa: E402

CHROME_146 = [
    ("sec-ch-ua", '"Chromium";v="146", "Not-A.Brand";v="24", "Google Chrome";v="146"'),
    ("sec-ch-ua-mobile", "?0"),
    ("sec-ch-ua-platform", '"Windows"'),
    ("upgrade-insecure-requests", "1"),
    ("user-agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                   "Chrome/146.0.0.0 Safari/537.36"),
    ("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
               "application/signed-exchange;v=b3;q=0.7"),
    ("sec-fetch-site", "none"),
    ("sec-fetch-mode", "navigate"),
    ("sec-fetch-user", "?1"),
    ("sec-fetch-dest", "document"),
    ("accept-encoding", "gzip, deflate, br, zstd"),
    ("accept-language", "en-US,en;q=0.9"),
    ("priority", "u=0, i"),
]
FIREFOX_147 = [
    ("user-agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:147.0) Gecko/20100101 Firefox/147.0"),
    ("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
    ("accept-language", "en-US,en;q=0.9"),
    ("accept-encoding", "gzip, deflate, br, zstd"),
    ("upgrade-insecure-requests", "1"),
    ("sec-fetch-dest", "document"),
    ("sec-fetch-mode", "navigate"),
    ("sec-fetch-site", "none"),
    ("sec-fetch-user", "?1"),
    ("priority", "u=0, i"),
    ("te", "trailers"),
]
SAFARI_IOS_18 = [
    ("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
    ("sec-fetch-site", "none"),
    ("accept-encoding", "gzip, deflate, br"),
    ("sec-fetch-mode", "navigate"),
    ("user-agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                   "Version/18.0 Mobile/15E148 Safari/604.1"),
    ("accept-language", "en-US,en;q=0.9"),
    ("sec-fetch-dest", "document"),
    ("priority", "u=0, i"),
]


def load(*parts):
    with open(os.path.join(REPO, *parts)) as f:
        return json.load(f)


def real_chromium_156():
    """JA4 and Akamai of the real Chromium 156 captured here."""
    base = os.path.join(REPO, "tests", "data", "browsers", "chromium_156")
    with open(os.path.join(base, "captures.jsonl")) as f:
        first = json.loads(f.readline())
    h = capture_profile.decode_client_hello(first["tls"]["client_hello_hex"])
    b = h["bodies"]
    ja4 = fingerprint.ja4(h["cipher_suites"], h["extensions"], b.get(13, {}).get("algorithms", []),
                          b.get(43, {}).get("versions", []), b.get(16, {}).get("protocols", []), h["legacy_version"])
    return ja4, load("tests", "data", "browsers", "chromium_156", "summary.json")["akamai"]


def cases():
    out = []
    for name, headers in (("chrome_146", CHROME_146), ("firefox_147", FIREFOX_147),
                          ("safari_ios_18_0", SAFARI_IOS_18)):
        exp = load("profiles", "expected", name + ".json")
        out.append((name, headers, exp["ja4"], exp["http2"]["akamai"], "profiles/expected/%s.json" % name))
    ja4, akamai = real_chromium_156()
    out.append(("chromium_156", [tuple(h) for h in load("profiles", "chromium_156.json")["default_headers"]], ja4,
                akamai, "real Chromium 156, tests/data/browsers/chromium_156"))
    return out


def make_ca(d):
    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
        os.path.join(d, "ca.key"), "-out", os.path.join(d, "ca.pem"), "-days", "2", "-subj", "/CN=tls-client-cpp demo CA",
        "-addext", "basicConstraints=critical,CA:true", "-addext", "keyUsage=critical,keyCertSign")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
        os.path.join(d, "leaf.key"), "-out", os.path.join(d, "leaf.csr"), "-subj", "/CN=localhost")
    with open(os.path.join(d, "leaf.ext"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", os.path.join(d, "leaf.csr"), "-CA", os.path.join(d, "ca.pem"), "-CAkey",
        os.path.join(d, "ca.key"), "-CAcreateserial", "-out", os.path.join(d, "leaf.pem"), "-days", "2",
        "-extfile", os.path.join(d, "leaf.ext"))


def start_child(argv, bound=20):
    """A server that prints one JSON line once it listens and runs until its
    stdin closes (the test servers' convention): (process, that JSON), or
    None if nothing came within `bound` seconds."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = [None]
    t = threading.Thread(target=lambda: line.__setitem__(0, proc.stdout.readline()), daemon=True)
    t.start()
    t.join(bound)
    if not line[0]:
        proc.kill()
        return None
    return proc, json.loads(line[0])


def start_server(build, d):
    started = start_child([os.path.join(build, "tools", "h2_capture_server"), os.path.join(d, "leaf.pem"),
                           os.path.join(d, "leaf.key")])
    if started is None:
        sys.exit("demo: the capture server did not start")
    return started[0], started[1]["port"]


def request(build, url, profile, headers, ca):
    # TLSC_DEMO_CLIENT: another build's client in its runner (tests/run_all.sh:
    # the Windows build's under wine), against this build's server.
    client = os.environ.get("TLSC_DEMO_CLIENT", "").split() or [os.path.join(build, "tls-client-cpp")]
    cmd = client + ["get", url, "--profile", profile, "--http2", "--fingerprint", "--json"]
    for n, v in headers:
        cmd += ["--header", "%s: %s" % (n, v)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=dict(os.environ, SSL_CERT_FILE=ca))
    if r.returncode != 0:
        return None, (r.stderr or r.stdout).strip()
    return json.loads(r.stdout), None


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build"))
    ok_all = True
    with tempfile.TemporaryDirectory(prefix="tls-client-cpp-demo-") as d:
        make_ca(d)
        server, port = start_server(build, d)
        try:
            print("capture server: https://localhost:%d/ (certificate from a throw-away CA, verified)\n" % port)
            for name, headers, want_ja4, want_akamai, source in cases():
                profile = load("profiles", name + ".json")
                url = "https://localhost:%d/%s" % (port, name)
                cap, err = request(build, url, name, headers, os.path.join(d, "ca.pem"))
                print("%s  (expected: %s)" % (name, source))
                if cap is None:
                    print("  request failed: %s\n" % err)
                    ok_all = False
                    continue
                stream = next((s for s in cap["streams"] if s["stream_id"] == cap["stream_id"]), {"headers": []})
                seen = [h[0] for h in stream["headers"]]
                want_order = profile["http2"]["pseudo_header_order"] + [n for n, _ in headers]
                rows = [("protocol", cap["protocol"], cap["protocol"] == "h2", "h2"),
                        ("JA4", cap["tls"]["ja4"], cap["tls"]["ja4"] == want_ja4, want_ja4),
                        ("Akamai", cap["akamai"], cap["akamai"] == want_akamai, want_akamai),
                        ("header order", ",".join(seen), seen == want_order, ",".join(want_order))]
                for label, got, ok, want in rows:
                    print("  %-13s %-5s %s" % (label, "ok" if ok else "DIFF", got))
                    if not ok:
                        print("  %-13s       %s (expected)" % ("", want))
                        ok_all = False
                print()
        finally:
            server.stdin.close()
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:
                server.kill()
    print("every profile as expected" if ok_all else "DIFFERENCES FOUND")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
