"""`skullcam enroll`'s plan flags: the default, --thorough, and explicit counts over both."""

from __future__ import annotations

from pathlib import Path

import pytest

from skullcam.cli import build_parser, main
from skullcam.commands.enroll import _plan
from skullcam.errors import UserError
from skullcam.vision.adapt import THOROUGH_PLAN, AdaptPlan


def plan_for(*flags: str) -> AdaptPlan:
    plan = _plan(build_parser().parse_args(["enroll", *flags]))
    assert isinstance(plan, AdaptPlan)
    return plan


def test_default_plan_is_the_quick_one() -> None:
    plan = plan_for()
    assert (plan.train_scenes, plan.epochs, plan.val_scenes) == (3600, 12, 450)
    assert plan.detector_epochs == 0  # the shipped detector is kept (docs/enroll.md, session 12)
    assert plan_for("--detector-epochs", "2").detector_epochs == 2
    assert plan.corner_epochs == 3
    assert plan_for("--corner-epochs", "0").corner_epochs == 0
    assert plan.minutes == 19  # the fine-tune stops early where 12 epochs would not fit


def test_thorough_takes_the_longer_measured_plan() -> None:
    plan = plan_for("--thorough")
    assert plan.train_scenes == THOROUGH_PLAN.train_scenes == 4800
    assert plan.epochs == THOROUGH_PLAN.epochs == 12
    assert plan.val_scenes == 600
    assert plan.corner_epochs == THOROUGH_PLAN.corner_epochs == 3
    assert plan.detector_epochs == 0
    assert plan.minutes is None  # every epoch, whatever the time


def test_explicit_counts_win_over_either_plan() -> None:
    plan = plan_for("--thorough", "--epochs", "4")
    assert (plan.train_scenes, plan.epochs) == (4800, 4)
    plan = plan_for("--scenes", "300")
    assert (plan.train_scenes, plan.epochs, plan.val_scenes) == (300, 12, 37)
    assert plan_for("--minutes", "0").minutes is None
    assert plan_for("--thorough", "--minutes", "25").minutes == 25


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--scenes", "0"], "--scenes must be at least 1"),
        (["--thorough", "--epochs", "0"], "--epochs must be at least 1"),
        (["--detector-epochs", "-1"], "--detector-epochs must be 0"),
        (["--corner-epochs", "-1"], "--corner-epochs must be 0"),
        (["--minutes", "-5"], "--minutes must be a number of minutes, or 0"),
        (["--minutes", "nan"], "--minutes must be a number of minutes, or 0"),
    ],
)
def test_bad_counts_are_refused_naming_the_flag(flags: list[str], message: str) -> None:
    with pytest.raises(UserError, match=message):
        plan_for(*flags)


@pytest.mark.parametrize("installed", [True, False])
def test_the_guided_enrollment_says_before_the_first_photo_that_it_cannot_adapt(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    installed: bool,
) -> None:
    """On a Pi's runtime install the page photographed all 69 faces and only then failed,
    at the adaptation, for want of torch."""
    import importlib.util

    import skullcam.device.enroll_web as enroll_web

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: found(name, *a) if installed or name not in ("torch", "onnx") else None,
    )
    monkeypatch.setattr(enroll_web, "serve", lambda args, plan: 0)  # the page, not served here
    assert main(["enroll", "--data", str(tmp_path)]) == 0
    said = capsys.readouterr().err
    if installed:
        assert "not installed" not in said
    else:
        assert "warning: torch and onnx not installed: the photos you take are kept in " in said
        assert str(tmp_path / "enroll" / "my-deck" / "faces") in said
        assert "skullcam enroll --from FOLDER" in said
