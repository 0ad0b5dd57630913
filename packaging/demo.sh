#!/usr/bin/env bash
# The main job: build the library, start a local HTTP server, and make a
# real request through the library exactly as a binding does (dlopen + JSON).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/packaging/boringssl/build.sh" >/dev/null
bash "$root/packaging/nghttp2/build.sh" >/dev/null
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" --target tls-client
lib="$root/build/libtls-client.so"
python3 - "$lib" <<'PY'
import ctypes, json, sys, threading, http.server

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"path": self.path, "user-agent": self.headers.get("User-Agent")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Set-Cookie", "demo=1; Path=/")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass

srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=srv.serve_forever, daemon=True).start()
lib = ctypes.cdll.LoadLibrary(sys.argv[1])
lib.request.argtypes = [ctypes.c_char_p]; lib.request.restype = ctypes.c_char_p
lib.freeMemory.argtypes = [ctypes.c_char_p]; lib.freeMemory.restype = ctypes.c_char_p
payload = {"requestUrl": f"http://127.0.0.1:{srv.server_port}/hello", "requestMethod": "GET",
           "sessionId": "demo", "headers": {"User-Agent": "tls-client-cpp demo"}}
out = json.loads(lib.request(json.dumps(payload).encode()).decode())
lib.freeMemory(out["id"].encode())
print(json.dumps(out, indent=2))
srv.shutdown()
sys.exit(0 if out["status"] == 200 else 1)
PY
