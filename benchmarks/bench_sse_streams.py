"""What open pages cost the server: threads, SQLite connections, statements, memory and CPU
with 1, 10 and 40 event streams open, idle and with live-trick events.

A Pi serving a busy table slowed a frame from 66.7 to 107.4 ms; each open page holds a
waitress thread for its ``/events`` stream. This serves the real app with waitress in this
process, opens N streams as raw sockets (no client threads: the figures are the server's),
lets them settle, then counts for ``--seconds`` idle and again with ``--rate`` live events a
second written through the store, as the recorder writes them.

    python benchmarks/bench_sse_streams.py                 # 1, 10 and 40 streams
    python benchmarks/bench_sse_streams.py --streams 40 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sse_reader import open_stream

from skullcam.store import GameStore
from skullcam.web import create_app
from skullcam.web.app import make_server
from skullcam.web.server_thread import stop_server

STATEMENTS = [0]


def _counting(store: GameStore) -> None:
    """Count every SQL statement any connection of ``store`` runs (opened from now on)."""
    opened = store._open

    def open_counting() -> sqlite3.Connection:
        conn = opened()
        conn.set_trace_callback(lambda _sql: STATEMENTS.__setitem__(0, STATEMENTS[0] + 1))
        return conn

    store._open = open_counting  # type: ignore[method-assign]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s() -> float:
    times = os.times()
    return times.user + times.system


def open_idle_stream(port: int, game_id: int) -> socket.socket:
    """A stream the server took (200), left unread but for :func:`drain`: no client thread."""
    sock = open_stream(port, game_id)
    sock.settimeout(10)
    status = sock.recv(4096).split(b"\r\n")[0]
    if b" 200 " not in status:
        raise SystemExit(f"stream refused: {status!r}")
    sock.setblocking(False)
    return sock


def drain(socks: list[socket.socket]) -> None:
    for sock in socks:
        try:
            while sock.recv(65536):
                pass
        except BlockingIOError:
            pass


def window(
    store: GameStore, socks: list[socket.socket], game_id: int, seconds: float, rate: float
) -> dict[str, float]:
    """CPU seconds a second and SQL statements a second over ``seconds``; with ``rate``, that
    many live-trick writes a second meanwhile."""
    start_cpu, start_sql, start = cpu_s(), STATEMENTS[0], time.monotonic()
    writes = 0
    while (now := time.monotonic()) - start < seconds:
        if rate > 0 and writes < (now - start) * rate:
            plays = [{"player": 0, "card": f"green-{writes % 14 + 1}"}]
            store.set_live(game_id, 1, 0, plays, winner=0, leader=0)
            writes += 1
        drain(socks)
        time.sleep(0.05)
    took = time.monotonic() - start
    return {
        "cpu_pct": round(100 * (cpu_s() - start_cpu) / took, 1),
        "sql_per_s": round((STATEMENTS[0] - start_sql) / took, 1),
        "writes_per_s": round(writes / took, 1),
    }


def measure(streams: int, seconds: float, rate: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp))
        _counting(store)
        game_id = store.create_game(["Ana", "Ben", "Cai"], 0, {})
        # All streams come from this machine: its per-address limit (16) is lifted.
        app = create_app(Path(tmp), store=store, test_config={"SSE_MAX_STREAMS_PER_ADDRESS": None})
        threads_before, rss_before = threading.active_count(), rss_mb()
        server = make_server(app, "127.0.0.1", 0)
        threading.Thread(target=server.run, daemon=True).start()
        socks = [open_idle_stream(server.effective_port, game_id) for _ in range(streams)]
        time.sleep(2.0)
        result: dict[str, Any] = {
            "streams": streams,
            "threads": threading.active_count(),
            "threads_added": threading.active_count() - threads_before,
            "sqlite_connections": len(store._connections),
            "rss_mb": round(rss_mb(), 1),
            "rss_added_mb": round(rss_mb() - rss_before, 1),
            "idle": window(store, socks, game_id, seconds, 0.0),
            "events": window(store, socks, game_id, seconds, rate),
        }
        for sock in socks:
            sock.close()
        stop_server(server)  # its workers, before the folder goes
        store.close()
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[1, 10, 40])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each window")
    parser.add_argument("--rate", type=float, default=5.0, help="live events a second")
    args = parser.parse_args()
    for n in args.streams:
        print(json.dumps(measure(n, args.seconds, args.rate)), flush=True)


if __name__ == "__main__":
    main()
