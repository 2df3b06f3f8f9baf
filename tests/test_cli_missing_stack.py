"""A command that needs the training stack, run on the runtime-only install (as on a Pi).

The runtime install has no torch or ultralytics; `skullcam train` or `enroll` there must say
what to install, not end in an ImportError traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import SAMPLE_SCENES

from skullcam.errors import missing_training_package


@pytest.mark.parametrize("missing", ["torch", "ultralytics"])
def test_train_without_the_training_stack_says_what_to_install(
    missing: str, tmp_path: Path
) -> None:
    # In a child process, so that hiding the package cannot leak into other tests' imports.
    hide_and_run = (
        f"import sys; sys.modules[{missing!r}] = None; "
        "from skullcam.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    out = tmp_path / "model"
    args = ["train", "--dataset", str(SAMPLE_SCENES), "--out", str(out)]
    args += ["--work", str(tmp_path / "work"), "--detector-epochs", "1"]
    done = subprocess.run(
        [sys.executable, "-c", hide_and_run, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert f"needs {missing}, which is not installed" in done.stderr
    assert "pip install -e '.[train]'" in done.stderr and "docs/pi.md" in done.stderr
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_only_training_packages_are_explained_away() -> None:
    """Any other missing module is a broken install: its traceback must still show."""
    assert missing_training_package(ModuleNotFoundError("x", name="torch")) is not None
    assert missing_training_package(ModuleNotFoundError("x", name="cv2")) is None
    assert missing_training_package(ModuleNotFoundError("x", name="torch_nope")) is None
