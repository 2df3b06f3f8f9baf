"""Game videos: the record is legal, the frames show exactly the record's cards, seats and the
Tigress convention hold, and the output is reproducible."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from image_support import imread

from skullcam.cli import main
from skullcam.datasets.deck import FACE_H, FACE_W, load_deck, write_deck
from skullcam.datasets.faces import FACES
from skullcam.datasets.game_config import GameConfig
from skullcam.datasets.game_timeline import _seat_pose
from skullcam.datasets.game_video import game_summary, write_game
from skullcam.errors import UserError
from skullcam.rules import GameRecord, score_game

CFG = GameConfig(players=3, rounds=2, fps=5.0)


@pytest.fixture(scope="module")
def deck_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_deck(tmp_path_factory.mktemp("deck") / "classic")


@pytest.fixture(scope="module")
def game_dir(deck_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("game")
    write_game(deck_dir, out, CFG, seed=5, video=True, progress=False)
    return out


def _frames(game_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (game_dir / "frames.jsonl").read_text().splitlines()]


def test_record_is_legal_and_scores(game_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((game_dir / "game.json").read_text())
    assert data["format"] == "skullcam-game/1"
    record = GameRecord.from_dict(data)
    assert len(record.rounds) == 2
    assert [len(r.tricks) for r in record.rounds] == [1, 2]
    score_game(record)
    assert main(["score", str(game_dir / "game.json"), "--json"]) == 0
    assert "totals" in json.loads(capsys.readouterr().out)


def test_truth_matches_record(game_dir: Path) -> None:
    record = json.loads((game_dir / "game.json").read_text())
    truth = json.loads((game_dir / "truth.json").read_text())
    tricks = [t for rnd in record["rounds"] for t in rnd["tricks"]]
    assert len(truth["tricks"]) == len(tricks)
    previous_end = -1
    for rec, tt in zip(tricks, truth["tricks"], strict=True):
        assert [(p["player"], p["card"]) for p in tt["plays"]] == [
            (p["player"], p["card"]) for p in rec["plays"]
        ]
        settled = [p["settled_frame"] for p in tt["plays"]]
        assert previous_end < settled[0] and settled == sorted(settled)
        assert tt["complete_frame"] == settled[-1] < tt["cleared_frame"]
        rested = [p["rested_frame"] for p in tt["plays"]]
        assert all(r <= s for r, s in zip(rested, settled, strict=True))
        assert all(s < r for s, r in zip(settled, rested[1:], strict=False))  # one at a time
        previous_end = tt["cleared_frame"]
    assert truth["frames"] == len(_frames(game_dir)) == len(list((game_dir / "frames").iterdir()))


def test_frames_show_exactly_the_record_cards(game_dir: Path) -> None:
    truth = json.loads((game_dir / "truth.json").read_text())
    frames = _frames(game_dir)
    for tt in truth["tricks"]:
        trick_cards = {(p["player"], p["card"].split(":")[0]) for p in tt["plays"]}
        for f in frames[tt["plays"][0]["settled_frame"] : tt["cleared_frame"]]:
            assert {(c["player"], c["face"]) for c in f["cards"]} <= trick_cards
        at_end = frames[tt["complete_frame"]]["cards"]
        assert {(c["player"], c["face"]) for c in at_end} == trick_cards
        assert all(c["state"] == "settled" for c in at_end)
        assert frames[tt["cleared_frame"]]["cards"] == []
        for k, play in enumerate(tt["plays"]):
            # when it first rests the hand has gone: the card is in full view
            (resting,) = [
                c for c in frames[play["rested_frame"]]["cards"] if c["player"] == play["player"]
            ]
            assert resting["visible_fraction"] > 0.95, k
            # from its settled frame to the sweep the card lies still, fully visible
            on_table = [
                c
                for f in frames[play["settled_frame"] : tt["complete_frame"] + 1]
                for c in f["cards"]
                if c["player"] == play["player"]
            ]
            assert len(on_table) == tt["complete_frame"] - play["settled_frame"] + 1, k
            assert all(c["corners"] == on_table[0]["corners"] for c in on_table)
            assert on_table[-1]["visible_fraction"] > 0.95


def test_rendered_pixels_show_the_record_cards(game_dir: Path, deck_dir: Path) -> None:
    """Rectify each card at the trick's completion frame: it matches its own face best."""
    deck = load_deck(deck_dir)
    small = {
        f: cv2.resize(img, (56, 87), interpolation=cv2.INTER_AREA).astype(np.float32)
        for f, img in deck.items()
    }
    truth = json.loads((game_dir / "truth.json").read_text())
    frames = _frames(game_dir)
    dst = np.array([[0, 0], [56, 0], [56, 87], [0, 87]], np.float32)
    checked = 0
    for tt in truth["tricks"]:
        image = imread(game_dir / "frames" / f"frame_{tt['complete_frame']:06d}.jpg")
        for card in frames[tt["complete_frame"]]["cards"]:
            M = cv2.getPerspectiveTransform(np.asarray(card["corners"], np.float32), dst)
            crop = cv2.warpPerspective(image, M, (56, 87)).astype(np.float32)
            # normalized correlation: insensitive to the game's lighting and white balance
            scores = {
                f: float(cv2.matchTemplate(crop, ref, cv2.TM_CCOEFF_NORMED)[0, 0])
                for f, ref in small.items()
            }
            assert max(scores, key=scores.__getitem__) == card["face"]
            checked += 1
    assert checked == sum(len(t["plays"]) for t in truth["tricks"])


def test_cards_point_at_the_centre_unless_crosswise(game_dir: Path) -> None:
    """In image space: a card's long axis points at the image centre (within 45 degrees), except
    a Tigress declared an escape, which lies crosswise (docs/architecture.md)."""
    truth = json.loads((game_dir / "truth.json").read_text())
    frames = _frames(game_dir)
    for tt in truth["tricks"]:
        cards = {c["player"]: c for c in frames[tt["complete_frame"]]["cards"]}
        for play in tt["plays"]:
            pts = np.asarray(cards[play["player"]]["corners"])
            axis = (pts[2] + pts[3]) / 2 - (pts[0] + pts[1]) / 2
            to_centre = np.array([320.0, 240.0]) - pts.mean(axis=0)
            cos = abs(axis @ to_centre) / (np.linalg.norm(axis) * np.linalg.norm(to_centre))
            assert (cos < math.cos(math.radians(45))) == (play["card"] == "tigress:escape")
            assert play["crosswise"] == (play["card"] == "tigress:escape")


def test_video_and_meta(game_dir: Path) -> None:
    meta = json.loads((game_dir / "meta.json").read_text())
    assert meta["n_players"] == 3 and meta["fps"] == 5.0 and meta["seat_layout"] == "default"
    cap = cv2.VideoCapture(str(game_dir / "game.mp4"))
    assert cap.isOpened()
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == meta["frames"]
    assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(5.0)
    cap.release()


def test_default_seat_layout() -> None:
    rng = np.random.default_rng(0)
    # 4 players: 0 bottom, 1 left, 2 top, 3 right (image coordinates, y down)
    centers = [_seat_pose("escape", p, 4, rng, 110.0, False).center for p in range(4)]
    assert centers[0][1] > 80 and abs(centers[0][0]) < 20
    assert centers[1][0] < -80
    assert centers[2][1] < -80
    assert centers[3][0] > 80


@pytest.mark.parametrize("crosswise", [False, True])
def test_tigress_convention(crosswise: bool) -> None:
    rng = np.random.default_rng(1)
    for player in range(5):
        for _ in range(10):
            pl = _seat_pose("tigress", player, 5, rng, 110.0, crosswise)
            to_centre = math.atan2(-pl.center[1], -pl.center[0])
            # angle between the card's long axis and the line to the centre, folded to 0..90
            diff = abs((pl.heading - to_centre + math.pi / 2) % math.pi - math.pi / 2)
            assert (diff > math.radians(45)) == crosswise


def test_same_seed_same_game(deck_dir: Path, tmp_path: Path) -> None:
    cfg = GameConfig(players=2, rounds=1, fps=4.0)
    write_game(deck_dir, tmp_path / "a", cfg, seed=9, progress=False)
    write_game(deck_dir, tmp_path / "b", cfg, seed=9, progress=False)
    for name in ("game.json", "truth.json", "frames.jsonl", "frames/frame_000010.jpg"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_bad_game_arguments(
    deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UserError, match=r"--players must be 2\.\.8"):
        write_game(deck_dir, tmp_path, GameConfig(players=9), progress=False)
    with pytest.raises(UserError, match=r"--rounds must be 1\.\.10"):
        write_game(deck_dir, tmp_path, GameConfig(rounds=0), progress=False)
    rc = main(
        [
            "synth",
            "game",
            "--deck",
            str(deck_dir),
            "--players",
            "3",
            "--out",
            str(tmp_path),
            "--no-frames",
        ]
    )
    assert rc == 2
    assert "--no-frames needs --video" in capsys.readouterr().err


def test_faces_are_the_deck_size() -> None:
    assert (FACE_W, FACE_H) == (224, 348) and len(FACES) == 69


def test_the_summary_counts_one_round_and_one_trick_in_the_singular() -> None:
    """`skullcam synth game --rounds 1` said "1 rounds, 1 tricks"."""
    one = game_summary(GameConfig(players=4, rounds=1), tricks=1, frames=100, out=Path("g"))
    assert one == "wrote a 4-player game (1 round, 1 trick, 100 frames at 10 fps) to g"
    three = game_summary(GameConfig(players=3, rounds=3, fps=5.0), 6, 1, Path("g"))
    assert three == "wrote a 3-player game (3 rounds, 6 tricks, 1 frame at 5 fps) to g"


@pytest.mark.parametrize("expansion", [False, True])
def test_an_expansion_game_turns_on_every_expansion_cards_setting(expansion: bool) -> None:
    """``--expansion`` deals every card of the rules' table of expansion cards, read from that
    table, so a card added there comes into generated games without a change here."""
    from skullcam.datasets.game_video import simulate
    from skullcam.rules.cards import EXPANSION_SETTINGS

    record = simulate(GameConfig(players=3, rounds=2, expansion=expansion), seed=1)
    for key in EXPANSION_SETTINGS.values():
        assert getattr(record.settings, key) is expansion, key
    assert record.settings.rounds == 2
