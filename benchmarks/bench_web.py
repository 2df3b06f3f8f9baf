"""Server-sent-event latency and memory with many open pages (issue 6 targets).

Targets: an event reaches an open TV page in < 200 ms; 50 open pages (TV, phones) held with
no growth in memory over 10 minutes of events.

What it does: serves the real app with waitress on a free port, opens ``--pages`` event
streams (raw HTTP, as a browser's EventSource does), then writes a live-trick event through the
store every ``1/--rate`` seconds for ``--duration`` seconds, the way the recorder does. Each
stream timestamps every event it receives; latency is receive time minus the moment the
store's write returned. Memory is this process's RSS (server + clients), sampled every few
seconds; growth is reported after a warm-up.

    python benchmarks/bench_web.py                    # 50 pages, 30 s
    python benchmarks/bench_web.py --duration 600     # the 10-minute memory check
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import tracemalloc
from array import array
from pathlib import Path

from sse_reader import StreamPage

from skullcam.web import create_app, get_store, make_server


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Page(StreamPage):
    """One open page: timestamps each event id it receives."""

    def __init__(self, port: int, game_id: int, sent: dict[int, float]) -> None:
        super().__init__(port, game_id)
        self.sent = sent
        # Latencies in ms, compact (4 bytes each) so that the harness itself does not
        # show up as memory growth over a 10-minute run.
        self.latencies = array("f")

    def on_event(self, block: bytes, received: float) -> None:
        for line in block.split(b"\n"):
            if line.startswith(b"id: "):
                t0 = self.sent.get(int(line[4:]))
                if t0 is not None:
                    self.latencies.append((received - t0) * 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of events")
    parser.add_argument("--rate", type=float, default=5.0, help="events per second")
    parser.add_argument("--trace", action="store_true", help="report Python allocation growth")
    args = parser.parse_args()

    data = Path(tempfile.mkdtemp(prefix="skullcam-bench-web-"))
    # One stream per page for the whole run, however long and however many pages: what is
    # measured is delivery on a long-lived stream, not the server's renewal and page limits.
    limits = {"SSE_MAX_STREAMS": args.pages, "SSE_MAX_STREAMS_PER_ADDRESS": args.pages}
    app = create_app(data, test_config={"SSE_MAX_SECONDS": None, **limits})
    store = get_store(app)
    server = make_server(app, "127.0.0.1", 0, threads=args.pages + 16)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    game_id = store.create_game(["Ana", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"], 0)

    # Event id -> the moment just before the store write began (only this writer writes, so
    # the next id is known in advance); latency therefore includes the write itself.
    sent: dict[int, float] = {}
    pages = []
    for _ in range(args.pages):
        page = Page(port, game_id, sent)
        page.start()
        pages.append(page)
    for page in pages:
        if not page.connected.wait(10):
            raise SystemExit("a page did not connect within 10 s")

    memory: list[tuple[float, float]] = []
    if args.trace:
        tracemalloc.start(12)
    snap = None
    start = time.perf_counter()
    next_sample = start
    cards = ["green-3", "black-7", "pirate-rosie", "mermaid-alyra", "escape", "yellow-14"]
    i = 0
    while time.perf_counter() - start < args.duration:
        plays = [
            {"player": p, "card": cards[(i + p) % len(cards)], "confidence": 0.9}
            for p in range(1 + i % 5)
        ]
        expected_id = store.last_event_id() + 1
        sent[expected_id] = time.perf_counter()
        store.set_live(game_id, 1, 0, plays, winner=0, leader=0)
        if store.last_event_id() != expected_id:
            raise SystemExit("another writer touched the benchmark database")
        i += 1
        now = time.perf_counter()
        if now >= next_sample:
            memory.append((now - start, rss_mb()))
            if args.trace and snap is None and now - start > args.duration / 3:
                snap = tracemalloc.take_snapshot()
            next_sample = now + max(2.0, args.duration / 60)
        time.sleep(max(0.0, 1.0 / args.rate - (time.perf_counter() - now)))
    time.sleep(1.0)
    for page in pages:
        page.stop = True
    server.close()

    latencies = [x for page in pages for x in page.latencies]
    expected = len(sent) * len(pages)
    latencies.sort()
    q = statistics.quantiles(latencies, n=100)
    warm = [m for t, m in memory if t >= min(10.0, args.duration / 3)]
    growth = (warm[-1] - warm[0]) if len(warm) >= 2 else float("nan")
    print(f"pages: {args.pages}  events written: {len(sent)}  duration: {args.duration:.0f} s")
    print(f"delivered: {len(latencies)}/{expected} ({100 * len(latencies) / expected:.1f} %)")
    print(
        f"latency ms: p50 {q[49]:.1f}  p95 {q[94]:.1f}  p99 {q[98]:.1f}  max {latencies[-1]:.1f}"
        "  (target < 200)"
    )
    print(
        f"RSS MB: start {memory[0][1]:.1f}  end {memory[-1][1]:.1f}  "
        f"growth after warm-up {growth:+.1f}  ({len(memory)} samples)"
    )
    quarters = [memory[min(len(memory) - 1, k * len(memory) // 4)] for k in range(1, 4)]
    print("RSS MB over time: " + "  ".join(f"{t:.0f}s {m:.1f}" for t, m in [*quarters, memory[-1]]))
    print(f"threads alive: {threading.active_count()}")
    if args.trace and snap is not None:
        print("largest Python allocation growth since the first third:")
        for stat in tracemalloc.take_snapshot().compare_to(snap, "traceback")[:5]:
            print(f"  {stat.size_diff / 1024:+.0f} KiB  {stat.traceback.format()[-1].strip()}")


if __name__ == "__main__":
    main()
