#!/usr/bin/env python3
"""The Windows build verifies against the system's ROOT store when
SSL_CERT_FILE is not set, as Go does on Windows (under wine64, whose ROOT
store is the prefix's).

With a throw-away CA (packaging/demo.py's) and this machine's capture
server, through the Windows command-line client (no SSL_CERT_FILE):
  1. before the CA is in the ROOT store: the request fails, with upstream's
     "certificate signed by unknown authority";
  2. after root_store_tool.exe adds it: the request succeeds.
Then it removes the CA again.

  tests/windows/root_store_test.py HOST_BUILD WINDOWS_BUILD
Environment: TLSC_WINE, the command that runs a Windows program
(default: wine64 with WINEDEBUG=-all).
"""
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "packaging"))
import demo  # noqa: E402


def main():
    host, win = (os.path.abspath(a) for a in sys.argv[1:3])
    wine = os.environ.get("TLSC_WINE", "env WINEDEBUG=-all /usr/lib/wine/wine64").split()
    env = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    failures = []

    def request(url):
        r = subprocess.run(wine + [os.path.join(win, "tls-client-cpp.exe"), "get", url, "--json"],
                           capture_output=True, text=True, timeout=120, env=env)
        try:
            return json.loads(r.stdout)
        except ValueError:
            return {"status": 0, "body": (r.stdout + r.stderr).strip()[-300:]}

    def tool(action, der):
        r = subprocess.run(wine + [os.path.join(win, "tests", "root_store_tool.exe"), action, der],
                           capture_output=True, text=True, timeout=120, env=env)
        if r.returncode != 0:
            failures.append("root_store_tool %s: %s" % (action, r.stderr.strip()))

    def expect(label, resp, ok):
        good = resp.get("status") == 200 if ok else (
            resp.get("status") == 0 and "certificate signed by unknown authority" in resp.get("body", ""))
        print("%-4s %s: status %s %s" % ("ok" if good else "FAIL", label, resp.get("status"),
                                         "" if resp.get("status") == 200 else resp.get("body", "")[:160]))
        if not good:
            failures.append(label)

    with tempfile.TemporaryDirectory(prefix="tlsc-root-store-") as d:
        demo.make_ca(d)
        der = os.path.join(d, "ca.der")
        subprocess.run(["openssl", "x509", "-in", os.path.join(d, "ca.pem"), "-outform", "DER", "-out", der],
                       check=True, capture_output=True, timeout=60)
        server, port = demo.start_server(host, d)
        url = "https://localhost:%d/root-store" % port
        try:
            expect("the CA not in the ROOT store: unknown authority", request(url), False)
            tool("add", der)
            expect("the CA in the ROOT store: verified", request(url), True)
            # Leaves the prefix as found (each run makes a new CA, so step 1
            # holds whatever earlier runs left).
            tool("remove", der)
        finally:
            server.stdin.close()
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:
                server.kill()
    print("root store: %s" % ("ok" if not failures else "FAILED: " + "; ".join(failures)))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
