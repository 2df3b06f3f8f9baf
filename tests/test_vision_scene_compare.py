"""Two evaluations compared scene by scene (``skullcam eval --against``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from model_variants import shipped_model_with
from repo_paths import SAMPLE_SCENES

from skullcam.cli import main
from skullcam.errors import UserError
from skullcam.vision.scene_compare import (
    SCENE_VERDICTS,
    SceneComparison,
    compare_scenes,
    read_scene_verdicts,
    write_scene_verdicts,
)


def comparison(fixed: int, broken: int) -> SceneComparison:
    return SceneComparison(scenes=100, right_before=90, right_after=90, fixed=fixed, broken=broken)


@pytest.mark.parametrize(
    ("fixed", "broken", "p"),
    [
        (0, 0, 1.0),  # nothing changed: no evidence either way
        (5, 0, 2 / 32),  # all five the same way: 2 * (1/2)^5
        (3, 1, 2 * (1 + 4) / 16),  # 2 * P(X <= 1), X ~ Bin(4, 1/2)
        (1, 1, 1.0),  # even: capped at 1
        (0, 6, 2 / 64),  # symmetric: a one-sided loss is as unlikely as a win
    ],
)
def test_mcnemar_p_by_hand(fixed: int, broken: int, p: float) -> None:
    assert comparison(fixed, broken).p_value == pytest.approx(p)


def test_session_23s_choice_reads_as_it_was_reported() -> None:
    """19 fixed and 7 broken was reported in session 23 as "McNemar p about 0.02"."""
    assert comparison(19, 7).p_value == pytest.approx(0.029, abs=0.001)


def test_fixed_and_broken_are_counted_scene_by_scene() -> None:
    before = {"a": True, "b": False, "c": False, "d": True}
    after = {"a": True, "b": True, "c": False, "d": False}
    result = compare_scenes(before, after)
    assert (result.scenes, result.right_before, result.right_after) == (4, 2, 2)
    assert (result.fixed, result.broken) == (1, 1)
    assert "2 of 4 scenes right against 2: 1 fixed, 1 broken" in result.describe()
    one = compare_scenes({"a": False}, {"a": True})
    assert one.describe().startswith("1 of 1 scene right against 0: 1 fixed, 0 broken")


def test_reports_of_different_scenes_are_refused() -> None:
    with pytest.raises(UserError, match="1 only in the earlier one, 0 only in this one"):
        compare_scenes({"a": True, "b": True}, {"a": True})


def test_verdicts_round_trip(tmp_path: Path) -> None:
    write_scene_verdicts([(Path("x.jpg"), []), (Path("y.jpg"), ["missed escape"])], tmp_path)
    verdicts = read_scene_verdicts(tmp_path)
    assert verdicts == {str(Path("x.jpg").resolve()): True, str(Path("y.jpg").resolve()): False}
    assert read_scene_verdicts(tmp_path / SCENE_VERDICTS) == verdicts


def test_a_report_without_verdicts_says_how_to_get_them(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no scenes\.jsonl there.*skullcam eval --out"):
        read_scene_verdicts(tmp_path)


def test_a_damaged_verdict_line_is_named(tmp_path: Path) -> None:
    (tmp_path / SCENE_VERDICTS).write_text('{"image": "a.jpg", "correct": true}\n{"image"\n')
    with pytest.raises(UserError, match="line 2: not a scene verdict"):
        read_scene_verdicts(tmp_path)


def test_a_verdict_file_that_is_not_text_is_named(tmp_path: Path) -> None:
    (tmp_path / SCENE_VERDICTS).write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(UserError, match=r"scenes\.jsonl: cannot read it"):
        read_scene_verdicts(tmp_path)


def test_eval_against_an_earlier_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped model, then one that drops every detector box scored under 0.95: the second
    breaks scenes the first got right and fixes none, and says so against the first's report."""
    common = ["eval", "--dataset", str(SAMPLE_SCENES), "--limit", "8", "--threads", "1"]
    first, second = tmp_path / "first", tmp_path / "second"
    assert main([*common, "--out", str(first), "--data", str(tmp_path / "data")]) == 0
    strict = shipped_model_with(tmp_path / "strict", detector_conf=0.95)
    argv = [*common, "--model", str(strict), "--out", str(second), "--against", str(first)]
    assert main([*argv, "--json"]) == 0
    against = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["against"]
    before, after = read_scene_verdicts(first), read_scene_verdicts(second)
    assert against["scenes"] == len(before) == 8
    assert against["fixed"] == 0
    assert against["broken"] == sum(before.values()) - sum(after.values()) > 0
    assert against["report"] == str(first)
    metrics = json.loads((second / "metrics.json").read_text())
    edge = metrics["frame_edge"]  # every must-find card is at the frame's edge or inside it
    assert edge["edge_cards"] + edge["inside_cards"] == metrics["cards"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"against {first}: {sum(after.values())} of 8 scenes right" in out


def test_eval_against_a_missing_report_fails_before_evaluating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--dataset", str(SAMPLE_SCENES), "--out", str(tmp_path / "r")]
    assert main([*argv, "--against", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "no scenes.jsonl there" in err and "evaluating" not in err


def test_eval_against_a_report_of_other_scenes_fails_before_evaluating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import skullcam.vision.evaluate as evaluate_module

    (tmp_path / "old").mkdir()
    write_scene_verdicts([(Path("elsewhere.jpg"), [])], tmp_path / "old")

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("evaluated scenes the comparison was bound to refuse")

    monkeypatch.setattr(evaluate_module, "evaluate", never)
    argv = ["eval", "--dataset", str(SAMPLE_SCENES), "--out", str(tmp_path / "r"), "--limit", "3"]
    assert main([*argv, "--against", str(tmp_path / "old")]) == 2
    assert "1 only in the earlier one, 3 only in this one" in capsys.readouterr().err
