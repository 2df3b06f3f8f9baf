"""Seat layouts and ``skullcam calibrate``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from skullcam.cli import main
from skullcam.device.scripted import card_detection
from skullcam.errors import UserError
from skullcam.vision.seats import (
    SeatLayout,
    crosswise_degrees,
    is_crosswise,
    layout_for,
    parse_direction,
)


def test_default_layout_bottom_left_top_right_clockwise() -> None:
    layout = SeatLayout.default(4)
    assert layout.centre == (320.0, 240.0)
    assert layout.seat_of((320, 400)) == 0  # bottom
    assert layout.seat_of((100, 240)) == 1  # left
    assert layout.seat_of((320, 50)) == 2  # top
    assert layout.seat_of((600, 240)) == 3  # right


@pytest.mark.parametrize("n", range(2, 9))
def test_every_seat_direction_maps_to_its_own_seat(n: int) -> None:
    layout = SeatLayout.default(n)
    for k, a in enumerate(layout.angles):
        point = (320 + 100 * math.cos(a), 240 + 100 * math.sin(a))
        assert layout.seat_of(point) == k
        assert layout.seat_margin(point) > 0.5 * (2 * math.pi / n)


def test_from_points_orders_clockwise_from_the_first_seat() -> None:
    pts = [(320, 100), (500, 240), (320, 380), (140, 240)]  # top, right, bottom, left
    layout = SeatLayout.from_points(pts)
    assert layout.seat_of((320, 390)) == 0
    assert layout.seat_of((130, 240)) == 1
    assert layout.seat_of((320, 90)) == 2
    left_first = SeatLayout.from_points(pts, first=parse_direction("left"))
    assert left_first.seat_of((130, 240)) == 0


def test_calibration_round_trips_and_rejects_junk(tmp_path: Path) -> None:
    layout = SeatLayout.evenly(5, first=parse_direction("90"))
    layout.save(tmp_path / "seats.json")
    again = SeatLayout.load(tmp_path / "seats.json")
    assert again.n_players == 5
    assert all(abs(a - b) < 1e-4 for a, b in zip(again.angles, layout.angles, strict=True))
    assert layout_for(5, tmp_path).angles == again.angles
    assert layout_for(4, tmp_path) == SeatLayout.default(4)  # other table size: default
    (tmp_path / "bad.json").write_text('{"format": "nope"}')
    with pytest.raises(UserError, match="calibrate"):
        SeatLayout.load(tmp_path / "bad.json")
    with pytest.raises(UserError):
        parse_direction("north-east")


def test_tigress_convention_crosswise_is_within_45_degrees_of_perpendicular() -> None:
    centre = (320, 240)
    below = (320, 340)  # a card below the centre: radial direction is vertical
    assert not is_crosswise(math.pi / 2, below, centre)
    assert is_crosswise(0.0, below, centre)
    assert crosswise_degrees(math.radians(30), below, centre) == pytest.approx(60.0)
    assert is_crosswise(math.radians(30), below, centre)
    assert not is_crosswise(math.radians(60), below, centre)


def test_calibrate_evenly_show_and_reset(tmp_path: Path, capsys) -> None:
    data = ["--data", str(tmp_path)]
    assert main(["calibrate", "--players", "6", "--first-seat", "top", *data]) == 0
    saved = json.loads((tmp_path / "seats.json").read_text())
    assert saved["players"] == 6 and saved["angles_degrees"][0] == pytest.approx(270.0)
    capsys.readouterr()
    assert main(["calibrate", "--show", *data]) == 0
    assert "6 seats" in capsys.readouterr().out
    assert main(["calibrate", "--json", *data]) == 0  # alone: the saved layout, as JSON
    assert json.loads(capsys.readouterr().out) == saved
    assert main(["calibrate", "--reset", *data]) == 0
    assert not (tmp_path / "seats.json").exists()


def test_calibrate_json_keeps_stdout_json(tmp_path: Path, capsys) -> None:
    """Was: "saved to ..." after the layout, and the no-calibration sentence, on stdout."""
    data = ["--data", str(tmp_path)]
    assert main(["calibrate", "--json", *data]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) is None and "no calibration" in err
    assert main(["calibrate", "--players", "4", "--json", *data]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["players"] == 4 and "saved to" in err
    assert main(["calibrate", "--reset", "--json", *data]) == 0  # stdout was its sentence
    out, err = capsys.readouterr()
    assert json.loads(out) is None and "seat calibration removed" in err


def test_calibrate_from_an_image_of_one_card_per_seat(tmp_path: Path, monkeypatch) -> None:
    cards = [
        card_detection("green-1", (330, 390)),
        card_detection("green-2", (120, 250)),
        card_detection("green-3", (520, 200)),
    ]
    from skullcam.vision import recognizer as recognizer_module

    monkeypatch.setattr(
        recognizer_module.Recognizer, "load", staticmethod(lambda *a, **k: lambda img: cards)
    )
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.zeros((480, 640, 3), np.uint8))
    argv = ["calibrate", "--image", str(image), "--players", "3", "--data", str(tmp_path)]
    assert main(argv) == 0
    layout = SeatLayout.load(tmp_path / "seats.json")
    assert [layout.seat_of(c.center) for c in cards] == [0, 1, 2]
    argv[4] = "4"  # --players 4 with three cards on the table
    assert main(argv) == 2
    argv[4] = "3"
    before = (tmp_path / "seats.json").read_text()
    assert main([*argv, "--center", "99999,5"]) == 2  # off the image: nothing saved
    assert (tmp_path / "seats.json").read_text() == before


def test_calibrate_needs_players_or_a_frame(tmp_path: Path, capsys) -> None:
    assert main(["calibrate", "--data", str(tmp_path)]) == 2
    assert "--players" in capsys.readouterr().err


def test_a_calibration_made_on_other_frames_is_rescaled_to_the_camera(tmp_path: Path) -> None:
    """A calibration remembers its frame size: the same table seen at twice the resolution has
    its centre, and so each card's seat, where the picture puts them."""
    from skullcam.vision.seats import CALIBRATION_FILE, SeatLayout, layout_for

    made = SeatLayout.from_points([(320, 440), (40, 240), (320, 40), (600, 240)], (320, 240))
    made = SeatLayout(made.centre, made.angles, frame_size=(640, 480))
    made.save(tmp_path / CALIBRATION_FILE)
    big = layout_for(4, tmp_path, (1280, 960))
    assert big.centre == (640.0, 480.0) and big.frame_size == (1280, 960)
    assert [big.seat_of((2 * x, 2 * y)) for x, y in [(320, 440), (40, 240), (320, 40)]] == [0, 1, 2]
    wide = layout_for(4, tmp_path, (1280, 480))  # width stretched alone: directions bend
    assert wide.seat_of((1200, 250)) == 3 and wide.seat_of((640, 470)) == 0
    assert layout_for(4, tmp_path, (640, 480)) == made
    old = {"format": "skullcam-seats/1", "centre": [300, 200], "angles_degrees": [90, 270]}
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(old))  # before frame sizes: as it was
    assert layout_for(2, tmp_path, (1280, 960)).centre == (300.0, 200.0)


def test_a_live_camera_is_calibrated_from_a_frame_after_its_exposure_settled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first frame of a live camera comes before auto exposure and white balance; a
    recording's first frame is the recording's."""
    import argparse

    from skullcam.commands import calibrate
    from skullcam.device import sources

    class Camera(sources.FrameSource):
        live = True
        name = "camera 0"

        def frames(self):
            for i, stamp in enumerate((0.0, 0.4, 0.8, 1.2, 1.6)):
                yield sources.Frame(np.full((4, 4, 3), i, np.uint8), stamp, i)

    monkeypatch.setattr(sources, "open_source", lambda spec: Camera())
    image = calibrate._frame(argparse.Namespace(image=None, camera="0"))
    assert image[0, 0, 0] == 3  # the frame at 1.2 s
    Camera.live = False
    assert calibrate._frame(argparse.Namespace(image=None, camera="0"))[0, 0, 0] == 0
