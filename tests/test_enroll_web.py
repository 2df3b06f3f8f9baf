"""The guided camera enrollment page, driven by Flask's test client with a file-backed camera.

The camera is a folder of photos (``device.sources.ImageFolderSource``): each capture takes
the next photo, so the folder's order is the story of the test: a good shot, a blurred one, an
empty table, a retake, then the rest of the deck.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from skullcam.datasets.deck import load_deck, render_face, write_deck
from skullcam.device.enroll_web import CameraFeed, EnrollSession, create_enroll_app
from skullcam.device.sources import ImageFolderSource
from skullcam.rules import FACES
from skullcam.vision.adapt import AdaptPlan
from skullcam.vision.enroll import Enrollment
from skullcam.vision.enroll_synth import render_photo, write_tiny_model
from skullcam.vision.recognizer import active_model_dir

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
    client = create_enroll_app(session).test_client()

    page = client.get("/")
    assert page.status_code == 200 and b"Enroll deck" in page.data
    state = client.get("/api/state").get_json()
    assert state["prompt"] == "place the Green 1 face up in the frame"
    assert (state["done"], state["total"]) == (0, 69)
    assert client.get("/camera.jpg").mimetype == "image/jpeg"
    assert client.get("/preview.jpg").status_code == 404

    state = client.post("/api/capture").get_json()
    assert state["pending"]["ok"] and state["pending"]["face"] == "green-1"
    preview = cv2.imdecode(np.frombuffer(client.get("/preview.jpg").data, np.uint8), 1)
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

    # The camera folder is used up: a clear error, not a crash.
    empty = client.post("/api/capture")
    assert empty.status_code == 400 and "no picture" in empty.get_json()["error"]

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
    client = create_enroll_app(session).test_client()
    state = client.post("/api/capture").get_json()
    assert state["pending"]["problem"] == "wrong-card"
    assert state["pending"]["message"].startswith("this card looks like black-9 (Black 9)")
    assert client.post("/api/accept", json={}).status_code == 400
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
    client = create_enroll_app(session).test_client()
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


def test_a_live_camera_shows_its_newest_frame(tmp_path: Path) -> None:
    from skullcam.device.sources import Frame, FrameSource

    class Live(FrameSource):
        live = True

        def frames(self):  # type: ignore[no-untyped-def]
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
