"""Camera sources behind one interface: every source yields timestamped BGR frames.

Four kinds, chosen by :func:`open_source` from one string (the ``--camera`` / ``SOURCE`` value):

* ``picamera`` (or ``pi``): the Raspberry Pi camera through picamera2, imported only when asked
  for (it exists only on Raspberry Pi OS, from apt), configured at the recognizer's working size;
* an integer (``0``), a device (``/dev/video2``, ``/dev/v4l/by-id/...``, opened through V4L2)
  or a URL (``rtsp://...``, ``http://...``): anything ``cv2.VideoCapture`` opens;
* a video file: read at the rate the file says, or at ``fps`` when it says none;
* a folder of images (``frame_000000.jpg`` ...) read in name order at ``fps`` (default 10); a
  generated game folder (``frames/`` + ``meta.json``) works too and uses the rate in its meta.

File sources are *recorded* time: their timestamps are ``index / fps``, so a replay gives the same
output every time whatever the machine's speed. :class:`Paced` plays them at real speed when a
viewer should see it happen (``skullcam run`` without a camera). Live sources stamp frames with
the monotonic clock, and :class:`LatestFrameReader` reads them in a thread keeping only the newest
frame, so a slow recognizer drops frames instead of falling behind.

Every failure a user can fix (no such file, unplugged camera, unreadable image) is a
:class:`~skullcam.errors.UserError` naming the source and what to do.
"""

from __future__ import annotations

import importlib
import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from skullcam.errors import UserError, first_line
from skullcam.files import read_json
from skullcam.frames import WORKING_SIZE

logger = logging.getLogger(__name__)

# WORKING_SIZE (skullcam.frames): what the Pi camera is configured for; imported from here too.

DEFAULT_FPS = 10.0
"""Frame rate of a folder of frames when nothing says otherwise (interfaces.md)."""
MAX_FPS = 240.0
"""The highest frame rate believed, from a video, a game folder's meta.json or --fps."""

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")

MAX_BAD_READS = 100
"""Undecodable video frames in a row that a file source skips before it calls the file ended."""


@dataclass(frozen=True)
class Frame:
    """One frame: BGR pixels, seconds since the source started, and its index in the source.

    ``origin`` says where a recorded frame came from (its file), so an error about one frame
    can name the file to remove; empty for camera frames.
    """

    image: np.ndarray
    timestamp: float
    index: int
    origin: str = ""

    def describe(self) -> str:
        """The frame as an error message names it: its file, else its index."""
        return self.origin or f"frame {self.index}"


class CameraError(UserError):
    """A live camera failed: not there, busy, would not start, or stopped delivering frames.

    Told apart from the other errors of a run so that ``skullcam run`` serving the pages can
    try the camera again (a webcam plugged in late, a cable reseated) instead of exiting; a
    recording's, the recognizer's or the disk's errors still end the run."""


class FrameUnreadable(UserError):
    """A recording's frame stopped its source where the frame itself is at fault (too large
    to open, the last of too long a run of damaged ones): ``index`` is the frame, so a reader
    that opens the source again can start after it instead of meeting it again."""

    def __init__(self, text: str, index: int) -> None:
        super().__init__(text)
        self.index = index


class FrameSource:
    """The interface every source implements: iterate :meth:`frames`, then :meth:`close`.

    ``fps`` is the nominal rate (``None`` when unknown); ``live`` says whether frames come from a
    clock (a camera) rather than from a recording, which decides whether pacing makes sense.
    """

    name: str = "source"
    fps: float | None = None
    live: bool = False

    def frames(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file; safe to call twice."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ImageFolderSource(FrameSource):
    """A folder of images read in name order, ``index / fps`` seconds apart."""

    def __init__(self, folder: Path, fps: float | None = None, start: int = 0) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise UserError(f"{folder} is not a folder of frames; give a video file or a folder")
        self.paths = frame_files(folder)
        if not self.paths:
            raise UserError(
                f"{folder} holds no .jpg/.png frames; give a folder of frames or a video file"
            )
        self.name = str(folder)
        self.fps = float(fps) if fps else DEFAULT_FPS
        self.start = start
        if start == 0 and _read_frame(self.paths[0]) is None:
            # Said when the source opens ('skullcam run' opens it first), not once a game is
            # set up and the whole run, pages and all, stops on it. A source opened again
            # further on says so when it gets there, as a frame spoiled meanwhile is.
            raise UserError(_unreadable(self.paths[0]))

    def __len__(self) -> int:
        return len(self.paths)

    def frames(self) -> Iterator[Frame]:
        """The frames in name order; a damaged frame is skipped and said, as a video's damaged
        stretch is, because a replay that stopped on the first one would lose the work done,
        and on the next run stop on the next. Only a long run of them (:data:`MAX_BAD_READS`
        in a row), or a frame deleted while the folder is read, stops it."""
        assert self.fps is not None
        bad_in_a_row = 0
        for index in range(self.start, len(self.paths)):
            path = self.paths[index]
            try:
                image = _read_frame(path)
            except UserError as err:  # too large to open
                raise FrameUnreadable(str(err), index) from None
            if image is None:
                bad_in_a_row += 1
                if not path.exists():  # the folder changed: a fresh listing lacks the frame
                    raise UserError(_unreadable(path))
                if bad_in_a_row > MAX_BAD_READS:
                    raise FrameUnreadable(_unreadable(path), index)
                logger.warning("%s; skipped (the play in it is missing)", _unreadable(path))
                continue
            bad_in_a_row = 0
            yield Frame(image=image, timestamp=index / self.fps, index=index, origin=str(path))


def _read_frame(path: Path) -> np.ndarray | None:
    """The frame, None when it is no image (or gone); one too large to open is refused by
    name, as every image read is (``vision.image_io.decode_image``)."""
    from skullcam.vision.image_io import decode_image

    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError:
        return None
    return decode_image(data, f"frame {path}")


def _unreadable(path: Path) -> str:
    """Why a folder's frame stops the run: gone (deleted meanwhile), or not an image."""
    if not path.exists():
        return f"frame {path} is gone from its folder: was the folder changed while it was read?"
    return f"cannot read image {path}; remove it or replace it with a frame"


def _decodes_a_frame(path: Path, announced: int) -> bool:
    """Whether a fresh reader of ``path`` decodes a frame, tried as :meth:`VideoFileSource.
    frames` would (past a damaged start the header announces frames after).

    OpenCV opens a damaged image or a file of noise as a "video" that then yields nothing:
    ``skullcam run --camera`` waited for a game to be set up, and only then, or never, said
    so. The second reader keeps the first at frame 0."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    try:
        for _ in range(1 + min(MAX_BAD_READS, announced)):
            ok, image = cap.read()
            if ok and image is not None:
                return True
        return False
    finally:
        cap.release()


class VideoFileSource(FrameSource):
    """A video file (any container OpenCV reads); timestamps follow the file's own frame rate."""

    def __init__(self, path: Path, fps: float | None = None, start: int = 0) -> None:
        import cv2

        path = Path(path)
        if not path.is_file():
            raise UserError(f"no video file {path}; check the path")
        self.name = str(path)
        self._cap = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            raise UserError(
                f"cannot open {path} as a video: it is cut short or damaged (a recording stopped"
                " before it was closed), or not a format OpenCV reads (.mp4, .avi)"
            )
        own = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        # The video's own rate wins (interfaces.md); --fps only fills in for files without one.
        self.fps = own if 1.0 <= own <= MAX_FPS else (float(fps) if fps else DEFAULT_FPS)
        self.start = start
        self.frame_count = max(0, int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0))
        """Frames the container's header announces (0: it does not say)."""
        if not _decodes_a_frame(path, self.frame_count):
            self._cap.release()
            raise UserError(
                f"{path} holds no readable frame: it is damaged, or not a video OpenCV reads"
                " (.mp4, .avi); give a video file or a folder of frames"
            )

    def frames(self) -> Iterator[Frame]:
        """Decoded frames; a damaged stretch is skipped, and a short file is said, not hidden.

        A frame the decoder refuses does not end the video while the header announces more:
        the decoder picks up again after the damage (an mp4 damaged at half length otherwise
        ended there, silently, and a replay scored half a game as the whole one). Each failed
        read counts as one frame, so later timestamps stay close to the recording's.
        """
        assert self.fps is not None
        index = decoded = failures = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                failures += 1
                if index < self.frame_count and failures <= MAX_BAD_READS:
                    index += 1
                    continue
                break
            if failures:  # said when it happens: a live run may stop reading before the end
                logger.warning(
                    "%s: frames %d-%d could not be decoded (the file is damaged there); the"
                    " play in them is missing",
                    self.name,
                    index - failures,
                    index - 1,
                )
            failures = 0
            decoded += 1
            if index >= self.start:
                yield Frame(image=image, timestamp=index / self.fps, index=index)
            index += 1
        if decoded == 0:
            raise UserError(f"{self.name} holds no readable frame; is the file complete?")
        # Some containers estimate their frame count from the duration: a frame or two (1 %)
        # short is that estimate, not damage.
        if decoded < self.frame_count - max(2, self.frame_count // 100):
            logger.warning(
                "%s is damaged or cut short: %d of the %d frames its header announces could be "
                "read; the play in the others is missing",
                self.name,
                decoded,
                self.frame_count,
            )

    def close(self) -> None:
        self._cap.release()


class OpenCVCameraSource(FrameSource):
    """A USB webcam (an index) or a network stream (a URL) through ``cv2.VideoCapture``."""

    live = True

    def __init__(self, spec: int | str, fps: float | None = None, retries: int = 20) -> None:
        import cv2

        self.name = f"camera {spec}"
        device = is_device_path(spec)
        # A device node is V4L2's to open (OpenCV would try it as a video file first).
        self._cap = cv2.VideoCapture(spec, cv2.CAP_V4L2) if device else cv2.VideoCapture(spec)
        if not self._cap.isOpened():
            plugged = isinstance(spec, int) or device
            what = "is it plugged in?" if plugged else "is the URL right and up?"
            raise CameraError(f"cannot open {self.name}: {what} (or pass another --camera)")
        width, height = WORKING_SIZE
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        own = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = own if own > 0 else fps
        self.retries = retries

    def frames(self) -> Iterator[Frame]:
        start = time.monotonic()
        index = 0
        failures = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                failures += 1
                if failures > self.retries:
                    raise CameraError(
                        f"{self.name} stopped delivering frames: check its cable or stream"
                    )
                time.sleep(0.05)
                continue
            failures = 0
            yield Frame(image=image, timestamp=time.monotonic() - start, index=index)
            index += 1

    def close(self) -> None:
        self._cap.release()


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera via picamera2 (imported here, not at module load).

    Configured as a video stream at the recognizer's working size in ``RGB888``, which picamera2
    delivers as BGR in memory: exactly what OpenCV and the recognizer expect, no conversion.
    Timestamps come from the sensor (``SensorTimestamp``, nanoseconds) when the request carries
    one, so frame spacing is the camera's, not the Python loop's.
    """

    live = True

    def __init__(self, size: tuple[int, int] = WORKING_SIZE, fps: float = 15.0) -> None:
        module = import_picamera2()
        try:
            self._cam: Any = module.Picamera2()
        except Exception as err:  # picamera2 raises IndexError/RuntimeError with no camera
            # picamera2 replaces libcamera's "Failed to acquire camera" (busy) with "Camera
            # __init__ sequence did not complete": the cause is in the error's context.
            if "acquire" in f"{err} {err.__context__ or ''}".lower():
                raise CameraError(
                    f"the Raspberry Pi camera is in use by another program ({err}): stop it "
                    "(another skullcam, rpicam-hello, a browser stream) or pass --camera"
                ) from err
            raise CameraError(
                f"no Raspberry Pi camera found ({err}): check the ribbon cable, or pass --camera"
            ) from err
        self.name = "picamera2"
        self.fps = float(fps)
        try:
            config = self._cam.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"},
                controls={"FrameRate": float(fps)},
                buffer_count=4,
            )
            self._cam.configure(config)
            self._cam.start()
            self._focus_on_the_table()
        except Exception as err:  # "Failed to configure camera", "Camera did not start properly"
            self._release_after_failed_start()
            raise CameraError(
                f"the Raspberry Pi camera was found but would not start ({err}): reseat its "
                "ribbon cable with the Pi off, check that it streams with 'rpicam-hello' "
                "(docs/pi.md), or pass --camera"
            ) from err
        self._closed = False
        self._lost = False

    def _focus_on_the_table(self) -> None:
        """Keep an autofocus camera (Camera Module 3) focusing: left as it starts, its lens
        stays where it was, which need not be the table. Cameras without autofocus (and
        picamera2 versions without ``camera_controls``) are left alone."""
        controls = getattr(self._cam, "camera_controls", None) or {}
        if "AfMode" not in controls:
            return
        try:
            self._cam.set_controls({"AfMode": AF_CONTINUOUS})
        except Exception:  # a camera that focuses where it is still reads the table
            logger.warning("could not turn on the camera's autofocus", exc_info=True)

    def _release_after_failed_start(self) -> None:
        """Close a camera that opened but did not start, so a retry can acquire it; an error
        while closing must not hide the one that says why it did not start."""
        try:
            self._cam.close()
        except Exception:  # the start error is the one to report
            logger.debug("closing the camera after a failed start", exc_info=True)

    def frames(self) -> Iterator[Frame]:
        start_ns: int | None = None
        start_clock = time.monotonic()
        index = 0
        while not self._closed:
            try:
                request = self._cam.capture_request(wait=CAPTURE_WAIT_S)
            except TimeoutError as err:
                raise self._lost_camera(err) from err
            try:
                image = request.make_array("main")
                metadata = request.get_metadata() or {}
            finally:
                request.release()
            sensor_ns = metadata.get("SensorTimestamp")
            if isinstance(sensor_ns, int):
                start_ns = sensor_ns if start_ns is None else start_ns
                stamp = (sensor_ns - start_ns) / 1e9
            else:
                stamp = time.monotonic() - start_clock
            yield Frame(image=np.ascontiguousarray(image[:, :, :3]), timestamp=stamp, index=index)
            index += 1

    def _lost_camera(self, err: Exception) -> CameraError:
        """No frame within ``CAPTURE_WAIT_S``: a loose ribbon cable or a camera that hung.
        The queued capture is cancelled, as picamera2 asks before the camera can be closed:
        ``stop()`` would otherwise wait behind a capture that never ends."""
        self._lost = True
        flush = getattr(self._cam, "cancel_all_and_flush", None)
        if callable(flush):
            try:
                flush()
            except Exception:  # the lost camera is the one error to report
                logger.debug("cancelling the camera's queued capture", exc_info=True)
        why = first_line(err) if str(err) else "timed out"
        return CameraError(
            f"the Raspberry Pi camera sent no frame for {CAPTURE_WAIT_S:g} s ({why}): check "
            "its ribbon cable with the Pi off and that it streams with 'rpicam-hello' "
            "(docs/pi.md)"
        )

    def close(self) -> None:
        if getattr(self, "_closed", True):
            return
        self._closed = True
        if not self._lost:
            self._cam.stop()
            self._cam.close()
            return
        # Let a lost camera go all the same, so this process can open it again (enrollment
        # reopens its camera); an error here must not hide the one that said it was lost.
        try:
            self._cam.close()
        except Exception:
            logger.debug("closing the lost camera", exc_info=True)


AF_CONTINUOUS = 2
"""libcamera's ``AfModeEnum.Continuous`` (0 manual, 1 auto, 2 continuous)."""

CAPTURE_WAIT_S = 5.0
"""How long a frame from the Pi camera may take before it counts as lost (a frame is due
every 67 ms at 15 frames/s; auto exposure at start takes well under a second)."""


class PicameraNotInstalled(UserError):
    """No picamera2 at all: the usual case off a Raspberry Pi, not worth a warning."""


def import_picamera2() -> Any:
    """The picamera2 module, or a UserError saying how to get a working one.

    Not only ImportError: in a venv whose pip numpy differs from Raspberry Pi OS's, picamera2's
    JPEG encoder (apt's simplejpeg) fails to load with "numpy.dtype size changed" (a
    ValueError), and that must be one line saying what to do, not a traceback at every start.
    """
    try:
        return importlib.import_module("picamera2")
    except ModuleNotFoundError as err:
        if err.name != "picamera2":  # picamera2 is there; something it needs is not
            raise _picamera2_broken(err) from err
        raise PicameraNotInstalled(
            "picamera2 is not installed: on Raspberry Pi OS run "
            "'sudo apt install python3-picamera2' and use a venv with "
            "--system-site-packages (docs/pi.md), or pass --camera"
        ) from err
    except Exception as err:
        raise _picamera2_broken(err) from err


def _picamera2_broken(err: BaseException) -> UserError:
    return UserError(
        f"picamera2 is installed but does not load ({first_line(err)}). If that names numpy, "
        "the venv's numpy differs from the system's: run '.venv/bin/pip install "
        "--ignore-installed --no-deps simplejpeg' (docs/pi.md); or pass --camera"
    )


def picamera_available() -> bool:
    """True when picamera2 loads and reports a Pi camera (``skullcam run``'s choice).

    A USB webcam is listed by libcamera too (its id holds ``/usb``), but it does not take the
    Pi camera's configuration (no frame-rate control, no RGB888): it is opened as ``--camera
    0`` through OpenCV instead. A picamera2 that does not load is said in the log, so a table
    with a camera knows why the demo is playing.
    """
    try:
        module = import_picamera2()
    except PicameraNotInstalled:
        return False
    except UserError as err:
        logger.warning("%s", err)
        return False
    try:
        cameras = module.Picamera2.global_camera_info()
    except Exception:
        return False
    return any("/usb" not in str(camera.get("Id", "")) for camera in cameras)


def game_folder_meta(path: Path) -> dict[str, Any] | None:
    """``meta.json`` of a generated/recorded game folder (``frames/`` + ``meta.json``), if any."""
    meta = Path(path) / "meta.json"
    if not meta.is_file():
        return None
    try:
        data = read_json(meta, "game folder description")
    except UserError as err:
        raise UserError(f"{err}, or delete it") from None
    return data if isinstance(data, dict) else None


def meta_fps(meta: dict[str, Any], path: Path) -> float | None:
    """The frame rate a game folder's ``meta.json`` gives (None when it gives none), checked
    as ``--fps`` is: a hand-edited "fast" or -5 would otherwise crash or run time backwards."""
    fps = meta.get("fps")
    if fps is None:
        return None
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not 0 < fps <= MAX_FPS:
        raise UserError(
            f"{Path(path) / 'meta.json'}: fps must be a number more than 0 and at most "
            f'{MAX_FPS:g}, got {json.dumps(fps)[:40]}; fix it, or remove "fps" from it'
            " ('skullcam replay --fps N' also overrides it)"
        )
    return float(fps)


def is_device_path(spec: int | str | Path) -> bool:
    """``/dev/video2`` or ``/dev/v4l/by-id/usb-...``: a webcam by a name that stays put. Its
    index does not: with a Pi camera attached, ``/dev/video0`` is the Pi's own camera port.
    Other ``/dev`` paths are files (a recording kept in ``/dev/shm``)."""
    return str(spec).startswith(("/dev/video", "/dev/v4l/"))


def names_live_camera(spec: str | Path) -> bool:
    """``spec`` is a camera (Pi, index, URL, device), not a recording: opening it takes the
    device."""
    text = str(spec)
    return (
        text in ("picamera", "picamera2", "pi")
        or text.isdigit()
        or "://" in text
        or is_device_path(text)
    )


def frame_files(folder: Path) -> list[Path]:
    """A folder's frames in the order they are played (by name): what a frame's index in
    the folder means, for playing it and for resuming it."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def frames_folder(path: Path) -> Path:
    """Where a folder given as a source keeps its frames: a game folder (from ``skullcam synth
    game``) in ``frames/``, any other folder in itself."""
    return path / "frames" if (path / "frames").is_dir() else path


def open_source(spec: str | Path, fps: float | None = None, start: int = 0) -> FrameSource:
    """Open a source from its command-line spelling (see the module docstring).

    ``start`` skips recorded frames before that index (resuming a replay where it stopped).
    """
    text = str(spec)
    if not text.strip():  # Path("") is the current folder: it would play whatever images lie there
        raise UserError(
            "no camera given (an empty name): give a camera index (0), a URL, 'picamera', a "
            "video file or a folder of frames"
        )
    if text in ("picamera", "picamera2", "pi"):
        return PiCameraSource()
    if text.isdigit():
        return OpenCVCameraSource(int(text), fps=fps)
    if "://" in text or is_device_path(text):
        return OpenCVCameraSource(text, fps=fps)
    path = Path(text)
    if path.is_dir():
        meta = game_folder_meta(path)
        if meta is not None and fps is None:
            fps = meta_fps(meta, path)
        if (frames := frames_folder(path)) != path:
            return ImageFolderSource(frames, fps=fps, start=start)
        videos = sorted(path.glob("game.*"))
        videos = [v for v in videos if v.suffix.lower() in (".mp4", ".avi", ".mkv", ".mov")]
        if videos and not any(p.suffix.lower() in IMAGE_SUFFIXES for p in path.iterdir()):
            return VideoFileSource(videos[0], fps=fps, start=start)
        return ImageFolderSource(path, fps=fps, start=start)
    if path.is_file():
        return VideoFileSource(path, fps=fps, start=start)
    raise UserError(
        f"no camera or recording named {text!r}: give a camera index (0), a URL, "
        "'picamera', a video file or a folder of frames"
    )


class Paced:
    """Recorded frames played at real speed (``speed`` x): each is held until it is due.

    With ``drop_late`` a frame already more than one frame period late is skipped, so a slow
    consumer falls back to the recording's clock instead of drifting behind it (what a live
    camera would do); callers see the skipped indices as gaps in ``Frame.index``, and
    :attr:`dropped` counts them, as :class:`LatestFrameReader` counts a camera's.
    """

    def __init__(self, frames: Iterator[Frame], speed: float = 1.0, drop_late: bool = True) -> None:
        self._frames = frames
        self.speed = speed
        self.drop_late = drop_late
        self.dropped = 0

    def frames(self) -> Iterator[Frame]:
        wall0: float | None = None
        t0 = 0.0
        period = 0.0
        last_stamp: float | None = None
        for frame in self._frames:
            if wall0 is None:
                wall0, t0 = time.monotonic(), frame.timestamp
            if last_stamp is not None:
                period = max(period, frame.timestamp - last_stamp)
            last_stamp = frame.timestamp
            due = wall0 + (frame.timestamp - t0) / self.speed
            now = time.monotonic()
            if now < due:
                time.sleep(due - now)
            elif self.drop_late and period > 0 and now - due > period / self.speed:
                self.dropped += 1
                continue
            yield frame


STALL_S = 10.0
"""A live source that delivers no frame for this long is reported lost. picamera2 waits for
ever for the next frame of an unplugged camera (raspberrypi/picamera2 issues 962, 1065), so
without this the live loop would hang silently; 10 s leaves room for a camera's warm-up."""

CLOSE_S = 2.0
"""How long :meth:`LatestFrameReader.close` waits for the source to let go: picamera2's
``stop()`` can block for ever on an unplugged camera, and the error must still be reported."""


class LatestFrameReader:
    """Reads a live source in a thread and hands out only the newest frame.

    The recognizer may be slower than the camera; instead of queueing frames (latency grows, memory
    grows) the reader overwrites the pending frame and counts what it dropped. ``frames()``
    yields each new frame once; it ends when the source ends or :meth:`close` is called, and
    re-raises the source's error (an unplugged camera) in the consumer's thread. A source that
    goes silent for ``stall_s`` seconds (a hung camera) is a UserError too.
    """

    def __init__(
        self, source: FrameSource, stall_s: float = STALL_S, close_s: float = CLOSE_S
    ) -> None:
        self.source = source
        self.stall_s = stall_s
        self.close_s = close_s
        self.dropped = 0
        self.counting = True
        """Whether a frame overwritten unread counts as dropped: not while the consumer waits
        for something else (a game to be set up), which is not falling behind."""
        self._frame: Frame | None = None
        self._error: BaseException | None = None
        self._done = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="camera-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for frame in self.source.frames():
                with self._cond:
                    if self._frame is not None and self.counting:
                        self.dropped += 1
                    self._frame = frame
                    self._cond.notify_all()
                    if self._done:
                        break
        except BaseException as err:
            with self._cond:
                self._error = err
        finally:
            with self._cond:
                self._done = True
                self._cond.notify_all()

    def frames(self) -> Iterator[Frame]:
        while True:
            with self._cond:
                # Timed from when this wait began: a consumer that paused (the enrollment page
                # between requests) must not find a healthy camera stalled.
                waiting_since = time.monotonic()
                while self._frame is None and not self._done:
                    if time.monotonic() - waiting_since > self.stall_s:
                        raise CameraError(
                            f"{self.source.name} delivered no frame for {self.stall_s:.0f} s: "
                            "check its cable (or pass another --camera), then run again"
                        )
                    self._cond.wait(timeout=min(0.5, self.stall_s))
                frame, self._frame = self._frame, None
                if frame is None:
                    if self._error is not None:
                        raise self._error
                    return
            yield frame

    def close(self) -> None:
        with self._cond:
            self._done = True
            self._cond.notify_all()
        closing = threading.Thread(target=self.source.close, name="camera-close", daemon=True)
        closing.start()
        closing.join(timeout=self.close_s)
        if closing.is_alive():
            logger.warning("%s did not close; it may need unplugging or a reboot", self.source.name)
        self._thread.join(timeout=self.close_s)
