"""The edge look: a box cut by the frame's edge that no reader names, read as a whole card."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from image_support import imread
from model_variants import shipped_model_with

from skullcam.errors import UserError
from skullcam.vision import obb
from skullcam.vision.crop_dataset import MIN_VISIBLE, read_scene_index
from skullcam.vision.evaluate import judge_scene
from skullcam.vision.readings import box_names
from skullcam.vision.recognizer import MANIFEST, Recognizer, shipped_model_dir

EDGE_LOOK_SCENE = Path(__file__).resolve().parent / "data" / "edge_look_scene"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load(shipped_model_dir(), threads=1)


@pytest.fixture(scope="module")
def scene() -> tuple[Path, list]:
    ((image, truth),) = read_scene_index(EDGE_LOOK_SCENE, "val")
    return image, truth


def test_the_shipped_model_names_a_card_cut_by_the_frame_only_with_its_edge_look(
    recognizer: Recognizer, scene: tuple[Path, list], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A validation scene (tests/data/edge_look_scene): a black-7 54 % visible, cut by the top
    # edge of the frame. The crop of the box around its part in view reads as no card.
    image, truth = scene
    frame = imread(image)
    must_find = {c.face: c for c in truth if c.visible_fraction >= MIN_VISIBLE}
    assert sorted(must_find) == ["black-7", "yellow-5", "yellow-8"]
    found = recognizer(frame)
    assert judge_scene(image, truth, found).correct
    (seven,) = [d for d in found if d.card == "black-7"]
    # Reported around the whole card as it lies on the table, past the frame's edge.
    assert seven.box[1] < 0
    assert obb.polygon_iou(seven.corners, must_find["black-7"].corners) > 0.8
    monkeypatch.setattr(recognizer, "manifest", replace(recognizer.manifest, edge_look=False))
    assert "black-7" not in {d.card for d in recognizer(frame)}


def test_boxes_named_or_inside_the_frame_are_not_looked_at_again(
    recognizer: Recognizer, scene: tuple[Path, list]
) -> None:
    frame = imread(scene[0])
    boxes = recognizer.detect(frame)
    evidence = recognizer.evidence(frame, boxes.quads, boxes.scores)
    assert recognizer.edge_look(frame, evidence, np.zeros(len(boxes.quads), bool)) == []
    inside = np.array([np.all((q > 10) & (q < [630, 470])) for q in boxes.quads])
    assert inside.any()
    assert recognizer.edge_look(frame, evidence, inside) == []
    assert recognizer.edge_look(frame, evidence, ~inside) != []


def test_a_frame_is_given_an_edge_look_at_exactly_the_boxes_no_reader_named(
    recognizer: Recognizer, scene: tuple[Path, list], monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = imread(scene[0])
    boxes = recognizer.detect(frame)
    names, _ = box_names(recognizer.evidence(frame, boxes.quads, boxes.scores), recognizer.manifest)
    asked: list[np.ndarray] = []
    look = recognizer.edge_look

    def spy(frame: np.ndarray, evidence: object, unnamed: np.ndarray) -> list:
        asked.append(unnamed.copy())
        return look(frame, evidence, unnamed)  # type: ignore[arg-type]

    monkeypatch.setattr(recognizer, "edge_look", spy)
    recognizer(frame)
    (unnamed,) = asked
    assert unnamed.any() and not unnamed.all()
    np.testing.assert_array_equal(unnamed, names < 0)


def test_the_manifest_switch_defaults_on_and_must_be_true_or_false(tmp_path: Path) -> None:
    folder = shipped_model_with(tmp_path / "model", edge_look=False)
    assert Recognizer.load(folder, threads=1).manifest.edge_look is False
    written = json.loads((folder / MANIFEST).read_text())
    del written["edge_look"]  # a manifest from before session 33
    (folder / MANIFEST).write_text(json.dumps(written))
    manifest = Recognizer.load(folder, threads=1).manifest
    assert manifest.edge_look is True
    assert manifest.to_json()["edge_look"] is True
    shipped_model_with(folder, edge_look="no")
    with pytest.raises(UserError, match="expected true or false"):
        Recognizer.load(folder, threads=1)
