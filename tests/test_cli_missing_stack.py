"""A command that needs the training stack, run on the runtime-only install (as on a Pi).

The runtime install has no torch or ultralytics; `skullcam train` or `enroll` there must say
what to install, not end in an ImportError traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from skullcam.cli import main
from skullcam.errors import missing_training_package

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("missing", ["torch", "ultralytics"])
def test_train_without_the_training_stack_says_what_to_install(
    missing: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ("torch", "ultralytics"):
        if name == missing:
            monkeypatch.setitem(sys.modules, name, None)  # `import name` now fails
    for loaded in [m for m in sys.modules if m.startswith("skullcam.vision.train")]:
        monkeypatch.delitem(sys.modules, loaded)  # so their imports run again
    out = tmp_path / "model"
    args = ["train", "--dataset", str(REPO / "datasets/samples/scenes"), "--out", str(out)]
    rc = main([*args, "--work", str(tmp_path / "work"), "--detector-epochs", "1"])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"needs {missing}, which is not installed" in err
    assert "pip install -e '.[train]'" in err and "docs/pi.md" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_only_training_packages_are_explained_away() -> None:
    """Any other missing module is a broken install: its traceback must still show."""
    assert missing_training_package(ModuleNotFoundError("x", name="torch")) is not None
    assert missing_training_package(ModuleNotFoundError("x", name="cv2")) is None
    assert missing_training_package(ModuleNotFoundError("x", name="torch_nope")) is None
