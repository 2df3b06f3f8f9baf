"""Enrollment from a folder: end to end at a tiny scale, bad input, resuming, safe activation."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from enroll_support import enrolled, learned_too_little
from image_support import imread

from skullcam.cli import main
from skullcam.datasets.deck import load_deck, render_face, write_deck
from skullcam.errors import UserError
from skullcam.rules import FACES
from skullcam.vision import enroll as enroll_mod
from skullcam.vision.adapt import AdaptPlan, adapt_recognizer, training_args
from skullcam.vision.crop_dataset import CropSet
from skullcam.vision.enroll import (
    ENROLLED_DETECTOR_CONF,
    ENROLLED_MIRROR_BELOW,
    ENROLLED_TURN_BELOW,
    ActiveModelWatcher,
    Enrollment,
    EnrollOutcome,
    adapt_and_install,
    collect_from_folder,
)
from skullcam.vision.enroll_check import CheckResult, card_name
from skullcam.vision.enroll_synth import render_photo, write_photo_folder, write_tiny_model
from skullcam.vision.enrolled_models import activate, list_models, passed_with_plan
from skullcam.vision.reading_choice import CORNER_WEIGHTS
from skullcam.vision.recognizer import MANIFEST, ModelManifest, Recognizer, active_model_dir
from skullcam.vision.training import CLASSES

PHOTO = (480, 360)
TINY_PLAN = AdaptPlan(train_scenes=16, val_scenes=4, epochs=2, workers=1, progress=False)
# One epoch on a handful of scenes: the shortest adaptation that installs a model.
SHORT_PLAN = AdaptPlan(train_scenes=4, val_scenes=2, epochs=1, workers=1, progress=False)


def _short_adaptation(
    enrollment: Enrollment, base_model: Path, min_accuracy: float
) -> EnrollOutcome:
    """``enrollment`` adapted from ``base_model`` with ``SHORT_PLAN``, checked on two test
    scenes against ``min_accuracy`` and installed, saying nothing."""
    return adapt_and_install(
        enrollment,
        SHORT_PLAN,
        test_scenes=2,
        say=lambda _: None,
        base_model=base_model,
        min_accuracy=min_accuracy,
    )


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("decks")
    return {style: write_deck(root / style, style) for style in ("classic", "alt")}


@pytest.fixture(scope="module")
def base_model(decks: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model folder of the shipped layout; its classifier is untrained (speed: the tests
    prove the path, not the accuracy, which the benchmark measures)."""
    return write_tiny_model(tmp_path_factory.mktemp("model") / "base", decks["classic"], 0)


@pytest.fixture(scope="module")
def alt_photos(decks: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One photo-like picture per face of the alt deck, the art the base model never saw."""
    out = tmp_path_factory.mktemp("photos") / "alt"
    return write_photo_folder(load_deck(decks["alt"]), out, seed=3, size=PHOTO)


def _subset(photos: Path, dest: Path, faces: list[str]) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for face in faces:
        shutil.copyfile(photos / f"{face}.jpg", dest / f"{face}.jpg")
    return dest


@pytest.mark.slow
def test_folder_of_alt_deck_photos_enrolls_end_to_end(
    tmp_path: Path, alt_photos: Path, base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    data = Path("data")  # relative, as `skullcam enroll --data data` gives it (activation broke)
    enrollment = Enrollment.open(data, "alt-deck")
    problems = collect_from_folder(enrollment, alt_photos, progress=False)
    assert problems == []
    assert enrollment.missing() == []
    messages: list[str] = []
    outcome = adapt_and_install(
        enrollment,
        TINY_PLAN,
        test_scenes=4,
        say=messages.append,
        base_model=base_model,
        min_accuracy=0.0,
    )
    # The deck folder is in the generator's format and loads.
    deck = load_deck(data / "decks" / "alt-deck")
    assert list(deck) == list(FACES)
    # The new model is complete, active, and what Recognizer.load picks up from the data folder.
    assert (outcome.model_dir / MANIFEST).is_file()
    assert outcome.model_dir.parent == data / "models"
    assert active_model_dir(data) == outcome.model_dir
    recognizer = Recognizer.load(data_dir=data)
    assert recognizer.version.startswith("enrolled-alt-deck-")
    assert recognizer(np.zeros((480, 640, 3), np.uint8)) == []
    # The base's detector reads a deck it never learned with a lower score threshold.
    base_conf = ModelManifest.read(base_model).detector_conf
    assert recognizer.manifest.detector_conf == min(base_conf, ENROLLED_DETECTOR_CONF) < 0.2
    # ... and reads every crop both ways up, though its base reads only unsure ones twice.
    assert recognizer.manifest.turn_below == ENROLLED_TURN_BELOW == 1.0
    # ... and runs the detector's mirror view on every frame, as its base did when measured.
    assert recognizer.manifest.mirror_below == ENROLLED_MIRROR_BELOW == 1.0
    info = json.loads((outcome.model_dir / "enroll.json").read_text())
    assert info["base_model"] == str(base_model)
    assert info["plan"] == training_args(TINY_PLAN)
    assert info["classifier_epochs"] == TINY_PLAN.epochs  # the budget left it all its epochs
    assert info["check"]["scenes"] == 4
    assert outcome.check.sentence().endswith(("not found", "confused once", "false alarms"))
    assert "test scenes" in outcome.check.sentence()
    assert any("fine-tuning" in m for m in messages)
    rows = list_models(data)
    assert [r["name"] for r in rows] == ["shipped", outcome.model_dir.name]
    assert [r["active"] for r in rows] == [False, True]
    assert Enrollment.open(data, "alt-deck").stage == "done"


def test_a_weak_adapted_model_is_installed_but_not_activated(
    tmp_path: Path, decks: dict[str, Path], base_model: Path
) -> None:
    data = tmp_path / "data"
    enrollment = enrolled(data, "weak", decks["alt"])
    outcome = _short_adaptation(enrollment, base_model, min_accuracy=1.01)
    assert not outcome.activated
    assert (outcome.model_dir / MANIFEST).is_file()
    assert not (data / "active_model").exists()  # still the shipped model
    # Listed, and said to be refused before anyone activates it by hand.
    (row,) = [r for r in list_models(data) if r["name"] == outcome.model_dir.name]
    assert str(row["check"]).startswith("not activated: its self-check fell short")
    # With the figure that fell short: the sentence's own, cards right in scenes, read as a
    # pass beside it (93.6 %, where the classifier had 89.1 % of the 90 % it needed).
    assert re.search(r"fell short \(face classifier \d+\.\d%, needs 101%\); ", str(row["check"]))
    # Chosen by hand all the same: the list no longer says it is not active.
    activate(data, outcome.model_dir.name)
    (row,) = [r for r in list_models(data) if r["name"] == outcome.model_dir.name]
    assert row["active"]
    assert str(row["check"]).startswith("activated by hand: its self-check fell short")


@pytest.mark.parametrize("corner_epochs", [1, 0])
def test_the_corner_reader_is_adapted_to_the_deck_or_left_out(
    tmp_path: Path, decks: dict[str, Path], corner_epochs: int
) -> None:
    """A base model's corner reader knows its own deck's corner marks: the enrolled model gets
    one fine-tuned on the new deck, or (with 0 epochs) none, never the base model's as it is."""
    base = write_tiny_model(tmp_path / "base", decks["classic"], 0, corner=True)
    data = tmp_path / "data"
    enrollment = enrolled(data, "corners", decks["alt"])
    plan = AdaptPlan(
        train_scenes=4,
        val_scenes=2,
        epochs=1,
        corner_epochs=corner_epochs,
        workers=1,
        progress=False,
    )
    outcome = adapt_and_install(
        enrollment, plan, test_scenes=2, say=lambda _: None, base_model=base, min_accuracy=0.0
    )
    manifest = ModelManifest.read(outcome.model_dir)
    reader = outcome.model_dir / "corner-reader.onnx"
    info = json.loads((outcome.model_dir / "enroll.json").read_text())
    if corner_epochs:
        assert manifest.corner_reader == "corner-reader.onnx"
        assert reader.read_bytes() != (base / "corner-reader.onnx").read_bytes()
        assert (outcome.model_dir / "corner-reader.pt").is_file()
        # Its weight was chosen on the adaptation's 2 validation scenes, and installed.
        chosen = info["corner_weight"]
        assert chosen["scenes"] == 2
        assert [row["weight"] for row in chosen["scores"]] == list(CORNER_WEIGHTS)
        assert manifest.corner_weight == chosen["weight"] in CORNER_WEIGHTS
    else:
        assert manifest.corner_reader is None
        assert not reader.exists()
        assert info["corner_weight"] is None
    Recognizer.load(outcome.model_dir)


def test_old_corner_weights_a_base_does_not_read_with_are_not_adapted(
    tmp_path: Path, decks: dict[str, Path]
) -> None:
    """A model folder may hold a corner-reader.pt its manifest no longer names (trained again
    with --corner-epochs 0): enrollment must not revive it."""
    base = write_tiny_model(tmp_path / "base", decks["classic"], 0, corner=True)
    manifest = ModelManifest.read(base)
    replace(manifest, corner_reader=None).write()
    result = adapt_recognizer(decks["alt"], base, tmp_path / "work", SHORT_PLAN, say=lambda _: None)
    assert result.corner is None and result.corner_checkpoint is None


def test_missing_faces_and_unknown_names_are_listed(tmp_path: Path, alt_photos: Path) -> None:
    folder = _subset(alt_photos, tmp_path / "photos", ["green-1", "green-2"])
    (folder / "IMG_0001.jpg").write_bytes((alt_photos / "green-3.jpg").read_bytes())
    (folder / "green-9.webp").write_bytes((alt_photos / "green-9.jpg").read_bytes())
    (folder / "notes.txt").write_text("not a photo, not named for a card: left alone")
    (folder / "IMG_0002.HEIC").write_bytes(b"ftypheic")  # as it comes off an iPhone
    (folder / "Skull_King.JPG").write_bytes((alt_photos / "skull-king.jpg").read_bytes())
    enrollment = Enrollment.open(tmp_path / "data", "deck")
    problems = collect_from_folder(enrollment, folder, progress=False)
    assert problems[0] == (
        "IMG_0001.jpg: not a card id (name photos <card-id>.jpg, e.g. green-7.jpg, skull-king.png)"
    )
    assert problems[1] == (
        "IMG_0002.HEIC: an iPhone HEIC photo, which is not read; save it as JPEG named for its "
        "card (e.g. green-7.jpg)"
    )
    # A slip in a name typed by hand: the id it most likely meant.
    assert problems[2].startswith("Skull_King.JPG: not a card id")
    assert problems[2].endswith("; rename it skull-king.jpg if it is that card")
    assert (
        problems[3]
        == "green-9.webp: not a JPEG or PNG photo; save it as green-9.jpg or green-9.png"
    )
    assert len(problems) == 5
    assert problems[-1].startswith("missing 67 faces: green-3.jpg, green-4.jpg")
    assert "white-whale.jpg" in problems[-1]
    assert sorted(enrollment.faces) == ["green-1", "green-2"]


def test_one_picture_under_two_card_names_is_named_and_used_for_neither(
    tmp_path: Path, alt_photos: Path
) -> None:
    """A photo copied to fill a gap enrolled one face's picture as another's, unnoticed."""
    folder = _subset(alt_photos, tmp_path / "photos", ["green-1", "green-2"])
    shutil.copyfile(folder / "green-1.jpg", folder / "green-7.jpg")
    enrollment = Enrollment.open(tmp_path / "data", "deck")
    problems = collect_from_folder(enrollment, folder, progress=False)
    assert problems[:2] == [
        "green-1.jpg: the same picture as green-7.jpg; photograph each face",
        "green-7.jpg: the same picture as green-1.jpg; photograph each face",
    ]
    assert sorted(enrollment.faces) == ["green-2"]
    said: list[str] = []  # run again: the copies are not counted as enrolled
    collect_from_folder(enrollment, folder, say=said.append, progress=False)
    assert said == ["1 face already enrolled from these photos: kept"]
    # Fixed in the folder, then copied again from a face kept from an earlier run.
    shutil.copyfile(alt_photos / "green-7.jpg", folder / "green-7.jpg")
    assert collect_from_folder(enrollment, folder, progress=False)[-1].startswith("missing 66")
    other = _subset(alt_photos, tmp_path / "more", [])
    shutil.copyfile(folder / "green-2.jpg", other / "green-3.jpg")
    problems = collect_from_folder(enrollment, other, progress=False)
    assert (
        "green-3.jpg: the same picture as the photo kept for green-2; photograph each face"
        in problems
    )
    assert "green-3" not in enrollment.faces


def test_two_photos_of_one_face_are_both_named_and_neither_used(
    tmp_path: Path, alt_photos: Path
) -> None:
    folder = _subset(alt_photos, tmp_path / "photos", ["green-1", "green-2"])
    (folder / "Green-2.PNG").write_bytes((alt_photos / "green-2.jpg").read_bytes())
    enrollment = Enrollment.open(tmp_path / "data", "deck")
    problems = collect_from_folder(enrollment, folder, progress=False)
    assert "green-2: 2 photos (Green-2.PNG, green-2.jpg); keep one" in problems
    assert problems[-1].startswith("missing 67 faces: green-3.jpg")  # green-2 is not missing
    assert sorted(enrollment.faces) == ["green-1"]


def test_bad_photos_are_named_with_their_reason_and_good_ones_kept(
    tmp_path: Path, alt_photos: Path
) -> None:
    rng = np.random.default_rng(4)
    folder = _subset(alt_photos, tmp_path / "photos", ["green-4"])
    blurred, _ = render_photo([render_face("green-1", "alt")], rng, PHOTO, blur=0.035)
    two, _ = render_photo(
        [render_face("green-2", "alt"), render_face("green-5", "alt")], rng, PHOTO
    )
    empty, _ = render_photo([], rng, PHOTO)
    glare, _ = render_photo([render_face("black-7", "alt")], rng, PHOTO, glare=True)
    for name, image in (
        ("green-1", blurred),
        ("green-2", two),
        ("green-3", empty),
        ("black-7", glare),
    ):
        cv2.imwrite(str(folder / f"{name}.png"), image)
    (folder / "green-6.jpg").write_bytes(b"not a jpeg")
    photo = imread(alt_photos / "green-4.jpg")
    cv2.imwrite(str(folder / "green-7.png"), cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    enrollment = Enrollment.open(tmp_path / "data", "deck")
    problems = {p.split(":")[0]: p for p in collect_from_folder(enrollment, folder, progress=False)}
    assert "retake" in problems["green-1.png"]
    assert "cards in the picture" in problems["green-2.png"]
    assert "no card found" in problems["green-3.png"]
    assert "reflection" in problems["black-7.png"]
    assert problems["green-6.jpg"].startswith("green-6.jpg: the file is not a readable image")
    assert problems["green-7.png"].startswith(
        "green-7.png: the file has no colour: card suits are told apart by colour"
    )
    assert not any(str(folder) in p for p in problems.values())  # each file named once
    assert list(enrollment.faces) == ["green-4"]


def test_a_photo_the_classifier_reads_as_another_card_is_flagged(
    tmp_path: Path, alt_photos: Path
) -> None:
    folder = _subset(alt_photos, tmp_path / "photos", ["green-7", "green-8"])

    def classify(face: np.ndarray) -> dict[str, float]:
        # Confident that everything is green-1 (as if green-7.jpg showed the Green 1).
        return {f: (0.97 if f == "green-1" else 0.03 / 69) for f in FACES}

    enrollment = Enrollment.open(tmp_path / "data", "deck")
    problems = collect_from_folder(enrollment, folder, classify=classify, progress=False)
    assert problems[0].startswith("green-7.jpg: green-7.jpg looks like green-1 (Green 1)")
    assert problems[1].startswith("green-8.jpg: green-8.jpg looks like green-1")
    assert enrollment.faces == {}

    def unsure(face: np.ndarray) -> dict[str, float]:
        return {f: (0.6 if f == "green-1" else 0.4 / 69) for f in FACES}

    problems = collect_from_folder(enrollment, folder, classify=unsure, progress=False)
    assert not any("looks like" in p for p in problems)  # an unsure model stops nobody
    assert sorted(enrollment.faces) == ["green-7", "green-8"]


def test_an_interrupted_collection_resumes_where_it_stopped(
    tmp_path: Path, alt_photos: Path
) -> None:
    faces = ["green-1", "green-2", "green-3", "green-4", "green-5"]
    folder = _subset(alt_photos, tmp_path / "photos", faces)
    seen: list[int] = []

    def interrupting(face: np.ndarray) -> dict[str, float]:
        seen.append(1)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return dict.fromkeys(FACES, 1 / 69)

    data = tmp_path / "data"
    with pytest.raises(KeyboardInterrupt):
        collect_from_folder(Enrollment.open(data, "deck"), folder, interrupting, progress=False)
    resumed = Enrollment.open(data, "deck")
    assert sorted(resumed.faces) == faces[:2]
    assert resumed.next_face() == "green-3"
    looked_at: list[int] = []

    def counting(face: np.ndarray) -> dict[str, float]:
        looked_at.append(1)
        return dict.fromkeys(FACES, 1 / 69)

    said: list[str] = []
    collect_from_folder(resumed, folder, counting, say=said.append, progress=False)
    assert len(looked_at) == 3  # the two kept faces were not looked at again
    assert said == ["2 faces already enrolled from these photos: kept"]
    assert sorted(Enrollment.open(data, "deck").faces) == faces


def test_an_interrupted_fine_tune_resumes_from_its_last_epoch(
    tmp_path: Path, decks: dict[str, Path], base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skullcam.vision import train_classifier

    plan = AdaptPlan(train_scenes=4, val_scenes=2, epochs=2, workers=1, progress=False)
    real = train_classifier.evaluate
    calls: list[int] = []

    def interrupt_second_epoch(*args: object) -> float:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(train_classifier, "evaluate", interrupt_second_epoch)
    work = tmp_path / "work"
    with pytest.raises(KeyboardInterrupt):
        adapt_recognizer(decks["alt"], base_model, work, plan, say=lambda _: None)
    assert not (work / "classifier").exists()
    scenes_done = (work / "scenes" / "done.json").stat().st_mtime_ns
    calls.clear()
    result = adapt_recognizer(decks["alt"], base_model, work, plan, say=lambda _: None)
    assert len(calls) == 1  # only the second epoch ran again
    assert (work / "scenes" / "done.json").stat().st_mtime_ns == scenes_done  # not re-rendered
    assert result.onnx.is_file() and result.checkpoint.is_file()


def test_a_plan_with_more_scenes_fine_tunes_on_the_crops_of_its_own_scenes(
    tmp_path: Path, decks: dict[str, Path], base_model: Path
) -> None:
    """A self-check that fails says "run again with more --scenes": the scenes are rendered
    again, and the classifier must learn from their crops, not those cached from the first."""

    def crops_learned(plan: AdaptPlan, work: Path) -> str:
        said: list[str] = []
        adapt_recognizer(decks["alt"], base_model, work, plan, lambda line: said.append(str(line)))
        (line,) = [line for line in said if line.startswith("fine-tuning the face classifier")]
        return line

    small = AdaptPlan(train_scenes=2, val_scenes=1, epochs=1, workers=1, progress=False)
    larger = replace(small, train_scenes=6, val_scenes=2)
    work = tmp_path / "work"
    first = crops_learned(small, work)
    again = crops_learned(larger, work)
    assert again != first
    assert again == crops_learned(larger, tmp_path / "fresh")


def test_crop_caches_an_older_version_left_beside_the_scenes_are_removed(
    tmp_path: Path,
) -> None:
    """Before session 52 the crop caches lay beside the scenes, not in their folder: nothing
    reads them now, and they stayed (0.5 GB for the default plan) until the folder went.
    Opening the enrollment removes them, and nothing else."""
    enrollment = Enrollment.open(tmp_path / "data", "deck")
    enrollment.accept("green-1", np.zeros((8, 8, 3), np.uint8))
    work = enrollment.work_dir / "adapt"
    old = [
        "crops_train.npz",
        "crops_val.npz",
        "crops_train.tmp.npz",  # a cache being written when the program was stopped
        "crops_detector.npz",
        "crops_detector-0123456789ab.npz",
        "crops_detector-0123456789ab-hidden0.3.npz",
        "crops_detector-0123456789ab-hidden0.3.tmp.npz",
    ]
    kept = [
        "scenes/crops_train.npz",  # today's caches, in the scenes' folder
        "scenes/crops_detector-0123456789ab-hidden0.3.npz",
        "finetune_state.pt",
        "crops_train.npz.bak",  # not a name skullcam gave: someone else's
        "my_crops_val.npz",
    ]
    for name in old + kept:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_bytes(b"npz")
    (work / "crops_val").mkdir()  # a folder of that name is no cache
    photo = enrollment.faces_dir / "green-1.png"
    (work / "crops_detector-ffffffffffff.npz").symlink_to(photo)
    enrollment.hold()
    left = sorted(str(p.relative_to(work)) for p in work.rglob("*") if not p.is_dir())
    assert left == sorted([*kept, "crops_detector-ffffffffffff.npz"])
    assert (work / "crops_val").is_dir()
    assert photo.is_file() and Enrollment.open(tmp_path / "data", "deck").faces.keys() == {
        "green-1"
    }


def test_a_saved_fine_tune_resumes_only_onto_the_crops_it_was_made_from(
    tmp_path: Path, init_checkpoint: Path, epochs_run: list[int]
) -> None:
    from skullcam.vision.adapt import fine_tune

    crops = _random_crops(8)
    plan = AdaptPlan(epochs=1, batch_size=4, progress=False)
    state = tmp_path / "state.pt"
    fine_tune(crops, crops, init_checkpoint, state, plan)
    fine_tune(crops, crops, init_checkpoint, state, plan)
    assert len(epochs_run) == 1  # the finished state was resumed: nothing left to train
    other = CropSet(crops.images.copy(), crops.labels, CLASSES)
    other.images[0, 0, 0, 0] ^= 1  # as many crops, one pixel different
    fine_tune(other, other, init_checkpoint, state, plan)
    assert len(epochs_run) == 2  # other crops: trained again from the start


def _random_crops(n: int) -> CropSet:
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (n, 96, 64, 3), dtype=np.uint8)
    return CropSet(images, np.arange(n, dtype=np.int64) % len(CLASSES), CLASSES)


@pytest.fixture
def init_checkpoint(tmp_path: Path) -> Path:
    from skullcam.vision import train_classifier
    from skullcam.vision.classifier_net import CardClassifier

    init = tmp_path / "init.pt"
    train_classifier.save_checkpoint(CardClassifier(len(CLASSES)), CLASSES, init)
    return init


@pytest.fixture
def epochs_run(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per fine-tune epoch run (each ends with a validation)."""
    from skullcam.vision import train_classifier

    calls: list[int] = []
    real = train_classifier.evaluate

    def counting(*args: object) -> float:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(train_classifier, "evaluate", counting)
    return calls


def test_a_fine_tune_out_of_time_stops_early_with_its_schedule_run_out(
    tmp_path: Path, init_checkpoint: Path, epochs_run: list[int]
) -> None:
    import torch

    from skullcam.vision.adapt import fine_tune
    from skullcam.vision.train_classifier import CLOCK_STEPS

    crops = _random_crops(8)
    plan = AdaptPlan(epochs=3, batch_size=4, progress=False)  # 2 batches an epoch
    state = tmp_path / "state.pt"
    result = fine_tune(crops, crops, init_checkpoint, state, plan, seconds=1e-6)
    assert len(epochs_run) == 1  # the first batch spent the budget: one epoch of three
    assert result.epochs == 0.5 and result.cut_short(plan) and result.budget == 1e-6
    saved = torch.load(state, weights_only=False)
    assert saved["finished"] and saved["epoch"] == 1 and saved["budget"] == 1e-6
    # The one-cycle schedule ran to its end: the fine-tune stopped at its lowest rate.
    assert saved["schedule"]["last_epoch"] == CLOCK_STEPS - 1
    lowest = plan.lr / 25 / 1e4  # OneCycleLR: max_lr / div_factor / final_div_factor
    assert saved["optimizer"]["param_groups"][0]["lr"] == pytest.approx(lowest)
    again = fine_tune(crops, crops, init_checkpoint, state, plan, seconds=600)
    assert len(epochs_run) == 1  # finished: a rerun with more time trains nothing more
    assert (again.epochs, again.budget) == (0.5, 1e-6)


def test_a_resumed_fine_tune_keeps_the_budget_it_started_with(
    tmp_path: Path, init_checkpoint: Path, epochs_run: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    from skullcam.vision import train_classifier
    from skullcam.vision.adapt import fine_tune
    from skullcam.vision.train_classifier import CLOCK_STEPS

    crops = _random_crops(8)
    plan = AdaptPlan(epochs=2, batch_size=4, progress=False)
    state = tmp_path / "state.pt"
    counting = train_classifier.evaluate

    def interrupt_second_epoch(*args: object) -> float:
        if len(epochs_run) == 1:
            raise KeyboardInterrupt
        return counting(*args)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(train_classifier, "evaluate", interrupt_second_epoch)
        with pytest.raises(KeyboardInterrupt):
            fine_tune(crops, crops, init_checkpoint, state, plan, seconds=3600, before=90.0)
    first = torch.load(state, weights_only=False)
    assert (first["epoch"], first["finished"], first["budget"]) == (1, False, 3600)
    epochs_run.clear()
    # Resumed with cached stages before it, the run would now be offered a budget of 1 us,
    # and those stages took no time.
    result = fine_tune(crops, crops, init_checkpoint, state, plan, seconds=1e-6, before=0.001)
    assert len(epochs_run) == 1  # the second epoch ran whole, under the hour it began with
    assert (result.epochs, result.budget) == (2, 3600) and not result.cut_short(plan)
    done = torch.load(state, weights_only=False)
    assert (done["epoch"], done["finished"], done["budget"]) == (2, True, 3600)
    assert done["seconds"] > first["seconds"] > 0
    # What a longer run's estimate scales: both runs' training, the first run's stages before.
    assert (result.spent, result.before) == (done["seconds"], 90.0)
    assert done["schedule"]["last_epoch"] == CLOCK_STEPS - 1  # every epoch: run to its end


def test_an_adaptation_cut_short_by_its_budget_says_so_and_records_it(
    tmp_path: Path, decks: dict[str, Path], base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skullcam.vision import adapt

    monkeypatch.setattr(adapt, "fine_tune_budget", lambda plan, spent: 1e-6)
    plan = AdaptPlan(train_scenes=4, val_scenes=2, epochs=3, workers=1, progress=False)
    said: list[str] = []
    result = adapt_recognizer(decks["alt"], base_model, tmp_path / "work", plan, said.append)
    # The crops of 4 scenes are one batch: the first spent the budget, one epoch of three.
    assert result.classifier_epochs == 1
    cut = [line for line in said if "time budget ended" in line]
    assert cut == [
        "the time budget ended the face classifier's fine-tune after 1 of its 3 epochs "
        "(--minutes 0 runs them all, when there is time)"
    ]
    assert any("3 epochs or 0 min, whichever ends first" in line for line in said)
    assert set(result.timings) == {"before_fine_tune", "classifier", "after_fine_tune"}
    assert sum(result.timings.values()) <= result.seconds


def test_a_resumed_adaptation_says_the_budget_its_fine_tune_keeps(
    tmp_path: Path,
    decks: dict[str, Path],
    base_model: Path,
    monkeypatch: pytest.MonkeyPatch,
    epochs_run: list[int],
) -> None:
    """Resumed, the fine-tune keeps the budget it started with, but its line said one worked
    out again, from stages before it that, cached, now took no time."""
    from skullcam.vision import adapt, train_classifier

    plan = AdaptPlan(train_scenes=4, val_scenes=2, epochs=2, workers=1, progress=False)
    counting = train_classifier.evaluate
    said: list[str] = []

    def adapting() -> adapt.AdaptResult:
        said.clear()
        work = tmp_path / "work"
        return adapt_recognizer(decks["alt"], base_model, work, plan, lambda s: said.append(str(s)))

    def interrupt_second_epoch(*args: object) -> float:
        if len(epochs_run) == 1:
            raise KeyboardInterrupt
        return counting(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(adapt, "fine_tune_budget", lambda plan, spent: 3600.0)
    with monkeypatch.context() as patch:
        patch.setattr(train_classifier, "evaluate", interrupt_second_epoch)
        with pytest.raises(KeyboardInterrupt):
            adapting()
    started = "fine-tuning the face classifier on"
    (line,) = [line for line in said if line.startswith(started)]
    assert line.endswith("2 epochs or 60 min, whichever ends first")
    monkeypatch.setattr(adapt, "fine_tune_budget", lambda plan, spent: 6.0)
    result = adapting()
    (line,) = [line for line in said if line.startswith(started)]
    assert line.endswith("2 epochs or 60 min, whichever ends first")  # not 0.1 min
    assert result.classifier_epochs == 2


def test_a_longer_run_is_estimated_from_the_parts_of_the_run_before() -> None:
    """The page's longer run has no time limit; it says how long it takes here, scaled from
    the run that made the model shown. Figures of docs/enroll.md's measured runs."""
    from skullcam.vision.adapt import estimate_seconds, longer_plan, sized_plan

    default, thorough = AdaptPlan(), sized_plan(4800, 12, minutes=None)
    # Session 18, bfloat16: the default plan took 800 s to adapt, 58 s to check; --thorough
    # (4,800 scenes) took 18.2 min in all.
    session18 = {"adapt": 800.0, "check": 58.0}
    assert estimate_seconds(default, session18, 12, thorough) == pytest.approx(18.9 * 60, abs=6)
    # Its parts, as this version records them (the classifier's 3,912 batches at 8.8 a second):
    # the longer run's 7,200 scenes and 18 epochs triple the fine-tune, double the rest.
    parts = {**session18, "before_fine_tune": 223.0, "classifier": 445.0, "after_fine_tune": 132.0}
    longer = longer_plan(default)
    assert estimate_seconds(default, parts, 12, longer) == pytest.approx(
        2 * 223 + 2 * 445 * 18 / 12 + 2 * 132 + 58 * 1.5
    )  # 35.5 min
    # Session 22, float32: the budget ended the classifier after 3.3 epochs (498 s) and the
    # corner reader after 1 of its 3; unbudgeted, each corner epoch is counted as long as a
    # classifier epoch.
    cut = {
        "adapt": 1034.0,
        "check": 98.0,
        "before_fine_tune": 280.0,
        "classifier": 498.0,
        "after_fine_tune": 256.0,
    }
    per_epoch = 498 / 3.3
    expected = 2 * 280 + 2 * per_epoch * 18 + 2 * 3 * per_epoch + 98 * 1.5
    assert estimate_seconds(default, cut, 3.3, longer) == pytest.approx(expected)  # 1.9 hours
    assert estimate_seconds(default, {"adapt": 800.0}, 12, longer) is None
    assert estimate_seconds(default, {"adapt": "800", "check": 58}, 12, longer) is None


def test_the_fine_tune_budgets_are_what_the_stages_before_them_leave() -> None:
    from skullcam.vision.adapt import (
        CHECK_SHARE,
        CLASSIFIER_SHARE,
        MIN_FINE_TUNE_SECONDS,
        corner_budget,
        fine_tune_budget,
    )

    plan = AdaptPlan(minutes=20)
    assert fine_tune_budget(replace(plan, minutes=None), 300) is None
    assert corner_budget(None) is None
    left = 1200 - 300 * (1 + CHECK_SHARE)  # for both fine-tunes, after a 5-minute start
    classifier = fine_tune_budget(plan, 300)
    assert classifier == pytest.approx(left * CLASSIFIER_SHARE)
    assert classifier + corner_budget(classifier) == pytest.approx(left)  # type: ignore[operator]
    assert classifier < fine_tune_budget(plan, 100)  # type: ignore[operator]
    # Stages so slow they spent the budget: the classifier still gets its least.
    assert fine_tune_budget(plan, 1200) == MIN_FINE_TUNE_SECONDS


def test_a_half_written_model_never_becomes_active(
    tmp_path: Path, decks: dict[str, Path], base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    enrollment = enrolled(data, "deck", decks["alt"])
    real_install = enroll_mod._install_model

    def crash_before_manifest(*args: object, **kwargs: object) -> Path:
        def boom(self: object) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(enroll_mod.ModelManifest, "write", boom)
        return real_install(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(enroll_mod, "_install_model", crash_before_manifest)
    with pytest.raises(OSError, match="disk full"):
        _short_adaptation(enrollment, base_model, min_accuracy=0.0)
    assert not (data / "active_model").exists()
    staged = [p for p in (data / "models").iterdir()]
    assert len(staged) == 1 and staged[0].name.startswith(".staging-")
    assert [r["name"] for r in list_models(data)] == ["shipped"]
    with pytest.raises(UserError, match="no complete model"):
        activate(data, staged[0].name)
    # The next install of this deck clears it away; another deck's staging is left alone.
    other = data / "models" / ".staging-half-20261201-000000"
    other.mkdir()
    monkeypatch.undo()
    outcome = _short_adaptation(enrollment, base_model, min_accuracy=0.0)
    left = sorted(p.name for p in (data / "models").iterdir())
    assert left == [other.name, outcome.model_dir.name]


def test_activate_switches_models_and_the_watcher_notices(tmp_path: Path, base_model: Path) -> None:
    data = tmp_path / "data"
    for name in ("deck-a", "deck-b"):
        shutil.copytree(base_model, data / "models" / name)
    watcher = ActiveModelWatcher(str(data))  # a str, as docs/enroll.md shows it (a TypeError)
    assert watcher.changed() is None
    activate(data, "deck-a")
    assert active_model_dir(data) == data / "models" / "deck-a"
    assert active_model_dir(str(data)) == data / "models" / "deck-a"
    assert (data / "active_model").read_text().strip() == "models/deck-a"
    assert watcher.changed() == data / "models" / "deck-a"
    assert watcher.changed() is None
    activate(data, "deck-b")
    assert watcher.changed() == data / "models" / "deck-b"
    activate(data, "shipped")
    assert not (data / "active_model").exists()
    with pytest.raises(UserError, match="no complete model named 'nope'"):
        activate(data, "nope")


def test_a_model_activated_by_a_relative_path_stays_found(
    tmp_path: Path, base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--activate m/ok`` names a folder from where the command runs, not from the data
    folder: the pointer must lead there from any later command."""
    shutil.copytree(base_model, tmp_path / "m" / "ok")
    data = tmp_path / "data"
    monkeypatch.chdir(tmp_path)
    assert activate(Path("data"), "m/ok") == tmp_path / "m" / "ok"
    monkeypatch.chdir(base_model)
    assert active_model_dir(data) == tmp_path / "m" / "ok"
    # A folder given by a path inside the data folder is kept relative, so it moves with it.
    shutil.copytree(base_model, data / "models" / "deck-c")
    monkeypatch.chdir(data)
    activate(Path("."), "models/deck-c")
    assert (data / "active_model").read_text().strip() == "models/deck-c"


def test_cli_list_activate_and_bad_input(
    tmp_path: Path, base_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(base_model, data / "models" / "mine-1")
    assert main(["enroll", "--activate", "mine-1", "--data", str(data)]) == 0
    assert main(["enroll", "--list", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "* mine-1" in out and "  shipped" in out
    # A damaged enrollment record costs the model its self-check line, not the list.
    (data / "models" / "mine-1" / "enroll.json").write_bytes(b'{"check": \xff')
    assert main(["enroll", "--list", "--data", str(data)]) == 0
    assert "self-check record unreadable" in capsys.readouterr().out
    assert main(["enroll", "--activate", "other", "--data", str(data)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("skullcam enroll: error: no complete model named 'other'")
    assert "\n" not in err
    code = main(
        ["enroll", "--from", str(tmp_path / "absent"), "--trust-names", "--data", str(data)]
    )
    assert code == 2
    assert "is not a folder" in capsys.readouterr().err
    assert main(["enroll", "--from", str(tmp_path), "--name", "../x", "--data", str(data)]) == 2
    assert "not usable as a folder name" in capsys.readouterr().err
    # The active model's folder lost its manifest: no quiet fall-back to the shipped model
    # (another deck's art), but the list still shows what can be chosen.
    (data / "models" / "mine-1" / MANIFEST).unlink()
    with pytest.raises(UserError, match="mine-1 is missing or incomplete"):
        Recognizer.load(data_dir=data)
    assert main(["enroll", "--list", "--data", str(data)]) == 0
    listed = capsys.readouterr()
    assert "  shipped" in listed.out and "*" not in listed.out
    assert "no active model" in listed.err and "--activate" in listed.err


def test_cli_from_folder_lists_problems_and_keeps_good_faces(
    tmp_path: Path, alt_photos: Path, base_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(base_model, data / "models" / "base")
    activate(data, "base")
    folder = _subset(alt_photos, tmp_path / "photos", ["skull-king"])
    code = main(["enroll", "--from", str(folder), "--trust-names", "--data", str(data)])
    assert code == 2
    err = capsys.readouterr().err
    assert "missing 68 faces" in err
    # The last line stands alone: a program that keeps it learns what was wrong.
    last = err.strip().splitlines()[-1]
    assert last.startswith("skullcam enroll: error: missing 68 faces: green-1.jpg, ")
    assert "…; fix it and run the same command again (1 good face is kept)" in last
    assert list(Enrollment.open(data, "my-deck").faces) == ["skull-king"]

    # Another folder under the same deck name: the face kept from the first is said, since
    # it will go into the model with this folder's photos.
    other = _subset(alt_photos, tmp_path / "more", ["tigress", "kraken"])
    assert main(["enroll", "--from", str(other), "--trust-names", "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert (
        f"1 face of deck 'my-deck' is kept from {folder.resolve()}, not this folder: "
        "skull-king (for a new deck, give another --name)"
    ) in err
    last = err.strip().splitlines()[-1]
    assert "missing 66 faces" in last and "3 good faces are kept" in last

    # One short problem is said once, in the error line.
    whole = tmp_path / "whole"
    shutil.copytree(alt_photos, whole)
    (whole / "IMG_0001.jpg").write_bytes(b"")
    assert main(["enroll", "--from", str(whole), "--trust-names", "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("IMG_0001.jpg: not a card id") == 1
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith("skullcam enroll: error: IMG_0001.jpg: not a card id")
    )


def test_running_again_skips_only_a_model_that_passed_with_the_same_plan(tmp_path: Path) -> None:
    # The CLI's shortcut ("already enrolled from these photos"): a model the self-check refused,
    # or one made with another plan, is what "run again with more --scenes" is for.
    model = tmp_path / "deck-1"
    model.mkdir()

    def made(accuracy: float, plan: AdaptPlan | None) -> None:
        info: dict = {"check": {"classifier_accuracy": accuracy}}
        if plan is not None:
            info["plan"] = training_args(plan)
        (model / "enroll.json").write_text(json.dumps(info))

    made(0.97, TINY_PLAN)
    assert passed_with_plan(model, TINY_PLAN)
    assert not passed_with_plan(model, replace(TINY_PLAN, epochs=3))
    assert passed_with_plan(model, replace(TINY_PLAN, progress=True, workers=2))
    made(0.5, TINY_PLAN)  # kept, not activated
    assert not passed_with_plan(model, TINY_PLAN)
    made(0.97, None)  # made before plans were recorded
    assert not passed_with_plan(model, TINY_PLAN)
    (model / "enroll.json").write_text("{damaged")
    assert not passed_with_plan(model, TINY_PLAN)
    (model / "enroll.json").write_text("[]")  # JSON, but no record: it once raised
    assert not passed_with_plan(model, TINY_PLAN)


def test_a_damaged_state_file_is_rebuilt_from_the_face_pictures(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged state.json told the user to delete the enrollment's folder, and with it
    every accepted photo, though the pictures were intact. The state is rebuilt from them (a
    face is in when its picture is there and readable), the damaged file is kept aside, and
    the log and the user hear what happened."""
    face = np.full((348, 224, 3), 200, np.uint8)
    first = Enrollment.open(tmp_path, "deck")
    for face_id in ("green-1", "green-2", "skull-king"):
        first.accept(face_id, face, source=f"{face_id}.jpg")
    first.stage = "done"
    first.save()
    (first.faces_dir / "green-2.png").write_bytes(b"cut short")  # not readable: not in
    state = first.work_dir / "state.json"
    state.write_text("{not json")

    with caplog.at_level("WARNING"):
        again = Enrollment.open(tmp_path, "deck")
    assert sorted(again.faces) == ["green-1", "skull-king"]
    assert again.stage == "collect" and again.model is None
    assert sorted(p.name for p in again.faces_dir.iterdir()) == [
        "green-1.png",
        "green-2.png",
        "skull-king.png",
    ]
    (kept,) = again.work_dir.glob("state.json.damaged-*")
    assert kept.read_text() == "{not json"
    said = f"state.json was damaged and is kept as {kept.name}: the enrollment goes on from the"
    assert str(again.rebuilt) == (f"{said} pictures of its accepted faces (2 of {len(FACES)})")
    assert f"{state} was damaged" in caplog.text and str(again.rebuilt) in caplog.text
    # The rebuilt state is on disk: the next start reads it, with nothing to say.
    third = Enrollment.open(tmp_path, "deck")
    assert sorted(third.faces) == ["green-1", "skull-king"] and third.rebuilt is None
    state.write_text("[]")  # JSON, but no state: damaged too, and kept under another name
    Enrollment.open(tmp_path, "deck")
    assert len(list(again.work_dir.glob("state.json.damaged-*"))) == 2


def test_a_missing_state_file_is_rebuilt_from_the_face_pictures(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A state.json gone while face pictures are there (a crash between the first face's
    picture and the first save, or the file deleted) started an empty enrollment: the
    accepted photos were ignored, and new ones written over them. The state is rebuilt from
    the pictures, as for a damaged file, and the log and the user hear it."""
    face = np.full((348, 224, 3), 200, np.uint8)
    first = Enrollment.open(tmp_path, "deck")
    for face_id in ("green-1", "skull-king"):
        first.accept(face_id, face, source=f"{face_id}.jpg")
    state = first.work_dir / "state.json"
    state.unlink()

    with caplog.at_level("WARNING"):
        again = Enrollment.open(tmp_path, "deck")
    assert sorted(again.faces) == ["green-1", "skull-king"]
    assert again.next_face() == FACES[1]  # green-1 is in: the next missing face follows it
    assert str(again.rebuilt) == (
        "state.json was missing: the enrollment goes on from the pictures of its accepted faces"
        f" (2 of {len(FACES)})"
    )
    assert f"{state} was missing" in caplog.text and str(again.rebuilt) in caplog.text
    assert not list(again.work_dir.glob("state.json.damaged-*"))  # nothing to keep aside
    third = Enrollment.open(tmp_path, "deck")  # the rebuilt state is on disk
    assert sorted(third.faces) == ["green-1", "skull-king"] and third.rebuilt is None


def test_a_rebuilt_face_is_looked_at_again_by_the_next_folder_run(
    tmp_path: Path, alt_photos: Path
) -> None:
    """A rebuilt state has no record of the photos its faces came from: the next run with the
    folder checks those photos again (and accepts them again when they are good)."""
    folder = _subset(alt_photos, tmp_path / "photos", ["green-1", "green-2"])
    data = tmp_path / "data"
    collect_from_folder(Enrollment.open(data, "deck"), folder, progress=False)
    (data / "enroll" / "deck" / "state.json").unlink()
    rebuilt = Enrollment.open(data, "deck")
    assert sorted(rebuilt.faces) == ["green-1", "green-2"] and rebuilt.rebuilt is not None
    looked_at: list[int] = []

    def counting(face: np.ndarray) -> dict[str, float]:
        looked_at.append(1)
        return dict.fromkeys(FACES, 1 / 69)

    said: list[str] = []
    collect_from_folder(rebuilt, folder, counting, say=said.append, progress=False)
    assert len(looked_at) == 2 and said == []
    assert all(rebuilt.faces[f].get("digest") for f in ("green-1", "green-2"))


def test_a_new_enrollment_without_face_pictures_is_not_rebuilt(tmp_path: Path) -> None:
    """No state and no face picture (a new enrollment, or one whose folder holds only its
    lock and an empty faces folder) is a fresh start: nothing to rebuild, nothing to say."""
    (tmp_path / "enroll" / "deck" / "faces").mkdir(parents=True)
    (tmp_path / "enroll" / "deck" / "faces" / "not-a-card.png").write_bytes(b"x")
    fresh = Enrollment.open(tmp_path, "deck")
    assert fresh.faces == {} and fresh.rebuilt is None
    assert not (fresh.work_dir / "state.json").exists()


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (
            lambda state: state.write_text("{not json"),
            "state.json was damaged and is kept as state.json.damaged-",
        ),
        (lambda state: state.unlink(), "state.json was missing: the enrollment goes on"),
    ],
    ids=["damaged", "missing"],
)
def test_the_command_says_a_damaged_or_missing_state_was_rebuilt(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    spoil: Callable[[Path], object],
    said: str,
) -> None:
    first = Enrollment.open(tmp_path, "deck")
    first.accept("green-1", np.full((348, 224, 3), 200, np.uint8))
    spoil(first.work_dir / "state.json")
    photos = tmp_path / "photos"
    photos.mkdir()
    # No model is installed in this data folder: the run stops after opening the enrollment.
    assert main(["enroll", "--from", str(photos), "--name", "deck", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "the pictures of its accepted faces (1 of 69)" in err


@pytest.mark.parametrize("from_folder", [True, False], ids=["from-folder", "page"])
@pytest.mark.parametrize(
    "spoil",
    [lambda state: state.write_text("{not json"), lambda state: state.unlink()],
    ids=["damaged", "missing"],
)
def test_a_second_enroll_on_a_held_enrollment_leaves_its_damaged_state_alone(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    from_folder: bool,
    spoil: Callable[[Path], object],
) -> None:
    """A second ``skullcam enroll`` started on an enrollment another holds rebuilt its
    damaged or missing state.json from the face pictures, wrote it and kept the damaged file
    aside once more, and only then found the enrollment held: two programs wrote one
    folder. It now stops at the hold, the folder as it was."""
    held = Enrollment.open(tmp_path, "deck", hold=True)
    held.accept("green-1", np.full((348, 224, 3), 200, np.uint8))
    state = held.work_dir / "state.json"
    spoil(state)
    before = sorted(p.name for p in held.work_dir.iterdir())
    kept = state.read_text() if state.exists() else None
    photos = tmp_path / "photos"
    photos.mkdir()
    source = ["--from", str(photos)] if from_folder else []  # the page's server without
    assert main(["enroll", *source, "--name", "deck", "--data", str(tmp_path)]) == 2
    assert "is open in another 'skullcam enroll'" in capsys.readouterr().err
    assert sorted(p.name for p in held.work_dir.iterdir()) == before
    assert (state.read_text() if state.exists() else None) == kept


def test_a_damaged_state_file_that_cannot_be_kept_aside_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "enroll" / "deck"
    work.mkdir(parents=True)
    (work / "state.json").write_text("{not json")

    def full_disk(source: Path, path: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(enroll_mod, "copy_atomic", full_disk)
    with pytest.raises(UserError, match=r"cannot be kept aside .* faces in .* are intact"):
        Enrollment.open(tmp_path, "deck")
    assert (work / "state.json").read_text() == "{not json"


def test_the_self_check_sentence_reads_plainly() -> None:
    check = CheckResult(
        scenes=500,
        cards=2100,
        recall=0.997,
        precision=0.998,
        classifier_accuracy=0.999,
        confusions=[
            ("extra", "escape", 4),
            ("pirate-harry", "pirate-rosie", 2),
            ("green-1", "missed", 3),
        ],
    )
    assert check.sentence() == (
        "99.7% of cards right on 500 test scenes; Pirate Harry and Pirate Rosie confused "
        "twice; 3 cards not found; 4 false alarms"
    )
    assert card_name("skull-king") == "Skull King"


def _children_of(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture
def enroll_judged(
    tmp_path: Path, alt_photos: Path, base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., int]:
    """`skullcam enroll --from` whose adaptation comes back with a given check (no training)
    and, where given, the seconds its parts took."""

    def run(check: CheckResult, activated: bool, seconds: dict[str, float] | None = None) -> int:
        data = tmp_path / "data"
        shutil.copytree(base_model, data / "models" / "base")
        activate(data, "base")

        def adapted(*_: object, **__: object) -> EnrollOutcome:
            return EnrollOutcome(data / "models" / "base", check, activated, seconds or {}, 12)

        monkeypatch.setattr(enroll_mod, "adapt_and_install", adapted)
        return main(["enroll", "--from", str(alt_photos), "--trust-names", "--data", str(data)])

    return run


def test_running_again_says_whether_the_enrolled_model_is_the_active_one(
    tmp_path: Path,
    alt_photos: Path,
    base_model: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Run again on the same photos, the enrollment is done: it said "make it active with
    --activate X" where X already was the active model."""
    from skullcam.vision import enrolled_models

    data = tmp_path / "data"
    shutil.copytree(base_model, data / "models" / "deck-1")
    activate(data, "deck-1")
    monkeypatch.setattr(enrolled_models, "passed_with_plan", lambda *_: True)
    enrollment = Enrollment.open(data, "my-deck")  # the command's default name
    assert not collect_from_folder(enrollment, alt_photos, progress=False)
    enrollment.stage, enrollment.model = "done", "deck-1"
    enrollment.save()
    enroll_again = ["enroll", "--from", str(alt_photos), "--trust-names", "--data", str(data)]
    assert main(enroll_again) == 0
    said = "deck 'my-deck' is already enrolled from these photos as deck-1; "
    assert said + "it is the active model" in capsys.readouterr().out
    activate(data, "shipped")
    assert main(enroll_again) == 0
    assert (
        said + "make it active with: skullcam enroll --activate deck-1" in capsys.readouterr().out
    )


def test_a_model_not_activated_says_the_figure_and_the_bar_it_was_judged_by(
    enroll_judged: Callable[..., int], capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal said "names only 20.0 % of test cards right" just under a self-check line
    saying 17.1 % of cards right: two figures, one wording, and no word of the bar."""
    check = CheckResult(scenes=10, cards=41, recall=0.171, precision=0.5, classifier_accuracy=0.2)
    code = enroll_judged(check, False)
    out, err = capsys.readouterr()
    assert code == 2
    assert "classifier alone on the true card outlines 20.0%" in out
    assert (
        "the adapted classifier names only 20.0% of the test cards right on their true "
        "outlines (90% activates a model), so it was kept (base) but not activated"
    ) in err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux /proc")
@pytest.mark.parametrize("settle_s", [1.0, 0.0], ids=["while-working", "while-importing"])
def test_a_job_in_a_fresh_interpreter_ends_when_its_starter_is_killed(settle_s: float) -> None:
    # kill -9 of `skullcam enroll` mid-render used to leave the renderer writing on. Killed at
    # once, the starter dies while the job is still importing: a job that took os.getppid()
    # as its starter then watched the process that adopted it and lived on.
    starter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from skullcam.vision.adapt import call_in_fresh_interpreter as c; "
            "c('subprocess:call', {'args': ['sleep', '60']}, 'a test job')",
        ]
    )
    sleepers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not (job := _children_of(starter.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert job, "the job never started"
        time.sleep(settle_s)  # 1 s: the job is past its imports and watching
        sleepers = _children_of(job[0])  # the job's own work: cleaned up below
        starter.kill()
        starter.wait(5)
        deadline = time.monotonic() + 10
        while Path(f"/proc/{job[0]}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        status = Path(f"/proc/{job[0]}/stat")
        gone = not status.exists() or status.read_text().rsplit(")", 1)[1].split()[0] == "Z"
        assert gone, "the job outlived the process that started it"
    finally:
        starter.kill()
        for pid in sleepers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_an_installed_model_is_on_disk_before_the_pointer_names_it(
    tmp_path: Path, base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every file of the model, then its folder, then the models folder holding the rename are
    # flushed to disk before the active_model pointer is written: a power cut after the
    # pointer lands cannot leave it naming a folder of empty or missing files.
    from skullcam.vision.adapt import AdaptResult

    manifest = ModelManifest.read(base_model)
    result = AdaptResult(
        checkpoint=base_model / manifest.classifier,  # any file stands in for a checkpoint
        onnx=base_model / manifest.classifier,
        detector=base_model / manifest.detector,
        detector_checkpoint=None,
        val_accuracy=1.0,
        seconds=0.0,
    )
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    data = tmp_path / "data"
    folder = enroll_mod._install_model(data, "deck", manifest, result, {"deck": "d"})
    activate(data, folder.name)
    staging = str(data / "models" / f".staging-{folder.name}")
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        [
            "card-classifier.onnx",
            "card-classifier.pt",
            "card-detector.onnx",
            "enroll.json",
            MANIFEST,
        ]
    )
    files = [f"{staging}/.{name}.tmp" for name in names]
    assert sorted(synced[: len(files)]) == sorted(files)
    assert synced[len(files) :] == [
        staging,
        str(data / "models"),
        str(data / ".active_model.tmp"),
        str(data),
    ]
    assert Recognizer.load(data_dir=data).version == f"enrolled-{folder.name}"


def test_one_enrollment_is_open_in_one_program_at_a_time(tmp_path: Path) -> None:
    """A second page server (or an --from run) on the same enrollment would save its own
    list of faces over the first's, losing a face accepted there."""
    held = Enrollment.open(tmp_path / "data", "my-deck")
    held.hold()
    code = textwrap.dedent(
        f"""
        from skullcam.vision.enroll import Enrollment
        Enrollment.open({str(tmp_path / "data")!r}, "my-deck").hold()
        """
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert other.returncode != 0
    assert "is open in another 'skullcam enroll'" in other.stderr
    Enrollment.open(tmp_path / "data", "other-deck").hold()  # another deck is free
    held._held.close()  # the first program ends
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("refused", ["mkdir", "open"])
def test_an_enrollment_on_a_read_only_data_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused: str
) -> None:
    """'skullcam enroll' on a read-only data folder ended in an OSError traceback where it
    made the enrollment's folder (or, that folder there already, opened its lock file)."""
    import errno

    from skullcam import files

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    enrollment = Enrollment.open(tmp_path / "data", "my-deck")
    if refused == "mkdir":
        monkeypatch.setattr(Path, "mkdir", read_only)
        said = "cannot create enrollment folder"
    else:
        enrollment.work_dir.mkdir(parents=True)
        monkeypatch.setattr(files, "open", read_only, raising=False)
        said = "cannot open the lock file"
    with pytest.raises(UserError, match=f"{said} .*my-deck.*Read-only file system"):
        enrollment.hold()


def test_many_faces_read_badly_are_said_to_need_more_training_not_new_photos(
    enroll_judged: Callable[..., int], capsys: pytest.CaptureFixture[str]
) -> None:
    """A short plan's model read 20 faces under half right, and the user was told to retake
    those 20 photos; the cure is a longer run, with no time budget: about how long it takes
    here is said, as the page's button says it (session 18's parts: 35.5 min)."""
    parts = {"adapt": 800, "check": 58, "before_fine_tune": 223, "classifier": 445}
    assert enroll_judged(learned_too_little(), False, {**parts, "after_fine_tune": 132}) == 2
    out, err = capsys.readouterr()
    assert "12 faces are named right on under half of their cards: too many for bad photos" in out
    # The run the page's button makes after the default plan: its flags, to type.
    longer = "--scenes 7200 --epochs 18 --minutes 0"
    assert f"run the same command again with more --scenes and --epochs: {longer}" in out
    assert "no time budget: about 35 minutes on this machine)" in out
    assert "retake the photos of" not in out
    # The refusal, the last line, says the same, not "retake the weakest faces".
    assert err.rstrip().endswith(f"not activated; run the same command again with {longer}")


def test_faces_the_self_check_reads_under_half_are_named_to_retake(
    enroll_judged: Callable[..., int], capsys: pytest.CaptureFixture[str]
) -> None:
    """A face photo cut off at its edge was enrolled as its print panel; the model, read
    right 0 % on that face, was activated with only "weakest cards: black-3 R=0.00"."""
    check = CheckResult(
        scenes=500,
        cards=2100,
        recall=0.98,
        precision=0.98,
        classifier_accuracy=0.985,
        per_card={"black-3": {"precision": 0.0, "recall": 0.0}},
        classifier_per_card={
            "black-3": {"precision": 0.0, "recall": 0.0},
            "green-7": {"precision": 0.5, "recall": 0.45},
            "green-8": {"precision": 0.9, "recall": 0.5},
            # Cards read as no card count against "none" too: no photo of it to retake.
            "none": {"precision": 0.0, "recall": 0.0},
        },
    )

    code = enroll_judged(check, True)
    assert code == 0
    assert (
        "  retake the photos of black-3, green-7: the self-check names them right on under "
        "half of their cards (a photo cut off at the edge, of another card, or blurred?), "
        "then run the same command again"
    ) in capsys.readouterr().out
    assert check.faces_to_retake(below=0.4) == ["black-3"]


def _start_job(folder: Path, target: str) -> subprocess.Popen[str]:
    """A process that runs ``target`` (in ``folder``) as a job, in a process group of its own
    (so a test can press Ctrl-C on it), and prints "interrupted" when Ctrl-C stops it. Ctrl-C
    is heard even where the tests run with it ignored (a shell's background job: the ignoring
    is inherited, and the test waited 30 s for nothing). A SIGTERM is heard as the console
    command hears it (``skullcam.__main__``)."""
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from skullcam import stop_as_interrupt\n"
            "signal.signal(signal.SIGTERM, stop_as_interrupt)\n"
            "from skullcam.vision.adapt import call_in_fresh_interpreter as c\n"
            "try:\n"
            f"    c({target!r}, {{}}, 'a test job')\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted')\n",
        ],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": path},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


SLOW_JOB = """
import pathlib, time

def run() -> None:
    pathlib.Path("started").touch()
    try:
        time.sleep(60)
    except KeyboardInterrupt:
        time.sleep(1.0)
        pathlib.Path("cleaned").touch()
        raise
"""
"""A job that takes a second to clean up after Ctrl-C, and leaves a file saying it did."""


@pytest.mark.parametrize(
    "stop",
    [
        lambda pid: os.killpg(pid, signal.SIGINT),  # Ctrl-C: the whole process group
        lambda pid: os.kill(pid, signal.SIGTERM),  # kill PID: the starter alone
        # systemd's stop of a unit (KillMode=control-group): every process at once, and the
        # starter passes its own on, so the job hears a second one mid-cleanup
        lambda pid: os.killpg(pid, signal.SIGTERM),
    ],
    ids=["ctrl-c", "sigterm", "sigterm-to-the-group"],
)
def test_a_stop_lets_the_job_end_its_helpers_before_the_starter_ends(
    tmp_path: Path, stop: Callable[[int], None]
) -> None:
    """The starter killed the job a quarter of a second after Ctrl-C: on a busy machine before
    the job had ended its pool, whose workers slept on as orphans (CI, session 47: the
    workers held the pipes open 60 s). Here the job takes a second to clean up.

    A SIGTERM, heard as Ctrl-C since the console command turned it into one, reached the
    starter alone: it waited 20 s for a job that had heard nothing, then killed it with
    SIGKILL mid-work (its helpers orphaned, writing on into a folder the next run deletes)."""
    (tmp_path / "slowjob.py").write_text(SLOW_JOB)
    starter = _start_job(tmp_path, "slowjob:run")
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "started").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        stop(starter.pid)
        out, _err = starter.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(starter.pid, signal.SIGKILL)
    assert out.strip() == "interrupted"
    assert (tmp_path / "cleaned").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux /proc")
def test_ctrl_c_in_a_job_with_workers_prints_no_tracebacks(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group: the job and each pool worker printed their
    own KeyboardInterrupt traceback, about a hundred lines above the starter's one line."""
    (tmp_path / "pooljob.py").write_text(
        textwrap.dedent(
            """
            import time
            from skullcam.parallel import worker_pool

            def run() -> None:
                with worker_pool(2) as pool:
                    pool.map(time.sleep, [60, 60])
            """
        )
    )
    starter = _start_job(tmp_path, "pooljob:run")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the job, its fork server and two workers
            job = _children_of(starter.pid)
            if job and sum(len(_children_of(p)) for p in _children_of(job[0])) >= 2:
                break
            time.sleep(0.2)
        time.sleep(0.5)
        os.killpg(starter.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        out, err = starter.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(starter.pid, signal.SIGKILL)
    assert out.strip() == "interrupted"
    assert "Traceback" not in err, err


def test_an_accepted_face_is_on_disk_before_the_state_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state was flushed to disk and the face's picture was not (written by OpenCV and
    renamed): a power cut just after Accept could leave a state naming an empty picture, an
    enrollment that says 69 of 69 and fails to adapt. Both are flushed, the picture first."""
    from skullcam import files

    flushed: list[str] = []
    flush = files._flush_to_disk

    def watched(fh: Any) -> None:
        flush(fh)
        flushed.append(Path(fh.name).name)

    monkeypatch.setattr(files, "_flush_to_disk", watched)
    enrollment = Enrollment.open(tmp_path / "data", "deck")
    face = render_face("green-1", "alt")
    enrollment.accept("green-1", face)
    assert flushed == [".green-1.png.tmp", ".state.json.tmp"]
    kept = enrollment.face_image("green-1")
    assert kept is not None and np.array_equal(kept, face)
