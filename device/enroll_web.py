"""The guided camera enrollment: a small Flask page of its own, started by ``skullcam enroll``.

One face at a time: the page shows the camera and says "place the Green 7 face up in the
frame"; Capture finds and rectifies the card in the current frame (``vision.enroll_photo``)
and shows the result to Accept or Retake, with the reason when the shot is bad (no card, two
cards, blurred, glare, or the card looks like another one). Each accepted face is saved at
once (``vision.enroll.Enrollment``), so closing the page or the program loses nothing: the next
start resumes at the first missing face. When all 69 are in, Adapt runs the adaptation in a
background thread and the page shows its progress and the self-check sentence.

The page speaks English, Spanish, Italian and Danish (``device.enroll_i18n``), chosen as the
table app chooses (``?lang=``, then a cookie, then the browser's language): what the vision code
says about a photo is kept as a message and worded in the reader's language on each request.

"Check on real tricks" (``device.enroll_tricks_page``) lets the user photograph real tricks,
correct the recognizer's reading by tapping, and see how the active model does on them; the
saved photos are checked again after every adaptation.

The camera is any ``device.sources`` frame source. A live one is read by a thread that keeps
the newest frame; a recorded one (a folder of images: the file-backed camera of the tests)
advances one frame per capture, so a folder of photos in prompt order drives the page.
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam import i18n_core, table_pin
from skullcam.addresses import page_urls
from skullcam.device.enroll_i18n import (
    error_text,
    face_in_text,
    face_name,
    js_strings,
    log_line,
    page_error,
    step_name,
    t,
)
from skullcam.device.enroll_i18n import say as word
from skullcam.device.enroll_tricks_page import TrickChecker, add_trick_routes, quoted, sent_json
from skullcam.device.sources import (
    Frame,
    FrameSource,
    FrameUnreadable,
    ImageFolderSource,
    LatestFrameReader,
)
from skullcam.errors import UserError, cannot_listen, missing_training_package
from skullcam.files import CannotWrite, write_atomic
from skullcam.rules import FACES
from skullcam.vision.adapt import (
    AdaptPlan,
    estimate_seconds,
    longer_plan,
    plan_of_record,
    rounded_duration,
    training_args,
)
from skullcam.vision.enroll import Enrollment, FaceClassifier, adapt_and_install, check_face
from skullcam.vision.enroll_check import CheckResult
from skullcam.vision.enroll_messages import Message, MessageError, SaidText, message, spoken
from skullcam.vision.enroll_photo import Detector, PhotoCheck, inspect_photo
from skullcam.vision.enrolled_models import enroll_record
from skullcam.vision.recognizer import active_model_dir

logger = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent / "enroll_templates"

LONGER_RUN_FILE = "longer_run.json"
"""A run with a longer plan than the page's own that has not finished, in the enrollment's
``adapt/`` folder: its plan from its start (a run that takes the program down with it is
kept too), its error once it fails, gone once it finishes. After a restart the page offers
it again, as it did before (the failed run, and its button); a retaken face empties the
folder, and with it the record of a run on the photos before."""


def source_kind(source: FrameSource) -> str:
    """What the page calls the source: "camera" for a live one (a webcam, a stream, the Pi's
    camera), "folder" for a folder of frames, "video" for any other recording, so a failing
    folder is not called a camera the user never plugged in."""
    if source.live:
        return "camera"
    return "folder" if isinstance(source, ImageFolderSource) else "video"


class CameraFeed:
    """The frame the page shows and captures: newest of a live source, current of a recording.

    A source that fails (a camera unplugged, a stream that ended, a folder changed while it
    is read) leaves its frame generator finished for good; the error is said once (in full in
    the log, without the source's name on the page), and the next frame asked for opens the
    source again with ``reopen`` (a recording from the frame that failed), so a reconnected
    camera or a restored folder works without restarting the page. A recording's frame that
    is itself at fault (:class:`FrameUnreadable`: too large to open) is skipped instead: the
    source is opened again after it, since opening it at that frame only failed again, on
    every capture. The page names the source as the user knows it: the camera, the folder or
    the video (:func:`source_kind`).
    """

    def __init__(
        self, source: FrameSource, reopen: Callable[[int], FrameSource] | None = None
    ) -> None:
        self._reopen_source = reopen
        self._lock = threading.Lock()
        self._current: np.ndarray | None = None
        self._next_index = 0  # of a recording: where a reopened one starts
        self._start(source)

    def _start(self, source: FrameSource) -> None:
        self.source = source
        self._reader: LatestFrameReader | None = None
        self._frames: Iterator[Frame]
        if source.live:
            self._reader = LatestFrameReader(source)
            self._frames = self._reader.frames()
        else:
            self._frames = source.frames()
        self._ended = False
        self._broken = False  # failed: to be opened again before the next frame
        self._open = True

    def _pull(self) -> None:
        if self._broken:
            self._reopen()
        if self._ended:
            return
        try:
            frame = next(self._frames)
        except StopIteration:
            self._ended = True
            self._broken = self.source.live  # a camera does not end: it was lost
            self._current = None
            return
        except Exception as err:
            self._broken = True  # its generator is finished: only opening it again reads on
            self._current = None
            if not isinstance(err, UserError):
                raise
            # The source's words name the host's camera, file or stream address (a URL may
            # hold its password): they are the log's; the phone is told what to do.
            if isinstance(err, FrameUnreadable) and not self.source.live:
                logger.warning("%s; skipped", err)
                self._next_index = err.index + 1  # opened again after it, not at it
                raise page_error("err_frame_skipped") from err
            logger.warning("%s", err)
            raise page_error(self._said("err_source_stopped")) from err
        self._current = frame.image
        self._next_index = frame.index + 1

    def _reopen(self) -> None:
        """Open the failed source again, or a UserError saying it could not be. Why, and
        which source, is the log's (the terminal's): the source's name and error name the
        host's camera, file or stream address, which the phone has no use for."""
        self._close_source()
        if self._reopen_source is None:
            logger.warning("%s failed and this page cannot open it again", self.source.name)
            raise page_error(self._said("err_cannot_reopen"))
        try:
            source = self._reopen_source(self._next_index)
        except UserError as err:
            logger.warning("%s could not be opened again: %s", self.source.name, err)
            raise page_error(self._said("err_reopen_failed")) from None
        self._start(source)

    def _said(self, key: str) -> str:
        """The page string ``key`` for this feed's kind of source: ``key`` for a camera,
        ``key_folder`` or ``key_video`` for a recording."""
        kind = source_kind(self.source)
        return key if kind == "camera" else f"{key}_{kind}"

    @property
    def recording_ended(self) -> bool:
        """A recording (a video, a folder of frames) has no frames left: not a camera fault,
        and no retry will bring one."""
        return self._ended and not self._broken and not self.source.live

    def current(self) -> np.ndarray | None:
        """The frame on screen now (a live source: its newest frame)."""
        with self._lock:
            if self._reader is not None or self._current is None:
                self._pull()
            return self._current

    def capture(self) -> np.ndarray | None:
        """The frame to enroll from; a recorded source then moves on to its next frame."""
        with self._lock:
            if self._reader is not None or self._current is None:
                self._pull()
            frame = self._current
            if self._reader is None:
                self._current = None  # the next view/capture reads the next recorded frame
            return frame

    def close(self) -> None:
        self._close_source()  # not under the lock: a read may be waiting on a stalled camera

    def _close_source(self) -> None:
        if not self._open:
            return
        self._open = False
        if self._reader is not None:
            self._reader.close()
        else:
            self.source.close()


def step_progress() -> dict[str, Any] | None:
    """The adaptation step under way, read from its progress bar: what it is doing, how far
    it is, and about how long it has left, so the page can show what the terminal shows.

    The adaptation's steps report through tqdm, in this process (rendering runs in a child
    process and shows as the step before it until done); the newest bar still open is the
    step running now."""
    from tqdm import tqdm

    # tqdm lists a bar from its __new__, before __init__ sets its fields: one the adaptation
    # thread is opening right now has no ``start_t`` yet (set last), and is skipped.
    bars = [
        b
        for b in list(getattr(tqdm, "_instances", ()))
        if hasattr(b, "start_t") and not b.disable and b.total
    ]
    if not bars:
        return None
    bar = max(bars, key=lambda b: b.start_t)
    info = bar.format_dict
    done, total = int(info["n"]), int(info["total"])
    rate = info.get("rate") or (done / info["elapsed"] if info["elapsed"] and done else None)
    left = (total - done) / rate if rate else None
    return {
        "what": str(bar.desc or "working"),
        "done": done,
        "total": total,
        "seconds_left": round(left) if left is not None else None,
    }


class EnrollSession:
    """What the page drives: the enrollment, the pending capture and the adaptation thread."""

    def __init__(
        self,
        enrollment: Enrollment,
        feed: CameraFeed,
        plan: AdaptPlan,
        classify: FaceClassifier | None = None,
        detector: Detector | None = None,
        test_scenes: int = 500,
        min_accuracy: float | None = None,
        base_model: Path | None = None,
        tricks: TrickChecker | None = None,
    ) -> None:
        self.enrollment = enrollment
        self.feed = feed
        self.plan = plan
        self.classify = classify
        self.detector = detector
        self.test_scenes = test_scenes
        self.min_accuracy = min_accuracy
        self.base_model = base_model
        self.target: str | None = None  # a face chosen for retaking; else the next missing one
        self.pending: tuple[str, PhotoCheck] | None = None
        self.lock = threading.Lock()
        self.adapt_thread: threading.Thread | None = None
        self.adapt_status: dict[str, Any] = self._last_adaptation() or {"state": "idle", "log": []}
        self.adapted_faces: dict[str, Any] | None = (
            dict(enrollment.faces) if self.adapt_status["state"] == "done" else None
        )
        """The photos the finished adaptation learned: the same photos would only make the same
        model again (a second click on Adapt installed a duplicate)."""
        self.tricks = tricks or TrickChecker(enrollment.data_dir, enrollment.work_dir / "tricks")

    def _last_adaptation(self) -> dict[str, Any] | None:
        """What the page showed before a restart: this deck's finished adaptation, instead of
        an Adapt button that would redo it; else a longer run that did not finish, still on
        offer (its record, :data:`LONGER_RUN_FILE`)."""
        if self.enrollment.stage == "done":
            return self._installed()
        return self._unfinished_longer_run()

    def _unfinished_longer_run(self) -> dict[str, Any] | None:
        """A longer run that failed, or stopped with the program, before a restart: failed,
        with its plan, so Adapt runs it again and the button after the model that learned too
        little stays (writing the deck, the run took the enrollment out of "done")."""
        path = self.enrollment.adapt_dir / LONGER_RUN_FILE
        try:
            kept = json.loads(path.read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as err:  # what it kept is a convenience: the run is not
            logger.warning("%s is not read (%s): the page offers no run that failed", path, err)
            return None
        plan = plan_of_record(kept.get("plan"), self.plan) if isinstance(kept, dict) else None
        if plan is None:
            return None
        error = kept.get("error")
        said = None if isinstance(error, str) else message("err_longer_run_stopped")
        return {
            "state": "failed",
            "error": error if isinstance(error, str) else t("err_longer_run_stopped", "en"),
            "error_said": said,
            "plan": plan,
            "faces": dict(self.enrollment.faces),
            "finished": self._installed(),
            "log": [],
        }

    def _keep_longer_run(self, plan: AdaptPlan | None, error: str | None = None) -> None:
        """Keep the record of a longer run (:data:`LONGER_RUN_FILE`); ``None``: drop it. A
        record that cannot be written is said in the log: the run itself goes on."""
        path = self.enrollment.adapt_dir / LONGER_RUN_FILE
        try:
            if plan is None:
                path.unlink(missing_ok=True)
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            record = {"plan": training_args(plan), "error": error}
            write_atomic(path, json.dumps(record, indent=2) + "\n")
        except OSError as err:
            logger.warning("%s not written (%s): a restart will not offer this run", path, err)

    def _installed(self) -> dict[str, Any] | None:
        """The result of the enrollment's installed model, from its enroll.json."""
        model = self.enrollment.model
        if not model:
            return None
        folder = self.enrollment.data_dir / "models" / model
        info = enroll_record(folder)
        check = info.get("check") if info is not None else None
        if not isinstance(check, dict):
            return None
        try:
            active = active_model_dir(self.enrollment.data_dir).resolve() == folder.resolve()
        except UserError:
            return None
        try:
            result = CheckResult.from_json(check)
            said: tuple[Message, ...] | None = result.said()
            retake, too_little = result.faces_to_retake(), result.learned_too_little()
        except (KeyError, TypeError, ValueError):  # an older record: its English sentence
            said, retake, too_little = None, [], False
        return {
            "state": "done",
            "sentence": check.get("sentence"),
            "said": said,
            "model": model,
            "activated": active,
            "retake_faces": retake,
            "learned_too_little": too_little,
            "plan": plan_of_record(info.get("plan") if info is not None else None, self.plan),
            "seconds": info.get("seconds") if info is not None else None,
            "classifier_epochs": info.get("classifier_epochs") if info is not None else None,
            "log": [],
        }

    def face(self) -> str | None:
        return self.target or self.enrollment.next_face()

    def state(self, lang: str = "en") -> dict[str, Any]:
        """What the page shows, its words in ``lang`` (English: the command line's words)."""
        face = self.face()
        pending = None
        if self.pending is not None:
            pending_face, check = self.pending
            pending = {
                "face": pending_face,
                "ok": check.ok,
                "problem": check.problem,
                "message": word(check.said, lang),
                "has_preview": check.face is not None,
            }
        return {
            "name": self.enrollment.name,
            "face": face,
            "face_name": face_name(face, lang) if face else None,
            "prompt": t("prompt", lang, card=face_in_text(face, lang))
            if face
            else t("prompt_done", lang),
            "done": len(self.enrollment.faces),
            "total": len(FACES),
            "enrolled": sorted(self.enrollment.faces, key=FACES.index),
            "missing": self.enrollment.missing(),
            # The chips to tap for a retake show names; the retake call takes the face id.
            "face_names": {f: face_name(f, lang) for f in FACES},
            "pending": pending,
            # A damaged state.json rebuilt from the face pictures: said until the page restarts.
            "notice": word(rebuilt, lang) if (rebuilt := self.enrollment.rebuilt) else None,
            "adapt": self._adapt_state(lang),
            "tricks": self.tricks.state(lang),
        }

    def _adapt_state(self, lang: str) -> dict[str, Any]:
        """The adaptation's state: its sentence, what to do next, weakest faces, log (the
        terminal's lines) and running step worded in ``lang`` (``enroll_i18n`` says what
        stays English)."""
        status = self.adapt_status
        hidden = (
            "log",
            "said",
            "weakest_faces",
            "retake_faces",
            "error_said",
            "learned_too_little",
            "plan",
            "faces",
            "seconds",
            "classifier_epochs",
            "finished",
        )
        shown = {k: v for k, v in status.items() if k not in hidden}
        if status.get("said"):
            shown["sentence"] = word(status["said"], lang)
        if status.get("error_said"):
            shown["error"] = word(status["error_said"], lang)
        if "weakest_faces" in status:
            # Said in the advice's sentence (``_advice``), so named as running text names.
            shown["weakest"] = [face_in_text(f, lang) for f in status["weakest_faces"]]
        shown["retake"] = [face_in_text(f, lang) for f in status.get("retake_faces", [])]
        if status.get("state") == "done":
            shown["advice"] = self._advice(shown, lang)
        # The longer run the page's button offers: after a model that learned too little, and
        # still after that run failed (pressed again, it tries once more).
        finished = self._finished()
        too_little = finished is not None and finished.get("learned_too_little")
        offered = too_little and status.get("state") != "running"
        shown["longer"] = self._longer_offer(lang) if offered else None
        shown["log"] = [log_line(line, lang) for line in status["log"][-8:]]
        if status.get("state") == "running":
            step = step_progress()
            if step is not None:
                step["what"] = step_name(step["what"], lang)
            shown["step"] = step
        return shown

    def _advice(self, shown: dict[str, Any], lang: str) -> str:
        """What the page says after a finished adaptation's sentence, as the command line
        does: whether the model is active, and either the faces to retake or, where too many
        read badly for bad photos, that the model learned too little and needs a longer run."""
        too_little = bool(self.adapt_status.get("learned_too_little"))
        if shown.get("activated"):
            outcome = t("model_active", lang)
        elif too_little:
            outcome = t("not_activated_longer", lang)
        elif shown.get("weakest"):
            outcome = t("not_activated_named", lang, names=", ".join(shown["weakest"]))
        else:
            outcome = t("not_activated", lang)
        if too_little:
            return outcome + t("too_little", lang, n=len(shown["retake"]))
        if shown["retake"]:
            return outcome + t("retake_named", lang, names=", ".join(shown["retake"]))
        return outcome

    def _finished(self) -> dict[str, Any] | None:
        """The last finished adaptation's status: the one shown, or, while another runs or
        after it failed, the one before it."""
        status = self.adapt_status
        return status if status.get("state") == "done" else status.get("finished")

    def _made_with(self) -> AdaptPlan | None:
        """The plan that made the last finished adaptation's model, where it is known."""
        made_with = (self._finished() or {}).get("plan")
        return made_with if isinstance(made_with, AdaptPlan) else None

    def _longer_plan(self) -> AdaptPlan:
        """The longer run after the plan that made the model shown (after a restart, the plan
        its enroll.json names), or after this page's own plan where that is not known."""
        return longer_plan(self._made_with() or self.plan)

    def _longer_offer(self, lang: str) -> dict[str, Any]:
        """The button's longer run: its scenes and epochs, and about how long it takes here,
        worked out from how long the run that made the model took (``adapt.estimate_seconds``):
        it has no time limit, and from the default plan it is three times the fine-tune
        (docs/enroll.md: 35.5 minutes on a 2-core PC with bfloat16, about 2 hours without)."""
        longer = self._longer_plan()
        counts = {"scenes": longer.train_scenes, "epochs": longer.epochs}
        made, finished = self._made_with(), self._finished() or {}
        recorded = finished.get("seconds")
        seconds = (
            estimate_seconds(made, recorded, finished.get("classifier_epochs"), longer)
            if made is not None and isinstance(recorded, dict)
            else None
        )
        if seconds is None:
            return {**counts, "minutes": None, "label": t("adapt_longer", lang, **counts)}
        unit, amount = rounded_duration(seconds)
        label = t(f"adapt_longer_{unit}", lang, **counts, **{unit: amount})
        return {**counts, "minutes": round(seconds / 60), "label": label}

    def camera_frame(self) -> np.ndarray | None:
        """A frame for a photo of a real trick: taken from the camera as Capture takes one."""
        return self.feed.capture()

    def capture(self) -> None:
        self._not_while_adapting()
        face = self.face()
        if face is None:
            raise page_error("err_all_enrolled")
        frame = self.feed.capture()
        if frame is None and self.feed.recording_ended:  # which one is the host's to know
            raise page_error("err_recording_ended")
        if frame is None:
            raise page_error("err_no_picture")
        check = check_face(
            face, inspect_photo(frame, detector=self.detector), self.classify, message("this_card")
        )
        self.pending = (face, check)

    def _not_while_adapting(self) -> None:
        if self.adapt_thread is not None and self.adapt_thread.is_alive():
            raise page_error("err_adapting")

    def accept(self, force: bool = False) -> None:
        self._not_while_adapting()
        if self.pending is None:
            raise page_error("err_nothing_captured")
        face, check = self.pending
        acceptable = check.ok or (force and check.problem == "wrong-card")
        if not acceptable or check.face is None:
            raise page_error("err_unusable", reason=check.said)
        self.enrollment.accept(
            face, check.face, source="camera", sharpness=round(check.sharpness, 3)
        )
        self.pending = None
        self.target = None

    def retake(self, face: str | None = None) -> None:
        if face is not None and face not in FACES:
            raise page_error("err_unknown_card", face=repr(face))
        self.pending = None
        self.target = face

    def start_adapt(self, longer: bool = False) -> None:
        """Adapt the recognizer to the enrolled faces in the background; ``longer``: with the
        longer plan after the one that made the model shown (``adapt.longer_plan``), the cure
        the page offers a model that learned too little, as the command line offers more
        --scenes and --epochs."""
        missing = len(self.enrollment.missing())
        if missing:
            raise page_error("err_missing_one" if missing == 1 else "err_missing", n=missing)
        if self.adapt_thread is not None and self.adapt_thread.is_alive():
            return
        faces = dict(self.enrollment.faces)
        status = self.adapt_status
        if not longer and status.get("state") == "done" and self.adapted_faces == faces:
            # The same photos and plan would only make the same model again: say what would
            # make another (a click that did nothing looked like a dead page).
            too_little = status.get("learned_too_little")
            raise page_error("err_same_photos_longer" if too_little else "err_same_photos")
        plan = self._plan_to_run(longer, faces)
        longer_run = plan if plan != self.plan else None  # the button's, or its run again
        self._keep_longer_run(longer_run)
        self.adapt_status = {
            "state": "running",
            "log": [],
            "plan": plan,
            "faces": faces,
            "finished": self._finished(),  # its longer run stays offered if this one fails
        }

        def say(text: str) -> None:
            # A SaidText keeps its message: the state words the log in each reader's language.
            self.adapt_status["log"].append(text)
            logger.info("%s", text)

        def run() -> None:
            try:
                kwargs: dict[str, Any] = {}
                if self.min_accuracy is not None:
                    kwargs["min_accuracy"] = self.min_accuracy
                outcome = adapt_and_install(
                    self.enrollment,
                    plan,
                    test_scenes=self.test_scenes,
                    say=say,
                    base_model=self.base_model,
                    **kwargs,
                )
                self.adapted_faces = faces
                self.adapt_status.update(
                    state="done",
                    sentence=outcome.check.sentence(),
                    said=outcome.check.said(),
                    model=outcome.model_dir.name,
                    activated=outcome.activated,
                    weakest_faces=[f for f, _, _ in outcome.check.weakest()],
                    retake_faces=outcome.check.faces_to_retake(),
                    learned_too_little=outcome.check.learned_too_little(),
                    seconds=outcome.seconds,
                    classifier_epochs=outcome.classifier_epochs,
                    finished=None,
                )
                self._keep_longer_run(None)
                self._recheck_tricks(say)
            except UserError as err:
                failed(str(err), err.said if isinstance(err, MessageError) else None)
            except Exception as err:  # shown on the page; the traceback goes to the log
                logger.error("adaptation failed: %s", traceback.format_exc())
                missing = (
                    missing_training_package(err) if isinstance(err, ModuleNotFoundError) else None
                )
                failed(str(missing) if missing else f"{type(err).__name__}: {err}")

        def failed(error: str, said: Message | None = None) -> None:
            self.adapt_status.update(state="failed", error=error, error_said=said)
            if longer_run is not None:  # kept for a restart, as the page shows it now
                self._keep_longer_run(longer_run, error)

        self.adapt_thread = threading.Thread(target=run, name="enroll-adapt", daemon=True)
        self.adapt_thread.start()

    def _plan_to_run(self, longer: bool, faces: dict[str, Any]) -> AdaptPlan:
        """The button's longer run; else, after a failed run on these same photos, that run's
        plan again (a failed longer run retried with the page's own plan would remake the
        model that learned too little); else the page's plan."""
        if longer:
            return self._longer_plan()
        status = self.adapt_status
        failed = status.get("state") == "failed" and status.get("faces") == faces
        tried = status.get("plan")
        return tried if failed and isinstance(tried, AdaptPlan) else self.plan

    def _recheck_tricks(self, say: Callable[[str], None]) -> None:
        """After an adaptation, the saved photos of real tricks are read by the active model."""
        if not self.tricks.saved():
            return
        say(spoken("log_tricks_recheck"))
        try:
            self.tricks.recheck()
            say(SaidText(self.tricks.check_said))
        except Exception:  # the adaptation stands; the page can ask for the check again
            logger.error("real-trick check failed: %s", traceback.format_exc())


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise UserError("cannot encode the picture")
    return bytes(data)


class PinNeeded(Exception):
    """A request the page's PIN check refuses (403 with ``"pin": true``, so the page asks
    for the PIN): ``key`` is one of the page's strings, ``fields`` its values."""

    def __init__(self, key: str, **fields: int) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def create_enroll_app(
    session: EnrollSession,
    *,
    pin: str | None = None,
    require_pin: bool = False,
    secret: bytes | None = None,
) -> Any:
    """The Flask app of the enrollment page (its own app: it never touches the game server).

    Beyond loopback (``require_pin``) every request but the page itself needs the table's
    ``pin`` (``skullcam.table_pin``, as on the table app): an adaptation activates the model
    the running game reads with, and the camera's picture is the table's. ``secret`` signs
    the cookie that remembers a phone's PIN (the data folder's key, kept across restarts).
    """
    from flask import Flask, Response, g, jsonify, render_template, request
    from markupsafe import Markup, escape

    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=None)
    app.config.update(
        SESSION=session,
        PIN=pin,
        PIN_REQUIRED=require_pin,
        SECRET_KEY=secret or secrets.token_bytes(32),
        # Its own name: a browser sends a host's cookies to every port, and the scoreboard's
        # "session" cookie written here (or this one there) signed a phone out of the other.
        SESSION_COOKIE_NAME="skullcam_enroll",
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
    )
    guard = table_pin.PinGuard()
    app.extensions["skullcam_clock"] = time.monotonic

    @app.before_request
    def language() -> None:
        g.lang = i18n_core.language_of(request)

    def try_pin(given: str) -> bool:
        return table_pin.try_pin(guard, given, PinNeeded)

    @app.before_request
    def check_writer() -> None:
        # A page on another site can post here without the browser asking first: a form, or
        # a no-cors fetch or beacon (no Content-Type at all). Neither can send JSON or a
        # header of ours without asking, and this server never says yes.
        from_page = request.mimetype == "application/json" or request.headers.get("X-Skullcam-Page")
        if request.method == "POST" and not from_page:
            raise page_error("err_not_from_page")
        if request.endpoint == "index":
            return
        # Under a foreign name it neither acts nor shows the camera.
        rule = table_pin.request_access()
        if rule == table_pin.FOREIGN_HOST:
            raise page_error("err_foreign_host", port=request.environ.get("SERVER_PORT", ""))
        if request.endpoint == "enter_pin":
            return
        key = table_pin.write_refusal(try_pin)
        if key is not None:
            raise PinNeeded(key)

    @app.errorhandler(PinNeeded)
    def pin_needed(err: PinNeeded) -> Any:
        return jsonify({"error": t(err.key, lang(), **err.fields), "pin": True}), 403

    @app.post("/api/pin")
    def enter_pin() -> Any:
        malformed = partial(page_error, "err_pin_not_text")
        return jsonify(table_pin.sign_in(_json_object().get("pin"), try_pin, PinNeeded, malformed))

    @app.after_request
    def remember_language(response: Any) -> Any:
        i18n_core.remember_language(request, response)
        return table_pin.protect_page(response)

    def lang() -> str:
        return str(getattr(g, "lang", "en"))

    def answer() -> Any:
        """The page's whole state in the reader's language."""
        return jsonify(session.state(lang()))

    @app.errorhandler(UserError)
    def user_error(err: UserError) -> Any:
        # A write that failed (a full or read-only disk) is the disk's answer, not the
        # command line's English advice to pass another --data folder.
        if isinstance(err, CannotWrite) and isinstance(err.__cause__, OSError):
            return file_error_answer(err.__cause__, lang())
        return jsonify({"error": error_text(err, lang())}), 400

    add_error_answers(app, lang)

    @app.get("/")
    def index() -> Any:
        # The hint names the model in a span the script fills in: the text is escaped, the
        # span is not.
        hint = Markup(escape(js_strings(lang())["tricks_hint"])).format(
            model=Markup('<span id="trick-model"></span>')
        )
        return render_template(
            "enroll.html",
            name=session.enrollment.name,
            faces=len(FACES),
            lang=lang(),
            languages=i18n_core.LANGUAGE_NAMES,
            t=lambda key, **fields: t(key, lang(), **fields),
            tricks_hint=hint,
            strings=js_strings(lang()),
        )

    @app.get("/api/state")
    def state() -> Any:
        return answer()

    @app.get("/camera.jpg")
    def camera() -> Any:
        frame = session.feed.current()
        if frame is None:
            frame = np.zeros((480, 640, 3), np.uint8)
            cv2.putText(
                frame,
                "no camera picture",
                (180, 240),
                cv2.FONT_HERSHEY_SIMPLEX,
                1,
                (255, 255, 255),
                2,
            )
        return Response(_jpeg(frame), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/preview.jpg")
    def preview() -> Any:
        # Read once, under the lock: an Accept or Retake between two reads emptied it.
        with session.lock:
            pending = session.pending
        face = pending[1].face if pending is not None else None
        if face is None:
            return jsonify({"error": t("err_no_preview", lang())}), 404
        return Response(
            _jpeg(face),
            mimetype="image/jpeg",
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/face/<face>.jpg")
    def face_image(face: str) -> Any:
        image = session.enrollment.face_image(face) if face in FACES else None
        if image is None:
            return jsonify({"error": t("err_not_enrolled", lang(), face=face)}), 404
        return Response(_jpeg(image), mimetype="image/jpeg")

    @app.post("/api/capture")
    def capture() -> Any:
        with session.lock:
            session.capture()
            return answer()

    @app.post("/api/accept")
    def accept() -> Any:
        force = _json_object().get("force", False)
        if not isinstance(force, bool):  # "no" would read as true and accept a flagged photo
            raise page_error("err_not_boolean", field="force", value=quoted(force))
        with session.lock:
            session.accept(force=force)
            return answer()

    @app.post("/api/retake")
    def retake() -> Any:
        face = _json_object().get("face")
        # Only a face id chooses a face: 0 or false read as "the next missing one", unseen.
        if face is not None and not isinstance(face, str):
            raise page_error("err_not_face_id", value=quoted(face))
        with session.lock:
            session.retake(face.lower() if face is not None else None)
            return answer()

    @app.post("/api/adapt")
    def adapt() -> Any:
        longer = _json_object().get("longer", False)
        if not isinstance(longer, bool):
            raise page_error("err_not_boolean", field="longer", value=quoted(longer))
        with session.lock:
            session.start_adapt(longer=longer)
            return answer()

    add_trick_routes(app, session, _jpeg, lang)

    return app


def add_error_answers(app: Any, lang: Callable[[], str]) -> None:
    """Every error no route words itself as JSON with a sentence in the reader's language
    (``lang()``): the page's script shows ``error``, and Flask's own HTML pages showed there as
    "500 INTERNAL SERVER ERROR" or "405 METHOD NOT ALLOWED", in English, saying nothing of
    what to do. A file that cannot be read or written (a full or read-only disk) says so and
    names the system's error; anything else says the terminal has the details, which Flask
    logs with the traceback before it asks for the 500's answer."""
    from flask import jsonify
    from werkzeug.exceptions import HTTPException

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Any:
        code = err.code or 500
        key = {404: "err_not_found", 405: "err_method"}.get(code, "err_request")
        return jsonify({"error": t(key, lang(), code=code)}), code

    @app.errorhandler(OSError)
    def file_error(err: OSError) -> Any:
        return file_error_answer(err, lang())

    @app.errorhandler(500)
    def server_error(err: Exception) -> Any:
        return jsonify({"error": t("err_server", lang())}), 500


def file_error_answer(err: OSError, lang: str) -> Any:
    """The answer for a file this machine could not read or write (a full or read-only disk):
    the system's reason in a sentence in ``lang`` that says to check the disk, and the error
    with its path and traceback in the log, for whoever runs the page. The phone is not told
    the path: it says nothing a player can act on, and shows the host's folders to whoever
    holds the phone."""
    from flask import jsonify

    logger.error("a file could not be read or written: %s", err, exc_info=err)
    reason = err.strerror or type(err).__name__
    return jsonify({"error": t("err_files", lang, error=reason)}), 500


def _json_object() -> dict[str, Any]:
    """The request's JSON object; no body is an empty one. Anything else is refused: taken as
    empty, a garbled request would do what a bare click does, unseen."""
    from flask import request

    if not request.get_data():
        return {}
    body = sent_json()
    if not isinstance(body, dict):
        examples = Message("either_example", {"a": "{}", "b": '{"face": "green-7"}'})
        raise page_error("err_not_object", example=examples)
    return body


def serving_line(name: str, urls: str, faces_in: int) -> str:
    """What the terminal says once the page is up: where to open it and how far it got."""
    return (
        f"enrollment of '{name}': open {urls} "
        f"({faces_in}/{len(FACES)} faces in; Ctrl-C to stop, progress is kept)"
    )


def serve(args: argparse.Namespace, plan: object) -> int:
    """``skullcam enroll`` without ``--from``: open the camera and serve the page until Ctrl-C."""
    from waitress.server import create_server  # where its stubs have it (also re-exported)

    from skullcam.device.sources import open_source
    from skullcam.vision.enroll import onnx_detector, onnx_face_classifier
    from skullcam.vision.recognizer import active_model_dir

    assert isinstance(plan, AdaptPlan)
    enrollment = Enrollment.open(args.data, args.name, hold=True)
    if enrollment.rebuilt is not None:
        print(enrollment.rebuilt, flush=True)
    base = active_model_dir(args.data)
    classify = None if args.trust_names else onnx_face_classifier(base)
    try:
        detector = onnx_detector(base)
    except UserError:
        detector = None
    feed = CameraFeed(
        open_source(args.camera), reopen=lambda start: open_source(args.camera, start=start)
    )
    try:
        session = EnrollSession(
            enrollment,
            feed,
            plan,
            classify=classify,
            detector=detector,
            test_scenes=args.test_scenes,
        )
        beyond = not table_pin.is_loopback(args.host)
        pin = (args.pin or table_pin.kept_pin(args.data)) if beyond else None
        app = create_enroll_app(
            session, pin=pin, require_pin=beyond, secret=table_pin.secret_key(args.data)
        )
        try:
            # poll(), as the scoreboard's server: select() fails on a socket numbered 1024+.
            server = create_server(
                app, host=args.host, port=args.port, threads=4, asyncore_use_poll=True
            )
        except (OSError, ValueError) as err:
            raise cannot_listen(args.host, args.port, err) from None
        # One host: a TcpWSGIServer, whose effective_port types-waitress leaves out (waitress'
        # BaseWSGIServer sets it once bound).
        port = server.effective_port  # type: ignore[union-attr]
        print(
            serving_line(args.name, page_urls(args.host, port), len(enrollment.faces)), flush=True
        )
        if pin is not None:
            print(f"PIN for phones: {pin} (the table's PIN, as for the scoreboard)", flush=True)
        server.run()
    finally:
        feed.close()
    return 0
