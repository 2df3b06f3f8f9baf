"""The guided camera enrollment page, driven by Flask's test client with a file-backed camera.

The camera is a folder of photos (``device.sources.ImageFolderSource``): each capture takes
the next photo, so the folder's order is the story of the test: a good shot, a blurred one, an
empty table, a retake, then the rest of the deck.
"""

from __future__ import annotations

import io
import json
import logging
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from image_support import imdecode, imread
from repo_paths import SAMPLE_SCENES
from web_support import page_client

from skullcam.datasets.deck import load_deck, render_face, write_deck
from skullcam.device.enroll_i18n import error_text
from skullcam.device.enroll_tricks_page import PendingTrick, TrickChecker
from skullcam.device.enroll_web import CameraFeed, EnrollSession, create_enroll_app
from skullcam.device.sources import Frame, FrameSource, ImageFolderSource
from skullcam.errors import UserError
from skullcam.rules import FACES
from skullcam.vision.adapt import AdaptPlan
from skullcam.vision.detection import Detection
from skullcam.vision.enroll import Enrollment
from skullcam.vision.enroll_check import card_name
from skullcam.vision.enroll_synth import render_photo, write_tiny_model
from skullcam.vision.enroll_tricks import BoxLabel, TrickLabels, save_trick
from skullcam.vision.recognizer import active_model_dir, shipped_model_dir

PHOTO = (640, 480)


@pytest.fixture(scope="module")
def alt_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_deck(tmp_path_factory.mktemp("deck") / "alt", "alt")


@pytest.fixture(scope="module")
def base_model(alt_deck: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    # An untrained classifier is enough: this test is about the page, not the accuracy.
    return write_tiny_model(tmp_path_factory.mktemp("model") / "base", alt_deck, scenes=0)


def _camera_folder(folder: Path, shots: list[np.ndarray]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, shot in enumerate(shots):
        cv2.imwrite(str(folder / f"frame_{i:06d}.jpg"), shot)
    return folder


def _session(tmp_path: Path, shots: list[np.ndarray], **kw: object) -> EnrollSession:
    camera = _camera_folder(tmp_path / "camera", shots)
    enrollment = Enrollment.open(tmp_path / "data", "table-deck")
    plan = AdaptPlan(train_scenes=4, val_scenes=2, epochs=1, workers=1, progress=False)
    return EnrollSession(
        enrollment,
        CameraFeed(ImageFolderSource(camera)),
        plan,
        test_scenes=2,
        **kw,  # type: ignore[arg-type]
    )


def test_one_face_at_a_time_with_accept_and_retake(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    green1, green2 = render_face("green-1", "alt"), render_face("green-2", "alt")
    shots = [
        render_photo([green1], rng, PHOTO)[0],  # good: accepted
        render_photo([green2], rng, PHOTO, blur=0.04)[0],  # blurred: refused
        render_photo([], rng, PHOTO)[0],  # no card: refused
        render_photo([green2], rng, PHOTO)[0],  # good, but the user retakes it
        render_photo([green2], rng, PHOTO)[0],  # good: accepted
    ]
    session = _session(tmp_path, shots)
    client = page_client(create_enroll_app(session))

    page = client.get("/")
    assert page.status_code == 200 and b"Enroll deck" in page.data
    state = client.get("/api/state").get_json()
    assert state["prompt"] == "place the Green 1 face up in the frame"
    assert (state["done"], state["total"]) == (0, 69)
    assert client.get("/camera.jpg").mimetype == "image/jpeg"
    assert client.get("/preview.jpg").status_code == 404

    state = client.post("/api/capture").get_json()
    assert state["pending"]["ok"] and state["pending"]["face"] == "green-1"
    preview = imdecode(client.get("/preview.jpg").data)
    assert preview.shape == (348, 224, 3)
    state = client.post("/api/accept", json={}).get_json()
    assert state["done"] == 1 and state["face"] == "green-2"
    assert state["prompt"] == "place the Green 2 face up in the frame"

    state = client.post("/api/capture").get_json()
    assert not state["pending"]["ok"] and "retake" in state["pending"]["message"]
    refused = client.post("/api/accept", json={})
    assert refused.status_code == 400 and "cannot be used" in refused.get_json()["error"]

    state = client.post("/api/capture").get_json()
    assert state["pending"]["problem"] == "no-card"

    client.post("/api/capture")
    state = client.post("/api/retake", json={"face": "green-2"}).get_json()
    assert state["pending"] is None and state["face"] == "green-2"
    client.post("/api/capture")
    state = client.post("/api/accept", json={}).get_json()
    assert state["enrolled"] == ["green-1", "green-2"] and state["face"] == "green-3"
    assert client.get("/face/green-2.jpg").mimetype == "image/jpeg"

    # The camera folder is used up: said as such (no retry brings a frame), not a crash.
    empty = client.post("/api/capture")
    assert empty.status_code == 400 and "no frames left" in empty.get_json()["error"]

    # Closing the page and starting again resumes at the next missing face.
    again = Enrollment.open(tmp_path / "data", "table-deck")
    assert again.next_face() == "green-3" and sorted(again.faces) == ["green-1", "green-2"]


def test_a_card_that_looks_like_another_can_be_retaken_or_accepted_anyway(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(5)
    shots = [render_photo([render_face("green-1", "alt")], rng, PHOTO)[0]]

    def classify(face: np.ndarray) -> dict[str, float]:
        return {f: (0.95 if f == "black-9" else 0.05 / 69) for f in FACES}

    session = _session(tmp_path, shots, classify=classify)
    client = page_client(create_enroll_app(session))
    state = client.post("/api/capture").get_json()
    assert state["pending"]["problem"] == "wrong-card"
    assert state["pending"]["message"].startswith("this card looks like black-9 (Black 9)")
    assert client.post("/api/accept", json={}).status_code == 400
    # Malformed requests are refused, not taken as a click (nor "no" as true).
    for body in ({"force": "no"}, [1], "x"):
        refused = client.post("/api/accept", json=body)
        assert refused.status_code == 400, body
        assert (
            "force must be true or false" in refused.get_json()["error"]
            or "JSON object" in (refused.get_json()["error"])
        )
    garbled = client.post("/api/retake", data=b"{face", content_type="application/json")
    assert garbled.status_code == 400 and "JSON object" in garbled.get_json()["error"]
    assert client.get("/api/state").get_json()["pending"]["problem"] == "wrong-card"
    state = client.post("/api/accept", json={"force": True}).get_json()
    assert state["enrolled"] == ["green-1"]


@pytest.mark.slow
def test_the_last_face_then_adapt_makes_the_new_model_active(
    tmp_path: Path, alt_deck: Path, base_model: Path
) -> None:
    rng = np.random.default_rng(8)
    shots = [render_photo([render_face("white-whale", "alt")], rng, PHOTO)[0]]
    session = _session(tmp_path, shots, min_accuracy=0.0, base_model=base_model)
    # 68 faces were enrolled in an earlier visit (straight from the deck's images).
    for face, image in load_deck(alt_deck).items():
        if face != "white-whale":
            session.enrollment.accept(face, image)
    # A photo of a real trick was labelled earlier: the adaptation checks it with the new model.
    trick = TrickLabels((BoxLabel((100.0, 100.0, 160.0, 190.0), "green-3"),))
    save_trick(session.tricks.folder, np.zeros((480, 640, 3), np.uint8), trick)
    client = page_client(create_enroll_app(session))
    state = client.get("/api/state").get_json()
    assert state["face"] == "white-whale" and state["done"] == 68
    assert client.post("/api/adapt").status_code == 400  # not before the last face
    client.post("/api/capture")
    state = client.post("/api/accept", json={}).get_json()
    assert state["missing"] == [] and state["face"] is None
    state = client.post("/api/adapt").get_json()
    assert state["adapt"]["state"] == "running"
    assert session.adapt_thread is not None
    if session.adapt_thread.is_alive():  # retaking a face mid-adaptation is refused
        assert client.post("/api/capture").status_code == 400
    session.adapt_thread.join(timeout=120)
    state = client.get("/api/state").get_json()
    assert state["adapt"]["state"] == "done", state["adapt"]
    assert "test scenes" in state["adapt"]["sentence"]
    assert state["adapt"]["activated"] is True
    data = tmp_path / "data"
    assert active_model_dir(data).name == state["adapt"]["model"]
    assert any("fine-tuning" in line for line in state["adapt"]["log"])
    # The tiny model's stand-in detector finds no card: the real trick's card is not found.
    sentence = "on 1 photo of real tricks: 0 of 1 card right; 1 card not found (Green 3)"
    assert state["adapt"]["log"][-1] == sentence
    assert state["tricks"]["check"]["sentence"] == sentence
    assert state["tricks"]["check"]["model"] == state["tricks"]["model"]  # the new one
    assert state["tricks"]["model"].endswith(state["adapt"]["model"])
    assert state["tricks"]["stale"] is False
    # A second click on Adapt with the same photos installs no duplicate model, and says why.
    again = client.post("/api/adapt")
    assert again.status_code == 400
    assert again.get_json()["error"].startswith("these photos already made the model shown")
    assert session.adapt_status["model"] == state["adapt"]["model"]
    assert len([p for p in (data / "models").iterdir() if not p.name.startswith(".")]) == 1
    # The model keeps the times of its parts, for a longer run's estimate.
    seconds = json.loads((data / "models" / state["adapt"]["model"] / "enroll.json").read_text())[
        "seconds"
    ]
    assert set(seconds) == {"adapt", "before_fine_tune", "classifier", "after_fine_tune", "check"}
    # After a restart of the enrollment server, the page shows that result again.
    restarted = EnrollSession(
        Enrollment.open(data, "table-deck"), session.feed, session.plan, base_model=base_model
    )
    shown = restarted.state()["adapt"]
    assert (shown["state"], shown["model"], shown["activated"]) == (
        "done",
        state["adapt"]["model"],
        True,
    )
    assert shown["sentence"] == state["adapt"]["sentence"]


def test_a_live_camera_shows_its_newest_frame(tmp_path: Path) -> None:
    class Live(FrameSource):
        live = True

        def frames(self) -> Iterator[Frame]:
            for i in range(1000):
                yield Frame(np.full((48, 64, 3), i % 256, np.uint8), time.monotonic(), i)
                time.sleep(0.002)

    feed = CameraFeed(Live())
    try:
        first = feed.current()
        time.sleep(0.05)
        later = feed.capture()
        assert first is not None and later is not None
        assert int(later[0, 0, 0]) > int(first[0, 0, 0])
    finally:
        feed.close()
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_a_corrupt_recorded_frame_is_skipped_and_said_and_the_capture_reads_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder of frames skips a damaged frame with a warning naming it, as a video's
    damaged stretch is skipped (it used to stop every capture on it until it was fixed)."""
    rng = np.random.default_rng(5)
    shot = render_photo([render_face("green-1", "alt")], rng, PHOTO)[0]
    session = _session(tmp_path, [shot, shot, shot])
    camera = tmp_path / "camera"
    bad = camera / "frame_000001.jpg"
    bad.write_bytes(b"not a jpeg")
    session.feed = CameraFeed(
        ImageFolderSource(camera), reopen=lambda start: ImageFolderSource(camera, start=start)
    )
    client = page_client(create_enroll_app(session))
    assert client.post("/api/capture").status_code == 200
    client.post("/api/retake")
    with caplog.at_level(logging.WARNING):
        state = client.post("/api/capture").get_json()  # frame_000002
    assert state["pending"]["problem"] is None, state
    assert f"cannot read image {bad}" in caplog.text
    assert session.feed.capture() is None  # the folder ends


def _too_large_frame(path: Path) -> None:
    """A frame whose header declares 20000 x 20000 pixels: refused by name before decoding."""
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + (20_000).to_bytes(4, "big") * 2)


def test_a_folder_frame_that_cannot_be_opened_is_skipped_not_met_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder's frame the source refuses (too large to open) stopped the source, and the
    source was opened again at that same frame: every capture after it failed on it, the
    phone told each time that the camera stopped. It is skipped: the log names it once, the
    phone hears a picture of the folder was skipped (no host path), the next capture reads
    the frame after it."""
    rng = np.random.default_rng(7)
    shot = render_photo([render_face("green-1", "alt")], rng, PHOTO)[0]
    session = _session(tmp_path, [shot, shot, shot])
    camera = tmp_path / "camera"
    bad = camera / "frame_000001.jpg"
    _too_large_frame(bad)
    session.feed = CameraFeed(
        ImageFolderSource(camera), reopen=lambda start: ImageFolderSource(camera, start=start)
    )
    client = page_client(create_enroll_app(session))
    assert client.post("/api/capture").status_code == 200  # frame_000000
    client.post("/api/retake")
    with caplog.at_level(logging.WARNING):
        skipped = client.post("/api/capture", headers={"Accept-Language": "it"})
        assert skipped.status_code == 400
        said = skipped.get_json()["error"]
        assert said.startswith("un'immagine della cartella non si può leggere ed è saltata")
        assert str(tmp_path) not in said
        state = client.post("/api/capture").get_json()  # frame_000002
    assert state["pending"]["problem"] is None, state
    assert caplog.text.count(str(bad)) == 1
    assert session.feed.capture() is None  # the folder ends


class _Camera(FrameSource):
    """A live camera that delivers ``frames`` frames of grey ``level`` and then fails."""

    live = True
    name = "camera 0"

    def __init__(self, level: int, frames: int) -> None:
        self.level, self.count = level, frames

    def frames(self) -> Iterator[Frame]:
        for i in range(self.count):
            yield Frame(np.full((48, 64, 3), self.level, np.uint8), time.monotonic(), i)
            time.sleep(0.01)
        raise UserError("camera 0 stopped delivering frames: check its cable or stream")


def test_a_camera_that_stopped_is_opened_again_on_the_next_capture(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The reopen's own error is the host's (it may name a file on the host): the page says
    what to do, the log says why."""
    opened: list[int] = []

    def reopen(start: int) -> FrameSource:
        opened.append(start)
        if len(opened) == 1:
            raise UserError("cannot open camera 0: is it plugged in? (or pass another --camera)")
        return _Camera(200, 1000)

    feed = CameraFeed(_Camera(100, 1), reopen=reopen)
    try:
        shot = feed.capture()
        assert shot is not None and int(shot[0, 0, 0]) == 100
        with pytest.raises(UserError, match="the camera stopped giving pictures"):
            feed.capture()
        with caplog.at_level(logging.WARNING), pytest.raises(UserError) as refused:
            feed.capture()  # still unplugged
        assert str(refused.value) == (
            "the camera failed and could not be opened again: check that it is plugged in and"
            " retry when it is back (the terminal running skullcam enroll says why)"
        )
        assert "cannot open camera 0: is it plugged in?" in caplog.text
        shot = feed.capture()
        assert shot is not None and int(shot[0, 0, 0]) == 200
        assert len(opened) == 2
    finally:
        feed.close()


def test_a_camera_that_stopped_is_said_on_the_page_without_its_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The source's own error went to the phone as said: a stream's address, password and
    all, or a folder's path on the host. The page says what happened in its language; the
    log keeps the source's words."""

    class Stream(_Camera):
        name = "rtsp://table:s3cret@192.168.1.5/live"

        def frames(self) -> Iterator[Frame]:
            yield from ()
            raise UserError(f"{self.name} stopped delivering frames: check its cable or stream")

    session = _session(tmp_path, [render_photo([], np.random.default_rng(6), PHOTO)[0]])
    session.feed = CameraFeed(Stream(100, 0), reopen=lambda start: Stream(100, 0))
    client = page_client(create_enroll_app(session))
    with caplog.at_level(logging.WARNING):
        stopped = client.post("/api/capture", headers={"Accept-Language": "es"})
    assert stopped.status_code == 400
    assert stopped.get_json()["error"].startswith("la cámara dejó de dar imágenes: la próxima")
    assert "rtsp://table:s3cret@192.168.1.5/live stopped delivering frames" in caplog.text
    session.feed.close()


def test_a_recording_that_ran_out_is_said_without_its_host_path(tmp_path: Path) -> None:
    """The phone was told the recording's path on the host."""
    shot = render_photo([], np.random.default_rng(4), PHOTO)[0]
    session = _session(tmp_path, [shot])
    client = page_client(create_enroll_app(session))
    client.post("/api/capture")  # the only frame
    client.post("/api/retake")
    ran_out = client.post("/api/capture", headers={"Accept-Language": "da"})
    assert ran_out.status_code == 400
    assert ran_out.get_json()["error"].startswith("optagelsen har ikke flere billeder: start")


def test_a_source_that_stopped_with_no_way_to_reopen_says_so_without_its_host_path(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The page was told the source's name, a folder's or a video's path on the host; the
    log keeps it, the page says what to do."""
    camera = _Camera(100, 0)
    camera.name = str(tmp_path / "frames")
    feed = CameraFeed(camera)
    with pytest.raises(UserError, match="the camera stopped giving pictures"):
        feed.current()
    with caplog.at_level(logging.WARNING), pytest.raises(UserError) as refused:
        feed.current()
    assert str(refused.value) == (
        "the camera failed and cannot be opened again here: restart the page"
    )
    assert f"{tmp_path / 'frames'} failed and this page cannot open it again" in caplog.text
    feed.close()


def test_a_folder_or_video_that_stopped_is_named_as_such_not_as_a_camera(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The page said "the camera stopped giving pictures" of a folder of frames or a video,
    sending the user to a camera cable they do not have. It names the kind of source; a
    camera is still the camera (the tests above)."""
    rng = np.random.default_rng(8)
    shot = render_photo([], rng, PHOTO)[0]
    session = _session(tmp_path, [shot, shot, shot])
    camera = tmp_path / "camera"
    opened: list[int] = []

    def reopen(start: int) -> FrameSource:
        opened.append(start)
        if len(opened) == 1:
            raise UserError(f"{camera} is not a folder of frames")
        return ImageFolderSource(camera, start=start)

    session.feed = CameraFeed(ImageFolderSource(camera), reopen=reopen)
    client = page_client(create_enroll_app(session))
    (camera / "frame_000000.jpg").unlink()  # the folder changes while it is read
    stopped = client.post("/api/capture", headers={"Accept-Language": "es"})
    assert stopped.get_json()["error"].startswith("la carpeta de imágenes dejó de dar imágenes")
    with caplog.at_level(logging.WARNING):
        failed = client.post("/api/capture", headers={"Accept-Language": "da"})
    assert failed.get_json()["error"].startswith("billedmappen fejlede og kunne ikke åbnes igen")
    assert f"{camera} is not a folder of frames" in caplog.text
    assert client.post("/api/capture").status_code == 200  # frame_000001, in the fresh listing
    assert opened == [0, 0]

    class Video(_Camera):
        live = False
        name = str(tmp_path / "table.mp4")

    feed = CameraFeed(Video(100, 0))
    with pytest.raises(UserError, match=r"^the video stopped giving pictures"):
        feed.current()
    with pytest.raises(UserError) as refused:
        feed.current()
    assert error_text(refused.value, "it") == (
        "il video si è interrotto e non si può riaprire da qui: riavvia la pagina"
    )
    feed.close()


# ------------------------------------------------------------------ check on real tricks


def _scene(index: int) -> tuple[bytes, set[str]]:
    """A rendered trick scene's JPEG bytes and the faces really in it."""
    name = f"test_{index:06d}.jpg"
    with open(SAMPLE_SCENES / "labels" / "test" / "scenes.jsonl") as fh:
        truth = [json.loads(line) for line in fh]
    faces = {c["face"] for s in truth if s["file"].endswith(name) for c in s["cards"]}
    return (SAMPLE_SCENES / "images" / "test" / name).read_bytes(), faces


def _upload(client: Any, data: bytes, filename: str = "trick.jpg") -> Any:
    return client.post(
        "/api/trick/upload",
        data={"photo": (io.BytesIO(data), filename)},
        content_type="multipart/form-data",
        headers={"X-Skullcam-Page": "enroll"},  # as the page's script sends it
    )


def _other_face(face: str) -> str:
    return "kraken" if face != "kraken" else "loot"


def _elements(html: str) -> dict[str, tuple[str, dict[str, str | None]]]:
    """The page's elements that have an id: id -> (tag, attributes)."""
    from html.parser import HTMLParser

    found: dict[str, tuple[str, dict[str, str | None]]] = {}

    class Ids(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            fields = dict(attrs)
            if fields.get("id"):
                found[str(fields["id"])] = (tag, fields)

    Ids().feed(html)
    return found


def test_the_page_gives_the_keyboard_and_screen_readers_what_they_need(tmp_path: Path) -> None:
    """Without a browser: the markup the accessibility review asked for (the browser tests
    drive it with the keyboard)."""
    client = page_client(create_enroll_app(_session(tmp_path, [np.zeros((480, 640, 3), np.uint8)])))
    html = client.get("/").get_data(as_text=True)
    ids = _elements(html)
    # The upload's input is out of sight but focusable, and its label opens it.
    tag, upload = ids["trick-file"]
    assert tag == "input" and "hidden" not in upload and "visually-hidden" in str(upload["class"])
    assert '<label class="button" for="trick-file">Upload a photo<input' in html
    # The prompt and the status lines are read out when they change.
    assert ids["prompt"][1]["aria-live"] == "polite"
    for status in ("message", "adapt-state", "trick-found", "trick-result"):
        assert ids[status][1]["role"] == "status", status
    # The progress bars have names, and say what they count.
    assert ids["progress"] == (
        "progress",
        {
            "id": "progress",
            "max": "69",
            "value": "0",
            "aria-label": "Faces enrolled",
            "aria-describedby": "count",
        },
    )
    assert ids["adapt-progress"][1]["aria-label"] == "Progress of this step"
    # The boxes on the photo are mirrored by a list of buttons; the picture itself is hidden
    # from a screen reader, and the pickers are named.
    assert ids["trick-boxes"][1]["aria-hidden"] == "true"
    assert ids["trick-cards"][1]["aria-label"] == "Cards found in the photo"
    assert ids["trick-pick"][1]["aria-labelledby"] == "trick-picking"
    assert ids["trick-add-face"][1]["aria-labelledby"] == "trick-add"
    # The chips are buttons made by the script, never clickable spans.
    assert 'createElement("button")' in html and 'createElement("span")' not in html


def test_a_real_trick_photo_is_read_labelled_saved_and_checked_again(tmp_path: Path) -> None:
    jpeg, truth = _scene(0)
    camera_shot = imdecode(jpeg)
    session = _session(tmp_path, [camera_shot])
    client = page_client(create_enroll_app(session))
    tricks = client.get("/api/state").get_json()["tricks"]
    assert (tricks["saved"], tricks["pending"], tricks["check"]) == (0, None, None)
    assert b"Check on real tricks" in client.get("/").data
    assert client.get("/trick.jpg").status_code == 404

    # Upload: the active model (none enrolled here: the shipped one) reads the photo.
    state = _upload(client, jpeg).get_json()
    pending = state["tricks"]["pending"]
    cards = pending["cards"]
    assert (pending["width"], pending["height"], pending["source"]) == (640, 480, "upload")
    assert len(cards) >= 2 and {c["card"] for c in cards} & truth
    assert all(c["card"] in FACES and len(c["corners"]) == 4 and c["name"] for c in cards)
    photo = imdecode(client.get("/trick.jpg").data)
    assert photo.shape == (480, 640, 3)

    # The user corrects the first card, says the second is no card, and adds a missed one.
    labels = [c["card"] for c in cards]
    labels[0] = _other_face(cards[0]["card"])
    labels[1] = "none"
    state = client.post(
        "/api/trick/save", json={"labels": labels, "missed": ["white-whale"]}
    ).get_json()
    n = len(cards)
    check = state["tricks"]["check"]
    assert (check["photos"], check["cards"], check["right"]) == (1, n, n - 2)
    assert check["misreads"] == [[labels[0], cards[0]["card"], 1]]
    assert check["missed"] == [["white-whale", 1]]
    assert check["false_alarms"] == [[cards[1]["card"], 1]]
    assert check["sentence"] == (
        f"on 1 photo of real tricks: {n - 2} of {n} cards right; "
        f"{card_name(labels[0])} read as {card_name(cards[0]['card'])} once; "
        "1 card not found (White Whale); 1 false alarm"
    )
    tricks = state["tricks"]
    assert (tricks["saved"], tricks["pending"], tricks["stale"]) == (1, None, False)
    folder = tmp_path / "data" / "enroll" / "table-deck" / "tricks"
    record = json.loads((folder / "001.json").read_text())
    assert [c["label"] for c in record["cards"]] == labels and record["missed"] == ["white-whale"]
    assert imread(folder / "001.jpg").shape == (480, 640, 3)

    # A photo from the page's camera, then thrown away: nothing more is saved.
    state = client.post("/api/trick/capture").get_json()
    assert state["tricks"]["pending"]["source"] == "camera"
    assert len(state["tricks"]["pending"]["cards"]) == n
    state = client.post("/api/trick/discard").get_json()
    assert state["tricks"]["pending"] is None and state["tricks"]["saved"] == 1

    # Another model becomes active (here: the same weights in an enrolled model's folder):
    # the result is marked stale until the page asks, then the photo is checked again.
    copy = tmp_path / "data" / "models" / "copy"
    copy.mkdir(parents=True)
    for item in shipped_model_dir().iterdir():
        if item.is_file():
            (copy / item.name).symlink_to(item)
    (tmp_path / "data" / "active_model").write_text("models/copy\n")
    assert client.get("/api/state").get_json()["tricks"]["stale"] is True
    state = client.post("/api/trick/check").get_json()
    assert state["tricks"]["stale"] is False
    assert state["tricks"]["check"]["sentence"] == check["sentence"]
    assert session.tricks._model_dir == copy


class FakeRecognizer:
    """Always finds the same two cards: the endpoint tests need no model."""

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        quad = np.array([[10, 10], [70, 10], [70, 100], [10, 100]], np.float32)
        return [
            Detection.from_corners("green-7", 0.9, quad),
            Detection.from_corners("pirate-harry", 0.8, quad + 200),
        ]


def _fake_session(tmp_path: Path) -> EnrollSession:
    data = tmp_path / "data"
    checker = TrickChecker(
        data, data / "enroll" / "table-deck" / "tricks", load=lambda d: FakeRecognizer()
    )
    return _session(tmp_path, [np.zeros((480, 640, 3), np.uint8)], tricks=checker)


def test_bad_real_trick_input_gets_a_clear_error_and_writes_nothing(tmp_path: Path) -> None:
    session = _fake_session(tmp_path)
    app = create_enroll_app(session)
    client = page_client(app)

    def error(response: Any, status: int = 400) -> str:
        assert response.status_code == status, response.data
        return str(response.get_json()["error"])

    assert "no photo to save" in error(client.post("/api/trick/save", json={"labels": []}))
    jpeg, _ = _scene(1)
    assert "not a readable image" in error(_upload(client, b"just some text", "notes.txt"))
    assert "not a readable image" in error(_upload(client, jpeg[: len(jpeg) // 2]))
    assert "empty" in error(_upload(client, b""))
    assert "form field 'photo'" in error(client.post("/api/trick/upload"))
    assert session.tricks.pending is None

    assert len(_upload(client, jpeg).get_json()["tricks"]["pending"]["cards"]) == 2
    save = "/api/trick/save"
    bad_json = client.post(save, data="{labels: [", content_type="application/json")
    assert "not a JSON object" in error(bad_json)
    assert "not a JSON object" in error(client.post(save, json=["green-7", "none"]))
    assert "expected a list of 2" in error(client.post(save, json={"labels": ["green-7"]}))
    assert "expected a list of 2" in error(client.post(save, json={"missed": []}))
    unknown = client.post(save, json={"labels": ["green-7", "green-15"]})
    assert error(unknown).startswith("labels[1]: 'green-15' is not a card")
    none_missed = client.post(save, json={"labels": ["green-7", "none"], "missed": ["none"]})
    assert error(none_missed).startswith("missed[0]: 'none' is not a card")
    assert "missed: expected a list" in error(
        client.post(save, json={"labels": ["green-7", "none"], "missed": "kraken"})
    )
    folder = tmp_path / "data" / "enroll" / "table-deck" / "tricks"
    assert not folder.exists()  # nothing half-written, nothing written at all

    app.config["MAX_CONTENT_LENGTH"] = 1000
    assert "larger than" in error(_upload(client, jpeg), 413)
    app.config["MAX_CONTENT_LENGTH"] = 25 * 1024 * 1024

    # The pending photo survived the refusals: good labels save it.
    state = client.post(save, json={"labels": ["Green-7", "pirate-rosie"]}).get_json()
    assert state["tricks"]["check"]["sentence"] == (
        "on 1 photo of real tricks: 1 of 2 cards right; Pirate Rosie read as Pirate Harry once"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["001.jpg", "001.json"]


def test_an_adaptation_checks_the_saved_photos_again(tmp_path: Path) -> None:
    session = _fake_session(tmp_path)
    client = page_client(create_enroll_app(session))
    _upload(client, _scene(1)[0])
    client.post("/api/trick/save", json={"labels": ["green-7", "pirate-harry"]})
    session.tricks.check = None  # as after a restart: nothing checked with this model yet
    assert client.get("/api/state").get_json()["tricks"]["stale"] is True
    log: list[str] = []
    session._recheck_tricks(log.append)
    assert log == [
        "checking the saved photos of real tricks with the active model",
        "on 1 photo of real tricks: 2 of 2 cards right",
    ]
    assert client.get("/api/state").get_json()["tricks"]["stale"] is False
    # A damaged label file is skipped, and does not leave the result stale forever.
    (session.tricks.folder / "002.json").write_text("{ damaged")
    assert client.get("/api/state").get_json()["tricks"]["stale"] is True
    state = client.post("/api/trick/check").get_json()
    assert state["tricks"]["stale"] is False and state["tricks"]["check"]["photos"] == 1


def test_adapting_without_the_training_stack_says_what_to_install(
    tmp_path: Path, alt_deck: Path, base_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a runtime-only install (a Pi without torch) the page says what is missing."""
    import skullcam.device.enroll_web as enroll_web

    # Held until the page has said "running": a thread that fails at once could otherwise
    # finish before the reply is built (seen on a busy machine), and the reply say "failed".
    may_fail = threading.Event()

    def no_ultralytics(*args: object, **kwargs: object) -> None:
        may_fail.wait(timeout=30)
        raise ModuleNotFoundError("No module named 'ultralytics'", name="ultralytics")

    monkeypatch.setattr(enroll_web, "adapt_and_install", no_ultralytics)
    table = np.full((*PHOTO[::-1], 3), 90, np.uint8)
    session = _session(tmp_path, [table], base_model=base_model)
    for face, image in load_deck(alt_deck).items():
        session.enrollment.accept(face, image)
    client = page_client(create_enroll_app(session))
    assert client.post("/api/adapt").get_json()["adapt"]["state"] == "running"
    assert session.adapt_thread is not None
    may_fail.set()
    session.adapt_thread.join(timeout=30)
    adapt = client.get("/api/state").get_json()["adapt"]
    assert adapt["state"] == "failed"
    assert "needs ultralytics, which is not installed" in adapt["error"]
    assert "docs/pi.md" in adapt["error"]
    assert not (tmp_path / "data" / "active_model").exists()


def test_the_page_reads_the_running_steps_progress_bar() -> None:
    # What the terminal shows during an adaptation (tqdm bars), the page shows too: the step,
    # how far it is, and about how long it has left.
    from tqdm import tqdm

    from skullcam.device.enroll_web import step_progress

    with tqdm(total=100, desc="fine-tuning", disable=True):  # a bar nobody sees: not a step
        assert step_progress() is None
    with tqdm(total=200, desc="fine-tuning", file=io.StringIO(), mininterval=0) as bar:
        bar.update(50)
        time.sleep(0.05)
        bar.update(50)
        step = step_progress()
    assert step is not None
    assert (step["what"], step["done"], step["total"]) == ("fine-tuning", 100, 200)
    assert step["seconds_left"] is not None and 0 <= step["seconds_left"] < 60
    assert step_progress() is None  # closed: no step under way


def test_a_bar_another_thread_is_still_opening_is_not_read() -> None:
    # tqdm lists a bar in its __new__, before __init__ gives it its fields; the page asked
    # just then (the adaptation thread opening its next bar) and failed with AttributeError.
    from tqdm import tqdm

    from skullcam.device.enroll_web import step_progress

    listed = getattr(tqdm, "_instances", None)  # tqdm's private list of bars
    opening = tqdm.__new__(tqdm)  # listed, not yet initialised
    assert listed is not None and opening in listed
    try:
        assert step_progress() is None
        with tqdm(total=10, desc="crops", file=io.StringIO(), mininterval=0) as bar:
            bar.update(4)
            step = step_progress()
        assert step is not None and (step["what"], step["done"]) == ("crops", 4)
    finally:
        listed.discard(opening)
        opening.disable = True  # its __del__ closes it: nothing to close


REMOTE = {"REMOTE_ADDR": "192.168.1.50"}


def test_beyond_the_pi_every_request_but_the_page_needs_the_tables_pin(tmp_path: Path) -> None:
    """The page listens on the Wi-Fi (0.0.0.0) by default: any phone there could start an
    adaptation (which activates the model a running game reads with), retake faces, or watch
    the camera."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(3), PHOTO)[0]])
    app = create_enroll_app(session, pin="4821", require_pin=True)
    client = page_client(app)
    assert client.get("/", environ_base=REMOTE).status_code == 200
    for method, url in [("get", "/api/state"), ("get", "/camera.jpg"), ("post", "/api/adapt")]:
        refused = getattr(client, method)(url, environ_base=REMOTE)
        assert refused.status_code == 403 and refused.get_json()["pin"] is True
        assert refused.get_json()["error"].startswith("wrong or missing PIN")
    wrong = client.post("/api/pin", json={"pin": "1111"}, environ_base=REMOTE)
    assert wrong.status_code == 403 and wrong.get_json()["error"] == "wrong PIN"
    assert client.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE).status_code == 200
    # Its own cookie: a browser sends a host's cookies to every port, and sharing the
    # scoreboard's "session" signed a phone out of one when it entered the PIN on the other.
    assert client.get_cookie("skullcam_enroll") is not None
    assert client.get_cookie("session") is None
    assert client.get("/api/state", environ_base=REMOTE).status_code == 200
    assert client.get("/camera.jpg", environ_base=REMOTE).mimetype == "image/jpeg"
    # Wrong guesses lock the address, as on the table app.
    other = page_client(app)
    away = {"REMOTE_ADDR": "192.168.1.77"}
    for guess in range(5):
        other.post("/api/pin", json={"pin": f"{guess:04d}"}, environ_base=away)
    locked = other.post("/api/pin", json={"pin": "4821"}, environ_base=away)
    assert locked.get_json()["error"] == "too many wrong PINs; wait 30 s and try again"
    # The Pi itself needs none, when it names itself.
    assert client.get("/api/state").status_code == 200
    foreign = page_client(app).get("/api/state", headers={"Host": "evil.example"})
    assert foreign.status_code == 403


def test_a_malformed_pin_request_is_refused_without_spending_a_try(tmp_path: Path) -> None:
    """A body with no "pin", or a PIN that is no text, counted as a wrong PIN: five of them
    locked the address out, as the table app's did."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(3), PHOTO)[0]])
    client = page_client(create_enroll_app(session, pin="4821", require_pin=True))
    for body in ({}, {"pin": None}, {"pin": 4821}, {"pin": ["4821"]}, {"pn": "4821"}, {}):
        res = client.post(
            "/api/pin", json=body, environ_base=REMOTE, headers={"Accept-Language": "it"}
        )
        assert res.status_code == 400
        assert res.get_json()["error"] == "invia «pin», il PIN del tavolo, come testo"
    assert client.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE).status_code == 200


def test_a_blank_pin_is_asked_for_again_without_spending_a_try(tmp_path: Path) -> None:
    """An empty PIN, or spaces (the page's prompt sends them), counted as a wrong PIN: five
    locked the phone out before it had typed one."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(3), PHOTO)[0]])
    client = page_client(create_enroll_app(session, pin="4821", require_pin=True))
    for pin in ("", "   ", "", "", "", ""):
        res = client.post(
            "/api/pin", json={"pin": pin}, environ_base=REMOTE, headers={"Accept-Language": "it"}
        )
        assert res.status_code == 403
        said = "PIN errato o mancante: inserisci il PIN mostrato all'avvio di skullcam enroll"
        assert res.get_json()["error"] == said
    assert client.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE).status_code == 200


def test_a_form_posted_from_another_site_is_refused(tmp_path: Path) -> None:
    """A cross-site HTML form, no-cors fetch or beacon can post without the browser asking
    first: it must not start an adaptation, capture or upload a photo here, even from a
    browser on the Pi itself."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(4), PHOTO)[0]])
    client = create_enroll_app(session).test_client()
    for data in ({"x": "1"}, {"photo": (io.BytesIO(b"jpeg"), "a.jpg")}):
        refused = client.post("/api/adapt", data=data)
        assert refused.status_code == 400
        assert refused.get_json()["error"] == (
            "send this from the enrollment page, or as JSON or with the header X-Skullcam-Page "
            "from a script (a form posted from elsewhere is refused)"
        )
    # Reached under another name (DNS rebinding), it neither acts nor shows the camera.
    for url in ("/api/state", "/camera.jpg"):
        refused = client.get(
            url, headers={"Host": "rebound.example"}, base_url="http://localhost:8001"
        )
        assert refused.status_code == 400
        assert refused.get_json()["error"] == (
            "this page listens on this machine only: open it as http://localhost:8001/"
        )
    assert client.get("/api/state", headers={"Host": "127.0.0.1:8001"}).status_code == 200
    plain = client.post("/api/adapt", data="{}", content_type="text/plain")
    assert plain.status_code == 400
    # A no-cors fetch or a beacon sends no Content-Type at all.
    for url in ("/api/capture", "/api/adapt", "/api/trick/capture"):
        assert client.post(url).status_code == 400
    assert session.adapt_status.get("state") != "running"
    # The page's own upload says where it comes from.
    upload = client.post(
        "/api/trick/upload",
        data={"photo": (io.BytesIO(b""), "empty.jpg")},
        headers={"X-Skullcam-Page": "enroll"},
    )
    assert upload.status_code == 400 and "empty" in upload.get_json()["error"]


def test_neither_server_lets_another_site_frame_its_pages(tmp_path: Path) -> None:
    """A framed Settings page let a click on another site finish the game (a review's
    reproduction in a browser); the enrollment page starts adaptations the same way."""
    from skullcam.web.app import create_app

    session = _session(tmp_path, [render_photo([], np.random.default_rng(3), PHOTO)[0]])
    enroll = page_client(create_enroll_app(session))
    table = create_app(tmp_path / "data").test_client()
    gid = table.post("/api/games", json={"players": ["Ana", "Ben"]}).get_json()["id"]
    answers = [enroll.get("/"), enroll.get("/api/state"), table.get("/tv")]
    answers += [table.get(f"/game/{gid}/settings"), table.get("/static/app.js")]
    for answer in answers:
        assert answer.status_code == 200, answer.request.path
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]


def test_json_nested_too_deeply_is_refused_not_an_error_page(tmp_path: Path) -> None:
    """'[' * 100000 got an HTML 500 and a traceback in the log, on /api/pin too, which
    anyone on the Wi-Fi may call; the table app refused it with a 400 already."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(3), PHOTO)[0]])
    client = page_client(create_enroll_app(session))
    deep = "[" * 100_000
    for url in ("/api/pin", "/api/trick/save", "/api/retake"):
        answer = client.post(url, data=deep, content_type="application/json")
        assert answer.status_code in (400, 404, 405, 409), (url, answer.status_code)
        assert answer.is_json, url


def test_pins_on_with_none_set_refuses_with_its_own_words(tmp_path: Path) -> None:
    """The shared PIN check says "pin_not_set" there; the page had no words for it and
    answered 500 (the command line always sets a PIN, a program calling the app need not)."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(3), PHOTO)[0]])
    client = page_client(create_enroll_app(session, pin=None, require_pin=True))
    refused = client.get("/api/state", environ_base=REMOTE)
    assert refused.status_code == 403
    assert refused.get_json()["error"].startswith("this page has no PIN set")


def test_errors_no_route_words_are_json_in_the_pages_language(tmp_path: Path) -> None:
    """Flask's own HTML error pages reached the page's script, which showed "500 INTERNAL
    SERVER ERROR" in English: a full or read-only disk while accepting a face, a wrong method,
    an unexpected failure. Each is JSON in the reader's language, and a face whose photo could
    not be written is still waiting to be accepted once the disk is fixed."""
    rng = np.random.default_rng(5)
    session = _session(tmp_path, [render_photo([render_face("green-1", "alt")], rng, PHOTO)[0]])
    client = page_client(create_enroll_app(session))
    spanish = {"Accept-Language": "es"}
    wrong_method = client.get("/api/capture", headers=spanish)
    assert wrong_method.status_code == 405
    assert wrong_method.get_json()["error"] == "este método no está permitido en esta dirección"
    nowhere = client.get("/api/nowhere", headers=spanish)
    assert nowhere.status_code == 404
    assert nowhere.get_json()["error"] == "no encontrado: revisa la dirección"

    assert client.post("/api/capture", json={}).get_json()["pending"]["ok"]
    faces = session.enrollment.faces_dir
    faces.parent.mkdir(parents=True, exist_ok=True)
    faces.write_text("a file where the folder of faces belongs")  # mkdir fails: an OSError
    refused = client.post("/api/accept", json={}, headers=spanish)
    assert refused.status_code == 500 and refused.is_json
    error = refused.get_json()["error"]
    assert error.startswith("no se pudo leer o escribir un archivo en esta máquina (File exists): ")
    assert error.endswith("las fotos aceptadas hasta ahora se conservan")
    faces.unlink()
    assert client.post("/api/accept", json={}).get_json()["enrolled"] == ["green-1"]

    def broken() -> None:
        raise RuntimeError("a bug")

    session.capture = broken  # type: ignore[method-assign]
    failed = client.post("/api/capture", json={}, headers={"Accept-Language": "it"})
    assert failed.status_code == 500 and failed.get_json()["error"] == (
        "la pagina ha fallito questa richiesta (il terminale mostra i dettagli); riprova; le"
        " foto accettate finora restano salvate"
    )


def test_a_malformed_request_is_refused_in_the_pages_language(tmp_path: Path) -> None:
    """A body that is not a JSON object, a flag that is not true or false, labels that are
    not one per found card, an upload with no photo: refused in English whatever the page's
    language, where every other refusal is worded in it."""
    session = _session(tmp_path, [render_photo([], np.random.default_rng(6), PHOTO)[0]])
    session.tricks.pending = PendingTrick(np.zeros((480, 640, 3), np.uint8), [], "camera", "m")
    client = page_client(create_enroll_app(session))

    def error(url: str, **kw: Any) -> str:
        answer = client.post(url, headers={"Accept-Language": "da"}, **kw)
        assert answer.status_code == 400, url
        return str(answer.get_json()["error"])

    assert error("/api/accept", json=[1]) == (
        'forespørgslen er ikke et JSON-objekt: send {} eller {"face": "green-7"}'
    )
    assert (
        error("/api/accept", json={"force": "no"}) == "force skal være true eller false, ikke 'no'"
    )
    assert error("/api/adapt", json={"longer": 1}) == "longer skal være true eller false, ikke 1"
    assert error("/api/trick/save", json={"labels": ["green-7"]}).startswith(
        "labels: der skal være en liste med 0 kort-id'er"
    )
    assert error("/api/trick/save", json={"labels": [], "missed": "x" * 1000}) == (
        f"missed: der skal være en liste med kort-id'er, ikke '{'x' * 199}"
    )
    assert (
        error("/api/trick/upload")
        == "intet billede i forespørgslen: send billedet i feltet 'photo'"
    )


class _EmptiedOnRead:
    """A pending check whose face, once read, is accepted or retaken at once: what a click
    between the preview's two reads of the pending capture did."""

    def __init__(self, session: EnrollSession) -> None:
        self.session = session

    @property
    def face(self) -> np.ndarray:
        self.session.pending = None
        return np.zeros((348, 224, 3), np.uint8)


def test_the_preview_survives_an_accept_while_it_is_read(tmp_path: Path) -> None:
    """The preview read the pending capture twice: an Accept or Retake between the two reads
    answered a 500. It reads it once and shows the picture it read."""
    session = _session(tmp_path, [np.zeros((480, 640, 3), np.uint8)])
    client = page_client(create_enroll_app(session))
    session.pending = ("green-1", _EmptiedOnRead(session))  # type: ignore[assignment]
    answer = client.get("/preview.jpg")
    assert answer.status_code == 200
    assert imdecode(answer.data).shape == (348, 224, 3)
    assert client.get("/preview.jpg").status_code == 404


def test_a_retake_of_a_face_that_is_no_face_id_is_refused(tmp_path: Path) -> None:
    """``{"face": 0}`` or ``false`` meant "the next missing face", unseen: a retake names a
    face id or none at all."""
    session = _session(tmp_path, [np.zeros((480, 640, 3), np.uint8)])
    client = page_client(create_enroll_app(session))
    session.target = "green-3"
    refused: tuple[object, ...] = (0, False, [], {"id": "green-7"})
    for face in refused:
        answer = client.post("/api/retake", json={"face": face}, headers={"Accept-Language": "es"})
        assert answer.status_code == 400, face
        assert answer.get_json()["error"] == (
            f'face debe ser un id de carta como "green-7", u omitirse, no {face!r}'
        )
    assert session.target == "green-3"  # nothing changed
    assert client.post("/api/retake", json={"face": None}).get_json()["face"] == FACES[0]
    assert client.post("/api/retake", json={"face": "Green-7"}).get_json()["face"] == "green-7"


def test_a_huge_request_that_is_no_upload_is_not_told_to_send_a_smaller_photo(
    tmp_path: Path,
) -> None:
    session = _fake_session(tmp_path)
    app = create_enroll_app(session)
    client = page_client(app)
    app.config["MAX_CONTENT_LENGTH"] = 1000
    big = client.post("/api/trick/save", json={"labels": ["x" * 2000]})
    assert big.status_code == 413
    assert big.get_json()["error"] == (
        "the request is larger than 25 MB, more than the page ever sends"
    )
    upload = _upload(client, _scene(1)[0])
    assert upload.status_code == 413
    assert upload.get_json()["error"] == "the upload is larger than 25 MB: send a smaller photo"


def test_two_saves_of_one_trick_photo_at_once_keep_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two saves at once (a double tap, two phones) each took the pending photo and the next
    free number: one photo kept twice, or one written over the other. Saves take turns, and
    the second finds the photo saved; the page's button is disabled while a save runs."""
    import skullcam.device.enroll_tricks_page as page

    session = _fake_session(tmp_path)
    app = create_enroll_app(session)
    client = page_client(app)
    _upload(client, _scene(1)[0])
    entered: list[threading.Event] = [threading.Event(), threading.Event()]
    release = threading.Event()
    real_save = page.save_trick

    def slow_save(*args: Any, **kw: Any) -> Path:
        entered[sum(e.is_set() for e in entered)].set()
        release.wait()
        return real_save(*args, **kw)

    monkeypatch.setattr(page, "save_trick", slow_save)
    body = {"labels": ["green-7", "pirate-rosie"]}
    answers: list[Any] = []

    def save() -> None:
        answers.append(page_client(app).post("/api/trick/save", json=body))

    first = threading.Thread(target=save)
    first.start()
    entered[0].wait()
    second = threading.Thread(target=save)
    second.start()
    # The second save must not start writing while the first one is: it waits its turn.
    assert not entered[1].wait(1.0)
    release.set()
    first.join()
    second.join()
    assert sorted(a.status_code for a in answers) == [200, 400]
    folder = tmp_path / "data" / "enroll" / "table-deck" / "tricks"
    assert sorted(p.name for p in folder.iterdir()) == ["001.jpg", "001.json"]
    script = client.get("/").get_data(as_text=True)
    assert '$("trick-save").disabled = true;' in script
    assert 'finally { $("trick-save").disabled = false; }' in script


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (lambda state: state.write_text("{not json"), " era danneggiato ed è conservato come "),
        (lambda state: state.unlink(), " mancava: la registrazione continua "),
    ],
    ids=["damaged", "missing"],
)
def test_the_page_says_a_damaged_or_missing_state_was_rebuilt_in_its_language(
    tmp_path: Path, spoil: Callable[[Path], object], said: str
) -> None:
    """A damaged or missing state.json is rebuilt from the face pictures: the page says so
    (and where a damaged file is kept), in the reader's language; an intact one says
    nothing."""
    first = Enrollment.open(tmp_path / "data", "table-deck")
    first.accept("green-1", np.full((348, 224, 3), 200, np.uint8))
    assert _session(tmp_path, [np.zeros((480, 640, 3), np.uint8)]).state()["notice"] is None
    spoil(first.work_dir / "state.json")
    session = _session(tmp_path, [np.zeros((480, 640, 3), np.uint8)])
    client = page_client(create_enroll_app(session))
    state = client.get("/api/state", headers={"Accept-Language": "it"}).get_json()
    assert state["enrolled"] == ["green-1"]
    assert state["notice"].startswith(f"state.json{said}")
    assert state["notice"].endswith("dalle foto delle sue carte accettate (1 di 69)")
    assert str(tmp_path) not in state["notice"]  # the host's folders stay in its log
    page = client.get("/").get_data(as_text=True)
    assert '<div id="notice" class="bad" role="status" hidden></div>' in page


def test_a_full_disk_while_accepting_a_face_is_said_in_the_pages_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full (or read-only) disk fails the face's write itself, not the folder's creation:
    the write's refusal reached the page in English, as a 400 telling a phone to "pass another
    --data / --out folder". It is the disk's answer in the reader's language, as any other
    file the page cannot write, and the face waits to be accepted again."""
    import errno

    from skullcam import files

    rng = np.random.default_rng(7)
    session = _session(tmp_path, [render_photo([render_face("green-1", "alt")], rng, PHOTO)[0]])
    client = page_client(create_enroll_app(session))
    assert client.post("/api/capture", json={}).get_json()["pending"]["ok"]

    def full(fh: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "_flush_to_disk", full)
    refused = client.post("/api/accept", json={}, headers={"Accept-Language": "da"})
    assert refused.status_code == 500 and refused.is_json
    error = refused.get_json()["error"]
    assert error.startswith("en fil på denne maskine kunne ikke læses eller skrives (")
    assert "No space left on device" in error and "--data" not in error
    monkeypatch.undo()
    assert client.post("/api/accept", json={}).get_json()["enrolled"] == ["green-1"]


def test_a_file_the_page_cannot_write_is_said_without_the_hosts_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder the page could not write quoted the system's whole error to the phone, the
    file's path on this machine with it: the phone is told what went wrong and what to do,
    the log (for whoever runs the page) where."""
    import errno

    from skullcam import files

    rng = np.random.default_rng(7)
    session = _session(tmp_path, [render_photo([render_face("green-1", "alt")], rng, PHOTO)[0]])
    client = page_client(create_enroll_app(session))
    assert client.post("/api/capture", json={}).get_json()["pending"]["ok"]
    where = str(tmp_path / "data" / "enroll" / "table-deck" / "faces" / "green-1.png")

    def refused(fh: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", where)

    monkeypatch.setattr(files, "_flush_to_disk", refused)
    with caplog.at_level(logging.ERROR, logger="skullcam.device.enroll_web"):
        answer = client.post("/api/accept", json={})
    assert answer.status_code == 500
    error = answer.get_json()["error"]
    assert "(Permission denied): check that the data folder's disk has room" in error
    assert str(tmp_path) not in error
    assert where in caplog.text
