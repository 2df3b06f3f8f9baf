"""The whole pipeline on scripted detections: whole games reproduce their records."""

from __future__ import annotations

import json
import logging
import math
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest
from demo_games import calibrate_seats
from test_referee_next_round import TAKEN_BACK, seen

from skullcam.captions import wrapped
from skullcam.cli import main
from skullcam.device.picture_watch import CameraNotice, PictureWatch
from skullcam.device.pipeline import Pipeline, annotate, trick_log_lines
from skullcam.device.referee import Referee
from skullcam.device.scripted import ScriptedRecognizer, simulate_game, write_keyed_frames
from skullcam.device.sources import Frame
from skullcam.errors import UserError
from skullcam.rules import GameRecord, RulesError, Settings, cards, score_game
from skullcam.rules.simulate import random_game
from skullcam.rules.table import led_unexpectedly
from skullcam.vision.detection import Detection
from skullcam.vision.seats import SeatLayout
from skullcam.vision.trick_events import TrickCompleted

BLANK = np.zeros((480, 640, 3), np.uint8)
"""A frame of the size the scripted detections are placed in (the tracker clips to it)."""


def game(seed: int, n: int, rounds: int = 3, settings: Settings | None = None) -> dict:
    players = [f"P{i}" for i in range(n)]
    rng = random.Random(seed)
    return random_game(rng, players, settings or Settings(), seed % n, rounds).to_dict()


def run_script(record: dict, seed: int, **kw) -> tuple[Referee, Pipeline]:
    n = len(record["players"])
    sg = simulate_game(record, seed=seed, **kw)
    ref = Referee(
        record["players"],
        record["first_dealer"],
        Settings.from_dict(record.get("settings") or {}),
        [r["bids"] for r in record["rounds"]],
    )
    pipe = Pipeline(ScriptedRecognizer(sg.script), ref, SeatLayout.default(n), motion=False)
    for i in range(len(sg.script)):
        pipe.process(Frame(BLANK, i / sg.fps, i))
    return ref, pipe


@pytest.mark.parametrize("n", [3, 5, 8])
def test_scripted_game_with_hands_nudges_misses_and_flicker_reproduces_record(n: int) -> None:
    record = game(seed=n, n=n)
    ref, pipe = run_script(record, seed=n)
    assert ref.record()["rounds"] == record["rounds"]
    truth = score_game(GameRecord.from_dict(record)).to_json()
    assert ref.score()["totals"] == truth["totals"]
    assert pipe.stats.tricks == sum(len(r["tricks"]) for r in record["rounds"])


def test_same_input_gives_same_output() -> None:
    record = game(seed=11, n=4, rounds=2)
    a, pa = run_script(record, seed=3)
    b, pb = run_script(record, seed=3)
    assert a.record() == b.record()
    assert [o.to_json() for o in pa.outcomes] == [o.to_json() for o in pb.outcomes]


def test_frames_that_change_size_mid_game_are_scaled_to_the_first_ones(caplog) -> None:
    """A folder of frames with a stretch at half size (or double): the recognizer reports
    boxes in each frame's pixels, so the same card lay in two places for the tracker, and a
    trick was recorded with cards read twice and others lost."""
    import dataclasses

    record = game(seed=5, n=4)
    sg = simulate_game(record, seed=5)
    sizes = {"half": (320, 240), "double": (1280, 960)}

    def recognizer(image: np.ndarray) -> list:
        """The script's cards (in 640 x 480 pixels) as a recognizer reports them on this
        image: in its own pixels."""
        index = int(image[0, 0, 0]) | int(image[0, 0, 1]) << 8 | int(image[0, 0, 2]) << 16
        sx, sy = image.shape[1] / 640, image.shape[0] / 480
        return [
            dataclasses.replace(
                d,
                box=(d.box[0] * sx, d.box[1] * sy, d.box[2] * sx, d.box[3] * sy),
                corners=d.corners * np.array([sx, sy]),
            )
            for d in sg.script[index]
        ]

    n = len(record["players"])
    ref = Referee(
        record["players"], record["first_dealer"], Settings(), [r["bids"] for r in record["rounds"]]
    )
    pipe = Pipeline(recognizer, ref, SeatLayout.default(n), motion=False)
    odd = len(sg.script) // 3  # a third of the way in, for 40 frames at each odd size
    with caplog.at_level(logging.WARNING, logger="skullcam.device.pipeline"):
        for i in range(len(sg.script)):
            size = (640, 480)
            if odd <= i < odd + 80:
                size = sizes["half" if i < odd + 40 else "double"]
            key = (i & 255, (i >> 8) & 255, (i >> 16) & 255)  # every pixel: it survives scaling
            pipe.process(Frame(np.full((size[1], size[0], 3), key, np.uint8), i / sg.fps, i))
    assert ref.record()["rounds"] == record["rounds"]
    said = [r.getMessage() for r in caplog.records if "where the first frame was" in r.getMessage()]
    assert said == [
        f"frame {odd} is 320x240 pixels where the first frame was 640x480: scaled to that size"
        " (a recording's frames should all be one size)",
        f"frame {odd + 40} is 1280x960 pixels where the first frame was 640x480: scaled to that"
        " size (a recording's frames should all be one size)",
    ]


def test_trick_log_names_players_winner_and_flags() -> None:
    record = game(seed=2, n=3, rounds=2)
    ref, pipe = run_script(record, seed=2)
    lines = trick_log_lines(pipe.outcomes, ref.players)
    assert lines[0].startswith("round 1 trick 1: ")
    assert sum(1 for line in lines if line.startswith("round ")) == 3


def test_annotated_image_draws_on_a_copy() -> None:
    record = game(seed=5, n=3, rounds=1)
    _ref, pipe = run_script(record, seed=5)
    image = np.zeros((480, 640, 3), np.uint8)
    out = annotate(image, pipe.outcomes[0], ["a", "b", "c"])
    assert out.shape == image.shape and out.any() and not image.any()
    # The seat centre is marked, with a line from it to each card.
    obs = pipe.outcomes[0].observation
    assert obs is not None and obs.seat_centre is not None
    (cx, cy), (px, py) = obs.seat_centre, obs.plays[0].center
    assert out[round(cy), round(cx)].any()
    assert out[round((cy + py) / 2), round((cx + px) / 2)].any()


def test_the_annotated_image_carries_the_whole_explanation() -> None:
    """It was cut at 90 characters (a review, session 51): every line of it is drawn now, so
    the white text's rows span as many lines as the explanation wraps to."""
    _ref, pipe = run_script(game(seed=5, n=3, rounds=1), seed=5)
    outcome = pipe.outcomes[0]
    assert outcome.result is not None
    said_long: Any = SimpleNamespace(explanation=LONG_EXPLANATION)  # all annotate reads of it
    long = replace(outcome, result=said_long)
    out = annotate(np.zeros((480, 640, 3), np.uint8), long, ["a", "b", "c"])
    white_rows = np.flatnonzero((out.min(axis=2) > 200).any(axis=1))
    assert len(wrapped(LONG_EXPLANATION, 640 - 12)) == 2
    assert white_rows.min() < 480 - 25  # the first of two lines, above the last


LONG_EXPLANATION = (
    "Ana's Kraken wins nothing: the Kraken destroys the trick: nobody wins it, and its cards"
    " and bonuses are lost. Cai's Parrot 12 would have won it and leads the next trick."
)


def test_referee_flags_a_card_seen_twice_in_a_round_and_unknown_leader_after_rosie() -> None:
    short = Referee(["a", "b", "c"], first_dealer=2).add_plays([(0, "green-3")])
    assert any("cannot resolve" in f for f in short.flags)
    ref2 = Referee(["a", "b", "c"], first_dealer=2)
    ref2.add_plays([(0, "green-3"), (1, "green-5"), (2, "green-1")])
    assert ref2.round == 2 and ref2.leader() == 1  # round 2: left of the dealer (seat 0)
    ref2.add_plays([(1, "skull-king"), (2, "pirate-rosie"), (0, "escape")])
    dup = ref2.add_plays([(1, "skull-king"), (2, "green-2"), (0, "green-9")])
    assert any("already played this round" in f for f in dup.flags)
    ref3 = Referee(["a", "b", "c"], settings=Settings(pirate_abilities=True))
    ref3.add_plays([(1, "green-3"), (2, "green-5"), (0, "green-1")])
    ref3.add_plays([(1, "pirate-rosie"), (2, "green-5"), (0, "green-1")])
    assert ref3.leader() is None
    ref3.add_plays([(0, "green-2"), (1, "green-7"), (2, "green-8")])
    assert ref3.record()["rounds"][1]["abilities"] == [
        {"trick": 0, "pirate": "pirate-rosie", "choice": 0}
    ]


def _flags_of_a_card_played_again(first: str, again: str) -> tuple[str, ...]:
    """The flags of a round's third trick, player 1 playing ``again`` in it after ``first`` in
    the trick before."""
    ref = Referee(["a", "b", "c"], first_dealer=2)
    ref.add_plays([(0, "green-3"), (1, "green-5"), (2, "green-1")])
    ref.add_plays([(1, first), (2, "green-2"), (0, "escape")])
    return tuple(ref.add_plays([(1, again), (2, "green-4"), (0, "escape")]).flags)


def test_a_face_the_deck_holds_several_of_may_come_back_in_a_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Which cards a round may play twice is the deck's to say: with two copies of a card (a
    card added with two, here the Skull King), the second one is no card seen twice."""
    monkeypatch.setitem(cards._COPIES, "skull-king", 2)
    flags = _flags_of_a_card_played_again("skull-king", "skull-king")
    assert not [f for f in flags if "already played" in f], flags


def test_the_tigress_played_as_the_other_kind_is_a_card_seen_twice_in_a_round() -> None:
    """The referee compared a card with those before it by its id: the one Tigress, played as
    a pirate and later in the round as an escape, was two different cards."""
    flags = _flags_of_a_card_played_again("tigress:pirate", "tigress:escape")
    assert "tigress:escape already played this round" in flags


def test_an_unnamed_pirate_twice_in_a_round_is_no_card_seen_twice() -> None:
    """An unnamed pirate is any of five: a round may hold two, as scoring and the camera's
    match of a hand entry (``one_of_a_kind``) count them."""
    flags = _flags_of_a_card_played_again("pirate", "pirate")
    assert not [f for f in flags if "already played" in f], flags


def test_a_referee_past_a_one_round_game_says_it_is_over_after_one_round() -> None:
    """It said "the game is over after 1 rounds"."""
    ref = Referee(["a", "b"], settings=Settings(rounds=1))
    ref.add_plays([(1, "green-3"), (0, "green-5")])
    with pytest.raises(RulesError, match=r"^the game is over after 1 round$"):
        ref.add_plays([(1, "green-4"), (0, "green-6")])


def test_replay_command_json_and_text(tmp_path: Path, monkeypatch, capsys) -> None:
    record = game(seed=4, n=3, rounds=2)
    sg = simulate_game(record, seed=4)
    frames = tmp_path / "frames"
    # Each frame its own picture, as a camera's are: identical ones are a frozen camera's.
    write_keyed_frames(frames, len(sg.script), (64, 48))
    bids = tmp_path / "bids.json"
    bids.write_text(json.dumps([r["bids"] for r in record["rounds"]]))
    calibrate_seats(tmp_path / "data")
    from skullcam.vision import recognizer as recognizer_module

    def fake_load(*args, **kwargs):
        return ScriptedRecognizer(sg.script)

    monkeypatch.setattr(recognizer_module.Recognizer, "load", staticmethod(fake_load))
    argv = ["replay", str(frames), "--players", "3", "--first-dealer", str(record["first_dealer"])]
    argv += ["--bids", str(bids), "--data", str(tmp_path / "data"), "--names", "P0,P1,P2"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == record | {"settings": {}}
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "round 2 trick 2:" in text and "totals:" in text
    # A game record as --bids brings its settings too (its rounds: the game then ends).
    two_rounds = record | {"settings": {"rounds": 2}}
    whole = tmp_path / "game.json"
    whole.write_text(json.dumps(two_rounds))
    argv[argv.index("--bids") + 1] = str(whole)
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == two_rounds
    # Kept with the recording, the game's record gives the first dealer and names left out.
    (frames / "game.json").write_text(json.dumps(record | {"players": ["Ana", "Ben", "Cai"]}))
    bare = ["replay", str(frames), "--players", "3", "--bids", str(whole), "--json"]
    assert main([*bare, "--data", str(tmp_path / "data")]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert (out["first_dealer"], out["players"]) == (record["first_dealer"], ["Ana", "Ben", "Cai"])
    assert "first dealer" in captured.err and "game.json" in captured.err


def test_replay_skips_a_frozen_stretch_and_says_so(
    tmp_path: Path, monkeypatch, capsys, caplog: pytest.LogCaptureFixture
) -> None:
    """A recording made while the camera froze holds the same picture again and again: it is
    skipped (not read 40 times) and said, and the game reads as it was played."""
    from skullcam.device.scripted import FrameKeyedRecognizer, key_image

    record = game(seed=4, n=3, rounds=2)
    sg = simulate_game(record, seed=4)
    frames = tmp_path / "frames"
    write_keyed_frames(frames, len(sg.script), (64, 48))
    stuck = len(sg.script) // 2  # mid-game: frames after it are renamed to make room
    for k in range(len(sg.script) - 1, stuck, -1):
        (frames / f"frame_{k:06d}.png").rename(frames / f"frame_{k + 40:06d}.png")
    for k in range(stuck + 1, stuck + 41):
        cv2.imwrite(str(frames / f"frame_{k:06d}.png"), key_image(stuck, (64, 48)))
    bids = tmp_path / "bids.json"
    bids.write_text(json.dumps([r["bids"] for r in record["rounds"]]))
    calibrate_seats(tmp_path / "data")
    from skullcam.vision import recognizer as recognizer_module

    seen: list[int] = []

    class Counting(FrameKeyedRecognizer):
        def __call__(self, frame_bgr):
            seen.append(1)
            return super().__call__(frame_bgr)

    load = staticmethod(lambda *a, **k: Counting(sg.script))
    monkeypatch.setattr(recognizer_module.Recognizer, "load", load)
    argv = ["replay", str(frames), "--players", "3", "--first-dealer", str(record["first_dealer"])]
    argv += ["--bids", str(bids), "--data", str(tmp_path / "data"), "--names", "P0,P1,P2"]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == record | {"settings": {}}
    assert "40 frames repeated the picture before them (a frozen camera): read as" in (captured.err)
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(f"the same picture for 3 s (since frame {stuck})" in m for m in said)
    assert len(seen) == len(sg.script)


def test_replay_names_where_a_wrong_seat_count_comes_from(tmp_path: Path, capsys) -> None:
    from skullcam.device.replay import layout_for_source

    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "meta.json").write_text(
        json.dumps({"players": 4, "seats": SeatLayout.default(4).to_json()})
    )
    with pytest.raises(UserError, match=r"recording was made with 4 players .*fix --players"):
        layout_for_source(folder, 5, (640, 480))
    seats = tmp_path / "seats.json"
    SeatLayout.default(3).save(seats)
    with pytest.raises(UserError, match=r"seat calibration .*seats\.json has 3 seats"):
        layout_for_source(folder, 5, (640, 480), seats)


def test_replay_rescales_a_seat_calibration_to_the_recordings_frames(tmp_path: Path) -> None:
    """A calibration made on 640 x 480 frames, replayed (``--seats``, or ``--data``'s
    seats.json) over a 1280 x 720 recording: its seats are where ``skullcam run`` puts them.
    Was: used as it was, the table's centre at (320, 240), in the picture's top-left quarter,
    and a card in front of the top player read as the right-hand player's."""
    from skullcam.device.replay import replay_source
    from skullcam.device.sources import open_source
    from skullcam.vision.seats import CALIBRATION_FILE, layout_for

    made = SeatLayout.from_points([(320, 440), (40, 240), (320, 40), (600, 240)], (320, 240))
    data = tmp_path / "data"
    SeatLayout(made.centre, made.angles, frame_size=(640, 480)).save(data / CALIBRATION_FILE)
    folder = tmp_path / "recording"
    folder.mkdir()
    cv2.imwrite(str(folder / "frame_000000.png"), np.zeros((720, 1280, 3), np.uint8))
    referee = Referee(["Ana", "Ben", "Cai", "Dan"], 0, Settings())
    with open_source(str(folder)) as source:
        pipeline = replay_source(source, folder, lambda frame: [], referee, data / CALIBRATION_FILE)
    layout = pipeline.machine.layout
    assert layout == layout_for(4, data, (1280, 720))  # as skullcam run has it
    assert layout.centre == (640.0, 360.0)
    assert [layout.seat_of(p) for p in [(640, 660), (80, 360), (640, 60), (1200, 360)]] == [
        0,
        1,
        2,
        3,
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--players", "9"], "2 to 8"),
        (["--players", "3", "--bids", "missing.json"], "cannot read bids"),
        (["--players", "3", "--first-dealer", "3"], "--first-dealer"),
    ],
)
def test_replay_bad_input_is_one_line(tmp_path: Path, capsys, extra, message) -> None:
    (tmp_path / "f").mkdir()
    cv2.imwrite(str(tmp_path / "f" / "frame_000000.png"), BLANK)
    assert main(["replay", str(tmp_path / "f"), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_replay_refuses_a_camera(capsys) -> None:
    assert main(["replay", "0", "--players", "3"]) == 2
    assert "is a camera" in capsys.readouterr().err


def test_replay_of_a_missing_recording_asks_only_for_recordings(tmp_path: Path, capsys) -> None:
    assert main(["replay", str(tmp_path / "nope.mp4"), "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "nope.mp4 does not exist: give a video file or a folder of frames" in err
    assert "camera index" not in err


def test_rosie_on_a_rounds_last_trick_asks_nothing_of_the_next_round() -> None:
    """The next round is led by the dealer's neighbour: its first card is no Rosie choice, and
    the referee knows who leads it."""
    ref = Referee(["a", "b", "c"], settings=Settings(pirate_abilities=True))
    ref.add_plays([(1, "pirate-rosie"), (2, "green-5"), (0, "green-1")])  # round 1: one trick
    assert ref.round == 2 and ref.leader() == 2  # left of round 2's dealer (seat 1)
    ref.add_plays([(2, "green-2"), (0, "green-7"), (1, "green-8")])
    assert all("abilities" not in rnd for rnd in ref.record()["rounds"])


def test_the_tracker_places_a_cut_card_by_its_part_in_view() -> None:
    """The pipeline gives the tracker the frame's size: a card the frame's edge cuts, reported
    on its part in view and on its whole outline on alternate frames (the first look and the
    edge look), comes to rest as one still card."""
    whole = Detection.from_corners(
        "black-7", 0.9, np.array([(300, 437), (356, 437), (356, 524), (300, 524)], float)
    )
    part = Detection.from_corners(
        "black-7", 0.9, np.array([(300, 437), (356, 437), (356, 480), (300, 480)], float)
    )
    referee = Referee(["Ana", "Ben", "Cai"], 0, Settings(), [[0, 0, 0]])
    pipe = Pipeline(
        ScriptedRecognizer([[whole], [part]] * 5), referee, SeatLayout.default(3), motion=False
    )
    for i in range(10):
        pipe.process(Frame(BLANK, i / 10, i))
    (track,) = pipe.tracker.tracks.values()
    assert track.stable and track.card == "black-7"


@pytest.mark.parametrize(
    ("shift", "cards_down", "turn", "said_px", "said_turn"),
    [
        ((45.0, 10.0), 0, 0.0, (40, 52), ""),
        ((0.0, 0.0), 0, 20.0, (0, 5), "degrees clockwise"),
        ((20.0, -10.0), 4, -35.0, (15, 30), "degrees anticlockwise"),
    ],
    ids=["knocked", "turned", "turned-far-mid-trick"],
)
def test_a_camera_knocked_or_turned_mid_game_keeps_every_seat_and_says_to_calibrate_again(
    caplog,
    shift: tuple[float, float],
    cards_down: int,
    turn: float,
    said_px: tuple[int, int],
    said_turn: str,
) -> None:
    """8 players, seats +-22.5 degrees wide; from the second trick on every card lies 45 px to
    the right and 10 px lower (the camera knocked), or 20 degrees clockwise round the table
    (the camera turned on its stand: cards near a seat's clockwise edge cross into the next),
    or, with 4 cards of the second trick down, 35 degrees anticlockwise and 22 px (past half a
    seat: measured on the cards it moved). The game reads as played, no trick is flagged, and
    the log says once that the tricks have moved."""
    record = game(seed=3, n=8, rounds=4)
    sg = simulate_game(record, seed=3, hands=False, nudges=False, miss_rate=0, wrong_rate=0)
    knock_at = sg.settle_frames[1][cards_down] - (20 if cards_down == 0 else -2)
    script = [
        frame if i < knock_at else [_moved(d, *shift, turn) for d in frame]
        for i, frame in enumerate(sg.script)
    ]
    ref = Referee(
        record["players"], record["first_dealer"], Settings(), [r["bids"] for r in record["rounds"]]
    )
    told: list[CameraNotice | None] = []
    picture = ChangingPicture("scripted", live=False, on_notice=told.append)
    pipe = Pipeline(
        ScriptedRecognizer(script), ref, SeatLayout.default(8), motion=False, picture=picture
    )
    with caplog.at_level("WARNING", logger="skullcam.device.pipeline"):
        for i in range(len(script)):
            pipe.process(Frame(BLANK, i / sg.fps, i))
    assert ref.record()["rounds"] == record["rounds"]
    assert [o.flags for o in pipe.outcomes if o.flags] == []
    assert told == [CameraNotice("moved")]  # the TV says it too, once
    said = [r.getMessage() for r in caplog.records if "calibrate' again" in r.getMessage()]
    assert len(said) == 1
    moved = float(said[0].split(" px from")[0].rsplit(" ", 1)[1])
    assert said_px[0] <= moved <= said_px[1]  # give or take where the cards were laid
    assert said_turn in said[0]
    if turn:
        turned = float(said[0].split("turned ")[1].split(" ")[0])
        assert abs(turned - abs(turn)) <= 2


class ChangingPicture(PictureWatch):
    """A watch on scripted frames, which are one blank image: each is a new picture, and
    there are no cards on it to judge the focus by."""

    def repeats(self, frame: Frame) -> bool:
        return False

    def seen(self, frame: Frame, detections: Sequence[Detection]) -> None:
        pass


def _moved(det: Detection, dx: float, dy: float, turn: float = 0.0) -> Detection:
    """The detection as a camera moved by (dx, dy) px and turned ``turn`` degrees clockwise
    about the table centre would see it."""
    a = math.radians(turn)
    spin = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    centre = np.array([320.0, 240.0])
    corners = (det.corners - centre) @ spin.T + centre + np.array([dx, dy])
    return Detection.from_corners(det.card, det.confidence, corners)


def test_a_trick_is_taken_for_one_entered_by_hand_only_on_one_of_a_kind_cards() -> None:
    """A recording showing a trick entered by hand again is forgiven one card read otherwise,
    where the rest proves it: one-of-a-kind cards, each played at most once a round, by the
    same players. A new trick is not taken for it: two cards off, proof by escapes alone, or
    one card alike in a new round (a new deal may hold it)."""
    from skullcam.device.pipeline import EnteredTrick, laid_again

    entered = EnteredTrick(2, 1, ((2, "black-5"), (0, "green-10"), (1, "yellow-4")))
    assert laid_again([(2, "black-5"), (0, "green-10"), (1, "yellow-4")], entered, True)
    assert laid_again([(2, "black-5"), (0, "green-11"), (1, "yellow-4")], entered, True)
    assert laid_again([(2, "black-5"), (1, "yellow-4")], entered, True)  # one missed
    assert laid_again([(2, "black-5"), (0, "green-10"), (2, "yellow-4")], entered, True)  # seat
    assert laid_again([(2, "black-5"), (0, "green-11"), (1, "yellow-4")], entered, False)
    assert not laid_again([(2, "black-5"), (0, "green-11"), (1, "yellow-5")], entered, True)
    assert not laid_again([(2, "black-5")], entered, True)  # two missed
    two = EnteredTrick(1, 0, ((0, "skull-king"), (1, "green-3")))
    assert laid_again([(0, "skull-king"), (1, "green-4")], two, same_round=True)
    assert not laid_again([(0, "skull-king"), (1, "green-4")], two, same_round=False)
    escapes = EnteredTrick(2, 1, ((0, "escape"), (1, "loot"), (2, "green-3")))
    assert laid_again([(0, "escape"), (1, "loot"), (2, "green-3")], escapes, True)
    assert not laid_again([(0, "escape"), (1, "loot"), (2, "green-4")], escapes, True)
    # Cards laid so far, kept off the TV as the next trick: one such card is enough.
    assert laid_again([(2, "black-5")], entered, whole=False)
    assert laid_again([(2, "black-5"), (0, "green-11")], entered, whole=False)
    assert not laid_again([(2, "green-1")], entered, whole=False)
    assert not laid_again([(0, "escape")], escapes, whole=False)


def test_the_pipelines_tricks_follow_a_trick_the_referee_moved() -> None:
    """Round 3's second trick shows the trick filed as round 2's last to be round 3's first
    (``Referee.follows_a_lost_first_trick``): the referee moves it, and the pipeline's tricks
    (which the bench pairs with the truth for each trick's latency) hold it at its new place,
    at the moment it was recorded. They kept it at round 2's last place, paired with the
    truth's trick lost there."""
    ref = Referee(["a", "b", "c"], first_dealer=2, settings=Settings(rounds=3))
    pipe = Pipeline(lambda image: [], ref, SeatLayout.default(3), motion=False)
    tricks = [
        seen([(0, "green-3"), (1, "green-5"), (2, "green-1")]),
        seen([(1, "green-9"), (2, "green-12"), (0, "green-4")]),
        seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-9")], (TAKEN_BACK,)),
        seen([(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")], (led_unexpectedly("b", "c"),)),
    ]
    for i, trick in enumerate(tricks):
        pipe.machine.update = lambda *args, trick=trick: [TrickCompleted(trick)]  # type: ignore[method-assign]
        pipe.process(Frame(BLANK, float(i), i))
    assert [(o.round, o.trick, o.plays[0][1]) for o in pipe.outcomes] == [
        (1, 0, "green-3"),
        (2, 0, "green-9"),
        (3, 0, "purple-7"),
        (3, 1, "yellow-9"),
    ]
    assert pipe.outcomes[2] == ref.rounds[2][0]
