#!/usr/bin/env python3
"""The command-line client (tools/cli) and the demo (packaging/demo.py)
against the capture server, as a user runs them.

Environment: TLSC_BUILD_DIR (the build folder holding tls-client-cpp and
tools/h2_capture_server). Exits non-zero on failure.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "packaging"))
import demo  # noqa: E402

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what, flush=True)
    if not cond:
        failures.append(what)


def cli(build, *args, env=None):
    return subprocess.run([os.path.join(build, "tls-client-cpp"), *args], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, **(env or {})))


def rows(out):
    """'label   value' lines of the fingerprint table as a dict."""
    table = {}
    for line in out.splitlines():
        label, value = line[:14].strip(), line[15:]
        table[label] = value
    return table


def main():
    build = os.environ.get("TLSC_BUILD_DIR") or os.path.join(REPO, "build")
    names = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(REPO, "profiles", "*.json")))

    r = cli(build, "version")
    check(r.returncode == 0 and r.stdout.startswith("tls-client-cpp 0.") and "following tls-client v" in r.stdout,
          "version: " + r.stdout.splitlines()[0] if r.stdout else "version")
    r = cli(build, "profiles", env={"TLS_CLIENT_PROFILES_DIR": ""})
    listed = [line.split()[0] for line in r.stdout.splitlines()[1:-1]]
    check(r.returncode == 0 and listed == names, "profiles lists every profiles/*.json (%d)" % len(listed))
    check(any(line.split()[:3] == ["safari_ios_18_0", "safari_ios", "18.0"] for line in r.stdout.splitlines()),
          "profiles: safari_ios_18_0 is safari_ios 18.0")
    r = cli(build, "get")
    check(r.returncode == 2 and "needs a URL" in r.stderr, "get without a URL: usage error (2)")
    r = cli(build, "get", "https://localhost:1/", "--bogus")
    check(r.returncode == 2 and "unknown option --bogus" in r.stderr, "an unknown option: usage error (2)")
    r = cli(build, "get", "https://localhost:1/")
    check(r.returncode == 1 and "connection refused" in r.stderr and "errorCode connect" in r.stderr,
          "a failed request: exit 1 with the library's text and errorCode: " + r.stderr.strip())

    with tempfile.TemporaryDirectory(prefix="cli-test-") as d:
        demo.make_ca(d)
        server, port = demo.start_server(build, d)
        url = "https://localhost:%d/" % port
        ca = {"SSL_CERT_FILE": os.path.join(d, "ca.pem")}
        try:
            expected = json.load(open(os.path.join(REPO, "profiles", "expected", "firefox_147.json")))
            r = cli(build, "get", url, "--profile", "firefox_147", "--fingerprint", "--insecure",
                    "--header", "User-Agent: cli-test", "--header", "X-Second: 2", "--header", "accept: */*")
            t = rows(r.stdout)
            check(r.returncode == 0, "get --fingerprint --insecure: exit 0 (%s)" % r.stderr.strip())
            check(t.get("JA4") == expected["ja4"], "firefox_147's JA4 as expected: %s" % t.get("JA4"))
            check(t.get("Akamai") == expected["http2"]["akamai"], "firefox_147's Akamai string: %s" % t.get("Akamai"))
            check(t.get("protocol") == "h2", "protocol h2")
            check(t.get("header order", "").startswith(":method, :path, :authority, :scheme, user-agent, x-second, accept"),
                  "headers in the order given: %s" % t.get("header order"))
            r = cli(build, "get", url, "--profile", "firefox_147")
            check(r.returncode == 1 and "certificate" in r.stderr, "the throw-away CA is not trusted by default: " +
                  r.stderr.strip())
            r = cli(build, "get", url + "page", "--profile", "chrome_146", env=ca)
            lines = r.stdout.splitlines()
            check(r.returncode == 0 and lines[:1] == ["HTTP/2.0 200"], "get prints the status line as curl -i")
            check("Content-Type: application/json" in lines, "then the headers")
            body = r.stdout.split("\n\n", 1)[1] if "\n\n" in r.stdout else ""
            check(json.loads(body).get("protocol") == "h2", "then the body")
            r = cli(build, "get", url, "--json", env=ca)
            j = json.loads(r.stdout)
            check(r.returncode == 0 and j["status"] == 200 and j["usedProtocol"] == "HTTP/2.0",
                  "--json prints the library's response")
            r = cli(build, "get", url, "--http1", "--fingerprint", env=ca)
            check(r.returncode == 0 and rows(r.stdout).get("protocol") == "http/1.1", "--http1 speaks HTTP/1.1")
            r = cli(build, "get", url, "--http1", "--http2", env=ca)
            check(r.returncode == 1 and "not HTTP/2" in r.stderr, "--http2 fails when the answer is not HTTP/2")
            r = cli(build, "get", url, "--http3", env=ca)
            check(r.returncode == 1 and "not HTTP/3" in r.stderr,
                  "--http3 fails when the answer is not HTTP/3 (a server on TCP alone): " + r.stderr.strip())
            r = cli(build, "get", url, "--profile", "no_such_browser", env=ca)
            check(r.returncode == 0 and "no profile named no_such_browser" in r.stderr,
                  "an unknown profile is named on stderr (and the default used, as upstream)")
        finally:
            server.stdin.close()
            server.wait(10)
        h3_server = os.path.join(build, "tools", "h3_capture_server")
        started = demo.start_child([h3_server, os.path.join(d, "leaf.pem"), os.path.join(d, "leaf.key")]) \
            if os.path.exists(h3_server) else None
        if started is None:
            print("skip  --http3 against the HTTP/3 capture server (a build without HTTP/3)")
        else:
            server, port = started[0], started[1]["port"]
            try:
                real = json.loads(open(os.path.join(REPO, "tests", "data", "browsers", "chromium_156",
                                                    "h3_captures.jsonl")).readline())
                r = cli(build, "get", "https://localhost:%d/" % port, "--profile", "chromium_156", "--http3",
                        "--fingerprint", env=ca)
                t = rows(r.stdout)
                check(r.returncode == 0, "get --http3 --fingerprint: exit 0 (%s)" % r.stderr.strip())
                check(t.get("JA4") == real["tls"]["ja4"], "chromium_156's QUIC JA4 as the real one: %s" % t.get("JA4"))
                check("GREASE" in t.get("QUIC params", ""), "its transport parameters: %s" % t.get("QUIC params"))
                check(t.get("header order", "").startswith(":method, :authority, :scheme, :path"),
                      "its pseudo-header order: %s" % t.get("header order"))
            finally:
                server.stdin.close()
                server.wait(10)

    r = subprocess.run([sys.executable, os.path.join(REPO, "packaging", "demo.py"), build], capture_output=True,
                       text=True, timeout=120)
    check(r.returncode == 0 and "every profile as expected" in r.stdout, "the demo's table: every profile as expected")
    check(r.stdout.count(" ok ") >= 16, "the demo shows four rows for each of four profiles")
    if r.returncode != 0:
        print(r.stdout, r.stderr)
    print("cli_test: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
