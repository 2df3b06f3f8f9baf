"""Publishing a trained model into its folder: a crash half-way never leaves a mismatched model.

`skullcam train` writes into `models/` by default, over the shipped model.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skullcam.errors import UserError
from skullcam.vision.recognizer import MANIFEST, ModelManifest, Recognizer, shipped_model_dir
from skullcam.vision.training import CLASSIFIER_FILE, DETECTOR_FILE, move_weights_in


def _old_model(folder: Path) -> None:
    shutil.copytree(shipped_model_dir(), folder, ignore=shutil.ignore_patterns("*.pt", "*.md"))


def test_new_weights_replace_the_old_and_the_old_manifest_goes(tmp_path: Path) -> None:
    out, staging = tmp_path / "model", tmp_path / "staging"
    _old_model(out)
    staging.mkdir()
    (staging / DETECTOR_FILE).write_bytes(b"new detector")
    (staging / CLASSIFIER_FILE).write_bytes(b"new classifier")
    move_weights_in(staging, out)
    assert (out / DETECTOR_FILE).read_bytes() == b"new detector"
    assert (out / CLASSIFIER_FILE).read_bytes() == b"new classifier"
    assert not (out / MANIFEST).exists()  # the caller writes the new one last
    assert list(staging.iterdir()) == []


def test_a_crash_between_two_moves_leaves_a_model_that_refuses_to_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, staging = tmp_path / "model", tmp_path / "staging"
    _old_model(out)
    staging.mkdir()
    (staging / DETECTOR_FILE).write_bytes(b"new detector")
    (staging / CLASSIFIER_FILE).write_bytes(b"new classifier")
    real_move = shutil.move
    moved: list[str] = []

    def dies_on_the_second_move(src: str, dst: Path) -> object:
        if moved:
            raise KeyboardInterrupt  # the user pressed Ctrl-C
        moved.append(src)
        return real_move(src, dst)

    monkeypatch.setattr(shutil, "move", dies_on_the_second_move)
    with pytest.raises(KeyboardInterrupt):
        move_weights_in(staging, out)
    assert (out / DETECTOR_FILE).read_bytes() == b"new detector"  # new detector, old classifier
    with pytest.raises(UserError, match=r"recognizer\.json missing"):
        Recognizer.load(out)
    with pytest.raises(UserError):
        ModelManifest.read(out)


def test_a_new_folder_is_made_only_when_there_is_something_to_publish(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    (staging / CLASSIFIER_FILE).write_bytes(b"c")
    move_weights_in(staging, tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b" / CLASSIFIER_FILE).is_file()
