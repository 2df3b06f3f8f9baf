"""Pipeline benchmark on generated games: accuracy, latency, speed, memory. Prints figures.

    python -m skullcam.device.bench GAME_DIR... [--oracle | --model PATH] [--realtime] [--store]
                                    [--keep-every N] [--drop P [--drop-seed S]]

For each game folder written by ``skullcam synth game`` it replays the frames through the
pipeline and compares with ``game.json`` / ``truth.json``:

* tricks whose plays (player, card, order) are exactly right, and whole games whose final
  scores equal the truth's (targets: >= 99 % of tricks, >= 95 % of games);
* latency from the frame at which the last card of a trick settled (``truth.json``) to the
  trick being recorded: in recording time, and with ``--realtime`` in wall-clock time while
  frames are paced at the real frame rate (target: <= 1 s), ``--store`` recording into a
  temporary store exactly as ``skullcam run`` does (images, SQLite);
* frames per second processed, and the process's peak memory.

``--oracle`` uses the generator's per-frame truth as the recognizer (tracking and trick logic
alone); the default uses the active/shipped model (the product path).

``--keep-every N`` and ``--drop P`` thin the frames as a busy machine does (the live loop reads
only the latest frame, so a slow recognizer skips the ones between): every Nth frame, or each
frame dropped with chance P by a seeded die. The frames kept keep their timestamps, so a thinned
replay is as deterministic as a full one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skullcam.counts import counted
from skullcam.device.pipeline import Pipeline
from skullcam.device.referee import Referee, TrickOutcome
from skullcam.device.replay import layout_for_source
from skullcam.device.scripted import ScriptedRecognizer, oracle_script
from skullcam.device.sources import Frame, Paced, open_source
from skullcam.rules import GameRecord, Settings, score_game


@dataclass(frozen=True)
class Thinning:
    """Which frames a thinned replay keeps: every ``every``-th, each of those dropped with
    chance ``drop`` (the die for frame ``i`` depends only on ``seed`` and ``i``, so a frame is
    kept or not whatever else is replayed)."""

    every: int = 1
    drop: float = 0.0
    seed: int = 0

    def keeps(self, index: int) -> bool:
        if index % max(1, self.every):
            return False
        return (
            self.drop <= 0.0 or random.Random(self.seed * 1_000_003 + index).random() >= self.drop
        )

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        return (frame for frame in frames if self.keeps(frame.index))

    def script(self, script: Sequence[Any]) -> list[Any]:
        """A per-frame detection script (frame ``i`` at ``script[i]``) cut to the kept frames,
        for a recognizer that plays it back one call per frame processed."""
        return [dets for i, dets in enumerate(script) if self.keeps(i)]


FULL = Thinning()


class _Clock:
    """Listener that notes the wall time each trick was recorded (after the store, if any)."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner
        self.done: list[float] = []

    def on_trick(self, outcome: TrickOutcome, frame: Frame, detections: list[Any]) -> None:
        if self.inner is not None:
            self.inner.on_trick(outcome, frame, detections)
        self.done.append(time.monotonic())

    def on_live(self, plays: list[dict[str, Any]], leader: int | None, frame: Frame) -> None:
        if self.inner is not None:
            self.inner.on_live(plays, leader, frame)

    def on_amended(
        self, outcome: TrickOutcome, frame: Frame, detections: list[Any], index: int, before: str
    ) -> None:
        if self.inner is not None:
            self.inner.on_amended(outcome, frame, detections, index, before)

    def recorded_game(self) -> Referee | None:
        return self.inner.recorded_game() if self.inner is not None else None


def first_round(folder: Path) -> int:
    """The first round the game's frames show (1-based): ``skullcam synth game --first-round``
    renders only the last rounds; older games, and those without meta.json, show them all."""
    meta = folder / "meta.json"
    if not meta.is_file():
        return 1
    return int(json.loads(meta.read_text()).get("first_round", 1))


def played_before(record: dict[str, Any], first: int) -> list[tuple[int, int, list[Any]]]:
    """(round, trick index, plays) of every trick of ``record`` before round ``first``: what
    the table had played when the recording starts."""
    return [
        (number, t, trick["plays"])
        for number, rnd in enumerate(record["rounds"][: first - 1], start=1)
        for t, trick in enumerate(rnd["tricks"])
    ]


def bench_game(
    folder: Path, recognizer: Any, realtime: bool, store: bool, thinning: Thinning = FULL
) -> dict[str, Any]:
    """One game replayed (only ``thinning``'s frames; a scripted ``recognizer`` must be cut
    to them too, :meth:`Thinning.script`) and compared with its truth."""
    record = json.loads((folder / "game.json").read_text())
    truth = json.loads((folder / "truth.json").read_text())
    settings = Settings.from_dict(record.get("settings") or {})
    referee = Referee(
        record["players"], record["first_dealer"], settings, [r["bids"] for r in record["rounds"]]
    )
    # A game rendered from a later round: the referee (and the store) start where the table
    # stood, with the earlier rounds as the record has them, as a restarted recorder resumes.
    filmed_from = first_round(folder)
    before = played_before(record, filmed_from)
    for _, _, plays in before:
        referee.add_plays([(int(p["player"]), str(p["card"])) for p in plays])
    inner = None
    tmp = None
    if store:
        from skullcam.device.recorder import StoreRecorder
        from skullcam.store import GameStore

        tmp = tempfile.TemporaryDirectory()
        gs = GameStore(Path(tmp.name))
        game_id = gs.create_game(record["players"], record["first_dealer"], record.get("settings"))
        for number, rnd in enumerate(record["rounds"], start=1):
            gs.set_bids(game_id, number, rnd["bids"])
        for number, t, plays in before:
            gs.record_trick(game_id, number, t, plays)
        inner = StoreRecorder(gs, game_id, "bench", "bench")
    clock = _Clock(inner)
    source = open_source(folder)
    frames = iter(thinning.frames(source.frames()))
    first = next(frames)
    height, width = first.image.shape[:2]
    layout = layout_for_source(folder, referee.n, (width, height))
    pipeline = Pipeline(recognizer, referee, layout, listener=clock)
    wall0 = time.monotonic()
    # lazily: a whole game's frames never in memory
    stream: Iterator[Frame] = itertools.chain([first], frames)
    if realtime:
        stream = Paced(stream).frames()
    last = first
    for frame in stream:
        pipeline.process(frame)
        last = frame
        if referee.finished:
            break
    pipeline.finish(last)  # a trick still on the table when the recording ends counts too
    elapsed = time.monotonic() - wall0
    if inner is not None:
        inner.close()
    # Tricks are paired by (round, trick), not by position: one missed or extra trick must
    # cost that trick, not every trick after it.
    got = referee.record()
    exact = exact_tricks(got, record, filmed_from)
    want = [t for r in record["rounds"][filmed_from - 1 :] for t in r["tricks"]]
    truth_tricks = {(t["round"], t["trick"]): t for t in truth["tricks"]}
    truth_totals = list(score_game(GameRecord.from_dict(record)).totals)
    score = referee.score()
    fps = float(truth["fps"])
    rec_latency: list[float] = []
    wall_latency: list[float] = []
    for k, outcome in enumerate(pipeline.outcomes):
        trick = truth_tricks.get((outcome.round - 1, outcome.trick))  # truth counts from 0
        if trick is None:
            continue
        settled = complete_on_table(trick) / fps
        if outcome.observation is not None:
            rec_latency.append(outcome.observation.completed_at - settled)
        if realtime:
            wall_latency.append(clock.done[k] - (wall0 + settled - first.timestamp))
    if tmp is not None:
        tmp.cleanup()
    return {
        "game": str(folder),
        "players": len(record["players"]),
        "tricks": len(want),
        "recognized": sum(len(r["tricks"]) for r in got["rounds"][filmed_from - 1 :]),
        "exact": exact,
        "flagged": sum(1 for o in pipeline.outcomes if o.flags),
        "scores_equal": score.get("totals") == truth_totals,
        "frames": pipeline.stats.frames,
        "fps": pipeline.stats.frames / elapsed if elapsed > 0 else 0.0,
        "latency_recording_max": max(rec_latency, default=0.0),
        "latency_wall_max": max(wall_latency, default=0.0) if realtime else None,
        "latency_recording_median": statistics.median(rec_latency) if rec_latency else 0.0,
        "within_1s": sum(1 for x in (wall_latency if realtime else rec_latency) if x <= 1.0),
    }


def complete_on_table(trick: dict[str, Any]) -> int:
    """The frame from which a truth.json trick lay complete on the table, where its latency
    counts from: its last card's first rest with the hand gone (the tracker may rightly
    complete the trick then, before a hand comes back to nudge the card; games written before
    rested_frame existed fall back to settled_frame). When the last card was swapped (synth
    game's swap-last habit), the wrong card completed the trick earlier: it is recorded then,
    and amended by the swap."""
    rested = max(p.get("rested_frame", p["settled_frame"]) for p in trick["plays"])
    swapped = [r["laid_frame"] for r in trick.get("retracts", []) if r["habit"] == "swap-last"]
    return min([rested, *swapped])


def exact_tricks(got: dict[str, Any], want: dict[str, Any], first: int = 1) -> int:
    """How many of ``want``'s tricks from round ``first`` on ``got`` holds exactly, each
    compared with the trick in the same round and place: one missed or extra trick costs that
    trick, not all after it. The rounds before ``first`` were not filmed, so not judged."""

    def by_place(record: dict[str, Any]) -> dict[tuple[int, int], Any]:
        return {
            (r, t): trick
            for r, rnd in enumerate(record["rounds"])
            for t, trick in enumerate(rnd["tricks"])
            if r >= first - 1
        }

    found = by_place(got)
    return sum(1 for place, trick in by_place(want).items() if found.get(place) == trick)


def cached(folder: Path, recognizer: Any) -> Any:
    """The recognizer's detections for every frame of ``folder``, computed once and pickled."""
    import pickle

    path = folder / f"detections-{getattr(recognizer, 'version', 'model')}.pkl"
    if path.is_file():
        with path.open("rb") as fh:
            return ScriptedRecognizer(pickle.load(fh))
    script = [recognizer(frame.image) for frame in open_source(folder).frames()]
    with path.open("wb") as fh:
        pickle.dump(script, fh)
    return ScriptedRecognizer(script)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skullcam.device.bench")
    parser.add_argument("games", nargs="+", type=Path)
    parser.add_argument("--oracle", action="store_true", help="generator truth as recognizer")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument(
        "--noise", type=float, default=0.0, help="with --oracle: miss and wrong-class rate"
    )
    parser.add_argument("--realtime", action="store_true", help="pace frames at the real rate")
    parser.add_argument("--store", action="store_true", help="record into a temporary store")
    parser.add_argument(
        "--keep-every",
        type=int,
        default=1,
        metavar="N",
        help="replay only every Nth frame (a machine too busy for the camera's rate)",
    )
    parser.add_argument(
        "--drop",
        type=float,
        default=0.0,
        metavar="P",
        help="drop each frame with chance P (a seeded die, --drop-seed)",
    )
    parser.add_argument("--drop-seed", type=int, default=0, metavar="S")
    parser.add_argument(
        "--cache",
        action="store_true",
        help="keep the model's detections in GAME/detections-VERSION.pkl and reuse them "
        "(tune tracking without re-running recognition; frames/s then measures tracking only)",
    )
    args = parser.parse_args(argv)
    if args.keep_every < 1 or not 0.0 <= args.drop < 1.0:
        parser.error("--keep-every is 1 or more and --drop from 0 up to (not including) 1")
    thinning = Thinning(args.keep_every, args.drop, args.drop_seed)
    rows = []
    for folder in args.games:
        if args.oracle:
            script = oracle_script(
                folder, miss_rate=args.noise, wrong_rate=args.noise, jitter_px=2 * args.noise * 10
            )
            recognizer: Any = ScriptedRecognizer(thinning.script(script))
        else:
            from skullcam.vision.recognizer import Recognizer

            recognizer = Recognizer.load(args.model)
            if args.cache:
                recognizer = ScriptedRecognizer(thinning.script(cached(folder, recognizer).script))
        row = bench_game(folder, recognizer, args.realtime, args.store, thinning)
        rows.append(row)
        print(game_line(row))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(total_line(rows, peak_mb))
    return 0


def game_line(row: dict[str, Any]) -> str:
    """The line printed for one game benchmarked, in its numbers ("1 trick <= 1 s", where it
    said "1 tricks")."""
    wall = row["latency_wall_max"]
    return (
        f"{row['game']}: {row['players']} players, {row['exact']}/"
        f"{counted(row['tricks'], 'trick')} exact ({row['recognized']} recognized, "
        f"{row['flagged']} flagged), scores {'equal' if row['scores_equal'] else 'DIFFER'}, "
        f"{row['fps']:.1f} frames/s, latency median {row['latency_recording_median']:.2f} s, "
        f"max {row['latency_recording_max']:.2f} s recording time, "
        f"{counted(row['within_1s'], 'trick')} <= 1 s"
        + ("" if wall is None else f", {wall:.2f} s wall")
    )


def total_line(rows: list[dict[str, Any]], peak_mb: float) -> str:
    """The last line: every game's tricks and scores together ("1/1 game with equal scores"
    for a benchmark of one game)."""
    tricks = sum(r["tricks"] for r in rows)
    exact = sum(r["exact"] for r in rows)
    games_ok = sum(1 for r in rows if r["scores_equal"])
    return (
        f"total: {exact}/{counted(tricks, 'trick')} exact ({100 * exact / max(1, tricks):.1f} "
        f"%), {games_ok}/{counted(len(rows), 'game')} with equal scores, peak memory "
        f"{peak_mb:.0f} MB"
    )


if __name__ == "__main__":
    sys.exit(main())
