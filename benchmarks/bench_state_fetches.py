"""What one table change costs the server with N open pages: CPU time, and how many times the
game's whole state (``GameStore.state``) is worked out for it.

Every change but a card laid (a bid, a trick, a correction) is an event that makes each open
page (the TV, the bids pages on the phones) fetch ``/api/game/<id>/state``; all of that runs
in the process that also runs the camera's live loop. This serves the real app with waitress
in this process, opens ``--pages`` pages, each an event stream (a raw socket) that, as
``app.js`` does, fetches the state after each event, then changes a bid every ``1/--rate``
seconds for ``--seconds`` seconds. The game is the first six rounds of
``datasets/examples/game.json`` (four players), played on into round seven.

It reports, per change: the process's CPU time (the server's; the pages' own reading is a
small part of it, measured alone with ``--pages 0`` as the baseline), the ``state()``
computations and the CPU they took (thread time, so other threads do not count), and the state
fetches answered.

    python benchmarks/bench_state_fetches.py                   # 1, 5 and 10 pages, 20 s each
    python benchmarks/bench_state_fetches.py --pages 10 --seconds 30
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sse_reader import StreamPage

from skullcam.store import GameStore
from skullcam.web import create_app
from skullcam.web.app import make_server
from skullcam.web.server_thread import stop_server

EXAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "examples" / "game.json"


class StateCount:
    """Counts ``GameStore.state`` calls on one store and the thread CPU time they take."""

    def __init__(self, store: GameStore) -> None:
        self.calls = 0
        self.cpu_s = 0.0
        self.lock = threading.Lock()
        inner = store.state

        def counted(game_id: int) -> dict[str, Any]:
            began = time.thread_time()
            try:
                return inner(game_id)
            finally:
                took = time.thread_time() - began
                with self.lock:
                    self.calls += 1
                    self.cpu_s += took

        store.state = counted  # type: ignore[method-assign]


def cpu_s() -> float:
    times = os.times()
    return times.user + times.system


class Page(StreamPage):
    """One open page: a state fetch after each event it reads, as ``app.js`` does (a card
    laid, ``live``, fetches nothing)."""

    def __init__(self, port: int, game_id: int) -> None:
        super().__init__(port, game_id)
        self.fetches = 0

    def on_event(self, block: bytes, received: float) -> None:
        if b"event: live" not in block:
            self.fetch_state()

    def fetch_state(self) -> None:
        """``GET /api/game/<id>/state``, read to its end (HTTP/1.0: the server closes)."""
        with socket.create_connection(("127.0.0.1", self.port)) as conn:
            conn.sendall(f"GET /api/game/{self.game_id}/state HTTP/1.0\r\n\r\n".encode())
            while conn.recv(65536):
                pass
        self.fetches += 1


def measure(pages: int, seconds: float, rate: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp))
        record = json.loads(EXAMPLE.read_text())
        record["rounds"] = record["rounds"][:6]
        game_id = store.import_record(record)
        store.set_bids(game_id, 7, [1, 2, 1, 3])
        counted = StateCount(store)
        app = create_app(Path(tmp), store=store, test_config={"SSE_MAX_STREAMS_PER_ADDRESS": None})
        server = make_server(app, "127.0.0.1", 0, threads=pages + 8)
        threading.Thread(target=server.run, daemon=True).start()
        readers = [Page(server.effective_port, game_id) for _ in range(pages)]
        for page in readers:
            page.start()
        for page in readers:
            if not page.connected.wait(10):
                raise SystemExit("a page did not connect within 10 s")
        time.sleep(1.0)
        calls0, state_cpu0, cpu0 = counted.calls, counted.cpu_s, cpu_s()
        start, changes = time.monotonic(), 0
        while time.monotonic() - start < seconds:
            store.set_bid(game_id, 7, 0, changes % 2)
            changes += 1
            time.sleep(max(0.0, start + changes / rate - time.monotonic()))
        time.sleep(1.0)  # the last change's fetches
        cpu = cpu_s() - cpu0
        calls, state_cpu = counted.calls - calls0, counted.cpu_s - state_cpu0
        for page in readers:
            page.stop = True
        fetched = sum(page.fetches for page in readers)
        stop_server(server)
        store.close()
    return {
        "pages": pages,
        "changes": changes,
        "cpu_ms_per_change": round(1000 * cpu / changes, 2),
        "cpu_ms_per_change_per_page": round(1000 * cpu / changes / pages, 2) if pages else None,
        "state_calls_per_change": round(calls / changes, 2),
        "state_cpu_ms_per_change": round(1000 * state_cpu / changes, 2),
        "state_fetches_per_change": round(fetched / changes, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[0, 1, 5, 10])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--rate", type=float, default=1.0, help="changes a second")
    args = parser.parse_args()
    for n in args.pages:
        print(json.dumps(measure(n, args.seconds, args.rate)), flush=True)


if __name__ == "__main__":
    main()
