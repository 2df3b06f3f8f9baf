"""Camera sources: files and folders for real, picamera2 through a fake module."""

from __future__ import annotations

import importlib.abc
import importlib.util
import logging
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from skullcam.device import sources
from skullcam.device.sources import (
    Frame,
    FrameSource,
    ImageFolderSource,
    LatestFrameReader,
    Paced,
    PiCameraSource,
    open_source,
)
from skullcam.errors import UserError


def write_frames(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        img = np.full((48, 64, 3), i * 20, dtype=np.uint8)
        cv2.imwrite(str(folder / f"frame_{i:06d}.png"), img)


def test_image_folder_in_name_order_with_timestamps(tmp_path: Path) -> None:
    write_frames(tmp_path, 4)
    with open_source(tmp_path, fps=5) as src:
        frames = list(src.frames())
    assert [f.index for f in frames] == [0, 1, 2, 3]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.2, 0.4, 0.6])
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 20, 40, 60]


def test_folder_default_rate_is_ten(tmp_path: Path) -> None:
    write_frames(tmp_path, 2)
    src = open_source(tmp_path)
    assert src.fps == 10.0


def test_a_folder_whose_frames_are_not_images_is_refused_when_opened(tmp_path: Path) -> None:
    """'skullcam run --camera FOLDER' opens the source to check it; a folder of a text file
    named .jpg passed, and the whole run (pages too) stopped on it once a game was set up."""
    (tmp_path / "notimg.jpg").write_text("not an image")
    with pytest.raises(UserError, match=r"cannot read image .*notimg\.jpg; remove it"):
        open_source(tmp_path)


def test_a_frame_deleted_while_the_folder_is_read_is_named_as_gone(tmp_path: Path) -> None:
    write_frames(tmp_path, 3)
    src = open_source(tmp_path)
    frames = src.frames()
    next(frames)
    (tmp_path / "frame_000001.png").unlink()
    with pytest.raises(UserError, match=r"frame_000001\.png is gone from its folder"):
        next(frames)


def test_game_folder_uses_frames_subfolder_and_meta_fps(tmp_path: Path) -> None:
    write_frames(tmp_path / "frames", 3)
    (tmp_path / "meta.json").write_text('{"fps": 4, "players": 3}')
    src = open_source(tmp_path, start=1)
    assert src.fps == 4.0
    assert [f.index for f in src.frames()] == [1, 2]


def test_video_file_uses_its_own_rate(tmp_path: Path) -> None:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 8.0, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), i * 40, dtype=np.uint8))
    writer.release()
    with open_source(path, fps=25) as src:
        frames = list(src.frames())
    assert src.fps == pytest.approx(8.0)
    assert len(frames) == 5
    assert frames[-1].timestamp == pytest.approx(4 / 8.0)


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p / "missing.mp4",
        lambda p: (p / "empty").mkdir() or p / "empty",
        lambda p: (p / "junk.mp4").write_bytes(b"not a video") and p / "junk.mp4",
    ],
)
def test_unusable_recordings_are_user_errors(tmp_path: Path, make) -> None:
    with pytest.raises(UserError):
        src = open_source(make(tmp_path))
        list(src.frames())


def test_a_damaged_frame_in_a_folder_is_skipped_and_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay stopped on the first damaged frame, losing its work, then on the next one at
    the next run (a review, session 40). A video's damaged stretch was already skipped."""
    write_frames(tmp_path, 3)
    (tmp_path / "frame_000001.png").write_bytes(b"broken")
    with caplog.at_level(logging.WARNING):
        frames = list(ImageFolderSource(tmp_path).frames())
    assert [f.index for f in frames] == [0, 2]
    assert "cannot read image" in caplog.text and "frame_000001.png" in caplog.text
    # A long run of them is no recording any more: it stops, naming the file.
    monkeypatch.setattr(sources, "MAX_BAD_READS", 1)
    (tmp_path / "frame_000002.png").write_bytes(b"broken")
    with pytest.raises(UserError, match=r"frame_000002\.png; remove it"):
        list(ImageFolderSource(tmp_path).frames())


@pytest.mark.parametrize("content", [b"not an image", b"\xff\xd8\xff" + bytes(300)])
def test_a_file_with_no_readable_frame_is_refused_when_opened(
    tmp_path: Path, content: bytes
) -> None:
    """OpenCV opens it as a one-frame "video" that yields nothing: 'skullcam run --camera'
    then waited for a game to be set up, and recorded 0 frames, with no word of why."""
    path = tmp_path / "frame.jpg"
    path.write_bytes(content)
    with pytest.raises(UserError, match=r"frame\.jpg holds no readable frame"):
        open_source(path)


def test_unplugged_camera_index_is_a_user_error() -> None:
    with pytest.raises(UserError, match="camera 57"):
        open_source("57")


def test_paced_plays_at_real_speed_and_drops_when_late() -> None:
    frames = [Frame(np.zeros((2, 2, 3), np.uint8), i * 0.05, i) for i in range(5)]
    start = time.monotonic()
    out = list(Paced(iter(frames)).frames())
    assert time.monotonic() - start >= 0.19
    assert [f.index for f in out] == [0, 1, 2, 3, 4]

    paced = Paced(iter(frames))

    def slow():
        for f in paced.frames():
            time.sleep(0.12)
            yield f

    kept = len(list(slow()))
    assert kept < 5 and paced.dropped == 5 - kept  # every frame skipped is counted


class FakeRequest:
    def __init__(self, cam: FakePicamera2, n: int) -> None:
        self.cam, self.n = cam, n

    def make_array(self, stream: str) -> np.ndarray:
        w, h = self.cam.config["main"]["size"]
        return np.full((h, w, 3), self.n % 256, dtype=np.uint8)

    def get_metadata(self) -> dict:
        return {"SensorTimestamp": 5_000_000_000 + self.n * 100_000_000}

    def release(self) -> None:
        self.cam.released += 1


class FakePicamera2:
    instances: list[FakePicamera2] = []  # noqa: RUF012

    def __init__(self) -> None:
        self.config: dict = {}
        self.started = self.stopped = self.closed = False
        self.released = 0
        self.n = 0
        FakePicamera2.instances.append(self)

    cameras: list[dict] = [{"Model": "imx708", "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a"}]  # noqa: RUF012
    hang = False  # capture_request times out, as on a camera whose cable came loose

    @classmethod
    def global_camera_info(cls) -> list:
        return cls.cameras

    def create_video_configuration(self, main: dict, controls: dict, buffer_count: int) -> dict:
        return {"main": main, "controls": controls}

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_request(self, wait: float | None = None) -> FakeRequest:
        assert wait is not None and wait > 0  # never wait for ever
        if self.hang:
            raise TimeoutError()
        self.n += 1
        return FakeRequest(self, self.n - 1)

    def cancel_all_and_flush(self) -> None:
        self.flushed = True

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.instances.clear()
    monkeypatch.setattr(FakePicamera2, "cameras", list(FakePicamera2.cameras))
    monkeypatch.setattr(FakePicamera2, "hang", False)
    return FakePicamera2


def test_picamera_configured_at_working_size_bgr_with_sensor_timestamps(fake_picamera2) -> None:
    assert sources.picamera_available()
    src = open_source("picamera")
    assert isinstance(src, PiCameraSource)
    cam = fake_picamera2.instances[0]
    assert cam.config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert cam.started
    it = src.frames()
    frames = [next(it) for _ in range(3)]
    assert frames[0].image.shape == (480, 640, 3)
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert cam.released == 3
    src.close()
    src.close()
    assert cam.stopped and cam.closed


def _picamera2_that_raises(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    """A picamera2 module whose ``Picamera2()`` raises ``error``, as the real one does."""
    module = types.ModuleType("picamera2")

    def open_camera() -> None:
        raise error

    module.Picamera2 = open_camera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)


def test_picamera_missing_module_or_camera_is_a_user_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    assert not sources.picamera_available()
    with pytest.raises(UserError, match="python3-picamera2"):
        PiCameraSource()
    _picamera2_that_raises(monkeypatch, IndexError("list index out of range"))
    with pytest.raises(UserError, match="no Raspberry Pi camera"):
        PiCameraSource()


@pytest.mark.parametrize(
    ("step", "error"),
    [
        ("configure", RuntimeError("Failed to configure camera: Invalid argument")),
        ("start", RuntimeError("Camera did not start properly.")),
    ],
)
def test_a_camera_that_will_not_start_is_a_user_error_and_is_let_go(
    fake_picamera2: type[FakePicamera2],
    monkeypatch: pytest.MonkeyPatch,
    step: str,
    error: Exception,
) -> None:
    def fail(self: FakePicamera2, *args: object) -> None:
        raise error

    monkeypatch.setattr(fake_picamera2, step, fail)
    with pytest.raises(UserError, match=r"would not start \(" + str(error)[:20]):
        PiCameraSource()
    assert fake_picamera2.instances[0].closed  # a retry can acquire it again


def test_a_camera_held_by_another_program_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """picamera2 replaces libcamera's "Failed to acquire camera" with its own "Camera __init__
    sequence did not complete": the cause is the error's context."""
    try:
        try:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        except RuntimeError:
            raise RuntimeError("Camera __init__ sequence did not complete.")  # noqa: B904
    except RuntimeError as err:
        as_picamera2_raises = err
    _picamera2_that_raises(monkeypatch, as_picamera2_raises)
    with pytest.raises(UserError, match="in use by another program"):
        PiCameraSource()


def test_a_usb_webcam_listed_by_libcamera_is_not_taken_for_the_pi_camera(
    fake_picamera2: type[FakePicamera2],
) -> None:
    fake_picamera2.cameras = [{"Model": "uvcvideo", "Id": "/base/axi/pcie@120000/usb@200000-1"}]
    assert not sources.picamera_available()  # run falls back to --camera 0 or the demo
    fake_picamera2.cameras.append({"Model": "imx708", "Id": "/base/axi/pcie/rp1/i2c@88000/imx708"})
    assert sources.picamera_available()


class _BrokenPicamera2Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``picamera2`` and fails to load it as a venv with pip's numpy 2 does: apt's
    simplejpeg, built for numpy 1.24, raises ValueError while picamera2 imports."""

    def find_spec(self, name: str, path: object, target: object = None) -> Any:
        if name != "picamera2":
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        raise ValueError(
            "numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from "
            "C header, got 88 from PyObject"
        )


def test_a_picamera2_that_fails_to_load_is_one_line_naming_the_fix(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: the ValueError's traceback at every start (only ImportError was caught)."""
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_BrokenPicamera2Finder(), *sys.meta_path])
    with pytest.raises(UserError, match=r"does not load \(numpy\.dtype size changed.*simplejpeg"):
        PiCameraSource()
    with caplog.at_level(logging.WARNING):
        assert not sources.picamera_available()
    assert "picamera2 is installed but does not load" in caplog.text


def test_a_camera_that_stops_sending_frames_is_let_go_with_a_clear_error(
    fake_picamera2: type[FakePicamera2],
) -> None:
    """picamera2's capture waits for ever by default: a loose cable hung the loop, and
    stop() queued behind that capture hung the shutdown too."""
    src = PiCameraSource()
    cam = fake_picamera2.instances[0]
    frames = src.frames()
    next(frames)
    cam.hang = True
    with pytest.raises(UserError, match=r"sent no frame for 5 s .*ribbon cable"):
        next(frames)
    assert cam.flushed  # the lost capture is cancelled, so closing does not wait behind it
    src.close()
    assert cam.closed  # let go: enrollment reopens its camera in the same process


class GatedSource(FrameSource):
    """Frame 0, then (once the consumer has it) frames 1-19 at once: a camera that runs on
    while the loop is busy, in step with the test rather than the machine's load."""

    live = True

    def __init__(self) -> None:
        self.took_first, self.all_sent = threading.Event(), threading.Event()

    def frames(self):
        yield Frame(np.zeros((2, 2, 3), np.uint8), 0.0, 0)
        assert self.took_first.wait(10)
        for i in range(1, 20):
            yield Frame(np.zeros((2, 2, 3), np.uint8), i * 0.01, i)
        self.all_sent.set()


@pytest.mark.parametrize("counting", [True, False])
def test_latest_frame_reader_drops_instead_of_queueing(counting: bool) -> None:
    """Counted as dropped only while the loop is watching a game (``counting``): frames left
    unread while it waits for one to be set up are not the recognizer falling behind."""
    source = GatedSource()
    reader = LatestFrameReader(source)
    seen = []
    for frame in reader.frames():
        seen.append(frame.index)
        if frame.index == 0:
            reader.counting = counting
            source.took_first.set()
            assert source.all_sent.wait(10)  # the camera ran on while the loop was busy
    reader.close()
    assert seen == [0, 19] and reader.dropped == (18 if counting else 0)


def test_latest_frame_reader_reraises_source_errors() -> None:
    class Broken(FrameSource):
        def frames(self):
            yield Frame(np.zeros((2, 2, 3), np.uint8), 0.0, 0)
            raise UserError("camera 0 stopped delivering frames")

    reader = LatestFrameReader(Broken())
    with pytest.raises(UserError, match="stopped"):
        for _ in reader.frames():
            time.sleep(0.05)


def test_a_webcam_device_path_is_a_live_camera_opened_through_v4l2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/dev/video2 or /dev/v4l/by-id/... names a webcam that keeps its name when a Pi camera
    takes /dev/video0; it was refused as "no camera or recording named ..."."""
    opened: list[tuple[object, ...]] = []

    class Capture:
        def __init__(self, *args: object) -> None:
            opened.append(args)

        def isOpened(self) -> bool:
            return False

    monkeypatch.setattr(cv2, "VideoCapture", Capture)
    by_id = "/dev/v4l/by-id/usb-046d_C270-video-index0"
    assert sources.names_live_camera(by_id) and sources.names_live_camera("/dev/video2")
    with pytest.raises(UserError, match=rf"cannot open camera {by_id}: is it plugged in\?"):
        open_source(by_id)
    assert opened == [(by_id, cv2.CAP_V4L2)]


def test_an_autofocus_camera_is_set_to_keep_focusing(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Camera Module 3 starts with its lens wherever it was; a camera without autofocus
    is left alone."""
    set_to: list[dict] = []
    monkeypatch.setattr(
        fake_picamera2,
        "set_controls",
        lambda self, controls: set_to.append(controls),
        raising=False,
    )
    PiCameraSource().close()
    assert set_to == []
    monkeypatch.setattr(fake_picamera2, "camera_controls", {"AfMode": (0, 2, 0)}, raising=False)
    PiCameraSource().close()
    assert set_to == [{"AfMode": 2}]


def test_a_recording_under_dev_shm_is_a_recording_not_a_camera(tmp_path: Path) -> None:
    """Only /dev/video* and /dev/v4l/ name cameras; a Pi keeps recordings on its RAM disk."""
    assert not sources.names_live_camera("/dev/shm/frames")
    assert not sources.is_device_path("/dev/shm/game.mp4")


def test_picamera2_missing_a_module_it_needs_is_not_picamera2_not_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class MissingDependency(_BrokenPicamera2Finder):
        def exec_module(self, module: Any) -> None:
            raise ModuleNotFoundError("No module named 'simplejpeg'", name="simplejpeg")

    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", [MissingDependency(), *sys.meta_path])
    with pytest.raises(UserError, match=r"installed but does not load \(No module named"):
        PiCameraSource()
