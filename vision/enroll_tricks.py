"""Photos of real tricks, labelled by the user: the check that generated scenes cannot give.

The self-check of ``enroll_check`` runs on scenes rendered from the enrolled faces; it cannot
see what the real table, light and camera do. So the user may add a few photos of real tricks
and say, by tapping, what each found card really is ("not a card" for a false alarm) and which
cards the recognizer missed. This module keeps those photos with their labels and compares any
model's detections against them, so the same photos are checked again after each adaptation.

Labels are tied to places in the photo (the boxes the recognizer found when the photo was
labelled), not to that model's answers: a later model's detection is matched to a labelled box
by overlap. A missed card has no box (the user only names it); a later detection that overlaps
no labelled box and reads such a name counts as finding it.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from skullcam.errors import UserError
from skullcam.files import write_atomic
from skullcam.rules import FACES
from skullcam.vision.detection import Detection
from skullcam.vision.enroll_messages import (
    CardName,
    Message,
    MessageError,
    counted,
    message,
    render,
    times,
)
from skullcam.vision.image_io import decode_image

logger = logging.getLogger(__name__)

LABELS_FORMAT = "skullcam-trick-labels/1"
NOT_A_CARD = "none"  # the label of a found box that is no card (the classifier's own name)
MATCH_IOU = 0.5  # a detection and a labelled box with this much overlap are the same card
MAX_SIDE = 1600  # larger uploads are scaled down: the camera works at 640 x 480 anyway
MIN_SIDE = 64
FILE_RE = re.compile(r"^(\d{3,})\.json$")

Box = tuple[float, float, float, float]


# ---------------------------------------------------------------------------------- labels


@dataclass(frozen=True)
class BoxLabel:
    """One box the recognizer found, with what the user says it is (a face id or 'none')."""

    box: Box
    face: str
    read: str = ""  # what the recognizer read when the photo was labelled (for the record)
    corners: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class TrickLabels:
    """The user's truth for one photo: labelled boxes and the cards the recognizer missed."""

    boxes: tuple[BoxLabel, ...] = ()
    missed: tuple[str, ...] = ()

    @property
    def cards(self) -> int:
        """How many real cards the photo shows."""
        return sum(b.face != NOT_A_CARD for b in self.boxes) + len(self.missed)


def check_label(value: object, where: str, allow_none: bool = True) -> str:
    """A face id (or 'none') from a request, or a UserError that names the bad value."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if text in FACES or (allow_none and text == NOT_A_CARD):
        return text
    none = " or 'none' (not a card)" if allow_none else ""
    allowed = f"one of the {len(FACES)} face ids{none}"
    raise UserError(f"{where}: {value!r} is not a card: expected {allowed}")


# ------------------------------------------------------------------------------ comparison


@dataclass
class TrickComparison:
    """Detections against the user's labels, over one or more photos."""

    photos: int = 0
    cards: int = 0
    right: int = 0
    misreads: Counter[tuple[str, str]] = field(default_factory=Counter)  # (true, read)
    missed: Counter[str] = field(default_factory=Counter)  # true cards not found
    false_alarms: Counter[str] = field(default_factory=Counter)  # what a non-card was read as

    def __add__(self, other: TrickComparison) -> TrickComparison:
        return TrickComparison(
            photos=self.photos + other.photos,
            cards=self.cards + other.cards,
            right=self.right + other.right,
            misreads=self.misreads + other.misreads,
            missed=self.missed + other.missed,
            false_alarms=self.false_alarms + other.false_alarms,
        )

    def sentence(self) -> str:
        """The plain result: 'on 3 photos of real tricks: 14 of 15 cards right; Green 7 read
        as Green 1 once'."""
        return render(self.said())

    def said(self) -> tuple[Message, ...]:
        """The sentence as messages, for a page that words it in its reader's language."""
        if not self.photos:
            return (message("tricks_none"),)
        said = [
            counted("tricks_photos", self.photos),
            counted("tricks_right", self.cards, right=self.right),
        ]
        named = self.misreads.most_common(3)
        said += [
            message("tricks_misread", true=CardName(true), read=CardName(read), times=times(n))
            for (true, read), n in named
        ]
        others = sum(self.misreads.values()) - sum(n for _, n in named)
        if others:
            said.append(counted("tricks_other_misreads", others))
        missed = sum(self.missed.values())
        if missed:
            names = tuple(CardName(f) for f, _ in self.missed.most_common(3))
            said.append(counted("tricks_not_found", missed, names=names))
        extra = sum(self.false_alarms.values())
        if extra:
            said.append(counted("false_alarms", extra))
        return tuple(said)

    def to_json(self) -> dict[str, object]:
        return {
            "photos": self.photos,
            "cards": self.cards,
            "right": self.right,
            "misreads": [[t, r, n] for (t, r), n in self.misreads.most_common()],
            "missed": [[f, n] for f, n in self.missed.most_common()],
            "false_alarms": [[f, n] for f, n in self.false_alarms.most_common()],
            "sentence": self.sentence(),
        }


def iou(a: Box, b: Box) -> float:
    """Overlap of two axis-aligned boxes (x1, y1, x2, y2): intersection over union."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _match(detections: Sequence[Detection], boxes: Sequence[BoxLabel]) -> list[tuple[int, int]]:
    """Detection-to-label pairs, best overlap first, each used once (overlapping cards of a
    trick each keep their own box)."""
    pairs = sorted(
        ((iou(d.box, b.box), i, j) for i, d in enumerate(detections) for j, b in enumerate(boxes)),
        reverse=True,
    )
    used_d: set[int] = set()
    used_b: set[int] = set()
    matched = []
    for overlap, i, j in pairs:
        if overlap < MATCH_IOU:
            break
        if i in used_d or j in used_b:
            continue
        used_d.add(i)
        used_b.add(j)
        matched.append((i, j))
    return matched


def compare_trick(detections: Sequence[Detection], labels: TrickLabels) -> TrickComparison:
    """One photo: which true cards were read right, misread, missed; which finds were no card.

    A detection on a labelled box is judged by that box's label; a labelled card box that no
    detection overlaps is missed. A detection on no labelled box counts as finding a card the
    user named as missed when it reads that name, else it is a false alarm.
    """
    result = TrickComparison(photos=1, cards=labels.cards)
    matched = _match(detections, labels.boxes)
    on_box = {i for i, _ in matched}
    for i, j in matched:
        read, true = detections[i].card, labels.boxes[j].face
        if true == NOT_A_CARD:
            result.false_alarms[read] += 1
        elif read == true:
            result.right += 1
        else:
            result.misreads[(true, read)] += 1
    labelled = {j for _, j in matched}
    for j, box in enumerate(labels.boxes):
        if j not in labelled and box.face != NOT_A_CARD:
            result.missed[box.face] += 1
    unplaced = Counter(labels.missed)
    for i, det in enumerate(detections):
        if i in on_box:
            continue
        if unplaced[det.card] > 0:
            unplaced[det.card] -= 1
            result.right += 1
        else:
            result.false_alarms[det.card] += 1
    result.missed += +unplaced  # unary plus drops the zero counts
    return result


def summarize(results: Iterable[TrickComparison]) -> TrickComparison:
    """Many photos' comparisons added up."""
    total = TrickComparison()
    for result in results:
        total = total + result
    return total


# ----------------------------------------------------------------------------------- files


def decode_photo(data: bytes) -> np.ndarray:
    """An uploaded file as a BGR image (large ones scaled down), or a UserError saying why not."""
    if not data:
        raise MessageError(message("upload_empty"))
    image = decode_image(data, "the uploaded photo")
    if image is None:
        raise MessageError(message("upload_unreadable"))
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise MessageError(message("upload_too_small", width=w, height=h, min=MIN_SIDE))
    scale = MAX_SIDE / max(h, w)
    if scale < 1:
        image = cv2.resize(
            image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
        )
    return image


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _next_number(folder: Path) -> int:
    numbers = [int(m.group(1)) for p in folder.glob("*.json") if (m := FILE_RE.match(p.name))]
    numbers += [int(p.stem) for p in folder.glob("*.jpg") if p.stem.isdigit()]
    return max(numbers, default=0) + 1


def labels_to_json(labels: TrickLabels) -> dict[str, object]:
    return {
        "cards": [
            {
                "box": [round(v, 1) for v in b.box],
                "corners": [[round(x, 1), round(y, 1)] for x, y in b.corners],
                "read": b.read,
                "label": b.face,
            }
            for b in labels.boxes
        ],
        "missed": list(labels.missed),
    }


def labels_from_json(raw: dict[str, object]) -> TrickLabels:
    """The labels of a saved photo (ValueError/TypeError/KeyError when damaged)."""
    if raw.get("format") != LABELS_FORMAT:
        raise ValueError(f"unknown format {raw.get('format')!r}")
    cards = raw["cards"]
    missed = raw.get("missed", [])
    if not isinstance(cards, list) or not isinstance(missed, list):
        raise TypeError("'cards' and 'missed' must be lists")
    boxes = tuple(
        BoxLabel(
            box=tuple(float(v) for v in c["box"]),  # type: ignore[arg-type]
            face=check_label(c["label"], "label"),
            read=str(c.get("read", "")),
            corners=tuple((float(x), float(y)) for x, y in c.get("corners", [])),
        )
        for c in cards
    )
    if any(len(b.box) != 4 for b in boxes):
        raise ValueError("a box needs 4 numbers")
    return TrickLabels(boxes, tuple(check_label(f, "missed", allow_none=False) for f in missed))


def save_trick(folder: Path, image: np.ndarray, labels: TrickLabels, **info: object) -> Path:
    """Keep a labelled photo as ``NNN.jpg`` + ``NNN.json``; returns the json's path.

    Each file is written to a temporary name and renamed; the photo goes first and the labels
    last, so a photo only counts once its labels are complete (a crash leaves at most an
    unlabelled photo, which is ignored and overwritten by the next save).
    """
    folder.mkdir(parents=True, exist_ok=True)
    number = _next_number(folder)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise UserError("cannot encode the photo as JPEG")
    name = f"{number:03d}"
    write_atomic(folder / f"{name}.jpg", bytes(jpeg))
    h, w = image.shape[:2]
    record = {
        "format": LABELS_FORMAT,
        "image": f"{name}.jpg",
        "width": w,
        "height": h,
        "saved_at": _now(),
        **info,
        **labels_to_json(labels),
    }
    path = folder / f"{name}.json"
    write_atomic(path, (json.dumps(record, indent=2) + "\n").encode())
    return path


def load_tricks(folder: Path) -> list[tuple[Path, TrickLabels]]:
    """The saved photos with their labels, in order; unreadable ones are skipped (logged)."""
    found = []
    paths = sorted(
        (p for p in folder.glob("*.json") if FILE_RE.match(p.name)),
        key=lambda p: int(p.stem),
    )
    for path in paths:
        image = path.with_suffix(".jpg")
        try:
            labels = labels_from_json(json.loads(path.read_text()))
        except (OSError, ValueError, TypeError, KeyError, UserError) as err:
            logger.warning("skipping %s: its labels are damaged (%s)", path, err)
            continue
        if image.is_file():
            found.append((image, labels))
    return found


def check_tricks(
    recognize: Callable[[np.ndarray], Sequence[Detection]],
    tricks: Sequence[tuple[Path, TrickLabels]],
) -> TrickComparison:
    """Run ``recognize`` (the model to judge) on every saved photo and compare with labels."""
    results = []
    for image_path, labels in tricks:
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            logger.warning("skipping %s: not a readable image", image_path)
            continue
        results.append(compare_trick(recognize(image), labels))
    return summarize(results)
