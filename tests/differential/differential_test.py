#!/usr/bin/env python3
"""Our library against upstream's own (../shared/reference, built from
upstream's source), the same inputs through request() in one process, as a
binding calls them: plain HTTP (tests/servers/h1_server.js), HTTPS with the
test CA (tests/servers/node_https_server.js), cookies, redirects, encodings,
charsets, failures and bad input. Compares status, body, headers (but Date
and per-connection counters), cookies, target and usedProtocol.

Cases that differ on purpose are listed, with their reason, in
known_differences.json next to this file; a listed case that no longer
differs fails too, so the list stays true. Exits 77 (ctest: skipped) when
the reference library is not there.

Environment: TLS_CLIENT_LIB (ours), TLSC_REFERENCE_LIB (upstream's;
default ../shared/reference/tls-client-upstream-a57772f.so from the
repository root), TLSC_CERT_DIR (the test PKI of tests/servers/make_certs.sh).
"""
import ctypes
import json
import os
import re
import subprocess
import sys
import threading

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(REPO, "packaging"))
import demo  # noqa: E402  (start_child: the test servers' start-up convention)
SKIP = 77

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what, flush=True)
    if not cond:
        failures.append(what)


class Library:
    def __init__(self, path):
        self.lib = ctypes.cdll.LoadLibrary(path)
        self.lib.request.argtypes = [ctypes.c_char_p]
        self.lib.request.restype = ctypes.c_void_p
        self.lib.freeMemory.argtypes = [ctypes.c_char_p]
        self.lib.freeMemory.restype = ctypes.c_void_p

    def request_raw(self, inp):
        """The response JSON's bytes, as the library wrote them."""
        ptr = self.lib.request(json.dumps(inp).encode())
        out = ctypes.string_at(ptr)
        self.lib.freeMemory(json.loads(out.decode())["id"].encode())
        return out

    def request(self, raw, bound=30):
        """The response, or None when the call has not returned after
        `bound` seconds (upstream's library can hang past its own timeout;
        the stuck call is left behind on its thread)."""
        result = []

        def run():
            ptr = self.lib.request(raw if isinstance(raw, bytes) else json.dumps(raw).encode())
            out = json.loads(ctypes.string_at(ptr).decode())
            if isinstance(out.get("id"), str):
                self.lib.freeMemory(out["id"].encode())
            result.append(out)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        t.join(bound)
        return result[0] if result else None


def start(argv):
    started = demo.start_child(argv)
    if started is None:
        raise RuntimeError("server did not start: %s" % argv)
    return started


# Per-run values that are not about the client: the time, Node's serial
# number of the TLS connection, the resolver's address in DNS errors.
VOLATILE_HEADERS = {"Date", "X-Conn"}


def normalized(r):
    if r is None:
        return {"hung": True}
    out = {k: r.get(k) for k in ("status", "body", "target", "usedProtocol")}
    out["headers"] = {k: v for k, v in (r.get("headers") or {}).items() if k not in VOLATILE_HEADERS}
    out["cookies"] = r.get("cookies") or {}
    if isinstance(out["body"], str):
        out["body"] = re.sub(r"lookup (\S+) on [0-9.:\[\]a-f]+: ", r"lookup \1: ", out["body"])
    return out


def base_input():
    return {"requestMethod": "GET", "timeoutSeconds": 10, "tlsClientIdentifier": "chrome_133"}


def cases(h1, https):
    base = base_input()

    def req(name, url, **extra):
        d = dict(base, requestUrl=url)
        d.update(extra)
        return name, d

    headers = {"user-agent": "differential-test", "accept": "*/*", "x-one": "1"}
    order = ["user-agent", "accept", "x-one"]
    out = [
        req("echo-headers", h1 + "/echo", headers=headers, headerOrder=order),
        req("post-body", h1 + "/echo", requestMethod="POST", requestBody="a=1&b=2",
            headers=dict(headers, **{"content-type": "application/x-www-form-urlencoded"}),
            headerOrder=order + ["content-type"]),
        req("status-404", h1 + "/status/404"),
        req("status-204", h1 + "/status/204"),
        req("set-cookie", h1 + "/set-cookie?a=1&b=2", sessionId="diff-cookies"),
        req("cookies-sent", h1 + "/cookies", sessionId="diff-cookies"),
        req("request-cookies", h1 + "/cookies", requestCookies=[{"name": "c", "value": "3"}]),
        req("redirect-not-followed", h1 + "/redirect/2"),
        req("redirect-followed", h1 + "/redirect/3", followRedirects=True),
        req("redirect-307-post", h1 + "/redirect/1?code=307", followRedirects=True, requestMethod="POST",
            requestBody="kept"),
        req("redirect-loop", h1 + "/loop", followRedirects=True),
        req("redirect-cookie", h1 + "/redirect-set-cookie", followRedirects=True, sessionId="diff-hop"),
        req("gzip", h1 + "/gzip"),
        req("deflate-zlib", h1 + "/deflate", timeoutSeconds=3),
        req("br", h1 + "/br"),
        req("zstd", h1 + "/zstd"),
        req("bad-gzip", h1 + "/bad-gzip"),
        req("latin1", h1 + "/latin1"),
        req("shift-jis-meta", h1 + "/shift_jis"),
        req("png-bytes", h1 + "/png", isByteResponse=True),
        req("chunked", h1 + "/chunked"),
        req("every-byte", h1 + "/every-byte"),
        req("connection-refused", "http://127.0.0.1:1/"),
        req("no-such-host-label", "http://" + "a" * 64 + ".example/"),
        req("ftp-scheme", "ftp://127.0.0.1/x"),
        req("no-scheme", "/just/a/path"),
        req("opaque-url", "javascript:alert(1)"),
        req("bad-method", h1 + "/echo", requestMethod="GE T"),
        req("disable-both-families", h1 + "/echo", disableIPV4=True, disableIPV6=True),
        req("racing-without-h3", h1 + "/echo", withProtocolRacing=True, disableHttp3=True),
        req("https-get", https + "/"),
        req("https-post", https + "/", requestMethod="POST", requestBody="hello"),
        req("https-wrong-name", https + "/", serverNameOverwrite="wrong.example"),
        req("https-pins-with-insecure", https + "/", insecureSkipVerify=True,
            certificatePinningHosts={"127.0.0.1": ["AAAA"]}),
        req("https-bad-pin", https + "/", certificatePinningHosts={"127.0.0.1": ["AAAA"]}),
    ]
    raw = [
        ("json-empty", b""),
        ("json-syntax-key", b'{"requestUrl":"http://x/", nope}'),
        ("json-syntax-end", b'{"requestUrl":"http://x/"'),
        ("json-after-top", b'{"requestUrl":"http://x/"} x'),
        ("json-type-top", b"[]"),
        ("json-type-field", b'{"requestUrl":5,"requestMethod":"GET"}'),
        ("json-type-nested", b'{"requestUrl":"http://x/","requestMethod":"GET","requestCookies":[{"name":5}]}'),
        ("json-type-map", b'{"requestUrl":"http://x/","requestMethod":"GET","headers":5}'),
        ("json-null", b"null"),
        ("json-deep", b"[" * 10001),
        ("json-not-utf8", b'{"requestUrl":"http://127.0.0.1:1/\xe9\xff","requestMethod":"GET"}'),
        ("json-lone-surrogate", b'{"requestUrl":"http://127.0.0.1:1/\\ud800x","requestMethod":"GET"}'),
        ("json-number-overflow", b'{"requestUrl":1e400}'),
        ("json-missing-url", b"{}"),
    ]
    return out + raw


def main():
    ours_path = os.environ.get("TLS_CLIENT_LIB") or os.path.join(REPO, "build", "libtls-client.so")
    ref_path = os.environ.get("TLSC_REFERENCE_LIB") or os.path.join(
        REPO, "..", "shared", "reference", "tls-client-upstream-a57772f.so")
    if not os.path.exists(ref_path):
        print("differential_test: no reference library at %s: skipped" % ref_path)
        return SKIP
    cert_dir = os.environ.get("TLSC_CERT_DIR") or "/tmp/tlsc-test-pki"
    subprocess.run(["bash", os.path.join(REPO, "tests", "servers", "make_certs.sh"), cert_dir], check=True, timeout=300,
                   capture_output=True)
    # Both libraries read the trusted roots from here on their first TLS
    # connection (Go's crypto/x509 and our trust store alike).
    os.environ["SSL_CERT_FILE"] = os.path.join(cert_dir, "ca.pem")
    with open(os.path.join(HERE, "known_differences.json")) as f:
        known = {k: v for k, v in json.load(f).items() if not k.startswith("_")}

    h1_proc, h1_ports = start(["node", os.path.join(REPO, "tests", "servers", "h1_server.js")])
    https_proc, https_info = start(["node", os.path.join(REPO, "tests", "servers", "node_https_server.js"),
                                    "--cert", os.path.join(cert_dir, "good.chain.pem"),
                                    "--key", os.path.join(cert_dir, "good.key")])
    try:
        ours, upstream = Library(ours_path), Library(ref_path)
        h1 = "http://127.0.0.1:%d" % h1_ports["http"]
        https = "https://127.0.0.1:%d" % https_info["port"]
        listed = set()
        for name, inp in cases(h1, https):
            a, b = normalized(ours.request(inp)), normalized(upstream.request(inp))
            check("hung" not in a, "%s: our library answered within 30 s" % name)
            same = a == b
            if name in known:
                listed.add(name)
                check(not same, "%s differs, as known_differences.json says (%s)" % (name, known[name]))
                continue
            if not same:
                for k in sorted(set(a) | set(b)):
                    if a.get(k) != b.get(k):
                        print("   %s: ours     %s" % (k, json.dumps(a.get(k))[:400]))
                        print("   %s: upstream %s" % (k, json.dumps(b.get(k))[:400]))
            check(same, "%s: the same answer as upstream (status %s)" % (name, a["status"]))
        # Parsed JSON hides how a string was escaped; a binding may read the
        # bytes. Go's encoder: \b and \f short, '<' '>' '&' and U+2028/9 as
        # \u escapes, DEL as it is.
        every = dict(base_input(), requestUrl=h1 + "/every-byte")
        body_field = re.compile(rb'"body":("(?:[^"\\]|\\.)*")')
        a = body_field.search(ours.request_raw(every)).group(1)
        b = body_field.search(upstream.request_raw(every)).group(1)
        if a != b:
            print("   ours     %r" % a[:400])
            print("   upstream %r" % b[:400])
        check(a == b, "every-byte: the body's JSON string is upstream's byte for byte")
        check(listed == set(known), "every known difference is a case here: %s" % sorted(set(known) - listed))
    finally:
        for p in (h1_proc, https_proc):
            p.stdin.close()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
    print("differential_test: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    # os._exit: a call left stuck in upstream's Go runtime must not hold
    # the interpreter's exit.
    code = main()
    sys.stdout.flush()
    os._exit(code)
