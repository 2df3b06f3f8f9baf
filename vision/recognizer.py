"""The card recognizer: one-class oriented-box detector + face classifier, on ONNX Runtime.

Why two stages (measured in ``models/README.md``): a 69-class detector trained from scratch on
this CPU barely learns in the time a 1-class detector reaches ~0.99 mAP50, and a user's own
deck then only needs the small classifier retrained (``skullcam enroll``), not the detector.

A model is a folder holding ``recognizer.json`` (the manifest), the detector and the
classifier ONNX files it names. The shipped one is ``skullcam/models/`` (the repo's
``models/``); an enrolled deck's lives in the data folder and becomes active by
``<data>/active_model`` naming it.
"""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam.errors import UserError
from skullcam.files import read_json, read_text, write_atomic
from skullcam.parallel import usable_cores
from skullcam.rules import FACES
from skullcam.vision import obb
from skullcam.vision.crops import (
    card_crop,
    corner_patches,
    crops_to_batch,
)
from skullcam.vision.detection import Detection
from skullcam.vision.frame_edge import complete_cut_quad
from skullcam.vision.image_io import as_bgr, has_colour, looks_grey, no_colour_error
from skullcam.vision.readings import (
    EDGE_LOOK_MIN_CONFIDENCE,
    NOT_A_CARD,
    SECOND_OPINION_BELOW,
    BoxEvidence,
    box_names,
    drop_overlapping_readings,
    face_probabilities,
    gives_up,
    named_readings,
    softmax,
    sure_readings,
    surer_corner,
    turned,
)
from skullcam.vision.second_look import boxes_worth_a_look, second_look_picks

logger = logging.getLogger(__name__)

MANIFEST = "recognizer.json"


def shipped_model_dir() -> Path:
    """The model folder that ships inside the package (``models/`` in the repository)."""
    import skullcam.models

    return Path(skullcam.models.__file__).resolve().parent


def active_model_dir(data_dir: Path | str | None) -> Path:
    """The data folder's active model (set by ``skullcam enroll``), else the shipped one; a
    pointer to a folder that is no model is a UserError."""
    if data_dir is not None:
        pointer = Path(data_dir) / "active_model"
        if pointer.is_file():
            again = "choose the model again with 'skullcam enroll --activate NAME' (or shipped)"
            try:
                text = read_text(pointer, "active model pointer").strip()
            except UserError as err:
                raise UserError(f"{err}; {again}") from None
            if "\0" in text:  # no path holds a NUL: a damaged file, not a model name
                raise UserError(f"{pointer} is damaged; {again}")
            target = Path(text)
            if not target.is_absolute():
                target = data_dir / target
            if not (target / MANIFEST).is_file():
                # Not the shipped model in its place: that one learned another deck's art, and
                # would misread this table's cards without a word.
                raise UserError(f"the active model {target} is missing or incomplete; {again}")
            return target
    return shipped_model_dir()


DETECTOR_CONF = 0.2
"""Detector score a card needs: low, because the classifier and the tracker weed out the rest
and a card never reported cannot be recovered (a sweep of 0.1-0.3 left scene accuracy flat)."""
DETECTOR_IOU = 0.9
"""Box overlap (probabilistic IoU) above which the detector keeps only the best box. High on
purpose: cards stacked in a trick overlap a lot, and at 0.5 the top card's box suppressed the
half-hidden card below it (15 of 25 missed cards on 300 validation scenes). The extra boxes a
loose threshold lets through are removed after classification, where a second box on one card
can be told from a different card underneath (:func:`drop_overlapping_readings`)."""
MIN_CONFIDENCE = 0.25
DETECTOR_MIRROR = True
"""Run the detector on the frame and on its mirror image, and keep the best boxes of both.
On 1,300 validation scenes (model ``skullcam-20261130-074500``) it found 20 of the 88
must-find cards one view missed: scenes right 93.5 % -> 94.5 %, recall 0.978 -> 0.983,
precision 0.993 -> 0.991, for one more detector pass (~15 ms a frame here). A slow Pi can set
``detector_mirror: false`` in the model's recognizer.json. Views turned upside down added
little more (94.7 % with all four).
Model ``skullcam-20261201-012257``: 98.00 % of validation scenes with it, 97.31 % without, for
0.58 x against 0.33 x the yolo11n reference's time at 1 thread (0.63 x against 0.47 x at 2)."""


CORNER_MIN_CONFIDENCE = 0.6
"""How sure the corner reader must be of a face to name a card the classifier would not (it
said ``none`` or was below ``min_confidence``). The classifier sees the whole card at half
resolution and gives up on a card half under another; the corner reader sees one corner mark at
full resolution. Model ``skullcam-20261130-191644``, 1,300 validation scenes: 0.4 / 0.5 /
0.6 / 0.7 / 0.8 gave 95.1 / 95.2 / 95.2 / 95.0 / 94.9 % of scenes right against 94.5 % without
it (0.6: fewer false alarms than 0.5 for one more miss)."""


CORNER_WEIGHT = 0.25
"""How much the corner reader's opinion counts when the classifier is unsure of a box (below
``SECOND_OPINION_BELOW``): the face probabilities become ``p(classifier) * p(corner) ** w``,
renormalised, with ``p(corner)`` the mean of the card's two corner marks. 0 turns it off,
which is what a manifest without ``corner_weight`` gets (``UNWEIGHED_CORNER``), because a model
older than the weight was never measured with it. Training and enrollment choose a model's own
weight on its validation scenes (``vision/reading_choice.py``); the shipped model's refined
detector and classifier read best at 0.5 (``models/recognizer.json``). Model
``skullcam-20261130-211833`` on 1,300 validation scenes, the corner reader asked about
every box: w 0 / 0.15 / 0.25 / 0.35 / 0.5 gave 96.85 / 97.69 / 98.00 / 98.00 / 97.85 % of
scenes right; at 0.25 false alarms 23 -> 10 and missed cards 34 -> 26. The two readers err
differently: the classifier sees the whole card at half resolution, the corner reader one
mark at full resolution."""
UNWEIGHED_CORNER = 0.0
TURN_BELOW = 0.95
"""The classifier's top probability on a crop as cut under which the crop is read turned 180
degrees too, the two readings' logits averaged (the oriented box cannot say which short edge is
the card's top). Model ``skullcam-20261201-012257`` on 2,000 validation scenes: every crop both
ways (1.0) and only those below 0.99 / 0.95 / 0.9 / 0.5 all read 97.6 % of scenes right; on
1,300 others 0.97 / 0.95 / 0.93 read 98.00 % like 1.0, and 0.9 97.92 %. At 0.95 about half
the crops are read twice, and a frame takes 7 % less time at 1 thread (43.6 against 46.6 ms,
interleaved). A manifest without ``turn_below`` reads every crop both ways (``ALWAYS_TURN``), as
it was measured."""
ALWAYS_TURN = 1.0


MIRROR_BELOW = 0.8
"""Where the two detector views run one after the other (one thread), the mirror view runs only
when the first view kept a box scoring below this: a frame whose boxes are all sure gains
nothing from a second look at it. Model ``skullcam-20261201-012257`` on 2,000 validation scenes
(``runs/scenes_val3``), each frame read with and without the mirror: 97.60 % of scenes right
with it always, 96.95 % never, and 97.60 % with it below 0.6 / 0.7 / 0.8 / 0.9, where it runs
on 48 / 50 / 53 / 66 % of frames (at 0.8 two frames read differently, one better, one worse).
With two threads or more the views run side by side, so both always run: there the second
view costs no wall time (one view on 2 threads took 26 ms, both side by side 36 ms, so running
the mirror on half the frames after the first would be slower). A first view with no box at all
(an empty table, most of a game's frames) is not looked at twice either. A manifest without
``mirror_below`` runs both views on every frame (``ALWAYS_MIRROR``), as it was measured.
Held-out test split at one thread: 97.6 % of scenes, P 0.9968, R 0.9936 (both views always:
97.6 %, 0.9971, 0.9932); a frame took 63-68 ms against 80-83 ms, interleaved on the 40 sample
scenes (the yolo11n@640 reference 163-173 ms on that machine)."""
ALWAYS_MIRROR = 1.0


SECOND_LOOK = True
"""Where no reader can name a box the detector is sure of, read a few of the detector's other
boxes around it again (``vision/second_look.py``). On for every model, old ones included: it
reads with the model's own networks and rules, and only where a card would otherwise be lost.
Model ``skullcam-20261201-012257``: 98.00 % -> 98.23 % of 1,300 validation scenes, 97.10 % ->
97.55 % of 2,000 more, 97.3 % -> 97.5 % of the held-out test split; two alt-deck models
enrolled from ``skullcam-20261130-232511``: 88.8 % -> 89.2 % and 89.8 % -> 90.0 % of 500
unseen scenes. It costs
about 1 ms a frame at the median (``skullcam bench``); ``second_look: false`` in
recognizer.json turns it off on a Pi short of time."""

EDGE_LOOK = True
"""Where no reader can name a box on the frame's edge, read it again as the whole card it is
part of (``vision/frame_edge.py``) and report that card's whole outline. On for every model,
old ones included: it reads with the model's own networks, only boxes that would otherwise be
lost (not measured on an enrolled deck). The shipped model, the 8,000
validation scenes: 7,855 -> 7,873 right (18 fixed, none broken), recall 0.9944 -> 0.9951,
precision 0.9978 either way (on the test split one miss became a misread: a green-12 read as
a green-10). Reported on the box cut by the edge instead, such readings (at p >= 0.9) broke 14
scenes for 7 fixed on 5,000 of them: a card under half in view read right lies
outside that box, and counts as a false alarm. ``edge_look: false`` in recognizer.json turns it
off."""


def _optional_name(value: object) -> str | None:
    """A file name or null: an optional part of the model (the corner reader)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise TypeError(f"expected a file name or null, not {value!r}")
    return value


MAX_CORNER_WEIGHT = 4.0
"""Training chooses the weight from 0 to 1. Far above, ``p ** weight`` underflows to 0 for
every face, and the renormalised reading is NaN, named as the first face."""


def _weight(value: object) -> float:
    """A weight is a number from 0 to a few: a negative one would turn the corner reader's
    opinion upside down, favouring the faces it rules out; a huge one reads no card at all."""
    weight = float(value)  # type: ignore[arg-type]
    if not 0 <= weight <= MAX_CORNER_WEIGHT:  # also NaN
        raise ValueError(f"corner_weight must be 0 to {MAX_CORNER_WEIGHT:g}, not {value!r}")
    return weight


def _text(value: object, key: str) -> str:
    """A name or version: text, never null read as the file "None"."""
    if not isinstance(value, str) or not value:
        raise TypeError(f"{key} must be text, not {value!r}")
    return value


def _number(value: object) -> float:
    """A threshold: a number (true would read as 1.0, a detector finding nothing)."""
    if isinstance(value, bool):
        raise TypeError(f"expected a number, not {value!r}")
    return float(value)  # type: ignore[arg-type]


def _size(value: object) -> tuple[int, int]:
    """``detector_input`` as [height, width] ("256x320" would read as [2, 5])."""
    whole = isinstance(value, list) and all(type(v) is int and v > 0 for v in value)
    if not whole or len(value) != 2:  # type: ignore[arg-type]
        raise TypeError(f"detector_input must be [height, width] in pixels, not {value!r}")
    return value[0], value[1]  # type: ignore[index]


def _names(value: object) -> tuple[str, ...]:
    """The class list: a list of card ids ("green-1" alone would split into letters)."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise TypeError(f"classes must be a list of card ids, not {str(value)[:60]!r}")
    return tuple(value)


def _flag(value: object) -> bool:
    """A manifest switch must be JSON true or false: "false" as a string would read as on."""
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {value!r}")
    return value


REQUIRED_KEYS = ("version", "detector", "classifier", "detector_input", "classes")
FRACTION_KEYS = (
    "detector_conf",
    "detector_iou",
    "min_confidence",
    "corner_min_confidence",
    "turn_below",
    "mirror_below",
)
"""Manifest settings that are a score or an overlap, so from 0 to 1: a detector_conf of 5
would find no card at all, a min_confidence of -1 would name every stray box a card."""


def _invalid(path: Path, why: str) -> UserError:
    return UserError(
        f"{path} is not a valid recognizer manifest ({why}); retrain or re-enroll to rewrite it"
    )


def _manifest_object(path: Path) -> dict[str, Any]:
    """The manifest's JSON object, refused in one line when it is not JSON, not an object, or
    lacks a key every model needs."""
    raw = read_json(path, "recognizer manifest")
    if not isinstance(raw, dict):
        found = type(raw).__name__.replace("dict", "object").replace("list", "array")
        raise _invalid(path, f"a JSON object with {', '.join(REQUIRED_KEYS)} expected, not {found}")
    missing = [key for key in REQUIRED_KEYS if key not in raw]
    if missing:
        raise _invalid(path, f"it has no {', '.join(repr(key) for key in missing)}")
    return raw


def _check_fractions(manifest: ModelManifest, path: Path) -> None:
    """A UserError naming the first threshold outside 0..1 (NaN included)."""
    for key in FRACTION_KEYS:
        value = getattr(manifest, key)
        if not 0 <= value <= 1:
            raise _invalid(path, f"{key} is {value:g}; it must be from 0 to 1")


def _check_classes(classes: tuple[str, ...], path: Path) -> None:
    """Each class once, ``none`` among them, all known to the rules: a face listed twice takes
    another face's output, which the model would then never name, without a word."""
    unknown = [c for c in classes if c not in FACES and c != NOT_A_CARD]
    if unknown:
        raise UserError(f"{path} names classes the rules engine does not know: {unknown}")
    twice = sorted(face for face, n in Counter(classes).items() if n > 1)
    if twice:
        raise _invalid(path, f"classes lists {', '.join(twice)} more than once")
    if NOT_A_CARD not in classes:
        raise _invalid(path, f"classes has no {NOT_A_CARD!r}, the class of boxes that are no card")


@dataclass(frozen=True)
class ModelManifest:
    """What a model folder says about itself; read before any weights are touched."""

    folder: Path
    version: str
    detector: str
    classifier: str
    detector_input: tuple[int, int]
    classes: tuple[str, ...]
    detector_conf: float = DETECTOR_CONF
    detector_iou: float = DETECTOR_IOU
    # Low on purpose: the tracker outvotes a wrong reading but cannot use an unreported card
    # (docs/model-history.md: P 0.980 R 0.840 at 0.5, P 0.938 R 0.877 at 0.25).
    min_confidence: float = MIN_CONFIDENCE
    detector_mirror: bool = DETECTOR_MIRROR
    corner_reader: str | None = None
    corner_min_confidence: float = CORNER_MIN_CONFIDENCE
    corner_weight: float = CORNER_WEIGHT
    second_look: bool = SECOND_LOOK
    edge_look: bool = EDGE_LOOK
    turn_below: float = TURN_BELOW
    mirror_below: float = MIRROR_BELOW

    @classmethod
    def read(cls, folder: Path) -> ModelManifest:
        path = folder / MANIFEST
        if path.exists() and not path.is_file():
            raise UserError(
                f"{path} is a folder or other non-file, where the model's {MANIFEST} belongs; "
                "pass --model with a model folder, or move that entry aside and reinstall "
                "skullcam to restore the shipped model"
            )
        if not path.is_file():
            raise UserError(
                f"no recognizer model at {folder} ({MANIFEST} missing); "
                "pass --model with a model folder, or reinstall skullcam to restore the shipped one"
            )
        raw = _manifest_object(path)
        try:
            manifest = cls(
                folder=folder,
                version=_text(raw["version"], "version"),
                detector=_text(raw["detector"], "detector"),
                classifier=_text(raw["classifier"], "classifier"),
                detector_input=_size(raw["detector_input"]),
                classes=_names(raw["classes"]),
                detector_conf=_number(raw.get("detector_conf", DETECTOR_CONF)),
                detector_iou=_number(raw.get("detector_iou", DETECTOR_IOU)),
                min_confidence=_number(raw.get("min_confidence", MIN_CONFIDENCE)),
                detector_mirror=_flag(raw.get("detector_mirror", DETECTOR_MIRROR)),
                corner_reader=_optional_name(raw.get("corner_reader")),
                corner_min_confidence=_number(
                    raw.get("corner_min_confidence", CORNER_MIN_CONFIDENCE)
                ),
                corner_weight=_weight(raw.get("corner_weight", UNWEIGHED_CORNER)),
                second_look=_flag(raw.get("second_look", SECOND_LOOK)),
                edge_look=_flag(raw.get("edge_look", EDGE_LOOK)),
                turn_below=_number(raw.get("turn_below", ALWAYS_TURN)),
                mirror_below=_number(raw.get("mirror_below", ALWAYS_MIRROR)),
            )
        except (ValueError, KeyError, TypeError, IndexError) as err:
            raise _invalid(path, str(err)) from err
        _check_fractions(manifest, path)
        _check_classes(manifest.classes, path)
        return manifest

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "detector": self.detector,
            "classifier": self.classifier,
            "detector_input": list(self.detector_input),
            "classes": list(self.classes),
            "detector_conf": self.detector_conf,
            "detector_iou": self.detector_iou,
            "min_confidence": self.min_confidence,
            "detector_mirror": self.detector_mirror,
            "second_look": self.second_look,
            "edge_look": self.edge_look,
            "turn_below": self.turn_below,
            "mirror_below": self.mirror_below,
        } | (
            {
                "corner_reader": self.corner_reader,
                "corner_min_confidence": self.corner_min_confidence,
                "corner_weight": self.corner_weight,
            }
            if self.corner_reader
            else {}
        )

    def write(self) -> None:
        """Write atomically and flushed to disk, so a half-written manifest never becomes a
        model, even after a power cut."""
        write_atomic(self.folder / MANIFEST, json.dumps(self.to_json(), indent=2) + "\n")


def _session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    if not path.is_file():
        raise UserError(f"model file {path} is missing; retrain (skullcam train) or reinstall")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # A frame runs several sessions in turn (the two detector views side by side, the
    # classifier, the corner reader) with Python in between. A thread pool left spinning after
    # its run, ONNX Runtime's default, holds a core the next step needs: at 2 threads on 2
    # cores a whole frame took 35-38 ms spinning and 21-23 ms not (skullcam bench).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own types for corrupt files
        raise UserError(
            f"model file {path} cannot be loaded ({type(err).__name__}); "
            "it may be corrupt: retrain or reinstall it"
        ) from err


def classifier_session(manifest: ModelManifest, threads: int) -> Any:
    """The manifest's face classifier, checked to take card crops and name its classes."""
    from skullcam.vision.crops import CROP_H, CROP_W

    session = _session(manifest.folder / manifest.classifier, threads)
    tensor, output = session.get_inputs()[0], session.get_outputs()[0]
    _check_shape(manifest, manifest.classifier, "input", tensor.shape, (None, 3, CROP_H, CROP_W))
    _check_outputs(manifest, manifest.classifier, output.shape, "--skip-classifier")
    return session


def corner_session(manifest: ModelManifest, threads: int) -> Any:
    """The manifest's corner reader, checked to take corner patches and name its classes."""
    from skullcam.vision.crops import PATCH_H, PATCH_W

    name = str(manifest.corner_reader)
    session = _session(manifest.folder / name, threads)
    tensor, output = session.get_inputs()[0], session.get_outputs()[0]
    _check_shape(manifest, name, "input", tensor.shape, (None, 3, PATCH_H, PATCH_W))
    _check_outputs(manifest, name, output.shape, "--skip-corner")
    return session


def onnx_outputs(path: Path) -> int | None:
    """How many classes an ONNX classifier or corner reader was exported for (its output's last
    dimension; None where the file leaves it open): what a kept network is checked by."""
    size = _session(path, 1).get_outputs()[0].shape[-1]
    return size if isinstance(size, int) else None


_RETRAIN = "retrain, re-enroll or reinstall the model"


def _check_outputs(manifest: ModelManifest, file: str, shape: list[Any], flag: str) -> None:
    """A network has one output per class it was trained for. One kept by ``skullcam train``'s
    ``flag`` after a card was added has too few outputs for the manifest's classes, and would
    name cards wrong without a word: refused at load, naming the file and what to do."""
    outputs = shape[-1] if shape else None
    advice = _RETRAIN
    if isinstance(outputs, int) and outputs != len(manifest.classes):
        advice = (
            f"{file} was trained for {outputs} classes and the manifest lists "
            f"{len(manifest.classes)}: train it again (skullcam train without {flag}), "
            f"re-enroll or reinstall the model"
        )
    _check_shape(manifest, file, "output", shape, (None, len(manifest.classes)), advice)


def _check_shape(
    manifest: ModelManifest,
    file: str,
    which: str,
    shape: list[Any],
    expected: tuple[int | None, ...],
    advice: str = _RETRAIN,
) -> None:
    """A UserError when an ONNX file's fixed tensor shape disagrees with what the manifest
    makes the recognizer feed it or read from it (None, or a named dimension: any size).
    Checked at load, so a mismatched model is refused in one line, not a crash mid-game."""
    fits = len(shape) == len(expected) and all(
        want is None or not isinstance(have, int) or have == want
        for have, want in zip(shape, expected, strict=True)
    )
    if not fits:
        want = "x".join("N" if d is None else str(d) for d in expected)
        have = "x".join(str(d) for d in shape)
        raise UserError(
            f"model {manifest.folder} doesn't match its {MANIFEST}: {file} has {which} "
            f"{have}, the manifest needs {want} (detector_input {list(manifest.detector_input)}, "
            f"{len(manifest.classes)} classes); {advice}"
        )


MAX_CARDS = 50
"""Boxes a frame may keep after NMS: more than any table holds (8 players' trick and hands)."""


@dataclass(frozen=True)
class DetectorBoxes:
    """One frame's detector output in frame pixels: the boxes rotated NMS kept, and every box
    above the confidence threshold it chose them from (both views, best score first), which
    the second look reads again where a kept box could not be read (``vision/second_look.py``)
    and error analysis uses (was a missed card never boxed, or boxed and suppressed?)."""

    quads: np.ndarray  # (K, 4, 2)
    scores: np.ndarray  # (K,)
    candidates: np.ndarray  # (N, 4, 2), N >= K
    candidate_scores: np.ndarray  # (N,), descending


class CardDetector:
    """Stage 1 alone: where the cards are. Training uses it to cut realistic classifier crops."""

    def __init__(
        self,
        path: Path,
        input_hw: tuple[int, int],
        conf: float = DETECTOR_CONF,
        iou: float = DETECTOR_IOU,
        threads: int = 0,
        mirror: bool = False,
        mirror_below: float = ALWAYS_MIRROR,
    ) -> None:
        self.input_hw = input_hw
        self.conf = conf
        self.iou = iou
        self.mirror = mirror
        self.mirror_below = mirror_below
        threads = threads or min(4, usable_cores())
        # With two cores or more the two views run side by side, each on half of them: this
        # small network gains little from a second thread within one run (measured here: two
        # views one after the other on 2 threads 24-28 ms, side by side on 1 thread each 19-21).
        self._side_by_side = mirror and threads >= 2
        if self._side_by_side:
            threads //= 2
        self._beside: tuple[int, ThreadPoolExecutor] | None = None
        self._session = _session(path, threads)
        self._input = self._session.get_inputs()[0].name

    @classmethod
    def from_manifest(cls, manifest: ModelManifest, threads: int = 0) -> CardDetector:
        """The detector of a model folder with the thresholds and views its manifest names."""
        detector = cls(
            manifest.folder / manifest.detector,
            manifest.detector_input,
            manifest.detector_conf,
            manifest.detector_iou,
            threads,
            manifest.detector_mirror,
            manifest.mirror_below,
        )
        tensor, output = detector._session.get_inputs()[0], detector._session.get_outputs()[0]
        expected = (None, 3, *manifest.detector_input)
        _check_shape(manifest, manifest.detector, "input", tensor.shape, expected)
        _check_shape(manifest, manifest.detector, "output", output.shape, (None, None, None))
        return detector

    def __call__(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Card corners (K, 4, 2) in frame pixels and their detector scores."""
        found = self.detect(frame)
        return found.quads, found.scores

    def detect(self, frame: np.ndarray) -> DetectorBoxes:
        """The boxes NMS chose, and every box it chose from (see ``DetectorBoxes``)."""
        image, fit = obb.letterbox(frame, self.input_hw)
        pending = None
        if self.mirror and self._side_by_side:  # ONNX Runtime releases the GIL
            pending = self._mirror_thread().submit(self._candidates, _mirror_image(image))
        boxes, scores, classes = self._candidates(image)
        chosen = None
        if self.mirror and pending is None and self.mirror_below < 1:
            first = obb.suppress(boxes, scores, classes, self.iou, MAX_CARDS)
            if not np.any(first[1] < self.mirror_below):  # every box sure: one view will do
                chosen = first
        if self.mirror and chosen is None:
            more, more_scores, more_classes = (
                pending.result() if pending is not None else self._candidates(_mirror_image(image))
            )
            boxes = np.concatenate([boxes, obb.mirror_x(more, image.shape[1])])
            scores = np.concatenate([scores, more_scores])
            classes = np.concatenate([classes, more_classes])
        if chosen is None:
            chosen = obb.suppress(boxes, scores, classes, self.iou, MAX_CARDS)
        kept, kept_scores, _ = chosen
        order = np.argsort(-scores, kind="stable")
        return DetectorBoxes(
            fit.to_frame(obb.corners(kept)),
            kept_scores,
            fit.to_frame(obb.corners(obb.regularize(boxes[order]))),
            scores[order],
        )

    def _mirror_thread(self) -> ThreadPoolExecutor:
        """The worker for the mirror view, made again in a forked child (where it is gone)."""
        if self._beside is None or self._beside[0] != os.getpid():
            self._beside = (os.getpid(), ThreadPoolExecutor(1, "detector-mirror"))
        return self._beside[1]

    def _candidates(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        (raw,) = self._session.run(None, {self._input: obb.to_input_tensor(image)})
        return obb.candidates(raw, self.conf)


def _mirror_image(image: np.ndarray) -> np.ndarray:
    """The letterboxed frame mirrored left to right, laid out as ONNX Runtime reads it
    (``cv2.flip``: a contiguous copy of the reversed view, a pixel at a time, took ~1 ms a
    256 x 320 frame on a desktop core, fifty times as long)."""
    return cv2.flip(image, 1)


class Recognizer:
    """Frame in, cards out. Thread-compatible: one instance per thread that calls it."""

    def __init__(self, manifest: ModelManifest, threads: int = 0) -> None:
        self.manifest = manifest
        threads = threads or min(4, usable_cores())
        self.detector = CardDetector.from_manifest(manifest, threads)
        self._classifier = classifier_session(manifest, threads)
        self._cls_input = self._classifier.get_inputs()[0].name
        # One thread: its batch is a few patches (2.2 ms a frame at 1 thread, 2.3 ms at 2), so
        # a second thread buys nothing even with spinning off (see _session).
        self._corner = corner_session(manifest, 1) if manifest.corner_reader else None
        self._corner_input = self._corner.get_inputs()[0].name if self._corner else ""
        self._warned_grey = False

    @classmethod
    def load(
        cls, path: Path | None = None, data_dir: Path | str | None = None, threads: int = 0
    ) -> Recognizer:
        """Load a model folder (or a manifest file); default: the data folder's active model."""
        folder = Path(path) if path is not None else active_model_dir(data_dir)
        if folder.is_file():
            if folder.name != MANIFEST:
                raise UserError(
                    f"model {folder} is a file: give a model folder (holding {MANIFEST}) "
                    f"or its {MANIFEST}"
                )
            folder = folder.parent
        return cls(ModelManifest.read(folder), threads=threads)

    @property
    def version(self) -> str:
        return self.manifest.version

    def detect_boxes(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Stage 1: card corners (K, 4, 2) in frame pixels and their detector scores."""
        return self.detector(as_bgr(frame))

    def detect(self, frame: np.ndarray) -> DetectorBoxes:
        """Stage 1 with the boxes NMS chose from, which the second look reads again."""
        return self.detector.detect(as_bgr(frame))

    def classify(self, frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """Stage 2: class probabilities (K, n_classes) for each card quadrilateral."""
        frame = as_bgr(frame)
        crops = [card_crop(frame, q) for q in quads]
        if not crops:
            return np.zeros((0, len(self.manifest.classes)), np.float32)
        # A crop the classifier is unsure of is read turned 180 degrees too and the logits
        # averaged: the oriented box cannot say which short edge is the card's top, and a
        # card must read the same either way (every crop both ways took an early model's
        # misread cards 35 -> 16 on 300 validation scenes). A sure crop is not read again
        # (turn_below).
        batch = crops_to_batch(crops)
        if self.manifest.turn_below >= 1:  # every crop both ways, in one batch
            both = np.concatenate([batch, turned(batch)])
            (logits,) = self._classifier.run(None, {self._cls_input: both})
            return softmax((logits[: len(crops)] + logits[len(crops) :]) / 2)
        (logits,) = self._classifier.run(None, {self._cls_input: batch})
        probs = softmax(logits)
        unsure = np.flatnonzero(probs.max(axis=1) < self.manifest.turn_below)
        if not unsure.size:
            return probs
        (again,) = self._classifier.run(None, {self._cls_input: turned(batch[unsure])})
        logits[unsure] = (logits[unsure] + again) / 2
        return softmax(logits)

    def corner_readings(self, frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """The corner reader's class probabilities (K, 2, n_classes) for each quadrilateral's
        two corner marks: the top-left as cut, the bottom-right turned upright. Needs a model
        with a corner reader."""
        if self._corner is None:
            raise UserError(f"model {self.version} has no corner reader")
        n_classes = len(self.manifest.classes)
        if len(quads) == 0:
            return np.zeros((0, 2, n_classes), np.float32)
        frame = as_bgr(frame)  # as classify takes it (a check of microseconds on BGR frames)
        patches = np.concatenate([corner_patches(card_crop(frame, q)) for q in quads])
        (logits,) = self._corner.run(None, {self._corner_input: crops_to_batch(list(patches))})
        return softmax(logits).reshape(len(quads), 2, n_classes)

    def read_corners(self, frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """The corner reader's class probabilities (K, n_classes) for each quadrilateral: those
        of whichever of its two corner marks reads surer as a face (the other may be covered;
        if both read ``none``, the first). Needs a model with a corner reader."""
        return surer_corner(
            self.corner_readings(frame, quads), self.manifest.classes.index(NOT_A_CARD)
        )

    def evidence(
        self,
        frame: np.ndarray,
        quads: np.ndarray,
        det_scores: np.ndarray,
        second_opinion: bool | None = None,
    ) -> BoxEvidence:
        """What the classifier and the corner reader say about the boxes ``quads``.

        The classifier reads every box; the corner reader the boxes the classifier gives up on
        and, with ``second_opinion`` (default: when the model weighs it in, ``corner_weight``
        > 0), those it is unsure of (``SECOND_OPINION_BELOW``). Which boxes are asked does not
        depend on the weight, so one pass serves every weight (``vision/reading_choice.py``).
        """
        probs = self.classify(frame, quads)
        n_classes = len(self.manifest.classes)
        if second_opinion is None:
            second_opinion = self.manifest.corner_weight > 0
        asked = np.zeros(0, np.intp)
        if self._corner is not None and len(quads):
            unsure = probs.max(axis=1) < SECOND_OPINION_BELOW
            asked = np.flatnonzero(gives_up(probs, self.manifest) | (unsure & second_opinion))
        marks = (
            self.corner_readings(frame, quads[asked])
            if asked.size
            else np.zeros((0, 2, n_classes), np.float32)
        )
        return BoxEvidence(quads, det_scores, probs, asked, marks)

    def read_faces(self, frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """Per quadrilateral, the face probabilities its reading goes by: the classifier's,
        joined to the corner reader's where the classifier is unsure (``face_probabilities``)."""
        evidence = self.evidence(frame, quads, np.ones(len(quads), np.float32))
        return face_probabilities(evidence, self.manifest)[0]

    def second_look(
        self, frame: np.ndarray, evidence: BoxEvidence, boxes: DetectorBoxes, unnamed: np.ndarray
    ) -> list[Detection]:
        """Sure readings of the detector's other boxes around the boxes no reader could name
        (``unnamed``, per box of ``evidence``; ``vision/second_look.py``); empty when every box
        was named."""
        if not unnamed.any():
            return []
        lost, named = evidence.quads[unnamed], evidence.quads[~unnamed]
        lost = lost[boxes_worth_a_look(lost, evidence.det_scores[unnamed], named)]
        picks = second_look_picks(lost, boxes.candidates, boxes.candidate_scores)
        if not picks.size:
            return []
        again = self.evidence(frame, boxes.candidates[picks], boxes.candidate_scores[picks])
        return sure_readings(again, self.manifest)

    def edge_look(
        self, frame: np.ndarray, evidence: BoxEvidence, unnamed: np.ndarray
    ) -> list[Detection]:
        """Sure readings of the boxes no reader could name (``unnamed``, per box of
        ``evidence``) that the frame's edge cuts, each read as the whole card it is part of
        and reported with that card's outline (``vision/frame_edge.py``); empty when no such
        box reads surely."""
        size = (frame.shape[1], frame.shape[0])
        cut, whole = [], []
        for k in np.flatnonzero(unnamed):
            card = complete_cut_quad(evidence.quads[k], size)
            if card is not None:
                cut.append(k)
                whole.append(card)
        if not cut:
            return []
        again = self.evidence(frame, np.stack(whole), evidence.det_scores[cut])
        return sure_readings(again, self.manifest, EDGE_LOOK_MIN_CONFIDENCE)

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        frame = as_bgr(frame)
        boxes = self.detect(frame)  # the stage method: tests put their boxes in through it
        if not self._warned_grey and len(boxes.scores):  # no card, nothing to misread
            self._warned_grey = looks_grey(frame)
        evidence = self.evidence(frame, boxes.quads, boxes.scores)
        names, p = box_names(evidence, self.manifest)
        found = drop_overlapping_readings(named_readings(evidence, self.manifest, names, p))
        unnamed = names < 0
        more: list[Detection] = []
        if self.manifest.second_look:
            more += self.second_look(frame, evidence, boxes, unnamed)
        if self.manifest.edge_look:
            more += self.edge_look(frame, evidence, unnamed)
        return drop_overlapping_readings(found + more) if more else found

    def read_picture(self, image: np.ndarray) -> list[Detection]:
        """The cards in a picture file (``skullcam detect``). A picture with no colour is
        refused (:func:`image_io.no_colour_error`) where the detector sees a card in it: suits
        differ by colour alone, so grey cards would read as confident wrong faces. A live frame
        is only warned about (``looks_grey``), and an empty table on a grey cloth is read as
        what it is: no cards."""
        image = as_bgr(image)  # first: colour is judged on 8-bit BGR, not on floats in 0..1
        if has_colour(image):
            return self(image)
        if len(self.detect(image).scores):
            raise no_colour_error("the picture")
        return []


class ActiveModelWatcher:
    """Tells a running server when ``<data>/active_model`` changed, so it can reload.

    Cheap enough to call once per frame (one ``stat``); the game server swaps its recognizer
    when :meth:`changed` returns a folder, with no restart.
    """

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir)  # a str too, as create_app and GameStore take
        self._seen = self._key()

    def _key(self) -> tuple[int, int] | None:
        try:
            st = (self.data_dir / "active_model").stat()
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_ino)

    def changed(self) -> Path | None:
        key = self._key()
        if key == self._seen:
            return None
        self._seen = key
        return active_model_dir(self.data_dir)
