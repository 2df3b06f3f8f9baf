"""`skullcam trick` and `skullcam score` through a subprocess, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from repo_paths import REPO
from store_support import spec_example

EXAMPLE = REPO / "datasets" / "examples" / "game.json"


def skullcam(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skullcam", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
        check=False,
    )


def test_trick_plain_verdict() -> None:
    out = skullcam("trick", "pirate-rosie", "skull-king", "mermaid-alyra")
    assert out.returncode == 0, out.stderr
    assert (
        out.stdout.splitlines()[0]
        == "Play 3 wins with mermaid-alyra (+40 bonus if the bid is exact)."
    )
    assert "No bonus for capturing the pirate." in out.stdout


@pytest.mark.parametrize(
    ("settings", "verdict"),
    [
        ({"keep_bonus_on_miss": True}, "(+40 bonus, paid whether the bid is exact or not)."),
        (
            {"scoring": "rascal"},
            "(+40 bonus: all of it if the bid is exact, half if it is off by one unless a"
            " cannonball was called).",
        ),
    ],
)
def test_trick_verdict_names_the_bonus_as_the_table_scores_it(
    tmp_path: Path, settings: dict[str, object], verdict: str
) -> None:
    """The verdict line once said "if the bid is exact" under every table's rules, beside an
    explanation that said otherwise."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(settings))
    out = skullcam("trick", "skull-king", "mermaid-alyra", "--settings", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "Play 2 wins with mermaid-alyra " + verdict


def test_trick_text_counts_plays_from_one_and_json_from_zero() -> None:
    """The text said "Play 0 wins with skull-king" for the first card laid: a player counts
    the first card as play 1. The JSON keeps its documented indices, explanation too."""
    text = skullcam("trick", "skull-king", "pirate-rosie", "loot")
    assert text.returncode == 0, text.stderr
    first, explanation = text.stdout.splitlines()[:2]
    assert first.startswith("Play 1 wins with skull-king")
    assert "(play 1) wins" in explanation and "Loot alliance: play 3 and play 1" in explanation
    data = json.loads(skullcam("trick", "skull-king", "pirate-rosie", "loot", "--json").stdout)
    assert (data["winner"], data["loot_alliances"]) == (0, [[2, 0]])
    assert "(play 0) wins" in data["explanation"]


def test_trick_json_is_the_documented_object() -> None:
    out = skullcam("trick", "Pirate-Rosie", "SKULL-KING", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {k: data[k] for k in data if k != "explanation"} == {
        "winner": 1,
        "winning_card": "skull-king",
        "lead_suit": None,
        "next_leader": 1,
        "bonus": 30,
        "loot_alliances": [],
    }
    assert "Skull King" in data["explanation"]


def test_trick_cards_after_an_option_are_still_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """``skullcam trick green-7 --json green-8 yellow-3`` was refused as "unrecognized
    arguments: green-8 yellow-3": argparse takes a list of positionals in one run. The cards
    keep their order; an unknown option is still refused, and named alone."""
    from skullcam.cli import main

    assert main(["trick", "green-7", "--json", "green-8", "yellow-3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["winner"], data["winning_card"], data["lead_suit"]) == (1, "green-8", "green")
    with pytest.raises(SystemExit) as exc:
        main(["trick", "green-7", "--json", "green-8", "--bogus"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --bogus (see" in capsys.readouterr().err


def test_images_after_a_double_dash_are_images(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``skullcam detect a.jpg --json -- -scan.jpg`` was refused as "unrecognized arguments:
    -- -scan.jpg": a word after ``--`` is an image, whatever it starts with, as it is when
    ``--`` comes before the first image."""
    from skullcam.cli import main

    monkeypatch.chdir(tmp_path)  # neither image is there: each is said, and no model loads
    assert main(["detect", "a.jpg", "--json", "--", "-scan.jpg", "--json"]) == 2
    said = capsys.readouterr()
    assert json.loads(said.out) == {"images": [], "model": None}
    assert "unrecognized" not in said.err
    assert [line.split(" does not")[0] for line in said.err.splitlines()] == [
        "skullcam detect: error: image a.jpg",
        "skullcam detect: error: image -scan.jpg",
        "skullcam detect: error: image --json",
    ]


def test_trick_settings_file_and_warnings(tmp_path: Path) -> None:
    settings = tmp_path / "house.json"
    settings.write_text(json.dumps({"mermaid_captures_skull_king": 50}))
    out = skullcam("trick", "skull-king", "mermaid-sirena", "--settings", str(settings), "--json")
    assert json.loads(out.stdout)["bonus"] == 50
    out = skullcam("trick", "loot", "green-3", "--json")
    data = json.loads(out.stdout)
    assert data["loot_alliances"] == [[0, 1]]
    assert "'loot' setting is off" in data["warnings"][0]
    plain = skullcam("trick", "kraken", "green-3")
    assert plain.returncode == 0
    assert plain.stdout.startswith("Nobody wins this trick; play 2 leads next.")
    assert "warning:" in plain.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["trick", "green-15"], "play 1: unknown card 'green-15'"),
        (["trick", "green-7", "green-15"], "play 2: unknown card 'green-15'"),
        (["trick", "green-7", "GREEN-7"], "play 2 (green-7): green-7 is already in this trick"),
        # --json numbers plays from 0, its errors too: they named its play 1 "play 2".
        (["trick", "green-7", "green-15", "--json"], "play 1: unknown card 'green-15'"),
        (["trick", "green-7", "GREEN-7", "--json"], "play 1 (green-7): green-7 is already in"),
        (["trick", "green-7"], "a trick has one card per player, 2 to 8, got 1"),
        (["trick", "tigress", "green-2"], "write tigress:pirate or tigress:escape"),
        (
            ["trick", "green-1", "green-2", "--settings", "/nonexistent.json"],
            "cannot read settings",
        ),
    ],
    ids=[
        "unknown-card",
        "unknown-second-card",
        "duplicate",
        "json-unknown-second-card",
        "json-duplicate",
        "one-card",
        "tigress",
        "no-settings",
    ],
)
def test_trick_bad_input_is_one_line_without_traceback(args: list[str], message: str) -> None:
    out = skullcam(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_score_example_table() -> None:
    out = skullcam("score", str(EXAMPLE))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["Round", "Ana", "Ben", "Cai", "Dee"]
    assert len([line for line in lines if line[:6].strip().isdigit()]) == 10
    assert any(line.startswith("Total") for line in lines)
    assert "wins with" in out.stdout


def test_score_json_matches_the_engine() -> None:
    from skullcam.rules import GameRecord, score_game

    out = skullcam("score", str(EXAMPLE), "--json")
    assert out.returncode == 0, out.stderr
    expected = score_game(GameRecord.from_dict(json.loads(EXAMPLE.read_text()))).to_json()
    assert json.loads(out.stdout) == expected
    assert set(expected) == {"rounds", "totals", "leaders"}


def test_score_stdin_settings_override_and_explain(tmp_path: Path) -> None:
    record = spec_example()
    out = skullcam("score", "-", "--json", stdin=json.dumps(record))
    assert json.loads(out.stdout)["totals"] == [-10, 10, 20]
    house = tmp_path / "house.json"
    house.write_text(json.dumps({"points_per_trick": 30, "zero_bid_mode": "fixed"}))
    out = skullcam("score", "-", "--json", "--settings", str(house), stdin=json.dumps(record))
    assert json.loads(out.stdout)["totals"] == [-10, 10, 30]
    out = skullcam("score", "-", "--explain", stdin=json.dumps(record))
    assert "The Tigress as a pirate (Cai) wins" in out.stdout
    assert "Cai bid 1, won 1" in out.stdout
    assert "Round 1 (1 card, Ana deals):" in out.stdout  # was "1 cards"


def _record(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(text)
    return str(path)


def _game(**changes: object) -> str:
    data = json.loads(EXAMPLE.read_text())
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key[1:]) if key.startswith("i") else key]
        last = keys[-1]
        target[int(last[1:]) if last.startswith("i") else last] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not valid JSON (line 1, column 2"),
        ("[]", "a game record is a JSON object"),
        (
            _game(rounds__i2__tricks__i1__plays__i0__card="green-15"),
            "round 3, trick 2, play 1 (Cai): unknown card 'green-15'",
        ),
        (
            _game(rounds__i0__tricks__i0__plays__i1__player=3),
            "round 1, trick 1, play 2: Dee played out of turn; it was Cai's turn",
        ),
        (_game(rounds__i0__bids=[2, 0, 1, 1]), "round 1: Ana's bid 2 is out of range"),
        (
            _game(rounds__i1__tricks__i1__plays__i3__card="purple-12"),
            "round 2, trick 2, play 4 (Ana): purple-12 was already played this round",
        ),
    ],
    ids=["malformed-json", "not-an-object", "unknown-card", "out-of-turn", "bid", "card-twice"],
)
def test_score_bad_records_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    out = skullcam("score", _record(tmp_path, text))
    assert out.returncode == 2
    assert message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


DISPUTED: dict[str, Any] = {
    "format": "skullcam-game/1",
    "players": ["Ana", "Ben", "Cai"],
    "first_dealer": 0,
    "rounds": [
        {
            "bids": [1, 0, 0],
            "tricks": [{"plays": [[1, "green-1"], [2, "green-2"], [0, "green-3"]]}],
        },
        {
            "bids": [0, 2, 0],
            "tricks": [
                # Ben's Tigress (settled later as a pirate) won, but Ana led the next trick.
                {"plays": [[2, "green-5"], [0, "green-9"], [1, "tigress:pirate"]]},
                {"plays": [[0, "yellow-3"], [1, "yellow-7"], [2, "yellow-1"]]},
            ],
        },
    ],
}
for _round in DISPUTED["rounds"]:
    for _trick in _round["tricks"]:
        _trick["plays"] = [{"player": p, "card": c} for p, c in _trick["plays"]]


def test_score_as_played_lets_a_trick_led_out_of_turn_stand(tmp_path: Path) -> None:
    path = _record(tmp_path, json.dumps(DISPUTED))
    refused = skullcam("score", path)
    assert refused.returncode == 2
    assert "Ana played out of turn; it was Ben's turn" in refused.stderr
    assert "--as-played" in refused.stderr
    out = skullcam("score", path, "--json", "--as-played")
    assert out.returncode == 0, out.stderr
    score = json.loads(out.stdout)
    assert score["totals"] == [40, 50, 30]
    assert score["warnings"] == [
        "round 2: trick 2: Ana led, but by the rules Ben leads it; scored as played"
    ]


def test_score_offers_as_played_only_where_it_would_score_the_record(tmp_path: Path) -> None:
    """A trick played out of clockwise order is refused with or without --as-played, so its
    message does not send the user to try it."""
    record = spec_example()
    plays = record["rounds"][0]["tricks"][0]["plays"]
    plays[0], plays[1] = plays[1], plays[0]
    path = _record(tmp_path, json.dumps(record))
    refused = skullcam("score", path)
    assert refused.returncode == 2 and "out of turn" in refused.stderr
    assert "--as-played" not in refused.stderr
    assert skullcam("score", path, "--as-played").returncode == 2


def test_score_as_played_leaves_out_a_tie_break_a_correction_made_needless(
    tmp_path: Path,
) -> None:
    """A store export after a round-1 correction untied the lead: the tie-break round was
    played, but the game was over before it. Refused as it stands, with --as-played offered;
    scored as played, the round is left out and said so."""
    one = [{"player": 1, "card": "green-5"}, {"player": 0, "card": "green-3"}]
    record = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben"],
        "settings": {"rounds": 1, "tie": "extra_round"},
        "rounds": [
            {"bids": [0, 1], "tricks": [{"plays": one}]},  # Ben made it: 20 to 10
            {"bids": [0, 1], "tricks": [{"plays": one[::-1]}]},
        ],
    }
    path = _record(tmp_path, json.dumps(record))
    refused = skullcam("score", path)
    assert refused.returncode == 2 and "an extra round is played only on" in refused.stderr
    assert "--as-played" in refused.stderr
    out = skullcam("score", path, "--json", "--as-played")
    assert out.returncode == 0, out.stderr
    score = json.loads(out.stdout)
    assert score["totals"] == [10, 20] and len(score["rounds"]) == 1
    assert score["warnings"] == [
        "the lead is not tied after round 1, so round 2, played as a tie-break, does not count"
    ]


def test_score_blames_the_settings_file_for_its_own_bad_key(tmp_path: Path) -> None:
    house = tmp_path / "house.json"
    house.write_text(json.dumps({"bogus": 1}))
    out = skullcam("score", str(EXAMPLE), "--settings", str(house))
    assert out.returncode == 2
    assert f"{house}: " in out.stderr and "unknown setting 'bogus'" in out.stderr
    assert f"{EXAMPLE}:" not in out.stderr


def test_score_missing_file() -> None:
    out = skullcam("score", "/nonexistent/game.json")
    assert out.returncode == 2
    assert "cannot read game record /nonexistent/game.json" in out.stderr


def test_help_lists_both_commands() -> None:
    for command in ("trick", "score"):
        out = skullcam(command, "--help")
        assert out.returncode == 0 and "--json" in out.stdout


def test_score_settings_override_on_a_record_with_bad_settings_is_one_line(
    tmp_path: Path,
) -> None:
    """--settings merged into a record whose own settings are a list: the record's fault is
    named, not a TypeError traceback from the merge."""
    record = spec_example()
    record["settings"] = [1]
    house = tmp_path / "house.json"
    house.write_text(json.dumps({"loot": True}))
    out = skullcam("score", "-", "--settings", str(house), stdin=json.dumps(record))
    assert out.returncode == 2
    assert "'settings' must be a JSON object" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_tigress_played_twice_in_a_round_is_named_as_the_tigress(tmp_path: Path) -> None:
    """tigress:pirate, then tigress:escape: the one Tigress was played twice, whatever it was
    declared as (the message named "tigress:escape", as if that were another card)."""
    plays = [
        [(0, "tigress:pirate"), (1, "green-2")],
        [(0, "tigress:escape"), (1, "green-3")],
    ]
    record = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben"],
        "first_dealer": 0,
        "rounds": [
            {
                "bids": [0, 1],
                "tricks": [
                    {"plays": [{"player": 1, "card": "green-1"}, {"player": 0, "card": "green-2"}]}
                ],
            },
            {
                "bids": [1, 1],
                "tricks": [
                    {"plays": [{"player": p, "card": c} for p, c in trick]} for trick in plays
                ],
            },
        ],
    }
    out = skullcam("score", "-", stdin=json.dumps(record))
    assert out.returncode == 2
    assert "round 2, trick 2, play 1 (Ana): tigress was already played this round" in out.stderr


def test_score_table_widens_only_a_long_names_column(tmp_path: Path) -> None:
    """A long name widens its own column, not every player's (a game night's 7-player table
    with 'Massimiliano Bartolomei' printed 181 characters a row)."""
    data = json.loads(EXAMPLE.read_text())
    long_name = "Massimiliano Bartolomei"
    data["players"][1] = long_name
    out = skullcam("score", _record(tmp_path, json.dumps(data)))
    assert out.returncode == 0, out.stderr
    header, *rows = out.stdout.splitlines()
    assert header.split("  ")[-1].strip() == "Dee"
    assert len(header) == len("Round ") + 12 + len(long_name) + 2 + 12 + 12
    table = [row for row in rows if row[:6].strip().isdigit() or row.startswith("Total")]
    assert {len(row.rstrip()) for row in table} <= {len(header)}
    assert long_name in header
