#!/usr/bin/env python3
"""HTTP/3 through the Windows build (under wine64) looks as it does through
the Linux build: against this machine's HTTP/3 capture server
(build/tools/h3_capture_server), each captured browser's profile is
requested with withProtocolRacing by both command-line clients (the Windows
one under wine), and the capture's QUIC ClientHello JA4 ("q"), transport
parameter set, control stream (SETTINGS without GREASE values) and header
order must be the same. Then a request to a port nothing listens on (UDP
and TCP) fails quickly on both, with a refusal's words.

  tests/windows/h3_test.py HOST_BUILD WINDOWS_BUILD
Environment: TLSC_WINE, the command that runs a Windows program
(default: wine64 with WINEDEBUG=-all).
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "packaging"))
import demo  # noqa: E402

PROFILES = ["chromium_156", "firefox_153", "chrome_144"]


def shape(capture):
    """What must match: everything the client decides that is not random."""
    tls = capture["tls"]
    params = sorted("GREASE" if p["grease"] else str(p["id"]) for p in tls.get("transport_parameters", []))
    control = []
    for f in capture["control_frames"]:
        if "settings" in f:
            control.append(["GREASE" if s["grease"] else "%d=%d" % (s["id"], s["value"]) for s in f["settings"]])
        elif f.get("grease"):
            control.append("GREASE frame")
        else:
            control.append(f.get("priority", f.get("type")))
    headers = [h[0] for h in capture["streams"][-1]["headers"]]
    return {"ja4": tls["ja4"], "transport parameters": params, "control stream": control, "header order": headers}


def closed_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    host, win = (os.path.abspath(a) for a in sys.argv[1:3])
    wine = os.environ.get("TLSC_WINE", "env WINEDEBUG=-all /usr/lib/wine/wine64").split()
    clients = {"linux": [os.path.join(host, "tls-client-cpp")],
               "windows": wine + [os.path.join(win, "tls-client-cpp.exe")]}
    failures = []
    with tempfile.TemporaryDirectory(prefix="tls-client-cpp-h3-") as d:
        demo.make_ca(d)
        started = demo.start_child([os.path.join(host, "tools", "h3_capture_server"), os.path.join(d, "leaf.pem"),
                                    os.path.join(d, "leaf.key")])
        if started is None:
            sys.exit("h3_test: the HTTP/3 capture server did not start")
        server, port = started[0], started[1]["port"]
        env = dict(os.environ, SSL_CERT_FILE=os.path.join(d, "ca.pem"))
        try:
            for profile in PROFILES:
                seen = {}
                for name, client in clients.items():
                    url = "https://localhost:%d/%s-%s" % (port, profile, name)
                    r = subprocess.run(client + ["get", url, "--profile", profile, "--http3", "--fingerprint", "--json"],
                                       capture_output=True, text=True, timeout=120, env=env)
                    if r.returncode != 0:
                        failures.append("%s via %s: %s" % (profile, name, (r.stderr or r.stdout).strip()[-300:]))
                        continue
                    seen[name] = shape(json.loads(r.stdout))
                if len(seen) == 2:
                    for key, value in seen["linux"].items():
                        ok = seen["windows"][key] == value
                        print("%-14s %-22s %s %s" % (profile, key, "same" if ok else "DIFFERS:", "" if ok else
                                                     "linux %s, windows %s" % (value, seen["windows"][key])))
                        if not ok:
                            failures.append("%s: %s differs" % (profile, key))
            # Nothing on either protocol: both legs fail at once (ICMP
            # port unreachable ends QUIC; TCP is refused), not at a timeout.
            port_closed = closed_port()
            for name, client in clients.items():
                start = time.monotonic()
                r = subprocess.run(client + ["get", "https://127.0.0.1:%d/" % port_closed, "--http3", "--json",
                                             "--profile", "chromium_156"],
                                   capture_output=True, text=True, timeout=120, env=env)
                took = time.monotonic() - start
                try:
                    answer = json.loads(r.stdout)
                except ValueError:
                    answer = {"status": None, "body": (r.stdout + r.stderr).strip()[-300:]}
                print("closed port via %-8s %.1f s: %s (errorCode %s)" % (name, took, answer.get("body"),
                                                                         answer.get("errorCode")))
                # Linux hears the refusal on QUIC's first read, so TCP's
                # refusal comes last and is the answer. Wine reports it on
                # the next send instead (real Windows: WSAECONNRESET on the
                # read, udp_win.cc), after TCP's: HTTP/3's words then.
                refused = "refused" in str(answer.get("body", "")).lower()
                strict = name == "linux"
                if answer.get("status") != 0 or not refused or took > 20 or \
                        (strict and answer.get("errorCode") != "connect"):
                    failures.append("closed port via %s: %s" % (name, answer))
        finally:
            server.stdin.close()
            server.wait(timeout=10)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
