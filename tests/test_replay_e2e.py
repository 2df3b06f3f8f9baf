"""End to end on a generated game video: ``skullcam synth game`` -> the replay pipeline.

The generator renders a real game (hands sliding cards in, withdrawing, nudging, sweeping the
trick to its winner) and writes the truth. Two checks:

* with the generator's per-frame truth as the recognizer (an "oracle", what a perfect model
  would see), the tracker and trick logic must reproduce the true record exactly: this isolates
  the pipeline from recognition errors and needs no model;
* with the shipped model (when one is installed), ``skullcam replay --json`` must reproduce the
  true record: the full product path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skullcam.cli import main
from skullcam.device.referee import Referee
from skullcam.device.replay import replay_source
from skullcam.device.scripted import ScriptedRecognizer, oracle_script
from skullcam.device.sources import open_source
from skullcam.rules import GameRecord, Settings, score_game


@pytest.fixture(scope="module")
def generated_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("synth")
    deck, game = root / "deck", root / "game"
    assert main(["synth", "deck", "--out", str(deck)]) == 0
    argv = ["synth", "game", "--deck", str(deck), "--players", "3", "--rounds", "2"]
    argv += ["--fps", "5"]  # half the frames to render; the pipeline works at 5 fps too
    assert main([*argv, "--out", str(game), "--seed", "3", "--no-progress"]) == 0
    return game


def test_oracle_replay_of_a_generated_game_reproduces_record_scores_and_latency(
    generated_game: Path,
) -> None:
    record = json.loads((generated_game / "game.json").read_text())
    truth = json.loads((generated_game / "truth.json").read_text())
    referee = Referee(
        record["players"],
        record["first_dealer"],
        Settings.from_dict(record.get("settings") or {}),
        [r["bids"] for r in record["rounds"]],
    )
    source = open_source(generated_game)
    recognizer = ScriptedRecognizer(oracle_script(generated_game))
    pipeline = replay_source(source, generated_game, recognizer, referee)
    assert referee.record()["rounds"] == record["rounds"]
    assert referee.score()["totals"] == list(score_game(GameRecord.from_dict(record)).totals)
    fps = truth["fps"]
    for outcome, trick in zip(pipeline.outcomes, truth["tricks"], strict=True):
        last_settled = max(p["settled_frame"] for p in trick["plays"]) / fps
        assert outcome.observation is not None
        assert outcome.observation.completed_at - last_settled <= 1.0
        assert outcome.flags == ()


def shipped_model() -> Path | None:
    try:
        from skullcam.vision.recognizer import MANIFEST, shipped_model_dir

        folder = shipped_model_dir()
    except Exception:
        return None
    return folder if (folder / MANIFEST).is_file() else None


@pytest.mark.slow
@pytest.mark.skipif(shipped_model() is None, reason="no trained model shipped yet")
def test_skullcam_replay_with_the_shipped_model_reproduces_the_record(
    generated_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((generated_game / "game.json").read_text())
    bids = tmp_path / "bids.json"
    bids.write_text(json.dumps([r["bids"] for r in record["rounds"]]))
    names = ",".join(record["players"])
    argv = ["replay", str(generated_game), "--players", str(len(record["players"]))]
    argv += ["--first-dealer", str(record["first_dealer"]), "--bids", str(bids), "--json"]
    argv += ["--names", names, "--data", str(tmp_path / "data")]
    if record.get("settings"):
        settings = tmp_path / "settings.json"
        settings.write_text(json.dumps(record["settings"]))
        argv += ["--settings", str(settings)]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == record["rounds"]
    # With the wrong first dealer, stdout is still the record alone, and stderr says the
    # tricks led out of turn were flagged.
    wrong = (record["first_dealer"] + 1) % len(record["players"])
    argv[argv.index("--first-dealer") + 1] = str(wrong)
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["first_dealer"] == wrong
    assert "flagged for a person to check" in captured.err
    # ... and that `skullcam score` takes that record only with --as-played.
    assert "scores only as played ('skullcam score --as-played')" in captured.err
    assert "out of turn" in captured.err


def test_replay_of_a_game_folder_takes_its_settings_too(
    generated_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It took the names and the first dealer from the folder's game.json, not its rounds:
    the demo's 3-round game came out as a 10-round one, unfinished."""
    record = json.loads((generated_game / "game.json").read_text())
    assert record["settings"].get("rounds") == 2
    argv = ["replay", str(generated_game), "--players", "3", "--json"]
    assert main([*argv, "--data", str(tmp_path / "data")]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["settings"] == record["settings"]
    assert "the settings from" in captured.err
    assert f"every bid counts as 0 (its own: --bids {generated_game / 'game.json'})" in (
        captured.err
    )
    # As text, said once, beside the scores.
    assert main([*argv[:-1], "--data", str(tmp_path / "data")]) == 0
    captured = capsys.readouterr()
    assert "every bid counts as 0" not in captured.err
    own = f"every bid counts as 0 in these scores; the game's own: --bids {generated_game}"
    assert own in captured.out


def test_replay_beside_a_plain_list_of_bids_still_takes_the_folders_settings(
    generated_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --bids a list of bid lists (no settings in it), the game's settings were left
    out: a 2-round game was scored as 10 rounds ("--bids has bids for 2 of 10 rounds")."""
    record = json.loads((generated_game / "game.json").read_text())
    bids = tmp_path / "bids.json"
    bids.write_text(json.dumps([r["bids"] for r in record["rounds"]]))
    argv = ["replay", str(generated_game), "--players", "3", "--bids", str(bids), "--json"]
    assert main([*argv, "--data", str(tmp_path / "data")]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["settings"] == record["settings"]
    assert "the settings from" in captured.err and "of 10 rounds" not in captured.err
