"""Micro-benchmark of the rules engine: tricks resolved per second, games scored per second.

Run: ``python benchmarks/bench_rules.py [--seconds S]``. The tricks are the real tricks of
random legal games (4 players, expansion cards on), so the mix of specials is the game's own.
Prints figures; it asserts nothing (performance goals live here, not in timed tests).
"""

from __future__ import annotations

import argparse
import random
import time

from skullcam.rules import Settings, resolve_trick, score_game
from skullcam.rules.simulate import random_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    settings = Settings(loot=True, kraken_and_white_whale=True)
    rng = random.Random(1)
    names = [f"P{i}" for i in range(args.players)]
    games = [random_game(rng, names, settings) for _ in range(20)]
    tricks = [trick.cards for game in games for rnd in game.rounds for trick in rnd.tricks]

    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for cards in tricks:
            resolve_trick(cards, settings)
        count += len(tricks)
    elapsed = time.perf_counter() - start
    print(f"resolve_trick: {count / elapsed:,.0f} tricks/s ({args.players} cards, {count} tricks)")

    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for game in games:
            score_game(game)
        count += len(games)
    elapsed = time.perf_counter() - start
    per_game = len(tricks) // len(games)
    print(
        f"score_game: {count / elapsed:,.1f} games/s"
        f" (10 rounds, {per_game} tricks each, validation included)"
    )


if __name__ == "__main__":
    main()
