#!/usr/bin/env python3
"""Captures a browser (or any client) into a profile file.

Starts the capture server (tests/servers/h2_capture_server.cc, ALPS on),
points a client at it, collects what the client sent on each connection
(the raw ClientHello, the HTTP/2 frames, the first request's headers) and
writes:
  - a profile file following profiles/SCHEMA.md (tls, http2, default_headers,
    websocket)
  - the raw captures as test data (one JSON line per connection), and the
    head of the browser's WebSocket upgrade (websocket_upgrade.txt: a page
    on a plain-HTTP server of this script opens `new WebSocket(...)`; its
    Sec-WebSocket-Extensions becomes the profile's websocket.extensions).

Clients:
  --browser chromium   Chromium, headless, fresh user-data-dir and HOME whose
                       NSS database trusts the test CA; one launch per page
                       load (each launch is a new connection, so Chrome's
                       extension permutation shows across loads).
  --browser firefox    Firefox ESR, headless, fresh profile trusting the test
                       CA, background traffic off (user.js); one launch per load.
  --url-only           Prints the URL (first line of stdout) and waits for
                       --loads connections from any client.

With --quic, the browser speaks QUIC to the QUIC capture server instead
(tests/servers/quic_capture_server.cc, which decrypts the client's Initial
packets and never answers): Chromium with --origin-to-force-quic-on, Firefox
with its HTTP/3 prefs and an Alt-Svc mapping for testing. It writes the
Initial flight of each connection (datagram and packet layout,
connection-ID lengths, the QUIC ClientHello and its JA4, the transport
parameters in order) to quic_initial.jsonl in the data directory. Then
up to 3 page loads over HTTP/3 from the HTTP/3 capture server
(tests/servers/h3_capture_server.cc), whose records (stream types,
control-stream frames with SETTINGS in order, each request's frames and
header fields) go to h3_captures.jsonl. The profile file is left alone.

Every wait is bounded (--timeout per load); browsers run in their own
process group, which is killed afterwards.

  tools/capture_profile.py --browser chromium --name chromium_156 \
      --out profiles/chromium_156.json --data tests/data/browsers/chromium_156

Python 3 standard library only.
"""
import argparse
import glob
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

H2_SETTING_NAMES = {
    1: "HEADER_TABLE_SIZE", 2: "ENABLE_PUSH", 3: "MAX_CONCURRENT_STREAMS", 4: "INITIAL_WINDOW_SIZE",
    5: "MAX_FRAME_SIZE", 6: "MAX_HEADER_LIST_SIZE", 7: "UNKNOWN_SETTING_7", 8: "UNKNOWN_SETTING_8",
    9: "UNKNOWN_SETTING_9",
}


def log(*a):
    print("capture_profile:", *a, file=sys.stderr, flush=True)


def is_grease(v):
    return (v & 0x0F0F) == 0x0A0A and (v >> 8) == (v & 0xFF)


def cp(v):
    """A code point as the schema writes it."""
    return "GREASE" if is_grease(v) else "0x%04x" % v


# --- ClientHello decoding ---------------------------------------------------

class Reader:
    def __init__(self, b):
        self.b, self.p = b, 0

    def take(self, n):
        if self.p + n > len(self.b):
            raise ValueError("truncated")
        out = self.b[self.p:self.p + n]
        self.p += n
        return out

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack(">H", self.take(2))[0]

    def vec(self, lenbytes):
        n = self.u8() if lenbytes == 1 else self.u16()
        return self.take(n)

    def done(self):
        return self.p >= len(self.b)


def u16s(b):
    return [struct.unpack(">H", b[i:i + 2])[0] for i in range(0, len(b) - 1, 2)]


def names_list(body):
    r = Reader(body)
    inner = Reader(r.vec(2))
    out = []
    while not inner.done():
        out.append(inner.vec(1).decode("latin-1"))
    return out


def decode_client_hello(hexstr):
    """Every field of a ClientHello (body, or handshake message) as a dict."""
    b = bytes.fromhex(hexstr)
    if b[0] == 1 and int.from_bytes(b[1:4], "big") == len(b) - 4:
        b = b[4:]
    r = Reader(b)
    out = {"legacy_version": r.u16()}
    r.take(32)
    out["session_id_length"] = len(r.vec(1))
    out["cipher_suites"] = u16s(r.vec(2))
    out["compression_methods"] = list(r.vec(1))
    exts = []
    er = Reader(r.vec(2)) if not r.done() else Reader(b"")
    while not er.done():
        t = er.u16()
        exts.append((t, er.vec(2)))
    out["extensions"] = [t for t, _ in exts]
    out["bodies"] = {}
    for t, body in exts:
        key = "GREASE" if is_grease(t) else t
        d = {"length": len(body)}
        try:
            br = Reader(body)
            if t == 0:
                lr = Reader(br.vec(2))
                lr.u8()
                d["host"] = lr.vec(2).decode("latin-1")
            elif t == 5:
                d["hex"] = body.hex()
            elif t == 10:
                d["groups"] = u16s(br.vec(2))
            elif t == 11:
                d["formats"] = list(br.vec(1))
            elif t in (13, 34):  # signature_algorithms, delegated_credentials
                d["algorithms"] = u16s(br.vec(2))
            elif t in (16, 17513, 17613):  # ALPN, ALPS (both code points)
                d["protocols"] = names_list(body)
            elif t == 21:
                d["zeros"] = body == bytes(len(body))
            elif t == 27:
                d["algorithms"] = u16s(br.vec(1))
            elif t == 28:
                d["limit"] = br.u16()
            elif t == 43:
                d["versions"] = u16s(br.vec(1))
            elif t == 45:
                d["modes"] = list(br.vec(1))
            elif t == 51:
                kr = Reader(br.vec(2))
                shares = []
                while not kr.done():
                    g = kr.u16()
                    shares.append((g, kr.vec(2)))
                d["shares"] = [[g, len(k)] for g, k in shares]
                keys = {g: k for g, k in shares}
                x = keys.get(0x001D)
                d["x25519_hex"] = x.hex() if x else None
                for hybrid in (0x11EC, 0x6399):
                    h = keys.get(hybrid)
                    if h is None:
                        continue
                    # X25519MLKEM768: ML-KEM first, X25519 last; Kyber draft: X25519 first.
                    part = h[-32:] if hybrid == 0x11EC else h[:32]
                    d["hybrid_x25519_hex"] = part.hex()
                    d["same_x25519_key"] = x is not None and part == x
            elif t == 65037:
                d["type"] = br.u8()
                if d["type"] == 0:
                    d["kdf"] = br.u16()
                    d["aead"] = br.u16()
                    br.u8()  # config_id (random)
                    d["enc_length"] = len(br.vec(2))
                    d["payload_length"] = len(br.vec(2))
            elif t == 65281:
                d["hex"] = body.hex()
            elif t in (18, 23, 35, 13172, 42, 41, 44, 17, 49):
                d["hex"] = body.hex() if t not in (35, 41) else None
            else:
                d["hex"] = body.hex()
        except (ValueError, IndexError, UnicodeDecodeError) as e:
            d["error"] = str(e)
            d["hex"] = body.hex()
        out["bodies"].setdefault(key, d)
    return out


def ja3(hello, sort_extensions=False):
    """JA3 with GREASE removed (extensions sorted for permuting clients)."""
    ciphers = [c for c in hello["cipher_suites"] if not is_grease(c)]
    exts = [e for e in hello["extensions"] if not is_grease(e)]
    if sort_extensions:
        exts = sorted(exts)
    b = hello["bodies"]
    groups = [g for g in b.get(10, {}).get("groups", []) if not is_grease(g)]
    fmts = b.get(11, {}).get("formats", [])
    return "%d,%s,%s,%s,%s" % (hello["legacy_version"], "-".join(map(str, ciphers)), "-".join(map(str, exts)),
                               "-".join(map(str, groups)), "-".join(map(str, fmts)))


# --- capture server ---------------------------------------------------------

def find_server(explicit):
    if explicit:
        return explicit
    cands = sorted(glob.glob(os.path.join(REPO, "build*", "tools", "h2_capture_server")), key=os.path.getmtime)
    if not cands:
        sys.exit("capture_profile: no h2_capture_server found; build it (ninja h2_capture_server) or pass --server")
    return cands[-1]


def ensure_certs(d):
    if not os.path.exists(os.path.join(d, "done")):
        subprocess.run([os.path.join(REPO, "tests", "servers", "make_certs.sh"), d], check=True, timeout=120)
    return d


class Server:
    def __init__(self, binary, certs, log_path):
        self.proc = subprocess.Popen([binary, os.path.join(certs, "good.pem"), os.path.join(certs, "good.key"),
                                      "--log", log_path, "--alps", "1"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = [None]
        t = threading.Thread(target=lambda: line.__setitem__(0, self.proc.stdout.readline()), daemon=True)
        t.start()
        t.join(15)
        if not line[0]:
            self.stop()
            sys.exit("capture_profile: the capture server did not start")
        self.port = json.loads(line[0])["port"]
        self.log_path = log_path

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def read_connections(log_path):
    """The captures, one per connection (the last, most complete line of each),
    in the order the connections first answered; connections without a request
    are never logged by the server."""
    conns = {}
    order = []
    if not os.path.exists(log_path):
        return []
    with open(log_path) as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            key = rec.get("tls", {}).get("client_hello_hex")
            if not key:
                continue
            if key not in conns:
                order.append(key)
            conns[key] = rec
    return [conns[k] for k in order]


def first_path(conn):
    streams = conn.get("streams") or []
    if streams:
        for name, value in streams[0]["headers"]:
            if name == ":path":
                return value
    lines = conn.get("h1_lines") or []
    return lines[0].split(" ")[1] if lines and lines[0].count(" ") >= 2 else None


def wait_for(log_path, done, deadline):
    """Polls the log until done(connections) holds or the deadline passes."""
    while time.monotonic() < deadline:
        if done(read_connections(log_path)):
            return True
        time.sleep(0.2)
    return False


# --- browsers ---------------------------------------------------------------

def nss_db(directory, ca):
    os.makedirs(directory, exist_ok=True)
    subprocess.run(["certutil", "-N", "-d", "sql:" + directory, "--empty-password"], check=True, timeout=30,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["certutil", "-A", "-d", "sql:" + directory, "-n", "tlsc test root", "-t", "C,,", "-i", ca],
                   check=True, timeout=30)


FIREFOX_PREFS = {
    # No traffic but the page: updates, telemetry, safe browsing, captive
    # portal and connectivity checks, remote settings, prefetching, new tab.
    "app.update.enabled": False, "app.update.auto": False, "app.normandy.enabled": False,
    "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0, "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False, "browser.newtabpage.activity-stream.feeds.system.topsites": False,
    "browser.newtabpage.activity-stream.feeds.snippets": False, "browser.region.network.url": "",
    "browser.region.update.enabled": False, "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False, "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False, "browser.safebrowsing.provider.mozilla.updateURL": "",
    "browser.search.update": False, "browser.search.geoip.url": "", "browser.ping-centre.telemetry": False,
    "datareporting.healthreport.uploadEnabled": False, "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False, "toolkit.telemetry.unified": False, "toolkit.telemetry.server": "",
    "extensions.update.enabled": False, "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False, "extensions.systemAddon.update.enabled": False,
    "services.settings.server": "http://127.0.0.1:9/", "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False, "network.prefetch-next": False,
    "network.dns.disablePrefetch": True, "network.http.speculative-parallel-limit": 0,
    "network.predictor.enabled": False, "network.trr.mode": 5, "security.OCSP.enabled": 0,
    "security.remote_settings.crlite_filters.enabled": False, "security.remote_settings.intermediates.enabled": False,
    "media.gmp-manager.url": "", "media.gmp-gmpopenh264.enabled": False, "browser.topsites.contile.enabled": False,
    "messaging-system.rsexperimentloader.enabled": False, "app.shield.optoutstudies.enabled": False,
    "network.http.http3.enable": False, "browser.places.speculativeConnect.enabled": False,
    "browser.urlbar.speculativeConnect.enabled": False, "dom.push.enabled": False,
    "browser.tabs.remote.autostart": True,
}


def pref_line(k, v):
    return "user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v))


def browser_command(kind, url, work, ca, binary, quic_port=None):
    """The command and environment for one page load in a fresh profile;
    with quic_port, the browser goes to that UDP port over QUIC."""
    home = os.path.join(work, "home")
    env = dict(os.environ, HOME=home)
    env.pop("DISPLAY", None)
    if kind == "chromium":
        if not os.path.isdir(os.path.join(home, ".pki", "nssdb")):
            nss_db(os.path.join(home, ".pki", "nssdb"), ca)
        profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
        cmd = [binary or shutil.which("chromium") or "chromium", "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--disable-default-apps", "--disable-extensions", "--no-default-browser-check",
               "--user-data-dir=" + profile, "--dump-dom", url]
        if quic_port:
            cmd[cmd.index("--disable-quic")] = "--enable-quic"
            cmd.insert(1, "--origin-to-force-quic-on=localhost:%d" % quic_port)
        return cmd, env
    if kind == "firefox":
        os.makedirs(home, exist_ok=True)
        profile = tempfile.mkdtemp(prefix="firefox-", dir=work)
        nss_db(profile, ca)
        with open(os.path.join(profile, "user.js"), "w") as f:
            prefs = dict(FIREFOX_PREFS)
            if quic_port:
                # HTTP/3 at once (no Alt-Svc round over TCP first), also with
                # the test CA, which Firefox counts as a third-party root.
                prefs.update({"network.http.http3.enable": True,
                              "network.http.http3.alt-svc-mapping-for-testing": "localhost;h3=:%d" % quic_port,
                              "network.http.http3.disable_when_third_party_roots_found": False})
            for k, v in prefs.items():
                f.write(pref_line(k, v))
        env["MOZ_HEADLESS"] = "1"
        cmd = [binary or shutil.which("firefox-esr") or shutil.which("firefox") or "firefox-esr", "--headless",
               "--no-remote", "--profile", profile, url]
        return cmd, env
    raise ValueError(kind)


def kill_group(proc):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(5)
    else:  # leftovers of an exited launcher in the same group
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def run_browser_loads(kind, server, loads, timeout, ca, binary, keep_work):
    work = tempfile.mkdtemp(prefix="tlsc-capture-")
    try:
        for i in range(loads):
            url = "https://localhost:%d/load-%d" % (server.port, i + 1)
            cmd, env = browser_command(kind, url, work, ca, binary)
            log("load %d/%d: %s" % (i + 1, loads, " ".join(cmd)))
            out = open(os.path.join(work, "browser-%d.log" % i), "w")
            proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
            path = "/load-%d" % (i + 1)
            ok = wait_for(server.log_path, lambda conns: any(first_path(c) == path for c in conns),
                          time.monotonic() + timeout)
            time.sleep(1.0)  # let the rest of the load (favicon, ...) land on the same connection
            kill_group(proc)
            out.close()
            if not ok:
                with open(os.path.join(work, "browser-%d.log" % i)) as f:
                    tail = f.read()[-2000:]
                log("load %d: no request within %ss; browser output:\n%s" % (i + 1, timeout, tail))
                return False
        return True
    finally:
        if keep_work:
            log("browser work directory kept:", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def find_built(name, explicit=None):
    if explicit:
        return explicit
    cands = sorted(glob.glob(os.path.join(REPO, "build*", "tools", name)), key=os.path.getmtime)
    if not cands:
        sys.exit("capture_profile: no %s found; build it (ninja %s)" % (name, name))
    return cands[-1]


def read_json_lines(log_path):
    if not os.path.exists(log_path):
        return []
    with open(log_path) as f:
        return [json.loads(line) for line in f if line.strip()]


def h3_path(record):
    """The :path of an HTTP/3 capture's last request."""
    streams = record.get("streams") or []
    for name, value in (streams[-1]["headers"] if streams else []):
        if name == ":path":
            return value
    return None


def capture_over_quic(kind, binary, loads, timeout, ca, keep_work, server_cmd, loaded):
    """One browser launch per load against a UDP capture server (server_cmd,
    given the log path, prints {"port":N}); loaded(records, i) says when
    load i is in its log. Returns the log's records."""
    work = tempfile.mkdtemp(prefix="tlsc-capture-quic-")
    log_path = os.path.join(work, "log.jsonl")
    proc = subprocess.Popen(server_cmd(log_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = [None]
        t = threading.Thread(target=lambda: line.__setitem__(0, proc.stdout.readline()), daemon=True)
        t.start()
        t.join(15)
        if not line[0]:
            sys.exit("capture_profile: %s did not start" % server_cmd(log_path)[0])
        port = json.loads(line[0])["port"]
        for i in range(loads):
            cmd, env = browser_command(kind, "https://localhost:%d/load-%d" % (port, i + 1), work, ca, binary, port)
            log("quic load %d/%d: %s" % (i + 1, loads, " ".join(cmd)))
            out = open(os.path.join(work, "browser-%d.log" % i), "w")
            browser = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not loaded(read_json_lines(log_path), i):
                time.sleep(0.2)
            kill_group(browser)
            out.close()
            if not loaded(read_json_lines(log_path), i):
                with open(os.path.join(work, "browser-%d.log" % i)) as f:
                    log("quic load %d: nothing within %ss; browser output:\n%s" % (i + 1, timeout,
                                                                                    f.read()[-2000:]))
                break
        return read_json_lines(log_path)
    finally:
        try:
            proc.stdin.close()
            proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
        if keep_work:
            log("browser work directory kept:", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def capture_websocket_upgrade(kind, timeout, ca, binary):
    """One browser load of a page that opens a WebSocket to this process; the
    upgrade request's head as the browser sent it (CRLF lines), or None."""
    import socket
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    page = ("<html><body><script>new WebSocket('ws://127.0.0.1:%d/ws');</script></body></html>" % port).encode()
    heads = []

    def serve(deadline):
        while time.monotonic() < deadline and not heads:
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            conn.settimeout(2)
            data = b""
            try:
                while b"\r\n\r\n" not in data and len(data) < 65536:
                    piece = conn.recv(4096)
                    if not piece:
                        break
                    data += piece
                head = data.split(b"\r\n\r\n")[0].decode("latin-1")
                if head.startswith("GET /ws "):
                    heads.append(head)
                else:
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n"
                                 b"Connection: close\r\n\r\n" % len(page) + page)
            except OSError:
                pass
            finally:
                conn.close()

    work = tempfile.mkdtemp(prefix="tlsc-capture-ws-")
    deadline = time.monotonic() + timeout
    thread = threading.Thread(target=serve, args=(deadline,), daemon=True)
    thread.start()
    cmd, env = browser_command(kind, "http://127.0.0.1:%d/" % port, work, ca, binary)
    log("websocket: " + " ".join(cmd))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    thread.join(timeout + 1)
    kill_group(proc)
    listener.close()
    shutil.rmtree(work, ignore_errors=True)
    return heads[0] if heads else None


def websocket_block(head):
    """The profile's websocket block from an upgrade head: the extensions
    the browser offered ({} when it offered none)."""
    block = {}
    for line in head.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "sec-websocket-extensions":
            block["extensions"] = value.strip()
    return block


# --- the profile ------------------------------------------------------------

def first_request(conn):
    if conn.get("streams"):
        return conn["streams"][0]
    return None


def extension_order(hellos):
    orders = [h["extensions"] for h in hellos]
    norm = [["GREASE" if is_grease(e) else e for e in o] for o in orders]
    permuted = any(o != norm[0] for o in norm)
    if any(sorted(map(str, o)) != sorted(map(str, norm[0])) for o in norm):
        log("warning: the set of extensions differs between connections:", norm)
    fixed = [i for i in range(len(norm[0])) if all(len(o) > i and o[i] == norm[0][i] for o in norm)]
    return norm[0], permuted, fixed


def read_varint(b, pos):
    length = 1 << (b[pos] >> 6)
    v = b[pos] & 0x3f
    for x in b[pos + 1:pos + length]:
        v = (v << 8) | x
    return v, pos + length


def single_varint(hexstr):
    """The value of a transport parameter that is exactly one varint, else None."""
    b = bytes.fromhex(hexstr)
    if not b or len(b) != 1 << (b[0] >> 6):
        return None
    return read_varint(b, 0)[0]


def reserved_version(v):
    return (v & 0x0f0f0f0f) == 0x0a0a0a0a


def reserved_parameter(i):
    return i >= 27 and (i - 27) % 31 == 0


def most_common(values):
    return max(sorted(set(values)), key=values.count)


def version_information(hexes):
    """Parameter 17 (RFC 9368) across connections: chosen version, the
    available ones with "GREASE" for a reserved version, shuffled when the
    GREASE version's place changes between connections."""
    lists = []
    for h in hexes:
        b = bytes.fromhex(h)
        words = [int.from_bytes(b[i:i + 4], "big") for i in range(0, len(b) - len(b) % 4, 4)]
        lists.append((words[0], ["GREASE" if reserved_version(w) else w for w in words[1:]]))
    chosen = {c for c, _ in lists}
    out = {"chosen": lists[0][0], "available": lists[0][1]}
    if len(chosen) != 1 or any(sorted(map(str, l)) != sorted(map(str, lists[0][1])) for _, l in lists):
        return None
    if len({tuple(map(str, l)) for _, l in lists}) > 1:
        out["shuffled"] = True
    return out


def datagram_sizes(initials):
    """The largest UDP payload the browser sent, per address family: seen for
    the family its captures used, and for the other the same IP packet size
    (an IPv6 header is 20 bytes longer than an IPv4 one), as Chromium and
    Firefox both size theirs. None without sizes."""
    seen = {}
    for r in initials:
        family = "ipv6" if ":" in r.get("peer", "").split(" ")[0] else "ipv4"
        for d in r.get("datagrams", []):
            if "size" in d:
                seen[family] = max(seen.get(family, 0), d["size"])
    if not seen:
        return None
    ipv4 = seen.get("ipv4", seen.get("ipv6", 0) + 20)
    ipv6 = seen.get("ipv6", seen.get("ipv4", 0) - 20)
    return {"ipv4": ipv4, "ipv6": ipv6}


def quic_block(initials):
    """The profile's http3.quic block from Initial flights (quic_initial.jsonl)."""
    first_packets = [r["datagrams"][0]["packets"][0] for r in initials if r.get("datagrams")]
    block = {"version": first_packets[0]["version"],
             "dcid_length": most_common([p["dcid_length"] for p in first_packets]),
             "scid_length": most_common([p["scid_length"] for p in first_packets])}
    sizes = datagram_sizes(initials)
    if sizes:
        block["max_datagram_size"] = sizes
    per_conn = [[(t["id"], t["hex"]) for t in r.get("transport_parameters", [])] for r in initials]
    ids_seen = {}
    for params in per_conn:
        for i, _ in params:
            ids_seen[i] = ids_seen.get(i, 0) + 1
    # A reserved id seen in fewer than all connections is drawn per connection.
    grease = {i for i, n in ids_seen.items() if reserved_parameter(i) and n < len(per_conn)}
    fixed_orders = {tuple(i for i, _ in params if i not in grease) for params in per_conn}
    params = []
    for i, h in per_conn[0]:
        if i in grease:
            lengths = [len(v) // 2 for p in per_conn for j, v in p if j in grease]
            params.append(["GREASE", {"random_bytes": [min(lengths), max(lengths)]}])
            continue
        values = [dict(p).get(i) for p in per_conn]
        if i == 15 and all(len(v) // 2 == block["scid_length"] for v in values):
            params.append([i, "initial_source_connection_id"])
        elif i == 17 and version_information(values):
            params.append([i, version_information(values)])
        elif len(set(values)) == 1 and single_varint(h) is not None:
            params.append([i, single_varint(h)])
        elif len(set(values)) == 1:
            params.append([i, "hex:" + h])
        else:
            lengths = [len(v) // 2 for v in values]
            params.append([i, {"random_bytes": [min(lengths), max(lengths)]}])
    block["transport_parameters"] = {"shuffled": len(fixed_orders) > 1, "parameters": params}
    # The ClientHello in the Initial flight: its own extension set (57, the
    # transport parameters, among them), ALPN h3, TLS 1.3 alone.
    hellos = [decode_client_hello(r["client_hello_hex"]) for r in initials if r.get("client_hello_hex")]
    if hellos:
        block["tls"] = tls_block(hellos)[0]
    return block


def http3_block(initials, pages):
    """The profile's http3 block from the QUIC captures: upstream's fields
    (settings in order without GREASE, PRIORITY_UPDATE's frame type as
    priority_param, pseudo-header order, GREASE frames) from the first HTTP/3
    page load, and the QUIC layer from the Initial flights."""
    block = {}
    if pages:
        r = pages[0]
        frames = r.get("control_frames", [])
        settings = next((f["settings"] for f in frames if f.get("type") == 4), [])
        block["settings"] = [["0x%x" % x["id"], x["value"]] for x in settings if not x["grease"]]
        block["priority_param"] = next((f["type"] for f in frames if f.get("type") == 0xf0700), 0)
        block["pseudo_header_order"] = [n for n, _ in r["streams"][0]["headers"] if n.startswith(":")]
        block["send_grease_frames"] = any(f.get("grease") for f in frames) or any(x["grease"] for x in settings)
        block["grease_setting"] = any(x["grease"] for x in settings)
    if initials:
        block["quic"] = quic_block(initials)
    return block


def read_quic_captures(directory):
    """The stored QUIC captures next to captures.jsonl, if any."""
    out = []
    for name in ("quic_initial.jsonl", "h3_captures.jsonl"):
        path = os.path.join(directory, name)
        out.append(read_json_lines(path) if directory and os.path.exists(path) else [])
    return out


def tls_block(hellos):
    """A profile's tls block (profiles/SCHEMA.md) from decoded ClientHellos
    of one client: the first one's fields, its extension order, and whether
    the order changes between connections. Returns (block, notes, the
    extension positions every connection kept)."""
    h = hellos[0]
    b = h["bodies"]
    order, permuted, fixed = extension_order(hellos)
    tls = {"cipher_suites": [cp(c) for c in h["cipher_suites"]],
           "extensions": [e if e == "GREASE" else str(e) for e in order],
           "permute_extensions": permuted}
    # 57, QUIC's transport parameters, is written from the http3.quic block.
    handled = {0, 5, 10, 11, 13, 16, 17513, 17613, 18, 21, 23, 27, 28, 34, 35, 41, 42, 43, 45, 51, 57, 65037,
               65281}
    if 10 in b:
        tls["supported_groups"] = [cp(g) for g in b[10]["groups"]]
    if 51 in b:
        tls["key_share_groups"] = [cp(g) for g, _ in b[51]["shares"]]
        tls["share_x25519_key"] = bool(b[51].get("same_x25519_key", False))
    if 11 in b:
        tls["point_formats"] = b[11]["formats"]
    notes = []
    if 13 in b:
        # A GREASE signature algorithm (Chrome 156 puts one first): the
        # library picks a fresh one per connection (BoringSSL patch 0027).
        tls["signature_algorithms"] = [cp(a) for a in b[13]["algorithms"]]
    if 34 in b:
        tls["delegated_credential_algorithms"] = [cp(a) for a in b[34]["algorithms"]]
    if 43 in b:
        tls["versions"] = [cp(v) for v in b[43]["versions"]]
    if 16 in b:
        tls["alpn"] = b[16]["protocols"]
    for alps in (17613, 17513):
        if alps in b:
            tls["alps"] = b[alps]["protocols"]
    if 27 in b:
        tls["cert_compression"] = [cp(a) for a in b[27]["algorithms"]]
    if 28 in b:
        tls["record_size_limit"] = b[28]["limit"]
    if 45 in b:
        tls["psk_modes"] = b[45]["modes"]
    if 65037 in b and b[65037].get("type") == 0:
        suites = sorted({(x["bodies"][65037]["kdf"], x["bodies"][65037]["aead"]) for x in hellos
                         if 65037 in x["bodies"]})
        wire = sorted({x["bodies"][65037]["payload_length"] for x in hellos if 65037 in x["bodies"]})
        # The spec's lengths are before the AEAD's 16-byte tag (BoringSSL adds it).
        tls["ech_grease"] = {"cipher_suites": [["0x%04x" % k, "0x%04x" % a] for k, a in suites],
                             "payload_lengths": [w - 16 for w in wire]}
    raw = {}
    for t, d in b.items():
        if t != "GREASE" and t not in handled:
            raw[str(t)] = d.get("hex", "")
    if raw:
        tls["raw_extensions"] = raw
    if permuted:
        notes.append("The client permutes its extensions per connection (positions %s fixed over %d connections); "
                     "\"extensions\" is the first connection's order." % (fixed, len(hellos)))
    return tls, notes, fixed


def build_profile(name, conns, comment, ws_head=None, quic_dir=None):
    hellos = [decode_client_hello(c["tls"]["client_hello_hex"]) for c in conns]
    h = hellos[0]
    tls, notes, fixed = tls_block(hellos)
    if notes:
        comment = comment + " " + " ".join(notes)
    profile = {"name": name, "comment": comment, "tls": tls}

    # The first page load's connection (a browser may open others, e.g.
    # Firefox fetches the favicon on a connection of its own).
    first = next((c for c in conns if (first_path(c) or "").startswith("/load-")), conns[0])
    req = first_request(first)
    if first.get("protocol") == "h2" and req is not None:
        settings = []
        for sid, val in first["settings"]:
            # A reserved id (0x?a?a) is the browser's GREASE, drawn per
            # connection: "GREASE" in the profile, not the one id seen.
            settings.append(["GREASE" if is_grease(sid) else H2_SETTING_NAMES.get(sid, "0x%04x" % sid), val])
        h2 = {"settings": settings, "connection_flow": first["window_update"],
              "priority_frames": first["priority_frames"],
              "header_priority": req["priority"],
              "pseudo_header_order": [n for n, _ in req["headers"] if n.startswith(":")],
              "stream_id": 0}
        if first["priority_frames"]:
            h2["stream_id"] = req["stream_id"]  # informative; fhttp derives it from the frames
        elif req["stream_id"] != 1:
            h2["stream_id"] = req["stream_id"]
        profile["http2"] = h2
        profile["default_headers"] = [[n, v] for n, v in req["headers"] if not n.startswith(":")]
    elif req is None and first.get("h1_lines"):
        lines = first["h1_lines"][1:]
        profile["default_headers"] = [[l.split(":", 1)[0], l.split(":", 1)[1].strip()] for l in lines if ":" in l]
    initials, pages = read_quic_captures(quic_dir)
    if initials or pages:
        profile["http3"] = http3_block(initials, pages)
    if ws_head is not None:
        profile["websocket"] = websocket_block(ws_head)
    summary = {
        "connections": len(conns),
        "ja3": ja3(h),
        "ja3_sorted": ja3(h, sort_extensions=True),
        "extension_positions_fixed": fixed,
        "akamai": first.get("akamai"),
        "akamai_all": sorted({c.get("akamai") for c in conns}),
        "ech_payload_lengths_seen": sorted({x["bodies"][65037]["payload_length"] for x in hellos
                                            if 65037 in x["bodies"]}),
    }
    return profile, summary


def dump_profile(profile):
    """JSON with short lists on one line (diffable, readable)."""
    text = json.dumps(profile, indent=2, ensure_ascii=False)
    import re
    def squash(m):
        inner = m.group(0)
        flat = re.sub(r"\s*\n\s*", " ", inner).replace("[ ", "[").replace(" ]", "]")
        return flat if len(flat) <= 100 else inner
    # innermost lists only
    text = re.sub(r"\[[^\[\]\{\}]*\]", squash, text)
    return text + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    who = ap.add_mutually_exclusive_group(required=True)
    who.add_argument("--browser", choices=["chromium", "firefox"])
    who.add_argument("--url-only", action="store_true", help="print the URL and wait for any client")
    who.add_argument("--from-captures", metavar="JSONL", help="no client: rebuild the profile from stored captures")
    ap.add_argument("--name", required=True, help="the profile's identifier, e.g. chromium_156")
    ap.add_argument("--out", help="profile file to write (default profiles/NAME.json)")
    ap.add_argument("--data", help="directory for the raw captures (default tests/data/browsers/NAME)")
    ap.add_argument("--loads", type=int, default=None, help="connections to capture (default 12 chromium, 3 else)")
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for each load (default 60)")
    ap.add_argument("--server", help="h2_capture_server binary (default: newest build*/tools/h2_capture_server)")
    ap.add_argument("--certs", default="/tmp/tlsc-itest-certs", help="test PKI directory (made if missing)")
    ap.add_argument("--browser-binary", help="browser executable (default chromium / firefox-esr on PATH)")
    ap.add_argument("--comment", help="the profile's comment")
    ap.add_argument("--keep", action="store_true", help="keep the browser's temporary profile directories")
    ap.add_argument("--no-websocket", action="store_true", help="skip the WebSocket upgrade capture")
    ap.add_argument("--quic", action="store_true",
                    help="capture the browser's QUIC Initial flight into DATA/quic_initial.jsonl (profile untouched)")
    a = ap.parse_args()
    loads = a.loads or (12 if a.browser == "chromium" else 3)
    out = a.out or os.path.join(REPO, "profiles", a.name + ".json")
    data = a.data or os.path.join(REPO, "tests", "data", "browsers", a.name)

    if a.from_captures:
        with open(a.from_captures) as f:
            conns = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(os.path.dirname(os.path.abspath(a.from_captures)), "summary.json")) as f:
            client = json.load(f).get("client", "a client")
        comment = a.comment or ("Captured with tools/capture_profile.py from %s (%d connections); raw captures in %s."
                                % (client, len(conns), os.path.relpath(os.path.dirname(os.path.abspath(
                                    a.from_captures)), REPO)))
        ws_path = os.path.join(os.path.dirname(os.path.abspath(a.from_captures)), "websocket_upgrade.txt")
        ws_head = None
        if os.path.exists(ws_path):
            with open(ws_path, newline="") as f:
                ws_head = f.read()
        profile, _ = build_profile(a.name, conns, comment, ws_head,
                                   os.path.dirname(os.path.abspath(a.from_captures)))
        text = dump_profile(profile)
        if a.out == "-":
            sys.stdout.write(text)
        else:
            with open(out, "w") as f:
                f.write(text)
        return 0

    certs = ensure_certs(a.certs)
    if a.quic:
        if not a.browser:
            sys.exit("capture_profile: --quic needs --browser")
        ca = os.path.join(certs, "ca.pem")
        # 1. The Initial flight of each connection, to a server that never answers.
        initials = capture_over_quic(a.browser, a.browser_binary, loads, a.timeout, ca, a.keep,
                                     lambda log: [find_built("quic_capture_server"), "--log", log],
                                     lambda recs, i: len(recs) > i)
        # 2. Whole HTTP/3 page loads: SETTINGS, stream types, header order.
        pages = capture_over_quic(a.browser, a.browser_binary, min(loads, 3), a.timeout, ca, a.keep,
                                  lambda log: [find_built("h3_capture_server"), os.path.join(certs, "good.pem"),
                                               os.path.join(certs, "good.key"), "--log", log],
                                  lambda recs, i: any(h3_path(r) == "/load-%d" % (i + 1) for r in recs))
        pages = [r for r in pages if (h3_path(r) or "").startswith("/load-")]
        if not initials or not pages:
            return 1
        os.makedirs(data, exist_ok=True)
        for name, records in (("quic_initial.jsonl", initials), ("h3_captures.jsonl", pages)):
            with open(os.path.join(data, name), "w") as f:
                for c in records:
                    f.write(json.dumps(c, sort_keys=True) + "\n")
        log("%d Initial flight(s) and %d HTTP/3 page load(s) captured into %s" % (len(initials), len(pages), data))
        for c in initials:
            log("  %s  dcid %d  tp %s" % (c.get("ja4"), len(c.get("dcid", "")) // 2,
                                         ",".join(str(p["id"]) for p in c.get("transport_parameters", []))))
        for r in pages:
            settings = [f for f in r.get("control_frames", []) if f.get("type") == 4]
            log("  h3 SETTINGS %s; headers %s" % (
                ",".join("%d:%d" % (s["id"], s["value"]) for s in (settings[0]["settings"] if settings else [])),
                ",".join(n for n, _ in r["streams"][-1]["headers"])))
        return 0
    logdir = tempfile.mkdtemp(prefix="tlsc-capture-log-")
    server = Server(find_server(a.server), certs, os.path.join(logdir, "captures.jsonl"))
    version = None
    ws_head = None
    try:
        if a.url_only:
            print("https://localhost:%d/" % server.port, flush=True)
            log("waiting up to %ss for %d connection(s)" % (a.timeout * loads, loads))
            if not wait_for(server.log_path, lambda conns: len(conns) >= loads, time.monotonic() + a.timeout * loads):
                log("only %d connection(s) captured" % len(read_connections(server.log_path)))
                if not read_connections(server.log_path):
                    shutil.rmtree(logdir, ignore_errors=True)
                    return 1
            time.sleep(0.5)
        else:
            binary = a.browser_binary
            try:
                exe = binary or shutil.which("chromium" if a.browser == "chromium" else "firefox-esr")
                version = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30,
                                         env=dict(os.environ, HOME=tempfile.gettempdir())).stdout.strip()
            except (OSError, subprocess.TimeoutExpired, TypeError):
                pass
            if not run_browser_loads(a.browser, server, loads, a.timeout, os.path.join(certs, "ca.pem"), binary,
                                     a.keep):
                if not read_connections(server.log_path):
                    shutil.rmtree(logdir, ignore_errors=True)
                    return 1
            if not a.no_websocket:
                ws_head = capture_websocket_upgrade(a.browser, a.timeout, os.path.join(certs, "ca.pem"), binary)
                if ws_head is None:
                    log("websocket: no upgrade request within %ss" % a.timeout)
    finally:
        server.stop()
    conns = read_connections(server.log_path)
    log("%d connection(s) captured" % len(conns))
    comment = a.comment or ("Captured with tools/capture_profile.py from %s (%d connections); raw captures in %s." %
                            (version or ("--browser " + a.browser if a.browser else "a client"), len(conns),
                             os.path.relpath(data, REPO)))
    profile, summary = build_profile(a.name, conns, comment, ws_head, data)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(dump_profile(profile))
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "captures.jsonl"), "w") as f:
        for c in conns:
            f.write(json.dumps(c, sort_keys=True) + "\n")
    if ws_head is not None:
        with open(os.path.join(data, "websocket_upgrade.txt"), "w", newline="") as f:
            f.write(ws_head)
    summary["client"] = version or ("url-only" if a.url_only else a.browser)
    with open(os.path.join(data, "summary.json"), "w") as f:
        f.write(json.dumps(summary, indent=2) + "\n")
    log("wrote", out, "and", os.path.join(data, "captures.jsonl"))
    print(json.dumps(summary), file=sys.stderr)
    shutil.rmtree(logdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
