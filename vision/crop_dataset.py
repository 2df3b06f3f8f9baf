"""Training crops for the face classifier, cut from labelled scenes the way inference cuts them.

Each labelled card is warped from slightly perturbed corners (the detector is never exact),
so the classifier learns the crops it will really get; random quads of table, hands and
half-hidden cards become the ``none`` class that rejects the detector's stray boxes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam.errors import UserError
from skullcam.files import read_text
from skullcam.parallel import worker_context
from skullcam.rules import FACES
from skullcam.vision.crops import (
    CROP_H,
    CROP_W,
    card_crop,
    corner_patches,
    order_long_side_vertical,
)
from skullcam.vision.obb import corners as obb_corners
from skullcam.vision.readings import NOT_A_CARD
from skullcam.vision.recognizer import CardDetector


@dataclass
class CropSet:
    """Crops (N, H, W, 3) BGR uint8 and their class indices into ``classes``."""

    images: np.ndarray
    labels: np.ndarray
    classes: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.labels)


class NoCardsToCut(UserError):
    """Scenes held no card to cut a crop from: an error for a whole dataset, but only an empty
    share for one chunk of it cut by a worker."""


Seed = int | Sequence[int]
"""A crop cutter's random seed: an int, or a sequence such as (seed, chunk) when scenes are cut
in parallel, so each chunk draws its own stream."""


@dataclass(frozen=True)
class LabelledCard:
    face: str
    corners: np.ndarray  # (4, 2) pixels
    visible_fraction: float
    corner_visible: tuple[float, float] = (1.0, 1.0)  # the top-left and bottom-right marks


Scene = tuple[Path, list[LabelledCard]]
"""A scene image and the cards labelled in it, as ``read_scene_index`` gives them."""


def read_scene_index(dataset: Path, split: str) -> list[Scene]:
    """Scenes of one split from ``scenes.jsonl`` (the generator's per-scene ground truth); a
    UserError naming the file and line for a line that is no scene label, and for a file with
    no scenes (metrics "on 0 scenes" would read as a result)."""
    index = _scene_index_file(dataset, split)
    lines = read_text(index, "scene labels").splitlines()
    scenes = [
        _scene(dataset, index, number, line)
        for number, line in enumerate(lines, start=1)
        if line.strip()
    ]
    if not scenes:
        raise UserError(
            f"no scenes in {index}: it is empty; generate scenes with 'skullcam synth scenes'"
        )
    return scenes


def _scene_index_file(dataset: Path, split: str) -> Path:
    """The split's ``scenes.jsonl``, wherever the dataset's layout keeps it."""
    candidates = [
        dataset / split / "scenes.jsonl",
        dataset / f"scenes_{split}.jsonl",
        dataset / "scenes" / f"{split}.jsonl",
        dataset / "labels" / split / "scenes.jsonl",
    ]
    index = next((p for p in candidates if p.is_file()), None)
    if index is None:
        raise UserError(
            f"no scenes.jsonl for split '{split}' under {dataset}; "
            "generate one with 'skullcam synth scenes'"
        )
    return index


def _scene(dataset: Path, index: Path, number: int, line: str) -> Scene:
    """One line of ``scenes.jsonl`` as a scene, or a UserError naming the file and the line."""
    where = f"{index} line {number}"
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as err:
        raise UserError(
            f"{where} is not valid JSON (column {err.colno}: {err.msg}); fix or remove the line"
        ) from None
    if not isinstance(raw, dict):
        raise UserError(f"{where} is not a scene label: a JSON object expected, with 'file'")
    try:
        image = raw.get("image") or raw.get("file") or raw.get("path")
        if not isinstance(image, str) or not image:
            raise ValueError("no image file named (expected 'file' or 'image')")
        cards = _labelled_cards(raw.get("cards", []))
    except ValueError as err:
        raise UserError(f"{where} is not a scene label: {err}") from None
    return _scene_image(dataset, index, Path(image)), cards


def _labelled_cards(raw: Any) -> list[LabelledCard]:
    """A scene label's cards, each checked field by field: a ValueError says which card and
    which field is wrong in the label's own words, where numpy's and Python's would say
    "'NoneType' object is not iterable" or "cannot reshape array of size 2"."""
    if not isinstance(raw, list):
        raise ValueError("'cards' must be a list of cards, each with 'face' and 'corners'")
    return [_labelled_card(number, card) for number, card in enumerate(raw, 1)]


def _labelled_card(number: int, label: Any) -> LabelledCard:
    """Card ``number`` of a scene label; a face the rules engine does not know is refused, since
    no model could ever read it right (every scene holding it would count as a miss)."""
    if not isinstance(label, dict):
        raise ValueError(f"card {number} is not a JSON object with 'face' and 'corners'")
    face = str(label.get("card") or label.get("face"))
    if face not in FACES:
        raise ValueError(f"unknown card {face!r} (expected a face such as green-7 or skull-king)")
    if "corners" not in label:
        raise ValueError(f"a card has no 'corners' (card {number}, {face})")
    corners = _numbers(label["corners"], (4, 2))
    if corners is None:
        raise ValueError(f"card {number} ({face}): 'corners' must be four [x, y] pairs of numbers")
    fraction = _numbers(label.get("visible_fraction", 1.0), ())
    if fraction is None or not 0 <= float(fraction) <= 1:
        raise ValueError(f"card {number} ({face}): 'visible_fraction' must be a number from 0 to 1")
    corner_visible = _numbers(label.get("corner_visible", (1.0, 1.0)), (2,))
    if corner_visible is None:
        raise ValueError(f"card {number} ({face}): 'corner_visible' must be two numbers")
    return LabelledCard(
        face=face,
        corners=corners.astype(np.float32),
        visible_fraction=float(fraction),
        corner_visible=(float(corner_visible[0]), float(corner_visible[1])),
    )


def _numbers(value: Any, shape: tuple[int, ...]) -> np.ndarray | None:
    """A JSON value as finite numbers of ``shape``, or None: strings and booleans are no numbers,
    though numpy would turn "3" and true into 3.0 and 1.0."""
    if _holds_text_or_bool(value):
        return None
    try:
        array = np.asarray(value, np.float64)
    except (TypeError, ValueError):
        return None
    if array.shape != shape or not np.isfinite(array).all():
        return None
    return array


def _holds_text_or_bool(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return any(_holds_text_or_bool(v) for v in value)
    return isinstance(value, str | bool) or value is None


def _scene_image(dataset: Path, index: Path, image: Path) -> Path:
    """A label's image path: as written when absolute, else under the dataset or the folder
    of ``scenes.jsonl``, whichever holds it."""
    if image.is_absolute():
        return image
    return next(
        (base / image for base in (dataset, index.parent) if (base / image).is_file()),
        dataset / image,
    )


def _read_frame(path: Path) -> np.ndarray:
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise UserError(f"cannot read scene image {path}")
    return frame


def _jitter_quad(quad: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Move a card quad as a detector error would: shift, scale, turn, and per-corner noise."""
    centre = quad.mean(axis=0)
    size = float(np.linalg.norm(quad[2] - quad[0]))
    angle = rng.normal(0, 0.04 * strength)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    scale = 1 + rng.normal(0, 0.03 * strength)
    shift = rng.normal(0, 0.025 * strength * size, 2)
    out = (quad - centre) @ rot.T * scale + centre + shift
    return (out + rng.normal(0, 0.008 * strength * size, (4, 2))).astype(np.float32)


def _random_background_quad(
    shape: tuple[int, ...], cards: list[LabelledCard], rng: np.random.Generator
) -> np.ndarray | None:
    """A card-sized quad that is not mostly over any one visible card, or None."""
    h, w = shape[:2]
    long_side = rng.uniform(60, 130)
    for _ in range(10):
        box = np.array(
            [
                [
                    rng.uniform(0, w),
                    rng.uniform(0, h),
                    long_side,
                    long_side * 56 / 87,
                    rng.uniform(0, np.pi),
                ]
            ],
            np.float32,
        )
        quad = obb_corners(box)[0]
        centre = quad.mean(axis=0)
        near = any(
            cv2.pointPolygonTest(c.corners.reshape(-1, 1, 2), tuple(map(float, centre)), True)
            > -long_side * 0.25
            for c in cards
        )
        if not near:
            return quad
    return None


def crops_from_scenes(
    scenes: Iterable[Scene],
    classes: tuple[str, ...],
    copies: int = 2,
    min_visible: float = 0.5,
    none_per_scene: float = 0.5,
    seed: Seed = 0,
    jitter: float = 1.0,
) -> CropSet:
    """Cut ``copies`` jittered crops per labelled card plus some ``none`` crops per scene."""
    rng = np.random.default_rng(seed)
    index = {name: i for i, name in enumerate(classes)}
    images: list[np.ndarray] = []
    labels: list[int] = []
    for image_path, cards in scenes:
        frame = _read_frame(image_path)
        for crop, label in _crops_of_scene(frame, cards, index, copies, min_visible, rng, jitter):
            images.append(crop)
            labels.append(label)
        if NOT_A_CARD in index and rng.random() < none_per_scene:
            quad = _random_background_quad(frame.shape, cards, rng)
            if quad is not None:
                images.append(card_crop(frame, quad))
                labels.append(index[NOT_A_CARD])
    if not images:
        raise NoCardsToCut("no labelled cards found to train the classifier on")
    return CropSet(np.stack(images), np.asarray(labels, np.int64), classes)


def _crops_of_scene(
    frame: np.ndarray,
    cards: list[LabelledCard],
    index: dict[str, int],
    copies: int,
    min_visible: float,
    rng: np.random.Generator,
    jitter: float,
) -> Iterator[tuple[np.ndarray, int]]:
    for card in cards:
        if card.visible_fraction < min_visible or card.face not in index:
            continue
        for copy in range(copies):
            quad = (
                card.corners
                if copy == 0 and jitter == 0
                else _jitter_quad(card.corners, rng, jitter)
            )
            yield card_crop(frame, quad), index[card.face]


MIN_VISIBLE = 0.5
"""The must-find line: a card at least this visible must be found and named; under it, a card
is "don't care" in evaluation and is never taught as its face from a detector box."""
MATCH_IOU = 0.5
"""Polygon IoU at which a box (or reading) and a labelled card are the same card on the table."""
ON_HIDDEN_CARD = 0.8
"""Share of a box inside a card's outline for the box to lie on that card: how a box around
only the visible part of a mostly covered card is told to belong to it (IoU cannot: it is
about the visible share)."""
HIDDEN_IS_NONE_BELOW = 0.3
"""A detector box on a card less visible than this is taught as ``none``.

Such a crop shows mostly the cards on top of it; never shown any, the classifier named a face
on them anyway, often a special card (77 of 117 false alarms on 1,300 validation scenes).
Taught as ``none`` below 0.3 visible (the line under which the detector, too, learned "no
card") and left out between that and the must-find line of 0.5, where a corner may show:
validation scene accuracy 91.8 % -> 93.0 %, false alarms 68 -> 38 (cut at 0.35: 92.4 %, at
0.4: 92.5 %). All hidden boxes as ``none``: 90.2 % (misses doubled); as their own face: 90.2 %
(more phantoms). See docs/model-history.md, the "why phantom faces" rows."""


def crops_from_detector(
    scenes: Iterable[Scene],
    classes: tuple[str, ...],
    detect: Callable[[np.ndarray], np.ndarray],
    hidden_is_none_below: float = HIDDEN_IS_NONE_BELOW,
) -> CropSet:
    """Crops cut where the trained detector really puts its boxes, labelled by the truth.

    The classifier then learns the exact misalignments it will meet at inference. A box on a
    must-find card takes that card's face; a box on nothing (a hand, clutter) is ``none``; a
    box on a card under half visible (overlapping it as one card does, or lying inside it) is
    ``none`` when the card is less visible than ``hidden_is_none_below``, else left out.
    """
    from skullcam.vision.obb import polygon_iou

    index = {name: i for i, name in enumerate(classes)}
    images: list[np.ndarray] = []
    labels: list[int] = []
    for image_path, cards in scenes:
        frame = _read_frame(image_path)
        for quad in detect(frame):
            ious = [polygon_iou(quad, c.corners) for c in cards]
            best = int(np.argmax(ious)) if ious else -1
            if (
                best >= 0
                and ious[best] >= MATCH_IOU
                and cards[best].visible_fraction >= MIN_VISIBLE
            ):
                if cards[best].face not in index:
                    continue
                label = index[cards[best].face]
            elif (hidden := _hidden_card_under(quad, cards, ious)) is not None:
                if NOT_A_CARD not in index or hidden.visible_fraction >= hidden_is_none_below:
                    continue
                label = index[NOT_A_CARD]
            elif (not ious or max(ious) < 0.2) and NOT_A_CARD in index:
                label = index[NOT_A_CARD]
            else:
                continue
            images.append(card_crop(frame, quad))
            labels.append(label)
    return CropSet(
        np.stack(images) if images else np.zeros((0, *crop_shape()), np.uint8),
        np.asarray(labels, np.int64),
        classes,
    )


COVERED_UP_TO = 0.9
"""A must-find card at most this visible is covered: its candidate boxes are taught too."""
CANDIDATE_IOU_BELOW = 0.9
"""Candidates fitting a card closer than this add nothing its own box and jittered crops lack."""


def crops_from_candidates(
    scenes: Iterable[Scene],
    classes: tuple[str, ...],
    detect: Callable[[np.ndarray], np.ndarray],
    per_card: int = 3,
    seed: Seed = 0,
) -> CropSet:
    """Up to ``per_card`` of the detector's raw boxes (every candidate before NMS, both views)
    on each covered must-find card, taught as its face.

    Why: the recognizer's misses are mostly cards 50-65 % visible whose box lies half on the
    card above; the classifier had learned those crops from the one box NMS kept and says
    "not a card" on them. A candidate counts when it fits the card at IoU 0.5-0.9 and fits no
    other card better. 8 epochs from the then-shipped classifier on 9,700 scenes: 2,936
    of 3,000 validation scenes right with these crops (3 a card), 2,929 without, 2,924 before
    the fine-tune (docs/model-history.md).
    """
    rng = np.random.default_rng(seed)
    index = {name: i for i, name in enumerate(classes)}
    pairs = [
        pair
        for image_path, cards in scenes
        for pair in _covered_card_crops(
            _read_frame(image_path), cards, detect, index, per_card, rng
        )
    ]
    return CropSet(
        np.stack([crop for crop, _ in pairs]) if pairs else np.zeros((0, *crop_shape()), np.uint8),
        np.asarray([label for _, label in pairs], np.int64),
        classes,
    )


def _covered_card_crops(
    frame: np.ndarray,
    cards: list[LabelledCard],
    detect: Callable[[np.ndarray], np.ndarray],
    index: dict[str, int],
    per_card: int,
    rng: np.random.Generator,
) -> Iterator[tuple[np.ndarray, int]]:
    from skullcam.vision.obb import polygon_iou

    candidates = detect(frame)
    if not len(candidates) or not cards:
        return
    ious = np.array([[polygon_iou(q, c.corners) for c in cards] for q in candidates])
    best = ious.argmax(axis=1)
    for j, card in enumerate(cards):
        if not MIN_VISIBLE <= card.visible_fraction <= COVERED_UP_TO or card.face not in index:
            continue
        fits = (best == j) & (ious[:, j] >= MATCH_IOU) & (ious[:, j] < CANDIDATE_IOU_BELOW)
        picks = np.flatnonzero(fits)
        if picks.size > per_card:
            picks = rng.choice(picks, per_card, replace=False)
        for i in picks:
            yield card_crop(frame, candidates[i]), index[card.face]


def _hidden_card_under(
    quad: np.ndarray, cards: list[LabelledCard], ious: list[float]
) -> LabelledCard | None:
    """The card under half visible that ``quad`` lies on (overlapping it as one card does, or
    lying inside it, as a box around its visible part does), the one holding most of it."""
    from skullcam.vision.obb import polygon_inside

    best, best_inside = None, 0.0
    for card, iou in zip(cards, ious, strict=True):
        if card.visible_fraction >= MIN_VISIBLE:
            continue
        inside = polygon_inside(quad, card.corners)
        if (iou >= MATCH_IOU or inside >= ON_HIDDEN_CARD) and (
            best is None or inside > best_inside
        ):
            best, best_inside = card, inside
    return best


MARK_SHOWS = 0.9
"""A corner mark at least this visible is taught as its card's face to the corner reader."""
MARK_HIDDEN = 0.35
"""A corner mark less visible than this is taught as ``none``: the patch shows whatever covers
it (often another card's body). Between the two the mark is part-read, and left out."""


def corner_patches_from_scenes(
    scenes: Iterable[Scene],
    classes: tuple[str, ...],
    copies: int = 2,
    none_per_scene: float = 1.0,
    seed: Seed = 0,
) -> CropSet:
    """Corner-mark patches for the corner reader, each labelled by its own mark's visibility.

    Every card of a scene counts, however covered: a card half under another often still
    shows one corner, and that corner is what the reader must learn to read. Crops are cut
    from jittered outlines, as the classifier's are, then split into their two patches."""
    rng = np.random.default_rng(seed)
    index = {name: i for i, name in enumerate(classes)}
    none = index[NOT_A_CARD]
    images: list[np.ndarray] = []
    labels: list[int] = []
    for image_path, cards in scenes:
        frame = _read_frame(image_path)
        for card in cards:
            if card.face not in index:
                continue
            for _ in range(copies):
                quad = _jitter_quad(card.corners, rng, 1.0)
                marks = _marks_in_crop_order(quad, card.corners)
                for patch, mark in zip(corner_patches(card_crop(frame, quad)), marks, strict=True):
                    shows = card.corner_visible[mark]
                    if shows >= MARK_SHOWS or shows < MARK_HIDDEN:
                        images.append(patch)
                        labels.append(index[card.face] if shows >= MARK_SHOWS else none)
        if rng.random() < none_per_scene:
            background = _random_background_quad(frame.shape, cards, rng)
            if background is not None:
                images.extend(corner_patches(card_crop(frame, background)))
                labels.extend([none, none])
    if not images:
        raise NoCardsToCut("no labelled cards found to train the corner reader on")
    return CropSet(np.stack(images), np.asarray(labels, np.int64), classes)


def _marks_in_crop_order(quad: np.ndarray, corners: np.ndarray) -> tuple[int, int]:
    """Which of the card's marks (0 top-left, 1 bottom-right) each crop patch shows: the crop
    puts the card either way up, so its top-left corner is the card's top-left or its
    bottom-right."""
    first = order_long_side_vertical(quad)[0]
    nearest = int(np.argmin(np.linalg.norm(np.asarray(corners) - first, axis=1)))
    return (0, 1) if nearest in (0, 1) else (1, 0)


@dataclass
class DetectorBoxes:
    """The training detector's boxes on a frame, as ``crops_from_detector`` asks for them.

    A plain value (model path and input size) rather than an open session, so that worker
    processes can be handed it: each opens its own ONNX Runtime session on first use, with one
    thread, since the workers already share the cores between them. In the process that made
    it, it runs on ``threads`` (0: the detector's default)."""

    path: Path
    input_hw: tuple[int, int]
    threads: int = 0
    mirror: bool = False
    _detector: CardDetector | None = field(default=None, init=False, repr=False, compare=False)

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        return self.detector().detect(frame).quads

    def detector(self) -> CardDetector:
        if self._detector is None:
            self._detector = CardDetector(
                self.path, self.input_hw, threads=self.threads, mirror=self.mirror
            )
        return self._detector

    def __getstate__(self) -> dict[str, object]:
        return {
            "path": self.path,
            "input_hw": self.input_hw,
            "threads": self.threads,
            "mirror": self.mirror,
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state, threads=1, _detector=None)


@dataclass
class CandidateBoxes(DetectorBoxes):
    """Every box the detector scored above its threshold, both views, before NMS: what
    ``crops_from_candidates`` asks for, as inference's second look sees them."""

    mirror: bool = True

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        return self.detector().detect(frame).candidates


PARALLEL_FROM = 100
"""Fewer scenes than this are cut in this process: starting workers would take longer."""
CHUNKS_PER_WORKER = 4
"""Scenes go to workers in this many chunks each: enough for the progress bar to move and the
load to even out, few enough that each chunk's crops travel back in one piece."""


def cut_in_parallel(
    cut: Callable[..., CropSet],
    scenes: Sequence[Scene],
    classes: tuple[str, ...],
    workers: int = 1,
    desc: str = "crops",
    progress: bool = True,
    **options: object,
) -> CropSet:
    """``cut(scenes, classes, **options)`` over ``workers`` processes, with a progress bar.

    One worker cuts in this process, exactly as ``cut`` alone would. With more, each chunk of
    scenes gets the seed ``(seed, chunk)``: the result then depends on the number of workers,
    not on their timing. A GPU run renders ten thousand scenes or more, and cutting their
    crops in one process took longer than training the classifier on them."""
    from tqdm import tqdm

    bar = tqdm(total=len(scenes), desc=desc, unit="scene", disable=not progress)
    if workers <= 1 or len(scenes) < PARALLEL_FROM:
        try:
            return cut(_counted(scenes, bar), classes, **options)
        finally:
            bar.close()
    size = max(1, -(-len(scenes) // (workers * CHUNKS_PER_WORKER)))
    jobs = [
        (cut, list(scenes[i : i + size]), classes, _chunk_options(options, n))
        for n, i in enumerate(range(0, len(scenes), size))
    ]
    parts: list[CropSet] = []
    # An executor, not a Pool: on an error, Pool.terminate() kills workers that may be halfway
    # through sending a chunk's crops back, and then waits for ever on the broken pipe (seen in
    # CI). The executor lets running chunks finish, drops the queued ones, and re-raises.
    with ProcessPoolExecutor(workers, mp_context=worker_context()) as executor:
        try:
            for job, part in zip(jobs, executor.map(_cut_chunk, jobs), strict=True):
                bar.update(len(job[1]))
                if part is not None:
                    parts.append(part)
        except BaseException:
            executor.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            bar.close()
    if not parts:
        raise NoCardsToCut("no labelled cards found in these scenes to cut training crops from")
    return merge(*parts)


def _counted(scenes: Iterable[Scene], bar: Any) -> Iterator[Scene]:
    for scene in scenes:
        yield scene
        bar.update(1)


def _chunk_options(options: dict[str, object], chunk: int) -> dict[str, object]:
    if "seed" not in options:
        return options
    seed = options["seed"]
    base = list(seed) if isinstance(seed, Sequence) else [int(seed)]  # type: ignore[call-overload]
    return {**options, "seed": (*base, chunk)}


def _cut_chunk(
    job: tuple[Callable[..., CropSet], list[Scene], tuple[str, ...], dict[str, object]],
) -> CropSet | None:
    """One chunk in a worker; None when it holds no card to cut (a small chunk may not). Any
    other error (an unreadable image) ends the whole cut, as it would in one process."""
    cut, scenes, classes, options = job
    try:
        return cut(scenes, classes, **options)
    except NoCardsToCut:
        return None


def merge(*sets: CropSet) -> CropSet:
    return CropSet(
        np.concatenate([s.images for s in sets]),
        np.concatenate([s.labels for s in sets]),
        sets[0].classes,
    )


def crop_shape() -> tuple[int, int, int]:
    return (CROP_H, CROP_W, 3)
