"""The enrollment page's "Check on real tricks": photos of real tricks the user labels by tapping.

A photo comes from the page's camera (the same feed Capture uses) or from an uploaded file.
The data folder's active model reads it, and the page shows every found card as a box to tap
and correct; cards the recognizer missed are added by name. Saved photos live under
``<data>/enroll/<name>/tricks/`` (``vision.enroll_tricks``) and are checked again with whatever
model is active when the page asks, and at once after an adaptation, so the user sees whether
the new model does better on their own table than the old one did.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from skullcam.device.enroll_i18n import face_name, page_error, say, t
from skullcam.errors import UserError
from skullcam.rules import FACES
from skullcam.vision.detection import Detection
from skullcam.vision.enroll_messages import Message
from skullcam.vision.enroll_tricks import (
    FILE_RE,
    NOT_A_CARD,
    BoxLabel,
    TrickLabels,
    check_label,
    check_tricks,
    decode_photo,
    load_tricks,
    save_trick,
)
from skullcam.vision.recognizer import ModelManifest, Recognizer, active_model_dir

MAX_UPLOAD_BYTES = 25 * 1024 * 1024  # a phone's full-size photo, with room to spare

Recognize = Callable[[np.ndarray], Sequence[Detection]]


@dataclass
class PendingTrick:
    """A photo read by the recognizer, waiting for the user's labels."""

    image: np.ndarray
    detections: list[Detection]
    source: str
    model: str
    id: int = 0  # tells the page a new photo arrived (its labels start afresh)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        h, w = self.image.shape[:2]
        return {
            "id": self.id,
            "width": w,
            "height": h,
            "source": self.source,
            "model": self.model,
            "cards": [d.to_json() | {"name": face_name(d.card, lang)} for d in self.detections],
        }


def quoted(value: object) -> str:
    """A value a request sent, as a refusal quotes it: its repr, cut short (a request may
    send a megabyte of it)."""
    return repr(value)[:200]


def _model_version(folder: Path) -> str:
    """The model's version for the page (its folder name when the manifest is unreadable)."""
    try:
        return ModelManifest.read(folder).version
    except UserError:
        return folder.name


class TrickChecker:
    """The real-trick photos of one enrollment: the pending one, the saved ones, their check."""

    def __init__(
        self, data_dir: Path, folder: Path, load: Callable[[Path], Recognize] | None = None
    ) -> None:
        self.data_dir = data_dir
        self.folder = folder
        self._load = load or (lambda model_dir: Recognizer.load(model_dir, threads=2))
        self._recognize: Recognize | None = None
        self._model_dir: Path | None = None
        self.pending: PendingTrick | None = None
        self._photos = 0  # photos read so far: each pending one gets its own id
        self.check: dict[str, Any] | None = None  # the last check's result and its model
        self._check_said: tuple[Message, ...] = ()  # its sentence, to word in a page's language
        self.lock = threading.Lock()  # one recognizer, called by one thread at a time
        self._saving = threading.Lock()  # one save at a time: see save()

    def _recognizer(self) -> tuple[Recognize, Path]:
        """The active model's recognizer, loaded again when another model became active."""
        model_dir = active_model_dir(self.data_dir)
        if self._recognize is None or model_dir != self._model_dir:
            self._recognize = self._load(model_dir)
            self._model_dir = model_dir
        return self._recognize, model_dir

    def saved(self) -> int:
        if not self.folder.is_dir():
            return 0
        return sum(1 for p in self.folder.glob("*.json") if FILE_RE.match(p.name))

    def state(self, lang: str = "en") -> dict[str, Any]:
        """The photos' state for the page, its words in ``lang``."""
        model_dir = active_model_dir(self.data_dir)
        saved = self.saved()
        stale = saved > 0 and (
            self.check is None
            or self.check["model_dir"] != str(model_dir)
            or self.check["saved"] != saved
        )
        check = None
        if self.check:
            check = {k: v for k, v in self.check.items() if k not in ("model_dir", "saved")}
            if self._check_said:
                check["sentence"] = say(self._check_said, lang)
        return {
            "saved": saved,
            "model": _model_version(model_dir),
            "pending": self.pending.to_json(lang) if self.pending else None,
            "check": check,
            "stale": stale,
        }

    def read(self, image: np.ndarray, source: str) -> dict[str, Any]:
        """Run the active model on a new photo; it waits for labels as the pending one."""
        with self.lock:
            recognize, model_dir = self._recognizer()
            detections = list(recognize(image))
            self._photos += 1
            number = self._photos
        self.pending = PendingTrick(image, detections, source, _model_version(model_dir), number)
        return self.state()

    def upload(self, data: bytes) -> dict[str, Any]:
        return self.read(decode_photo(data), "upload")

    def discard(self) -> dict[str, Any]:
        self.pending = None
        return self.state()

    @staticmethod
    def labels_from_request(pending: PendingTrick | None, body: object) -> TrickLabels:
        """The user's labels for the pending photo, checked; every problem names its field."""
        if pending is None:
            raise page_error("err_no_trick_photo")
        if not isinstance(body, dict):
            raise page_error("err_not_object", example='{"labels": [...], "missed": [...]}')
        labels, missed = body.get("labels"), body.get("missed", [])
        found = pending.detections
        if not isinstance(labels, list) or len(labels) != len(found):
            raise page_error("err_labels", n=len(found), value=quoted(labels))
        if not isinstance(missed, list):
            raise page_error("err_missed", value=quoted(missed))
        boxes = tuple(
            BoxLabel(
                box=det.box,
                face=check_label(label, f"labels[{i}]"),
                read=det.card,
                corners=tuple((float(x), float(y)) for x, y in det.corners),
            )
            for i, (det, label) in enumerate(zip(found, labels, strict=True))
        )
        names = tuple(
            check_label(f, f"missed[{i}]", allow_none=False) for i, f in enumerate(missed)
        )
        return TrickLabels(boxes, names)

    def save(self, body: object) -> dict[str, Any]:
        """Keep the pending photo with the user's labels, then check all saved photos again.

        One save at a time: two at once (a double tap, two phones) took the same number, one
        photo written over the other, or kept one photo twice; the second one now finds the
        photo saved and is refused."""
        with self._saving:
            pending = self.pending  # the photo the labels were made for, even if another comes
            labels = self.labels_from_request(pending, body)
            assert pending is not None
            save_trick(
                self.folder, pending.image, labels, source=pending.source, model=pending.model
            )
            if self.pending is pending:
                self.pending = None
        return self.recheck()

    @property
    def check_said(self) -> tuple[Message, ...]:
        """The last check's sentence as messages (empty before one): the adaptation's log says
        it after its recheck, worded in each reader's language."""
        return self._check_said

    def recheck(self) -> dict[str, Any]:
        """Check every saved photo with the model active now."""
        saved = self.saved()  # a damaged photo is skipped, and not checked again and again
        tricks = load_tricks(self.folder) if self.folder.is_dir() else []
        with self.lock:
            recognize, model_dir = self._recognizer()
            result = check_tricks(recognize, tricks)
        self.check = result.to_json() | {
            "model": _model_version(model_dir),
            "model_dir": str(model_dir),
            "saved": saved,
        }
        self._check_said = result.said()
        return self.state()


def faces_for_picker(lang: str = "en") -> list[dict[str, str]]:
    """The choices of the page's face picker: 'not a card' and the 69 faces by name."""
    return [{"id": NOT_A_CARD, "name": t("not_a_card", lang)}] + [
        {"id": f, "name": face_name(f, lang)} for f in FACES
    ]


class TrickHost(Protocol):
    """What the routes need of the page's session: its checker, camera and whole state."""

    tricks: TrickChecker

    def state(self, lang: str = "en") -> dict[str, Any]: ...

    def camera_frame(self) -> np.ndarray | None: ...


def sent_json() -> Any:
    """The request's JSON, None when it is none. ``get_json(silent=True)`` lets a
    RecursionError through ('[' * 100000 nests once per level): an HTML 500 and a traceback
    in the log for a request anyone may send, where a refusal belongs."""
    from flask import request

    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


def add_trick_routes(
    app: Any,
    host: TrickHost,
    encode: Callable[[np.ndarray], bytes],
    lang: Callable[[], str] = lambda: "en",
) -> None:
    """The page's real-trick endpoints; each answers with the page's whole state, its words
    in the reader's language (``lang()``, the request's)."""
    from flask import Response, jsonify, request
    from werkzeug.exceptions import RequestEntityTooLarge

    tricks = host.tricks
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(err: Exception) -> Any:
        # "Send a smaller photo" only where a photo is sent; any other request is no upload.
        key = "err_upload_large" if request.endpoint == "trick_upload" else "err_request_large"
        limit = MAX_UPLOAD_BYTES // (1024 * 1024)
        return jsonify({"error": t(key, lang(), limit=limit)}), 413

    @app.get("/api/trick/faces")
    def trick_faces() -> Any:
        return jsonify(faces_for_picker(lang()))

    @app.post("/api/trick/capture")
    def trick_capture() -> Any:
        frame = host.camera_frame()
        if frame is None:
            raise page_error("err_no_picture")
        tricks.read(frame, "camera")
        return jsonify(host.state(lang()))

    @app.post("/api/trick/upload")
    def trick_upload() -> Any:
        upload = request.files.get("photo")
        data = upload.read() if upload is not None else request.get_data()
        if upload is None and not data:
            raise page_error("err_no_photo_field")
        tricks.upload(data)
        return jsonify(host.state(lang()))

    @app.get("/trick.jpg")
    def trick_photo() -> Any:
        pending = tricks.pending
        if pending is None:
            return jsonify({"error": t("err_no_trick_image", lang())}), 404
        return Response(
            encode(pending.image), mimetype="image/jpeg", headers={"Cache-Control": "no-store"}
        )

    @app.post("/api/trick/save")
    def trick_save() -> Any:
        tricks.save(sent_json())
        return jsonify(host.state(lang()))

    @app.post("/api/trick/discard")
    def trick_discard() -> Any:
        tricks.discard()
        return jsonify(host.state(lang()))

    @app.post("/api/trick/check")
    def trick_check() -> Any:
        tricks.recheck()
        return jsonify(host.state(lang()))
