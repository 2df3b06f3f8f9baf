"""Enroll a physical deck: its 69 faces in, an adapted recognizer out, made active safely.

The steps, each leaving its result on disk so an interrupted enrollment resumes:

1. collect: one photo (folder) or capture (camera page) per face; the card is found and
   rectified (``enroll_photo``), bad shots are refused with a reason, and a face the current
   classifier confidently reads as another card is flagged ("green-7.jpg looks like green-1").
   Accepted faces go to ``<data>/enroll/<name>/faces/`` one by one, with ``state.json``.
2. deck: the faces are written as a deck folder (``<data>/decks/<name>/``, the scene
   generator's format, manifest last).
3. adapt: scenes of that deck, crops, a fine-tune of the active model's classifier
   (``adapt.py``), with progress bars and time-left estimates.
4. check: fresh test scenes of the deck, evaluated (``enroll_check.py``).
5. install: ``<data>/models/<name>-<timestamp>/`` is assembled in a hidden staging folder,
   its manifest written last, renamed into place, and only then does ``<data>/active_model``
   point at it (``os.replace``): a half-written model can never become active, and the
   previous one stays on disk, selectable with ``skullcam enroll --activate``.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import json
import logging
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam.counts import agreeing, counted
from skullcam.errors import UserError
from skullcam.files import copy_atomic, hold_lock, make_folder, sync_folder, write_atomic
from skullcam.rules import FACES
from skullcam.vision.adapt import (
    AdaptPlan,
    AdaptResult,
    Say,
    adapt_recognizer,
    generate_scenes,
    remove_old_crop_caches,
    training_args,
)
from skullcam.vision.enroll_check import TEST_SEED_OFFSET, CheckResult, self_check
from skullcam.vision.enroll_messages import CardName, Message, SaidText, message, spoken
from skullcam.vision.enroll_photo import Detector, PhotoCheck, inspect_photo
from skullcam.vision.enrolled_models import (
    MIN_ACTIVATE_ACCURACY,
    activate,
)
from skullcam.vision.reading_choice import WeightChoice, choose_corner_weight
from skullcam.vision.recognizer import (  # noqa: F401  (ActiveModelWatcher: re-exported)
    ALWAYS_MIRROR,
    ALWAYS_TURN,
    MANIFEST,
    ActiveModelWatcher,
    ModelManifest,
    active_model_dir,
    shipped_model_dir,
)
from skullcam.vision.training import (
    CHECKPOINT_FILE,
    CLASSIFIER_FILE,
    CORNER_CHECKPOINT_FILE,
    CORNER_FILE,
    DETECTOR_CHECKPOINT_FILE,
    DETECTOR_FILE,
)

logger = logging.getLogger(__name__)

STATE_FORMAT = "skullcam-enroll/1"
TIME_FORMAT = "%Y%m%d-%H%M%S"  # UTC; also in file names
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# "Looks like another card": the current classifier is this sure of another face and gives the
# named one almost nothing. High on purpose: on a deck it never saw, the classifier is unsure
# of many faces, and only a confident contradiction is worth stopping the user for.
MISMATCH_CONFIDENCE = 0.9
MISMATCH_EXPECTED_MAX = 0.02

ENROLLED_DETECTOR_CONF = 0.1
"""The detector's score threshold in an enrolled model (the shipped model's is 0.2). The
detector learned the stand-in deck's cards; on other art it is less sure of some, and the
classifier (with its ``none`` class) rejects the extra boxes a lower threshold lets through.
On 1,000 unseen alt-deck scenes (``runs/alt_val13``): 0.2 / 0.15 / 0.1 / 0.05 read
94.1 / 94.4 / 94.5 / 94.6 % of scenes right with the default plan's model, 94.7 / 95.0 / 95.1 /
95.2 % with ``--thorough``'s, and 94.3 % -> 94.9 % at 0.1 with the detector fine-tuned too;
precision 0.9953-0.9959 at every threshold. On the stand-in deck 0.2, 0.1 and 0.05 read the
same 97.55 % of 2,000 validation scenes, so the shipped model keeps 0.2: each step down costs
time, 0.1 about 0.5 ms a frame at the median and 5 ms at the 95th percentile, 0.05 about
2 ms and 13 ms (``skullcam bench``, 1 thread)."""

ENROLLED_TURN_BELOW = ALWAYS_TURN
"""An enrolled model reads every crop both ways up, whatever its base model does
(``turn_below``). Its classifier, fine-tuned for minutes, is less sure: at 0.95 it would read
68 % of crops turned (the shipped one 53 %), so it saves less, and it costs a little: the
default plan's enrolled model on 1,000 unseen alt-deck scenes (``runs/alt_fresh15``):
turn_below 1.0 / 0.99 / 0.95 / 0.9 read 94.7 / 94.7 / 94.6 / 94.6 % of scenes right, precision
99.41 / 99.41 / 99.38 / 99.35 %, recall 98.09 % at each."""

ENROLLED_MIRROR_BELOW = ALWAYS_MIRROR
"""An enrolled model runs both detector views on every frame, whatever its base model does
(``mirror_below``). The default plan's enrolled model on 1,000 unseen alt-deck
scenes (``runs/alt_val17``) at one thread: mirror_below 1.0 / 0.8 read 947 / 945 scenes right,
recall 98.37 / 98.25 %, precision 99.60 / 99.56 %, the mirror skipped on 41 % of frames. On the
stand-in deck the same threshold cost nothing; on a deck the detector never saw, its first view
is less often right alone, and recall is what an enrolled deck is short of."""

FaceClassifier = Callable[[np.ndarray], dict[str, float]]
"""A rectified face (BGR, any size) -> probability per face id, from the current model."""


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise UserError(
            f"deck name {name!r} is not usable as a folder name: use letters, digits, '-', "
            "'_' or '.' (up to 64)"
        )
    return name


def _file_time(path: Path) -> str:
    """When ``path`` was last written, as :func:`_now` writes a time."""
    return dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).strftime(TIME_FORMAT)


def _free_name(path: Path) -> Path:
    """``path``, or ``path`` with ``-2``, ``-3``... added when that name is taken."""
    number, free = 1, path
    while free.exists():
        number += 1
        free = path.with_name(f"{path.name}-{number}")
    return free


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime(TIME_FORMAT)


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


# ------------------------------------------------------------------------------ classifier


def onnx_face_classifier(model_dir: Path) -> FaceClassifier:
    """The model folder's classifier as a :data:`FaceClassifier` (for the wrong-card check)."""
    from skullcam.vision.crops import card_crop, crops_to_batch
    from skullcam.vision.readings import softmax
    from skullcam.vision.recognizer import classifier_session

    manifest = ModelManifest.read(model_dir)
    session = classifier_session(manifest, threads=2)
    name = session.get_inputs()[0].name

    def classify(face: np.ndarray) -> dict[str, float]:
        h, w = face.shape[:2]
        # The same view the recognizer takes of a card on the table (with its margin).
        crop = card_crop(
            face, np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        )
        turned = crop[::-1, ::-1]  # both 180-degree turns: a scan may be upside down
        (logits,) = session.run(None, {name: crops_to_batch([crop, np.ascontiguousarray(turned)])})
        probs = softmax(logits).mean(axis=0)
        return {c: float(p) for c, p in zip(manifest.classes, probs, strict=True)}

    return classify


def onnx_detector(model_dir: Path) -> Detector:
    """The model folder's card detector as a fallback for ``inspect_photo``."""
    from skullcam.vision.recognizer import Recognizer

    recognizer = Recognizer.load(model_dir, threads=2)

    def detect(image: np.ndarray) -> np.ndarray:
        quads, _ = recognizer.detect_boxes(image)
        return quads

    return detect


def check_face(
    face_id: str, check: PhotoCheck, classify: FaceClassifier | None, label: str | Message
) -> PhotoCheck:
    """Add the wrong-card verdict to a good photo when the classifier contradicts its name;
    ``label`` names the photo in the verdict (its file name, or ``this_card``'s message)."""
    if not check.ok or classify is None or check.face is None:
        return check
    probs = classify(check.face)
    best = max(probs, key=lambda k: probs[k])
    if (
        best != face_id
        and best in FACES
        and probs[best] >= MISMATCH_CONFIDENCE
        and probs.get(face_id, 0.0) <= MISMATCH_EXPECTED_MAX
    ):
        check.problem = "wrong-card"
        check.said = message(
            "photo_wrong_card",
            label=label,
            best=best,
            best_name=CardName(best),
            face=face_id,
            face_name=CardName(face_id),
        )
    return check


# ----------------------------------------------------------------------------------- state


@dataclass
class Enrollment:
    """One deck's enrollment under ``<data>/enroll/<name>/``; every method keeps it on disk."""

    data_dir: Path
    name: str
    faces: dict[str, dict[str, object]] = field(default_factory=dict)
    stage: str = "collect"
    model: str | None = None
    rebuilt: Message | None = field(default=None, compare=False)
    """What to tell the user when :meth:`open` found the state damaged or missing and rebuilt
    it from the face pictures."""
    _held: Any = field(default=None, repr=False, compare=False)

    def hold(self) -> None:
        """Hold this enrollment for this process, or UserError when another holds it. Two
        programs on one enrollment (a second page server, an ``--from`` run beside it) each
        save their own list of faces over the other's: a face accepted in one would be lost.
        The hold ends with the process, however it ends."""
        # A folder or lock file that cannot be made (a read-only data folder) is one line
        # naming it, from make_folder and hold_lock.
        make_folder(self.work_dir, "enrollment folder")
        self._held = hold_lock(
            self.work_dir / "lock",
            f"the enrollment {self.name!r} in {self.data_dir} is open in another "
            "'skullcam enroll': close that one first, or give this one another --name",
        )
        # Held, no other program writes here: the leftovers of an older version can go.
        remove_old_crop_caches(self.adapt_dir)

    @property
    def work_dir(self) -> Path:
        return self.data_dir / "enroll" / self.name

    @property
    def adapt_dir(self) -> Path:
        """The adaptation's work folder (scenes, crops, fine-tune state): a retaken face
        discards it whole."""
        return self.work_dir / "adapt"

    @property
    def faces_dir(self) -> Path:
        return self.work_dir / "faces"

    @property
    def deck_dir(self) -> Path:
        return self.data_dir / "decks" / self.name

    @classmethod
    def open(cls, data_dir: Path, name: str, *, hold: bool = False) -> Enrollment:
        """The enrollment named ``name`` in ``data_dir``, resumed if one was started.

        ``hold``: held for this process (:meth:`hold`) before its state is read, so that only
        the holder rebuilds a damaged or missing ``state.json``: a second program started on
        the enrollment rebuilt and wrote it (and kept the damaged file aside once more) before
        it found the enrollment held."""
        enrollment = cls(Path(data_dir), check_name(name))
        if hold:
            enrollment.hold()
        path = enrollment.work_dir / "state.json"
        # The messages name the file, not its path: the enrollment page shows them to a phone,
        # and the host's folders are the log's (``_rebuild_state`` logs the path).
        if path.is_file():
            try:
                enrollment._read_state(path)
            except (ValueError, AttributeError, TypeError) as err:
                kept = enrollment._keep_damaged(path, err)
                enrollment._rebuild_state(
                    message("state_damaged", state=path.name, kept=kept.name), f"damaged ({err})"
                )
        elif any((enrollment.faces_dir / f"{face}.png").is_file() for face in FACES):
            # Gone while pictures are there: a crash between the first face's picture and
            # the first save, or the file deleted. Starting empty would ignore those faces
            # and let new photos overwrite them.
            enrollment._rebuild_state(message("state_missing", state=path.name), "missing")
        # A face whose image went missing is not enrolled, whatever the state says.
        enrollment.faces = {
            f: v
            for f, v in enrollment.faces.items()
            if (enrollment.faces_dir / f"{f}.png").is_file()
        }
        return enrollment

    def _read_state(self, path: Path) -> None:
        """The faces, stage and model ``state.json`` records (ValueError, TypeError or
        AttributeError when it is damaged)."""
        raw = json.loads(path.read_text())
        if raw.get("format") != STATE_FORMAT:
            raise ValueError("unknown format")
        self.faces = {str(k): dict(v) for k, v in raw.get("faces", {}).items() if k in FACES}
        self.stage = str(raw.get("stage", "collect"))
        self.model = raw.get("model")

    def _keep_damaged(self, path: Path, err: Exception) -> Path:
        """Where the damaged ``state.json`` is kept beside itself (copied, so a crash before
        the rebuilt state replaces it leaves it as it was): the user may want to see it."""
        kept = _free_name(path.with_name(f"{path.name}.damaged-{_now()}"))
        try:
            copy_atomic(path, kept)
        except OSError as copy_err:
            raise UserError(
                f"{path} is damaged ({err}) and cannot be kept aside ({copy_err}): the "
                f"accepted faces in {self.faces_dir} are intact; free the disk and start again"
            ) from copy_err
        return kept

    def _rebuild_state(self, why: Message, cause: str) -> None:
        """The state rebuilt from the face pictures, when ``state.json`` is damaged or
        missing: a face is accepted when its picture is on disk and readable, and the
        enrollment starts its later steps over. The pictures are the record: deleting the
        folder to start over, or starting an empty enrollment beside them, would throw every
        accepted photo away. ``why`` tells the user what was wrong, ``cause`` the log."""
        state = self.work_dir / "state.json"
        self.faces = {
            face: {"at": _file_time(picture), "rebuilt": True}
            for face in FACES
            if cv2.imread(str(picture := self.faces_dir / f"{face}.png")) is not None
        }
        self.stage, self.model = "collect", None
        self.save()
        self.rebuilt = message("state_rebuilt", why=why, n=len(self.faces), total=len(FACES))
        logger.warning("%s was %s: %s", state, cause, self.rebuilt)

    def save(self) -> None:
        self.work_dir.mkdir(parents=True, exist_ok=True)
        state = {
            "format": STATE_FORMAT,
            "name": self.name,
            "stage": self.stage,
            "model": self.model,
            "faces": self.faces,
        }
        write_atomic(self.work_dir / "state.json", json.dumps(state, indent=2) + "\n")

    def missing(self) -> list[str]:
        return [f for f in FACES if f not in self.faces]

    def next_face(self) -> str | None:
        missing = self.missing()
        return missing[0] if missing else None

    def accept(self, face_id: str, face: np.ndarray, **info: object) -> None:
        """Keep one rectified face: its image on disk first (flushed, as the state is, so a
        power cut cannot leave a state that names an empty picture), then the state."""
        if face_id not in FACES:
            raise UserError(f"unknown card {face_id!r}: expected one of the {len(FACES)} face ids")
        ok, png = cv2.imencode(".png", face)
        if not ok:
            raise UserError(f"cannot encode the photo of {face_id} as PNG")
        self.faces_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.faces_dir / f"{face_id}.png", bytes(png))
        self.faces[face_id] = {"at": _now(), **info}
        if self.stage != "collect":
            self.stage = "collect"  # a retaken face invalidates the deck and what follows
            self.model = None
            shutil.rmtree(self.adapt_dir, ignore_errors=True)
        self.save()

    def face_image(self, face_id: str) -> np.ndarray | None:
        path = self.faces_dir / f"{face_id}.png"
        return cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None

    # ------------------------------------------------------------------------ deck and model

    def write_deck(self) -> Path:
        """The enrolled faces as a deck folder (manifest last: a deck with one is complete)."""
        from skullcam.datasets.deck import DECK_FORMAT, PX_PER_MM, SIZE_MM

        missing = self.missing()
        if missing:
            raise UserError(
                f"{counted(len(missing), 'face')} not enrolled yet: {', '.join(missing[:8])}"
                f"{' ...' if len(missing) > 8 else ''}; add them first"
            )
        deck = self.deck_dir
        deck.mkdir(parents=True, exist_ok=True)
        (deck / "manifest.json").unlink(missing_ok=True)
        for face in FACES:
            shutil.copyfile(self.faces_dir / f"{face}.png", deck / f"{face}.png")
        manifest = {
            "format": DECK_FORMAT,
            "name": self.name,
            "style": "enrolled",
            "faces": list(FACES),
            "size_mm": list(SIZE_MM),
            "px_per_mm": PX_PER_MM,
        }
        write_atomic(deck / "manifest.json", json.dumps(manifest, indent=2) + "\n")
        self.stage = "adapt"
        self.save()
        return deck


@dataclass
class EnrollOutcome:
    model_dir: Path
    check: CheckResult
    activated: bool
    seconds: dict[str, float]
    """``adapt`` and ``check``, and the adaptation's parts (``AdaptResult.timings``)."""
    classifier_epochs: float | None = None  # fewer than the plan's: the time budget ended it


def _likely_face(stem: str) -> str | None:
    """The card id a photo's name most likely meant ("green3", "Skull_King", "pirate rosie",
    "whitewhale"), or None: a folder of 69 names typed by hand has a slip or two, and "not a
    card id" alone left the user to find which id."""
    spaced = re.sub(r"([a-z])(\d)", r"\1-\2", re.sub(r"[\s_]+", "-", stem.lower()))
    if spaced in FACES:
        return spaced
    close = difflib.get_close_matches(spaced, FACES, n=1, cutoff=0.8)
    return close[0] if close else None


def _photo_files(folder: Path) -> tuple[dict[str, Path], list[str], set[str]]:
    """``<card-id>.jpg|png`` files by face id, one problem line per photo name that cannot be
    used (no card id, a folder, two photos of one face: neither is used, since which one the
    user meant is theirs to say), and every face some photo was named for."""
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder: give the folder holding one photo per face")
    found: dict[str, Path] = {}
    twice: dict[str, list[str]] = {}
    problems: list[str] = []
    for path in sorted(folder.iterdir()):
        face = path.stem.lower()
        if path.name.startswith("."):
            continue
        if path.suffix.lower() not in PHOTO_SUFFIXES:
            if face in FACES and path.is_file():  # a phone's .heic or .webp: said, not skipped
                problems.append(
                    f"{path.name}: not a JPEG or PNG photo; save it as {face}.jpg or {face}.png"
                )
            elif path.suffix.lower() in (".heic", ".heif") and path.is_file():
                # An iPhone's photos as they come off it (IMG_1234.HEIC): were they left
                # out unsaid, the user would read only "missing 69 faces".
                problems.append(
                    f"{path.name}: an iPhone HEIC photo, which is not read; save it as JPEG "
                    "named for its card (e.g. green-7.jpg)"
                )
            continue
        if not path.is_file():
            problems.append(f"{path.name}: a folder, not a photo (move the photo out of it)")
        elif face not in FACES:
            guess = _likely_face(face)
            meant = f"; rename it {guess}{path.suffix.lower()} if it is that card" if guess else ""
            problems.append(
                f"{path.name}: not a card id (name photos <card-id>.jpg, e.g. green-7.jpg, "
                f"skull-king.png){meant}"
            )
        elif face in found or face in twice:
            twice.setdefault(face, [found.pop(face).name] if face in found else []).append(
                path.name
            )
        else:
            found[face] = path
    for face, names in twice.items():
        problems.append(f"{face}: {len(names)} photos ({', '.join(names)}); keep one")
    return found, problems, set(found) | set(twice)


def collect_from_folder(
    enrollment: Enrollment,
    folder: Path,
    classify: FaceClassifier | None = None,
    detector: Detector | None = None,
    say: Say = print,
    progress: bool = True,
) -> list[str]:
    """Enroll every good photo of ``folder``; returns one message per problem (empty: all good).

    Photos already enrolled from the same file contents are skipped, so re-running after
    fixing a few photos only looks at those.
    """
    from tqdm import tqdm

    from skullcam.vision.image_io import read_colour_image

    files, problems, named = _photo_files(folder)
    here = str(folder.resolve())
    digests = {face: _file_digest(path) for face, path in files.items()}
    copies = _same_pictures(enrollment, files, digests)
    problems += copies.values()
    kept = [f for f in files if enrollment.faces.get(f, {}).get("digest") == digests[f]]
    if kept:
        say(f"{counted(len(kept), 'face')} already enrolled from these photos: kept")
    todo = [
        (face, path, digests[face])
        for face, path in files.items()
        if face not in copies and face not in kept
    ]
    for face, path, digest in tqdm(todo, desc="photos", unit="photo", disable=not progress):
        try:
            image = read_colour_image(path)  # grey faces would teach grey cards
        except UserError as err:
            # Its message names the file by its whole path: said once, by the name the list
            # of problems goes by ("loot.png: /home/.../loot.png is not a readable image").
            problems.append(f"{path.name}: {str(err).replace(str(path), 'the file')}")
            continue
        check = check_face(face, inspect_photo(image, detector=detector), classify, path.name)
        if check.ok and check.face is not None:
            enrollment.accept(
                face,
                check.face,
                source=path.name,
                folder=here,
                digest=digest,
                sharpness=round(check.sharpness, 3),
                method=check.method,
            )
        else:
            problems.append(f"{path.name}: {check.message}")
    _say_faces_from_elsewhere(enrollment, files, here, say)
    missing = [f for f in enrollment.missing() if f not in named]
    if missing:
        problems.append(
            f"missing {counted(len(missing), 'face')}: "
            + ", ".join(f"{f}.jpg" for f in missing)
            + " (escape and loot once each)"
        )
    return problems


def _same_pictures(
    enrollment: Enrollment, files: dict[str, Path], digests: dict[str, str]
) -> dict[str, str]:
    """One problem line per photo that is the very same file as another face's (a photo
    copied to fill a gap, or saved twice under two names): each face needs its own picture,
    and which name is right is the user's to say, so neither is used."""
    by_digest: dict[str, list[str]] = {}
    for face in files:
        by_digest.setdefault(digests[face], []).append(face)
    kept = {
        info.get("digest"): face
        for face, info in enrollment.faces.items()
        if face not in files and info.get("digest")
    }
    lines: dict[str, str] = {}
    for digest, faces in by_digest.items():
        names = [files[f].name for f in faces]
        if len(faces) > 1:
            for face in faces:
                lines[face] = (
                    f"{files[face].name}: the same picture as "
                    + ", ".join(n for n in names if n != files[face].name)
                    + "; photograph each face"
                )
        elif digest in kept:
            lines[faces[0]] = (
                f"{names[0]}: the same picture as the photo kept for {kept[digest]}; "
                "photograph each face"
            )
    return lines


def _say_faces_from_elsewhere(
    enrollment: Enrollment, files: dict[str, Path], here: str, say: Say
) -> None:
    """A deck is kept by its name, not its folder: faces kept from an earlier run with
    another folder (or the camera page) go into the model with this folder's photos. That
    is how a few retaken photos join the rest, but a user who meant a new deck must hear it."""
    elsewhere: dict[str, list[str]] = {}
    for face, info in enrollment.faces.items():
        if face not in files and info.get("folder") != here:
            where = str(info.get("folder") or "an earlier enrollment")
            elsewhere.setdefault(where, []).append(face)
    for where, faces in elsewhere.items():
        shown = ", ".join(faces[:6]) + (f" and {len(faces) - 6} more" if len(faces) > 6 else "")
        say(
            f"{counted(len(faces), 'face')} of deck '{enrollment.name}' "
            f"{agreeing(len(faces), 'is', 'are')} kept from {where}, not this folder: {shown}"
            " (for a new deck, give another --name)"
        )


def _assemble_model(
    folder: Path, version: str, base: ModelManifest, result: AdaptResult, with_checkpoints: bool
) -> None:
    """Write the adapted weights and then (last) a manifest with the base model's thresholds,
    each file flushed to disk and then the folder: its files must be whole before a rename and
    a pointer can make it the model ``skullcam run`` loads after a power cut."""
    copies: list[tuple[Path | None, str]] = [
        (result.detector, DETECTOR_FILE),
        (result.onnx, CLASSIFIER_FILE),
    ]
    if with_checkpoints:
        copies += [
            (result.checkpoint, CHECKPOINT_FILE),
            (result.detector_checkpoint, DETECTOR_CHECKPOINT_FILE),
            (result.corner_checkpoint, CORNER_CHECKPOINT_FILE),
        ]
    copies.append((result.corner, CORNER_FILE))
    for source, name in copies:
        if source is not None:
            copy_atomic(source, folder / name)
    # The base model's corner reader learned the base deck's corner marks: an enrolled model
    # that did not adapt it reads without one rather than misread the new deck.
    replace(
        base,
        folder=folder,
        version=version,
        detector=DETECTOR_FILE,
        classifier=CLASSIFIER_FILE,
        corner_reader=CORNER_FILE if result.corner is not None else None,
    ).write()
    sync_folder(folder)


def _install_model(
    data_dir: Path,
    name: str,
    base: ModelManifest,
    result: AdaptResult,
    extra: dict[str, object],
) -> Path:
    """Assemble ``<data>/models/<name>-<ts>/`` in a staging folder, manifest last, then rename."""
    models = data_dir / "models"
    models.mkdir(parents=True, exist_ok=True)
    final = models / f"{name}-{_now()}"
    staging = models / f".staging-{final.name}"
    # An install of this deck killed half-way left its own staging folder (checkpoints and
    # all) under an earlier timestamp: never a model, so it goes.
    own = re.compile(rf"\.staging-{re.escape(name)}-\d{{8}}-\d{{6}}")
    for left in models.iterdir():
        if own.fullmatch(left.name):
            shutil.rmtree(left, ignore_errors=True)
    staging.mkdir()
    write_atomic(staging / "enroll.json", json.dumps(extra, indent=2) + "\n")
    _assemble_model(staging, f"enrolled-{final.name}", base, result, with_checkpoints=True)
    os.rename(staging, final)
    sync_folder(models)  # the rename, before activate() writes a pointer naming it
    return final


def _choose_corner_weight(candidate: Path, scenes: Path, plan: AdaptPlan, say: Say) -> WeightChoice:
    """The enrolled model's corner weight, chosen on the adaptation's own validation scenes
    (never the self-check's, which report on it): see ``vision/reading_choice.py``."""
    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.recognizer import Recognizer

    say(spoken("log_choosing_weight"))
    choice = choose_corner_weight(
        Recognizer.load(candidate), read_scene_index(scenes, "val"), progress=plan.progress
    )
    say(SaidText(choice.said()))
    return choice


def adapt_and_install(
    enrollment: Enrollment,
    plan: AdaptPlan,
    test_scenes: int = 500,
    say: Say = print,
    min_accuracy: float = MIN_ACTIVATE_ACCURACY,
    base_model: Path | None = None,
) -> EnrollOutcome:
    """Steps 2-5: deck, adaptation, self-check, install and (if good enough) activation."""
    import time

    from skullcam.vision.crop_dataset import read_scene_index

    seconds: dict[str, float] = {}
    base = base_model or active_model_dir(enrollment.data_dir)
    if base.resolve().is_relative_to((enrollment.data_dir / "models").resolve()):
        # Fine-tune from the model this one was adapted from, not from an earlier enrollment
        # of possibly another deck.
        info_path = base / "enroll.json"
        if info_path.is_file():
            origin = Path(str(json.loads(info_path.read_text()).get("base_model", "")))
            if (origin / MANIFEST).is_file() and (origin / CHECKPOINT_FILE).is_file():
                base = origin
    t0 = time.perf_counter()
    deck = enrollment.write_deck()
    work = enrollment.adapt_dir
    result = adapt_recognizer(deck, base, work, plan, say=say)
    seconds["adapt"] = time.perf_counter() - t0
    seconds.update(result.timings)  # what estimates a longer run (adapt.estimate_seconds)
    t1 = time.perf_counter()
    say(spoken("log_self_check", n=test_scenes))
    test_dir = generate_scenes(
        deck,
        work / "test_scenes",
        {"test": test_scenes},
        seed=plan.seed + TEST_SEED_OFFSET,
        workers=plan.workers,
        progress=plan.progress,
    )
    # Check the model exactly as it will be installed: a staging copy with its manifest.
    candidate = work / "candidate"
    shutil.rmtree(candidate, ignore_errors=True)
    base_manifest = ModelManifest.read(base)
    base_manifest = replace(
        base_manifest,
        detector_conf=min(base_manifest.detector_conf, ENROLLED_DETECTOR_CONF),
        turn_below=ENROLLED_TURN_BELOW,
        mirror_below=ENROLLED_MIRROR_BELOW,
    )
    candidate.mkdir()
    _assemble_model(candidate, "candidate", base_manifest, result, with_checkpoints=False)
    weight = None
    if result.corner is not None:
        weight = _choose_corner_weight(candidate, work / "scenes", plan, say)
        base_manifest = replace(base_manifest, corner_weight=weight.weight)
        replace(ModelManifest.read(candidate), corner_weight=weight.weight).write()
    check = self_check(candidate, read_scene_index(test_dir, "test"), progress=plan.progress)
    seconds["check"] = time.perf_counter() - t1
    model_dir = _install_model(
        enrollment.data_dir,
        enrollment.name,
        base_manifest,
        result,
        {
            "deck": str(deck),
            "base_model": str(base),
            "base_version": base_manifest.version,
            "detector_adapted": result.detector.resolve()
            != (base / base_manifest.detector).resolve(),
            "val_accuracy": round(result.val_accuracy, 5),
            "classifier_epochs": result.classifier_epochs,  # fewer than the plan's: the budget
            "corner_weight": weight.to_json() if weight is not None else None,
            "check": check.to_json(),
            "plan": training_args(plan),
            "min_accuracy": min_accuracy,  # what the self-check had to reach to activate it
            "seconds": {k: round(v, 1) for k, v in seconds.items()},
        },
    )
    shutil.rmtree(candidate, ignore_errors=True)
    activated = check.classifier_accuracy >= min_accuracy
    if activated:
        activate(enrollment.data_dir, model_dir.name)
    enrollment.stage = "done"
    enrollment.model = model_dir.name
    enrollment.save()
    return EnrollOutcome(model_dir, check, activated, seconds, result.classifier_epochs)
