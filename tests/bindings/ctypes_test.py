#!/usr/bin/env python3
"""Uses the library the way Python's tls_client package (1.0.1) does, with
ctypes and the standard library only.

tls_client declares request, freeMemory and destroySession as taking and
returning c_char_p; it reads freeMemory's result, so freeMemory must return
NULL (None here) rather than garbage. Its sessions send their own cookie jar
as requestCookies with "expires": None on every request.

Library: $TLS_CLIENT_LIB, else build/libtls-client.so of this repository.
Run: python3 tests/bindings/ctypes_test.py   (exits non-zero on failure;
the last line is "ctypes_test: N passed, N failed").
"""
import base64
import ctypes
import http.server
import json
import multiprocessing
import os
import socketserver
import subprocess
import sys
import threading
import time
import unittest
import uuid
from urllib.parse import parse_qsl, urlsplit

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LIB_PATH = os.path.abspath(os.environ.get("TLS_CLIENT_LIB") or os.path.join(REPO, "build", "libtls-client.so"))

# --- the library, declared exactly as tls_client/cffi.py does ----------------
library = ctypes.cdll.LoadLibrary(LIB_PATH)

request = library.request
request.argtypes = [ctypes.c_char_p]
request.restype = ctypes.c_char_p

freeMemory = library.freeMemory
freeMemory.argtypes = [ctypes.c_char_p]
freeMemory.restype = ctypes.c_char_p

destroySession = library.destroySession
destroySession.argtypes = [ctypes.c_char_p]
destroySession.restype = ctypes.c_char_p

# as upstream's cffi_dist/example_python declares them
getCookiesFromSession = library.getCookiesFromSession
getCookiesFromSession.argtypes = [ctypes.c_char_p]
getCookiesFromSession.restype = ctypes.c_char_p

addCookiesToSession = library.addCookiesToSession
addCookiesToSession.argtypes = [ctypes.c_char_p]
addCookiesToSession.restype = ctypes.c_char_p

destroyAll = library.destroyAll
destroyAll.restype = ctypes.c_char_p


# --- a loopback server ---------------------------------------------------------
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def _send(self, status, body, headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, obj, headers=()):
        self._send(200, json.dumps(obj), [("Content-Type", "application/json")] + list(headers))

    def _handle(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        u = urlsplit(self.path)
        parts = [p for p in u.path.split("/") if p]
        if parts and parts[0] == "delay":
            time.sleep(min(int(parts[1]), 10000) / 1000.0)
            return self._json({"path": self.path})
        if u.path == "/set-cookie":
            return self._json({"path": self.path},
                              [("Set-Cookie", f"{k}={v}; Path=/") for k, v in parse_qsl(u.query)])
        if u.path == "/cookies":
            jar = {}
            for h in self.headers.get_all("Cookie") or []:
                for part in h.split(";"):
                    if "=" in part:
                        k, v = part.split("=", 1)
                        jar[k.strip()] = v.strip()
            return self._json({"cookie": self.headers.get("Cookie"), "cookies": jar})
        if parts and parts[0] == "drip":
            # chunked: "line i\n" every 100 ms, int(parts[1]) times
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(min(int(parts[1]), 100)):
                line = f"line {i}\n".encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.flush()
                time.sleep(0.1)
            self.wfile.write(b"0\r\n\r\n")
            return
        if parts and parts[0] == "bytes":
            return self._send(200, bytes((i * 31 + 7) & 255 for i in range(int(parts[1]))),
                              [("Content-Type", "application/octet-stream")])
        # echo: headers in the order received
        return self._json({
            "method": self.command,
            "path": self.path,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body": body.decode("utf-8", "replace"),
        })

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 128


SERVER = None
BASE = None


def setUpModule():
    global SERVER, BASE
    SERVER = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=SERVER.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    BASE = f"http://127.0.0.1:{SERVER.server_address[1]}"


def tearDownModule():
    SERVER.shutdown()
    SERVER.server_close()


# --- tls_client's way of calling -----------------------------------------------
# the streaming functions, declared the same way (c_char_p in and out)
for _name in ("requestStream", "readStream", "readStreamAll", "cancelStream", "wsConnect", "wsRead", "wsWrite",
              "wsClose"):
    _fn = getattr(library, _name)
    _fn.argtypes = [ctypes.c_char_p]
    _fn.restype = ctypes.c_char_p


def payload(url, method="GET", session_id=None, body=None, headers=None, header_order=None,
            cookies=(), timeout_seconds=30, **extra):
    p = {
        "sessionId": session_id or str(uuid.uuid4()),
        "followRedirects": False,
        "forceHttp1": False,
        "withDebug": False,
        "catchPanics": False,
        "headers": dict(headers or {"User-Agent": "tls-client/1.0.1", "Accept": "*/*", "Connection": "keep-alive"}),
        "headerOrder": header_order,
        "insecureSkipVerify": False,
        "isByteRequest": False,
        "additionalDecode": None,
        "proxyUrl": "",
        "requestUrl": url,
        "requestMethod": method,
        "requestBody": body,
        "requestCookies": list(cookies),
        "timeoutSeconds": timeout_seconds,
        "tlsClientIdentifier": "chrome_120",
        "withRandomTLSExtensionOrder": False,
    }
    p.update(extra)
    return p


def call(p):
    """request() + freeMemory() exactly as tls_client's Session.execute_request."""
    response = request(json.dumps(p).encode("utf-8"))
    response_bytes = ctypes.string_at(response)
    obj = json.loads(response_bytes.decode("utf-8"))
    freed = freeMemory(obj["id"].encode("utf-8"))
    assert freed is None, f"freeMemory returned {freed!r}, expected NULL"
    return obj


def call_owned(fn, arg):
    """Calls a function whose result is owned until freeMemory(id)."""
    raw = fn(json.dumps(arg).encode("utf-8")) if arg is not None else fn()
    obj = json.loads(raw.decode("utf-8"))
    assert "id" in obj, obj
    assert freeMemory(obj["id"].encode("utf-8")) is None
    return obj


def _request_in_pool_worker(i):
    """Runs in a forked multiprocessing worker."""
    r = call(payload(BASE + f"/echo?worker={i}"))
    return r["status"], r["id"]


class TlsClientCtypes(unittest.TestCase):
    def ok(self, r):
        self.assertEqual(r["status"], 200, r.get("body"))
        return json.loads(r["body"])

    def test_get(self):
        r = call(payload(BASE + "/echo?q=1"))
        e = self.ok(r)
        self.assertEqual(e["method"], "GET")
        self.assertEqual(e["path"], "/echo?q=1")
        self.assertEqual(r["target"], BASE + "/echo?q=1")
        self.assertIsInstance(r["id"], str)
        self.assertEqual(r["headers"]["Content-Type"], ["application/json"])
        self.assertIn(r["usedProtocol"], ("HTTP/1.1", "HTTP/1.0"))
        # build_response(): every header value is a list
        for k, v in r["headers"].items():
            self.assertIsInstance(v, list, k)

    def test_post_body(self):
        body = "name=wörld&x=" + "y" * 3000
        r = call(payload(BASE + "/echo", method="POST", body=body,
                         headers={"Content-Type": "application/x-www-form-urlencoded", "User-Agent": "py"}))
        e = self.ok(r)
        self.assertEqual(e["method"], "POST")
        self.assertEqual(e["body"], body)
        r = call(payload(BASE + "/echo", method="PUT", body=json.dumps({"a": 1})))
        self.assertEqual(json.loads(self.ok(r)["body"]), {"a": 1})

    def test_header_order(self):
        headers = {"Accept": "*/*", "X-Second": "2", "User-Agent": "ua", "X-First": "1"}
        order = ["x-first", "user-agent", "x-second", "accept"]
        e = self.ok(call(payload(BASE + "/echo", headers=headers, header_order=order)))
        names = [k.lower() for k, _ in e["headers"]]
        self.assertEqual([n for n in names if n in order], order, e["headers"])
        got = {k.lower(): v for k, v in e["headers"]}
        for k, v in headers.items():
            self.assertEqual(got[k.lower()], v)

    def test_cookies_from_server_sent_back(self):
        sid = str(uuid.uuid4())
        r = call(payload(BASE + "/set-cookie?c1=v1&c2=v2", session_id=sid))
        self.assertEqual(r["status"], 200)
        self.assertEqual(r["cookies"].get("c1"), "v1", r["cookies"])
        self.assertEqual(r["cookies"].get("c2"), "v2", r["cookies"])
        self.assertEqual(len(r["headers"]["Set-Cookie"]), 2)
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid)))
        self.assertEqual(e["cookies"].get("c1"), "v1", e["cookie"])
        self.assertEqual(e["cookies"].get("c2"), "v2", e["cookie"])
        # a different session does not see them
        e = self.ok(call(payload(BASE + "/cookies")))
        self.assertNotIn("c1", e["cookies"])

    def test_request_cookies_with_expires_none(self):
        # what tls_client sends from its RequestsCookieJar: "expires": None for
        # session cookies; domain "" for cookies given as a dict
        cookies = [
            {"domain": "", "expires": None, "name": "pa", "path": "/", "value": "1"},
            {"domain": "", "expires": None, "name": "pb", "path": "/", "value": "two"},
            {"domain": "", "expires": int(time.time()) + 3600, "name": "pc", "path": "/", "value": "3"},
        ]
        sid = str(uuid.uuid4())
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid, cookies=cookies)))
        self.assertEqual(e["cookies"].get("pa"), "1", e["cookie"])
        self.assertEqual(e["cookies"].get("pb"), "two", e["cookie"])
        self.assertEqual(e["cookies"].get("pc"), "3", e["cookie"])
        # and again on the next request, as tls_client re-sends its jar each time
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid, cookies=cookies[:1])))
        self.assertEqual(e["cookies"].get("pa"), "1", e["cookie"])
        # a cookie whose expiry has passed is not sent
        e = self.ok(call(payload(BASE + "/cookies", cookies=[
            {"domain": "", "expires": int(time.time()) - 3600, "name": "old", "path": "/", "value": "x"}])))
        self.assertNotIn("old", e["cookies"], e["cookie"])

    # Not asserted: a cookie whose "domain" is the IP address itself
    # ("127.0.0.1", which Python's cookiejar records for a cookie an IP host set).
    # Upstream's jar (fhttp/cookiejar, Go's pre-1.20 rules) rejects a domain
    # attribute on an IP host (errNoHostname), so upstream never sends it.

    def test_add_and_get_cookies(self):
        sid = str(uuid.uuid4())
        # upstream answers "no client found for sessionId" until a request made the session
        self.ok(call(payload(BASE + "/echo", session_id=sid)))
        added = call_owned(addCookiesToSession, {
            "sessionId": sid, "url": BASE + "/",
            "cookies": [{"name": "ac", "value": "av", "domain": "", "path": "/", "expires": None}]})
        self.assertIn("ac", [c["name"] for c in added["cookies"]], added)
        got = call_owned(getCookiesFromSession, {"sessionId": sid, "url": BASE + "/cookies"})
        self.assertIn(("ac", "av"), [(c["name"], c["value"]) for c in got["cookies"]], got)
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid)))
        self.assertEqual(e["cookies"].get("ac"), "av", e["cookie"])

    def test_destroy_session(self):
        sid = str(uuid.uuid4())
        call(payload(BASE + "/set-cookie?d=1", session_id=sid))
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid)))
        self.assertEqual(e["cookies"].get("d"), "1")
        res = call_owned(destroySession, {"sessionId": sid})
        self.assertIs(res["success"], True, res)
        # the session is gone: a new one with that id starts with an empty jar
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid)))
        self.assertNotIn("d", e["cookies"])
        # unknown sessions succeed too
        self.assertIs(call_owned(destroySession, {"sessionId": "no-such-" + str(uuid.uuid4())})["success"], True)

    def test_byte_response(self):
        r = call(payload(BASE + "/bytes/1000", isByteResponse=True))
        self.assertEqual(r["status"], 200)
        self.assertTrue(r["body"].startswith("data:"), r["body"][:80])
        head, b64 = r["body"].split(",", 1)
        self.assertTrue(head.endswith(";base64"), head)
        self.assertEqual(base64.b64decode(b64), bytes((i * 31 + 7) & 255 for i in range(1000)))

    def test_failures_are_status_0(self):
        for bad in (b"not json", b"{}", b'{"requestUrl": 5}'):
            raw = request(bad)
            obj = json.loads(ctypes.string_at(raw).decode("utf-8"))
            self.assertEqual(obj["status"], 0, obj)
            self.assertEqual(obj["errorCode"], "invalid_input", obj)
            self.assertTrue(obj["body"], obj)
            self.assertIsNone(freeMemory(obj["id"].encode()))
        r = call(payload("http://127.0.0.1:1/", timeout_seconds=5))
        self.assertEqual(r["status"], 0)
        self.assertEqual(r["errorCode"], "connect")
        self.assertTrue(r["body"])

    def test_free_memory_unknown_and_twice(self):
        self.assertIsNone(freeMemory(b"no-such-id"))
        self.assertIsNone(freeMemory(b""))
        self.assertIsNone(freeMemory(None))
        raw = request(json.dumps(payload(BASE + "/echo")).encode())
        rid = json.loads(raw.decode())["id"].encode()
        self.assertIsNone(freeMemory(rid))
        self.assertIsNone(freeMemory(rid))

    def test_threads_get_their_own_responses(self):
        n = 8
        results = [None] * n

        def worker(i):
            results[i] = call(payload(BASE + f"/delay/300/t{i}"))

        t0 = time.monotonic()
        ts = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(30)
        dt = time.monotonic() - t0
        for i, r in enumerate(results):
            self.assertIsNotNone(r, f"thread {i} did not finish")
            self.assertEqual(self.ok(r)["path"], f"/delay/300/t{i}")
        # ctypes drops the GIL in foreign calls: the 8 requests overlap
        self.assertLess(dt, n * 0.3 * 0.75, f"{n} requests of 300 ms took {dt:.2f} s")

    def test_multiprocessing_pool_with_fork(self):
        # The library is in use in this process; the fork start method (the
        # default on Linux through Python 3.13) copies it, loop thread
        # missing, into each worker, which must get a runtime of its own.
        self.ok(call(payload(BASE + "/echo?parent=1")))
        with multiprocessing.get_context("fork").Pool(3) as pool:
            results = pool.map_async(_request_in_pool_worker, range(6)).get(timeout=60)
        self.assertEqual([status for status, _ in results], [200] * 6)
        self.assertEqual(len({rid for _, rid in results}), 6, results)
        self.ok(call(payload(BASE + "/echo?parent=2")))

    def test_stream_through_the_blocking_calls(self):
        t0 = time.monotonic()
        start = call_owned(library.requestStream, payload(BASE + "/drip/8"))
        self.assertEqual(start["status"], 200, start.get("body"))
        self.assertEqual(start["body"], "")
        sid = start["streamId"]
        got, arrivals = b"", []
        for _ in range(100):
            r = call_owned(library.readStream, {"streamId": sid, "timeoutMs": -1})
            self.assertNotIn("error", r)
            if r["eof"]:
                break
            got += base64.b64decode(r["chunk"])
            arrivals.append(time.monotonic() - t0)
        self.assertEqual(got, b"".join(f"line {i}\n".encode() for i in range(8)))
        # chunks came while the body was still being sent
        self.assertGreater(arrivals[-1] - arrivals[0], 0.4)
        gone = call_owned(library.readStream, {"streamId": sid, "timeoutMs": 0})
        self.assertEqual(gone["error"], "unknown streamId: " + sid)

    def test_stream_read_all_and_cancel(self):
        start = call_owned(library.requestStream, payload(BASE + "/drip/3"))
        whole = call_owned(library.readStreamAll, {"streamId": start["streamId"]})
        self.assertEqual(whole["status"], 200)
        self.assertEqual(whole["body"], "line 0\nline 1\nline 2\n")
        start = call_owned(library.requestStream, payload(BASE + "/drip/50"))
        self.assertIs(call_owned(library.cancelStream, {"streamId": start["streamId"]})["success"], True)
        self.assertIs(call_owned(library.cancelStream, {"streamId": start["streamId"]})["success"], True)
        r = call_owned(library.readStream, {"streamId": start["streamId"], "timeoutMs": 0})
        self.assertIn("unknown streamId", r["error"])

    def test_websocket_through_the_blocking_calls(self):
        """wsConnect/wsWrite/wsRead/wsClose as a ctypes binding calls them, against
        Python's websockets (permessage-deflate, which chrome_120 offers)."""
        server = subprocess.Popen(["/usr/bin/python3", os.path.join(REPO, "tests", "servers", "ws_python_server.py")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            ports = json.loads(server.stdout.readline())
            c = call_owned(library.wsConnect, {"url": f"ws://127.0.0.1:{ports['deflate']}/extensions",
                                               "tlsClientIdentifier": "chrome_120"})
            self.assertEqual(c["status"], 101, c.get("body"))
            cid = c["connectionId"]
            m = call_owned(library.wsRead, {"connectionId": cid, "timeoutMilliseconds": 10000})
            self.assertEqual(m["data"], "permessage-deflate")
            for i in range(200):
                text = "h\u00e9llo " * (i * 7 % 300)
                blob = bytes((i + k) & 255 for k in range(i * 37 % 5000))
                self.assertIs(call_owned(library.wsWrite, {"connectionId": cid, "messageType": 1,
                                                           "data": text})["success"], True)
                self.assertIs(call_owned(library.wsWrite, {"connectionId": cid, "messageType": 2,
                                                           "data": base64.b64encode(blob).decode()})["success"],
                              True)
                t = call_owned(library.wsRead, {"connectionId": cid, "timeoutMilliseconds": 10000})
                b = call_owned(library.wsRead, {"connectionId": cid, "timeoutMilliseconds": 10000})
                self.assertEqual((t["messageType"], t["data"]), (1, text))
                self.assertEqual((b["messageType"], base64.b64decode(b["data"])), (2, blob))
            timeout = call_owned(library.wsRead, {"connectionId": cid, "timeoutMilliseconds": 50})
            self.assertEqual(timeout["body"], "failed to read message: i/o timeout")
            self.assertIs(call_owned(library.wsClose, {"connectionId": cid})["success"], True)
            gone = call_owned(library.wsRead, {"connectionId": cid, "timeoutMilliseconds": 50})
            self.assertEqual(gone["body"], "no websocket connection found for connectionId: " + cid)
        finally:
            server.stdin.close()
            server.wait(10)

    def test_zz_destroy_all(self):
        sid = str(uuid.uuid4())
        call(payload(BASE + "/set-cookie?z=1", session_id=sid))
        self.assertIs(call_owned(destroyAll, None)["success"], True)
        e = self.ok(call(payload(BASE + "/cookies", session_id=sid)))
        self.assertNotIn("z", e["cookies"])


if __name__ == "__main__":
    prog = unittest.main(exit=False, verbosity=2)
    res = prog.result
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    passed = res.testsRun - failed - len(res.skipped)
    print(f"ctypes_test: {passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed or res.testsRun == 0 else 0)
