"""Shared by the tests' own proxies: a loopback listener that hands each
connection to a thread, a bounded byte pump between two sockets, and the
start-up protocol of tests/servers/lib.sh (print {"port": N}, run until
stdin closes)."""
import json, select, socket, sys, threading

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
    """Copies both ways until either side closes. One thread, because an
    SSL socket cannot be read and written from two threads at once."""
    peers = {a: b, b: a}
    try:
        while True:
            # Bytes already decrypted inside an SSL socket do not wake select.
            ready = [s for s in (a, b) if hasattr(s, "pending") and s.pending()]
            if not ready:
                ready, _, _ = select.select([a, b], [], [], IDLE_SECONDS)
                if not ready:
                    return
            for s in ready:
                data = s.recv(65536)
                if not data:
                    return
                peers[s].sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.close()
            except OSError:
                pass


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
