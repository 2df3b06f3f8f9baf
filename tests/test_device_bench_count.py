"""The game benchmark's count of exact tricks (a missed trick costs that trick only) and the
moment its latency counts from."""

from __future__ import annotations

from skullcam.device.bench import complete_on_table, exact_tricks, game_line, total_line


def game(*rounds: list[str]) -> dict:
    return {"rounds": [{"tricks": [{"plays": [c]} for c in tricks]} for tricks in rounds]}


def test_a_missed_trick_costs_only_itself() -> None:
    want = game(["a"], ["b", "c"], ["d", "e", "f"])
    assert exact_tricks(want, want) == 6
    missed = game(["a"], ["c"], ["d", "e", "f"])  # round 2's first trick never seen
    assert exact_tricks(missed, want) == 4  # its place now holds "c": both of round 2 wrong
    short = game(["a"], ["b", "c"], ["d", "e"])  # the recording stopped before the last
    assert exact_tricks(short, want) == 5
    extra = game(["a", "x"], ["b", "c"], ["d", "e", "f"])  # a phantom trick in round 1
    assert exact_tricks(extra, want) == 6


def test_rounds_before_the_first_filmed_are_not_judged() -> None:
    want = game(["a"], ["b", "c"], ["d", "e", "f"])
    assert exact_tricks(want, want, first=2) == 5
    assert exact_tricks(game(["x"], ["b", "c"], ["d", "e", "f"]), want, first=2) == 5
    assert exact_tricks(game(["a"], ["b", "x"], ["d", "e", "f"]), want, first=3) == 3
    assert exact_tricks(game(["a"], ["b", "x"], ["d", "e", "f"]), want, first=2) == 4


def test_latency_counts_from_the_trick_lying_complete() -> None:
    plays = [{"rested_frame": 10, "settled_frame": 12}, {"rested_frame": 30, "settled_frame": 30}]
    assert complete_on_table({"plays": plays}) == 30
    old_game = [{"settled_frame": 12}, {"settled_frame": 31}]  # written before rested_frame
    assert complete_on_table({"plays": old_game}) == 31
    taken_back = {"habit": "take-back", "laid_frame": 20}  # the trick was not complete then
    assert complete_on_table({"plays": plays, "retracts": [taken_back]}) == 30
    swapped = {"habit": "swap-last", "laid_frame": 22}  # the wrong card completed it
    assert complete_on_table({"plays": plays, "retracts": [taken_back, swapped]}) == 22


def test_one_trick_and_one_game_are_counted_in_the_singular() -> None:
    """`python -m skullcam.device.bench` said "1 tricks <= 1 s"."""
    row = {
        "game": "g",
        "players": 2,
        "exact": 1,
        "tricks": 1,
        "recognized": 1,
        "flagged": 0,
        "scores_equal": True,
        "fps": 30.0,
        "latency_recording_median": 0.5,
        "latency_recording_max": 0.5,
        "within_1s": 1,
        "latency_wall_max": None,
    }
    assert game_line(row) == (
        "g: 2 players, 1/1 trick exact (1 recognized, 0 flagged), scores equal, 30.0 frames/s, "
        "latency median 0.50 s, max 0.50 s recording time, 1 trick <= 1 s"
    )
    assert total_line([row], 100.0) == (
        "total: 1/1 trick exact (100.0 %), 1/1 game with equal scores, peak memory 100 MB"
    )
    two = {**row, "exact": 3, "tricks": 4, "within_1s": 2}
    assert total_line([row, two], 100.0).startswith("total: 4/5 tricks exact (80.0 %), 2/2 games")
    assert game_line(two).endswith(", 2 tricks <= 1 s")
