"""Photo-like pictures of single deck faces: the stand-in for a user's phone photos or scans.

No photographs of real cards exist on these machines, so enrollment is tested (and benchmarked)
on faces of a deck folder rendered the way a phone sees one card on a table: a random surface,
the card at any angle with some perspective, uneven light, a soft shadow, a little blur, noise
and JPEG. The same renderer makes the bad inputs the enrollment must refuse: a blurred shot,
a glare spot, two cards in one photo, an empty table.
"""

from __future__ import annotations

import math
import shutil
import warnings
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from skullcam.datasets.deck import CORNER_RADIUS_MM, FACE_H, FACE_W, PX_PER_MM, rounded_mask
from skullcam.datasets.props import table_texture

PHOTO_SIZE = (960, 720)  # width, height: small enough for fast tests, larger than the camera's


def _card_quad(
    rng: np.random.Generator, size: tuple[int, int], long_px: float, centre: tuple[float, float]
) -> np.ndarray:
    """Corners (TL, TR, BR, BL of the upright face) of a card turned at random, with perspective."""
    short_px = long_px * FACE_W / FACE_H
    angle = rng.uniform(0, 2 * math.pi)
    cos, sin = math.cos(angle), math.sin(angle)
    half = np.array(
        [
            [-short_px / 2, -long_px / 2],
            [short_px / 2, -long_px / 2],
            [short_px / 2, long_px / 2],
            [-short_px / 2, long_px / 2],
        ],
        np.float32,
    )
    # Perspective: a phone held not quite flat shrinks the far edge of the card.
    tilt = rng.uniform(-0.12, 0.12)
    half[:2, 0] *= 1 - tilt
    half[2:, 0] *= 1 + tilt
    half += rng.normal(0, 0.015 * long_px, half.shape).astype(np.float32)
    rot = np.array([[cos, -sin], [sin, cos]], np.float32)
    return half @ rot.T + np.asarray(centre, np.float32)


def _paste(photo: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Warp ``face`` onto ``quad`` with its rounded corners and a soft shadow beneath."""
    h, w = photo.shape[:2]
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    radius = CORNER_RADIUS_MM * PX_PER_MM * fw / FACE_W
    mask = cv2.warpPerspective(rounded_mask(fw, fh, radius), matrix, (w, h)).astype(np.float32)
    shadow = cv2.GaussianBlur(
        np.roll(mask, (int(0.01 * h) + 2, int(0.01 * w) + 2), axis=(0, 1)), (0, 0), 6
    )
    photo[:] = (photo * (1 - 0.35 * shadow[..., None] / 255)).astype(np.uint8)
    warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_LINEAR)
    alpha = mask[..., None] / 255
    photo[:] = (warped * alpha + photo * (1 - alpha)).astype(np.uint8)


def render_photo(
    faces: Iterable[np.ndarray],
    rng: np.random.Generator,
    size: tuple[int, int] = PHOTO_SIZE,
    blur: float = 0.0,
    glare: bool = False,
    exposure: float | None = None,
    plain: bool = False,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """A photo of the given faces (usually one, none for an empty table) and their corners.

    ``blur`` is the Gaussian sigma as a fraction of the card's short side (0.02 is a slightly
    soft phone shot, 0.04 is a shot to retake); ``glare`` puts a washed-out reflection over
    the first card. ``plain`` lays the card on an even surface (what the guide asks for)
    instead of any table, checked cloth included.
    """
    faces = list(faces)
    w, h = size
    if plain:
        colour = rng.integers(20, 236, 3).astype(np.float32)
        shade = cv2.resize(rng.uniform(0.85, 1.1, (3, 4)).astype(np.float32), (w, h))
        photo = np.clip(colour * shade[..., None], 0, 255).astype(np.uint8)
    else:
        photo = table_texture(rng, w, h, px_per_mm=float(rng.uniform(2.0, 5.0)))
    quads: list[np.ndarray] = []
    if len(faces) == 1:
        long_px = rng.uniform(0.45, 0.7) * h
        margin = long_px * 0.6
        centre = (rng.uniform(margin, w - margin), rng.uniform(margin, max(margin, h - margin)))
        quads.append(_card_quad(rng, size, long_px, centre))
    elif faces:
        long_px = rng.uniform(0.4, 0.5) * h
        for i in range(len(faces)):
            centre = ((i + 0.5) * w / len(faces), h / 2 + rng.uniform(-0.05, 0.05) * h)
            quads.append(_card_quad(rng, size, long_px, centre))
    for face, quad in zip(faces, quads, strict=True):
        _paste(photo, face, quad)
    # Uneven light: a gain ramp across the photo, a slight colour cast.
    gain = exposure if exposure is not None else rng.uniform(0.75, 0.97)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = 1 + 0.15 * ((xx / w - 0.5) * math.cos(direction) + (yy / h - 0.5) * math.sin(direction))
    tint = rng.uniform(0.92, 1.05, 3).astype(np.float32)
    image = photo.astype(np.float32) * gain * ramp[..., None] * tint
    if glare and quads:
        centre = quads[0].mean(axis=0)
        short = float(np.linalg.norm(quads[0][1] - quads[0][0]))
        spot = np.exp(
            -(((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * (0.45 * short) ** 2))
        )
        image += 400 * spot[..., None]
    if blur > 0 and quads:
        short = float(np.linalg.norm(quads[0][1] - quads[0][0]))
        image = cv2.GaussianBlur(image, (0, 0), blur * short)
    image += rng.normal(0, 3.0, image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 96))])
    assert ok
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert decoded is not None  # a JPEG it has just encoded
    return decoded, quads


def write_photo_folder(
    faces: dict[str, np.ndarray],
    out: Path,
    seed: int = 0,
    names: Iterable[str] | None = None,
    size: tuple[int, int] = PHOTO_SIZE,
    plain: bool = True,
) -> Path:
    """One ``<card-id>.jpg`` photo per face into ``out``: what a user's phone folder looks like
    when they follow the guide (one card on a plain surface; ``plain=False``: any table)."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name in names if names is not None else faces:
        photo, _ = render_photo(
            [faces[name]], rng, size=size, blur=rng.uniform(0, 0.01), plain=plain
        )
        cv2.imwrite(str(out / f"{name}.jpg"), photo)
    return out


def write_tiny_model(
    out: Path, deck_dir: Path, scenes: int = 24, epochs: int = 2, corner: bool = False
) -> Path:
    """A small but real model folder for tests and benchmarks when no trained model exists.
    With ``corner``, it also has an (untrained) corner reader, as the shipped model does.

    The classifier is really trained (briefly, on ``scenes`` scenes of ``deck_dir``; with 0 it
    keeps its random initial weights); the
    detector is a stand-in ONNX graph of the right input and output layout that finds no card,
    since training a real one takes many minutes. Written like ``training.py`` does: weights
    first, manifest last.
    """
    import torch
    from torch import nn

    from skullcam.datasets.dataset import write_scenes
    from skullcam.vision.classifier_net import CardClassifier
    from skullcam.vision.crop_dataset import crops_from_scenes, read_scene_index
    from skullcam.vision.recognizer import ModelManifest
    from skullcam.vision.train_classifier import (
        export_classifier,
        save_checkpoint,
        train_classifier,
    )
    from skullcam.vision.training import (
        CHECKPOINT_FILE,
        CLASSES,
        CLASSIFIER_FILE,
        CORNER_FILE,
        DETECTOR_FILE,
    )

    out.mkdir(parents=True, exist_ok=True)
    data = out / "scenes"
    model = CardClassifier(len(CLASSES))
    if scenes > 0:
        write_scenes(deck_dir, data, {"train": scenes, "val": max(4, scenes // 6)}, progress=False)
        train = crops_from_scenes(read_scene_index(data, "train"), CLASSES, copies=2, seed=1)
        val = crops_from_scenes(read_scene_index(data, "val"), CLASSES, copies=1, seed=2)
        model = train_classifier(train, val, epochs=epochs, lr=4e-3).model
        shutil.rmtree(data)
    export_classifier(model, out / CLASSIFIER_FILE)
    save_checkpoint(model, CLASSES, out / CHECKPOINT_FILE)
    if corner:
        from skullcam.vision.corner_net import CornerReaderNet
        from skullcam.vision.training import save_corner_reader

        save_corner_reader(CornerReaderNet(len(CLASSES)), out)

    class NoCards(nn.Module):
        """(1, 3, H, W) -> (1, 4 + 1 + 1, N) of zeros: the OBB head layout, every score 0."""

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            cells = nn.functional.avg_pool2d(x, 32).flatten(2) * 0.0  # (1, 3, N)
            return torch.cat([cells, cells], dim=1)

    input_hw = (256, 320)
    with warnings.catch_warnings():  # the legacy exporter's deprecation notice, as training's
        warnings.simplefilter("ignore")
        torch.onnx.export(
            NoCards(),
            (torch.zeros(1, 3, *input_hw),),  # the inputs, as a tuple
            str(out / DETECTOR_FILE),
            dynamo=False,
            input_names=["images"],
            output_names=["output0"],
            opset_version=17,
        )
    ModelManifest(
        folder=out,
        version="tiny-test-model",
        detector=DETECTOR_FILE,
        classifier=CLASSIFIER_FILE,
        detector_input=input_hw,
        classes=CLASSES,
        corner_reader=CORNER_FILE if corner else None,
    ).write()
    return out
