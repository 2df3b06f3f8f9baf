"""Scene generation speed: ``python -m skullcam.datasets.benchmark [--count N] [--workers 1 2]``.

Writes ``--count`` labelled 640 x 480 scenes per worker setting into a temporary folder (the
whole pipeline: render, JPEG, labels, records) and prints scenes per second and the time
10,000 scenes would take. A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from skullcam.datasets.dataset import write_scenes
from skullcam.datasets.deck import write_deck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skullcam.datasets.benchmark")
    parser.add_argument("--count", type=int, default=200, help="scenes per run (200)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts")
    parser.add_argument(
        "--deck", type=Path, default=None, help="deck folder (default: a fresh one)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        deck = args.deck or write_deck(Path(tmp) / "deck")
        for workers in args.workers:
            start = time.perf_counter()
            cpu = time.process_time()
            write_scenes(
                deck,
                Path(tmp) / f"w{workers}",
                {"train": args.count},
                seed=0,
                workers=workers,
                progress=False,
            )
            elapsed = time.perf_counter() - start
            rate = args.count / elapsed
            # with one worker everything runs in this process: its CPU time per scene is the
            # cost of a scene however busy the machine is (other jobs only stretch wall time)
            cpu_note = ""
            if workers == 1:
                cpu_ms = (time.process_time() - cpu) / args.count * 1000
                cpu_note = f", {cpu_ms:.0f} ms CPU per scene"
            print(
                f"workers={workers}: {args.count} scenes in {elapsed:.1f} s = {rate:.1f} scenes/s "
                f"(10,000 scenes: {10000 / rate / 60:.1f} min){cpu_note}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
