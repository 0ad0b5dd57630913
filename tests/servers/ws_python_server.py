#!/usr/bin/python3
"""A WebSocket echo server on Python's `websockets` (Debian's
python3-websockets, run by /usr/bin/python3), for tests/integration/ws_test.cc:
a second, independent implementation next to Node's `ws`.

    /usr/bin/python3 ws_python_server.py

Prints {"deflate": port, "plain": port} once listening: the first offers
permessage-deflate as websockets does by default (it takes the client's
offer, client_max_window_bits included), the second turns compression off.
Every message comes back with its type; the first message on /extensions is
answered with the extension the connection negotiated ("" for none). Stops
when stdin closes (and after 900 s regardless).
"""
import asyncio
import json
import sys

import websockets


async def handler(ws, path):
    try:
        if path == "/extensions":
            names = [e.name for e in ws.extensions]
            await ws.send(",".join(names))
        async for message in ws:
            await ws.send(message)
    except websockets.ConnectionClosed:
        pass  # wsClose ends the socket without a close frame, as gorilla's Close


async def main():
    deflate = await websockets.serve(handler, "127.0.0.1", 0, max_size=None)
    plain = await websockets.serve(handler, "127.0.0.1", 0, compression=None, max_size=None)
    ports = {"deflate": deflate.sockets[0].getsockname()[1], "plain": plain.sockets[0].getsockname()[1]}
    print(json.dumps(ports), flush=True)
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()

    def on_stdin():
        if not sys.stdin.buffer.read1(4096) and not stdin_closed.done():
            stdin_closed.set_result(None)

    loop.add_reader(sys.stdin.fileno(), on_stdin)
    try:
        await asyncio.wait_for(stdin_closed, 900)
    except asyncio.TimeoutError:
        pass


asyncio.run(main())
