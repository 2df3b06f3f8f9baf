"""The table app's ``/events`` stream as the web benchmarks read it: a raw socket, as a
browser's EventSource holds it, so that their figures are the server's and not an HTTP
client's. One reader for them all (``bench_web``, ``bench_state_fetches``,
``bench_sse_streams``): a change to the stream's greeting or framing is made here once.

Imported by its name: a benchmark runs as ``python benchmarks/<name>.py``, which puts this
folder first on the path.
"""

from __future__ import annotations

import socket
import threading
import time

GREETING = b"connected at event"
"""What the server says first on a stream (a comment, ``: connected at event N``)."""


def open_stream(port: int, game_id: int) -> socket.socket:
    """A stream of ``game_id``'s events from the app on this machine's ``port``, asked for as
    a page asks; nothing of the answer read yet."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        f"GET /events?game={game_id} HTTP/1.1\r\nHost: localhost:{port}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    return sock


class StreamPage(threading.Thread):
    """One open page: reads its stream until ``stop`` is set, sets ``connected`` at the
    server's greeting, and hands each event (its ``id:``, ``event:`` and ``data:`` lines) to
    :meth:`on_event` with the moment its bytes arrived (``time.perf_counter``)."""

    def __init__(self, port: int, game_id: int) -> None:
        super().__init__(daemon=True)
        self.port, self.game_id = port, game_id
        self.connected = threading.Event()
        self.stop = False

    def on_event(self, block: bytes, received: float) -> None:
        """What the page does with one event; the stream's comments are not events."""

    def run(self) -> None:
        sock = open_stream(self.port, self.game_id)
        sock.settimeout(0.5)  # to look at ``stop`` while no event comes
        buf = b""
        while not self.stop:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            received = time.perf_counter()
            buf += chunk
            if GREETING in buf:
                self.connected.set()
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                if any(line.startswith(b"event: ") for line in block.split(b"\n")):
                    self.on_event(block, received)
        sock.close()
