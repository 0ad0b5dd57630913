"""Shared by the tests' own proxies: a loopback listener that hands each
connection to a thread, a bounded byte pump between two sockets, and the
start-up protocol of tests/servers/lib.sh (print {"port": N}, run until
stdin closes)."""
import json, socket, sys, threading

IDLE_SECONDS = 30  # every socket read is bounded


def read_until(conn, marker, limit=65536):
    buf = b""
    while marker not in buf:
        part = conn.recv(4096)
        if not part:
            return buf
        buf += part
        if len(buf) > limit:
            break
    return buf


def read_exact(conn, n):
    buf = b""
    while len(buf) < n:
        part = conn.recv(n - len(buf))
        if not part:
            raise EOFError
        buf += part
    return buf


def pump(a, b):
    """Copies both ways until either side closes."""
    def one_way(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
    t = threading.Thread(target=one_way, args=(b, a), daemon=True)
    t.start()
    one_way(a, b)
    t.join(IDLE_SECONDS)


def serve(handle, wrap=None):
    """Accepts on 127.0.0.1, runs handle(conn) per connection, announces the
    port, and returns when stdin closes."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(64)

    def accept_loop():
        while True:
            conn, _ = ls.accept()
            conn.settimeout(IDLE_SECONDS)

            def run(c=conn):
                try:
                    if wrap is not None:
                        c = wrap(c)
                    handle(c)
                except Exception:
                    pass
                finally:
                    try:
                        c.close()
                    except OSError:
                        pass
            threading.Thread(target=run, daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    print(json.dumps({"port": ls.getsockname()[1]}), flush=True)
    sys.stdin.read()


def connect_target(host, port):
    """Only loopback targets: the tests never leave the machine."""
    addr = socket.gethostbyname(host)
    if not addr.startswith("127."):
        raise OSError("refusing a non-loopback target")
    s = socket.create_connection((addr, port), timeout=IDLE_SECONDS)
    return s
