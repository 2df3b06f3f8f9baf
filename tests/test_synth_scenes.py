"""Scenes: camera geometry, occlusion accounting, labels, determinism, the dataset on disk, CLI."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from image_support import imread

from skullcam.cli import main
from skullcam.datasets.dataset import (
    read_rendered_with,
    read_scenes,
    relabel_scenes,
    rendered_with,
    split_counts,
    write_scenes,
)
from skullcam.datasets.deck import render_face, write_deck
from skullcam.datasets.faces import FACES
from skullcam.datasets.scenes import (
    CARD_H_MM,
    CARD_W_MM,
    Camera,
    PlacedCard,
    Placement,
    SceneConfig,
    compose,
    label_lines,
    obb_label_line,
    render_scene,
)
from skullcam.errors import UserError

W, H = 640, 480


@pytest.fixture(scope="module")
def deck() -> dict[str, np.ndarray]:
    return {face: render_face(face) for face in FACES}


@pytest.fixture(scope="module")
def deck_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_deck(tmp_path_factory.mktemp("deck") / "classic")


def top_down(card_px: float = 100.0) -> Camera:
    return Camera.look_at(W, H, height_mm=850, tilt_deg=0, azimuth_deg=0, card_length_px=card_px)


def plain(value: int = 90) -> np.ndarray:
    return np.full((H, W, 3), value, np.uint8)


# ----------------------------------------------------------------------------------- geometry


def test_top_down_camera_scale_and_orientation() -> None:
    cam = top_down(100.0)
    pl = Placement("green-7", center=(0.0, 0.0), heading=-math.pi / 2)  # upright: top points up
    px = cam.project(pl.corners_mm())
    tl, tr, _br, bl = px
    assert tl[0] < tr[0] and tl[1] < bl[1]  # TL TR BR BL of the upright face
    assert np.linalg.norm(bl - tl) == pytest.approx(100.0, rel=1e-6)
    assert np.linalg.norm(tr - tl) == pytest.approx(100.0 * CARD_W_MM / CARD_H_MM, rel=1e-6)
    assert px.mean(axis=0) == pytest.approx([W / 2, H / 2])


@pytest.mark.parametrize("tilt", [0.0, 12.0, 25.0])
def test_project_unproject_round_trip(tilt: float) -> None:
    cam = Camera.look_at(W, H, 900, tilt, 70, 90, target=(10, -5), roll_deg=3)
    pts = np.array([[0, 0], [120, -40], [-200, 150]], np.float64)
    assert cam.unproject(cam.project(pts)) == pytest.approx(pts, abs=1e-6)
    # the target lands at the principal point
    assert cam.project(np.array([[10, -5]]))[0] == pytest.approx([W / 2, H / 2], abs=1e-6)


def test_tilted_camera_makes_far_cards_smaller() -> None:
    cam = Camera.look_at(W, H, 800, 25, 90, 100)  # camera leans towards +y (image bottom)
    near = cam.project(Placement("escape", (0, 120), -math.pi / 2).corners_mm())
    far = cam.project(Placement("escape", (0, -120), -math.pi / 2).corners_mm())
    assert np.linalg.norm(near[3] - near[0]) > np.linalg.norm(far[3] - far[0]) * 1.1


def test_card_box_is_what_its_projected_corners_imply(deck: dict[str, np.ndarray]) -> None:
    cam = Camera.look_at(W, H, 850, 18, 40, 110)
    pl = Placement("pirate-rosie", center=(30.0, -20.0), heading=math.radians(200))
    image, cards = compose(deck, cam, plain(0), [pl])  # black table: the drop shadow cannot show
    (card,) = cards
    expected = cam.project(pl.corners_mm())
    assert card.corners == pytest.approx(expected.astype(np.float32), abs=1e-3)
    assert card.box == pytest.approx((*expected.min(axis=0), *expected.max(axis=0)), abs=1e-3)
    # the pixels changed by the card are the pixels inside its projected outline
    drawn = np.any(image != 0, axis=2)
    poly = np.zeros((H, W), np.uint8)
    cv2.fillPoly(poly, [np.round(expected).astype(np.int32)], 1)
    iou = (drawn & (poly > 0)).sum() / (drawn | (poly > 0)).sum()
    assert iou > 0.95
    assert card.visible_fraction == pytest.approx(1.0, abs=0.02)


def test_face_top_left_lands_at_the_first_corner(deck: dict[str, np.ndarray]) -> None:
    # a face whose top-left quarter is red and the rest blue: the red corner is corners[0]
    face = np.full_like(deck["escape"], (255, 0, 0))
    face[:87, :56] = (0, 0, 255)
    cam = top_down(150.0)
    pl = Placement("escape", center=(0.0, 0.0), heading=math.radians(35))
    image, (card,) = compose({**deck, "escape": face}, cam, plain(0), [pl])
    tl, br = card.corners[0], card.corners[2]
    probe_tl = tl + (br - tl) * 0.08
    probe_br = tl + (br - tl) * 0.92
    assert image[int(probe_tl[1]), int(probe_tl[0])][2] > 200  # red near corner 0
    assert image[int(probe_br[1]), int(probe_br[0])][0] > 200  # blue near corner 2


# ---------------------------------------------------------------------------------- occlusion


def test_occlusion_by_a_later_card(deck: dict[str, np.ndarray]) -> None:
    cam = top_down(100.0)
    under = Placement("green-3", (0.0, 0.0), -math.pi / 2)
    half = Placement("black-9", (CARD_W_MM / 2, 0.0), -math.pi / 2)  # covers the right half
    _, (a, b) = compose(deck, cam, plain(), [under, half])
    assert a.visible_fraction == pytest.approx(0.5, abs=0.03)
    assert b.visible_fraction == pytest.approx(1.0, abs=0.02)
    assert a.corner_visible[0] == pytest.approx(1.0, abs=0.05)  # the top-left mark shows
    assert a.corner_visible[1] < 0.05  # the bottom-right one is under the other card
    exact = Placement("black-9", (0.0, 0.0), -math.pi / 2)
    _, (c, _d) = compose(deck, cam, plain(), [under, exact])
    assert c.visible_fraction < 0.01
    assert not c.labelled


def test_occlusion_by_a_prop_and_by_the_frame(deck: dict[str, np.ndarray]) -> None:
    cam = top_down(100.0)
    pl = Placement("tigress", (0.0, 0.0), -math.pi / 2)
    corners = cam.project(pl.corners_mm())
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    ymid = (y0 + y1) / 2

    def cover_top(img: np.ndarray, mask: np.ndarray) -> None:
        cv2.rectangle(mask, (0, 0), (W, round(ymid) - 1), 255, -1)

    _, (card,) = compose(deck, cam, plain(), [pl], occluders=(cover_top,))
    assert card.visible_fraction == pytest.approx(0.5, abs=0.03)
    assert card.corner_visible == pytest.approx((0.0, 1.0), abs=0.05)
    # a card three quarters outside the frame on the right
    pos = cam.unproject(np.array([[W + (x1 - x0) / 4, H / 2]]))[0]
    edge = Placement("tigress", (float(pos[0]), float(pos[1])), -math.pi / 2)
    _, (out,) = compose(deck, cam, plain(), [edge], min_visible=0.5)
    assert out.visible_fraction == pytest.approx(0.25, abs=0.03)
    assert not out.labelled
    assert out.box[2] == W  # the box is clipped to the frame


def test_min_visible_threshold_is_a_parameter(deck: dict[str, np.ndarray]) -> None:
    cam = top_down(100.0)
    under = Placement("green-3", (0.0, 0.0), -math.pi / 2)
    over = Placement("black-9", (CARD_W_MM * 0.4, 0.0), -math.pi / 2)  # 40 % of "under" shows
    _, cards = compose(deck, cam, plain(), [under, over], min_visible=0.5)
    assert not cards[0].labelled
    _, cards = compose(deck, cam, plain(), [under, over], min_visible=0.3)
    assert cards[0].labelled


# ---------------------------------------------------------------------------------- labels


def test_corner_mark_labels_follow_their_visibility(deck: dict[str, np.ndarray]) -> None:
    cam = top_down(100.0)
    under = Placement("green-3", (0.0, 0.0), -math.pi / 2)
    half = Placement(
        "black-9", (CARD_W_MM * 0.6, 0.0), -math.pi / 2
    )  # hides the BR mark of "under"
    _, cards = compose(deck, cam, plain(), [under, half])
    lines = label_lines(cards, W, H, 0.5, marks=True)
    assert [line.split()[0] for line in lines] == ["0", "0", "1", "1", "1"]
    tl_mark = np.array([float(v) for v in lines[2].split()[1:]]).reshape(4, 2) * [W, H]
    assert tl_mark == pytest.approx(cards[0].marks[0], abs=0.01)
    assert label_lines(cards, W, H, 0.5, marks=False) == lines[:2]


def _card(corners: list[list[float]]) -> PlacedCard:
    pts = np.asarray(corners, np.float32)
    return PlacedCard("escape", pts, (0, 0, 0, 0), 1.0, (1.0, 1.0), labelled=True)


def test_obb_label_inside_and_leaving_the_frame() -> None:
    line = obb_label_line(_card([[64, 48], [128, 48], [128, 144], [64, 144]]), W, H)
    assert line == "0 0.100000 0.100000 0.200000 0.100000 0.200000 0.300000 0.100000 0.300000"
    line = obb_label_line(_card([[600, 100], [700, 100], [700, 250], [600, 250]]), W, H)
    values = [float(v) for v in line.split()[1:]]
    assert len(values) == 8 and all(0.0 <= v <= 1.0 for v in values)
    xs = values[0::2]
    assert min(xs) == pytest.approx(600 / W, abs=1e-3) and max(xs) == pytest.approx(1.0)


def test_scene_card_count_sizes_and_seats(deck: dict[str, np.ndarray]) -> None:
    cfg = SceneConfig(layout_weights=(1.0, 0.0, 0.0), p_previous=0.0, photometric=False)
    for seed in range(6):
        scene = render_scene(deck, np.random.default_rng(seed), cfg)
        trick = [c for c in scene.cards if c.role == "trick"]
        assert 2 <= len(trick) <= 8
        assert scene.image.shape == (H, W, 3)
        for card in trick:
            length = np.linalg.norm(card.corners[3] - card.corners[0])
            assert 45 < length < 160  # 70..120 px at the centre, perspective at the edges
            assert card.seat is not None
        leader, players = scene.meta["leader"], scene.meta["players"]
        assert isinstance(leader, int) and isinstance(players, int)
        assert [c.seat for c in sorted(trick, key=_play_order)] == [
            (leader + k) % players for k in range(len(trick))
        ]


def _play_order(card: PlacedCard) -> int:
    """A trick card's place in the order of play (a trick card always has one)."""
    assert card.order is not None
    return card.order


def test_render_scene_is_deterministic(deck: dict[str, np.ndarray]) -> None:
    a = render_scene(deck, np.random.default_rng(7))
    b = render_scene(deck, np.random.default_rng(7))
    c = render_scene(deck, np.random.default_rng(8))
    assert np.array_equal(a.image, b.image)
    assert [x.to_json() for x in a.cards] == [x.to_json() for x in b.cards]
    assert not np.array_equal(a.image, c.image)


# ---------------------------------------------------------------------------------- dataset


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_dataset_same_for_any_worker_count(deck_dir: Path, tmp_path: Path) -> None:
    counts = {"train": 4, "val": 2, "test": 2}
    write_scenes(deck_dir, tmp_path / "one", counts, seed=3, workers=1, progress=False)
    write_scenes(deck_dir, tmp_path / "two", counts, seed=3, workers=2, progress=False)
    one, two = _digest(tmp_path / "one"), _digest(tmp_path / "two")
    one.pop("data.yaml"), two.pop("data.yaml")  # holds the absolute path
    assert one == two
    images = [v for k, v in one.items() if k.endswith(".jpg")]
    assert len(images) == 8 and len(set(images)) == 8  # no duplicates within or across splits


def test_a_data_yaml_in_place_or_made_by_hand_is_used_as_it_is(
    deck_dir: Path, tmp_path: Path
) -> None:
    from skullcam.datasets.dataset import data_yaml_for_here

    write_scenes(deck_dir, tmp_path / "s", {"val": 1}, seed=3, workers=1, progress=False)
    spare = tmp_path / "spare.yaml"
    assert data_yaml_for_here(tmp_path / "s" / "data.yaml", spare) == tmp_path / "s" / "data.yaml"
    assert not spare.exists()
    # A hand-made description kept apart from its images is theirs to place.
    (tmp_path / "cfg").mkdir()
    custom = tmp_path / "cfg" / "custom.yaml"
    custom.write_text(f"path: {tmp_path / 's'}\ntrain: images/val\nval: images/val\n")
    assert data_yaml_for_here(custom, spare) == custom
    assert not spare.exists()


def test_dataset_files_agree(deck_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    labelled = write_scenes(deck_dir, out, {"train": 5, "val": 1}, seed=11, progress=False)
    yaml = (out / "data.yaml").read_text()
    assert f"path: {out.resolve()}" in yaml
    assert "train: images/train" in yaml and "val: images/val" in yaml
    assert "names:\n  0: card" in yaml
    assert "test:" not in yaml
    # which libraries drew the pixels: another OpenCV renders other scenes from the same seed
    assert f"# rendered with opencv {cv2.__version__}, numpy {np.__version__}\n" in yaml
    assert read_rendered_with(out) == rendered_with()  # what eval reports beside its figures
    assert read_rendered_with(tmp_path / "no such dataset") is None
    records: list[dict[str, Any]] = read_scenes(out, "train")  # JSON records
    assert [r["index"] for r in records] == list(range(5))
    total = 0
    for rec in records:
        img = imread(out / rec["file"])
        assert img.shape == (480, 640, 3)
        label = out / rec["file"].replace("images/", "labels/").replace(".jpg", ".txt")
        lines = label.read_text().splitlines()
        marked = [c for c in rec["cards"] if c["labelled"]]
        assert len(lines) == len(marked)
        for c in rec["cards"]:
            assert 0.0 <= c["visible_fraction"] <= 1.0
            assert c["labelled"] == (c["visible_fraction"] >= 0.5)
            assert c["face"] in FACES
        total += len(lines)
    assert labelled["train"] == total


def _label_rows(out: Path, split: str) -> list[np.ndarray]:
    return [
        np.array([[float(v) for v in line.split()] for line in path.read_text().splitlines()])
        for path in sorted((out / "labels" / split).glob("*.txt"))
    ]


def test_a_smaller_run_into_the_same_folder_leaves_no_stale_scenes(
    deck_dir: Path, tmp_path: Path
) -> None:
    """The detector trains on every image in the folder, evaluation on scenes.jsonl: a second,
    smaller run must not leave the first run's extra scenes to be mixed in unseen."""
    out = tmp_path / "ds"
    write_scenes(deck_dir, out, {"train": 4, "val": 2}, seed=1, progress=False)
    (out / "images" / "train" / "my-photo.jpg").write_bytes(b"not ours")
    write_scenes(deck_dir, out, {"train": 2, "val": 0}, seed=2, progress=False)
    images = sorted(p.name for p in (out / "images" / "train").iterdir())
    assert images == ["my-photo.jpg", "train_000000.jpg", "train_000001.jpg"]
    labels = sorted(p.name for p in (out / "labels" / "train").glob("*.txt"))
    assert labels == ["train_000000.txt", "train_000001.txt"]
    assert not (out / "images" / "val").exists() and not (out / "labels" / "val").exists()
    assert "val: images/train  # no val split written" in (out / "data.yaml").read_text()


def test_relabel_redraws_labels_at_a_new_threshold_without_rendering(
    deck_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    write_scenes(deck_dir, out, {"train": 6}, seed=5, progress=False)
    original = _label_rows(out, "train")
    images = {p.name: p.stat().st_mtime_ns for p in (out / "images" / "train").iterdir()}

    # The generator's own threshold gives back its own files (corners kept to 0.01 px).
    relabel_scenes(out, 0.5)
    for before, after in zip(original, _label_rows(out, "train"), strict=True):
        assert before.shape == after.shape and np.allclose(before, after, atol=1e-4)

    counts = relabel_scenes(out, 0.2)
    records: list[dict[str, Any]] = read_scenes(out, "train")  # JSON records
    wanted = [c for r in records for c in r["cards"] if c["visible_fraction"] >= 0.2]
    assert counts == {"train": len(wanted)}
    assert counts["train"] > sum(len(rows) for rows in original)  # half-hidden cards now count
    assert all(c["labelled"] == (c["visible_fraction"] >= 0.2) for r in records for c in r["cards"])
    assert {p.name: p.stat().st_mtime_ns for p in (out / "images" / "train").iterdir()} == images


def test_relabel_refuses_what_it_cannot_redraw(deck_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no scenes\.jsonl"):
        relabel_scenes(tmp_path, 0.3)
    out = tmp_path / "marks"
    write_scenes(deck_dir, out, {"train": 1}, seed=5, progress=False, marks=True)
    with pytest.raises(UserError, match="corner-mark labels"):
        relabel_scenes(out, 0.3)


def test_split_counts() -> None:
    assert split_counts(100, 0.1, 0.2) == {"train": 70, "val": 10, "test": 20}
    with pytest.raises(UserError, match="leave some scenes for train"):
        split_counts(10, 0.5, 0.5)
    with pytest.raises(UserError, match="at least 1"):
        split_counts(0, 0.1, 0.1)


# ---------------------------------------------------------------------------------- CLI


def test_cli_scenes_one_split(
    deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "only-val"
    rc = main(
        [
            "synth",
            "scenes",
            "--deck",
            str(deck_dir),
            "--count",
            "2",
            "--out",
            str(out),
            "--split",
            "val",
            "--workers",
            "1",
            "--no-progress",
        ]
    )
    assert rc == 0
    assert sorted(p.name for p in (out / "images" / "val").iterdir()) == [
        "val_000000.jpg",
        "val_000001.jpg",
    ]
    assert not (out / "images" / "train").exists()
    assert "train: images/val" in (out / "data.yaml").read_text()
    assert "wrote val 2 scenes" in capsys.readouterr().out


def test_one_scene_and_its_cards_are_counted_in_the_singular(
    deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`synth scenes --count 1` said "wrote val 1 scenes", and relabel "1 labelled cards"."""
    out = tmp_path / "one"
    argv = ["synth", "scenes", "--deck", str(deck_dir), "--count", "1", "--out", str(out)]
    assert main([*argv, "--split", "val", "--workers", "1", "--no-progress"]) == 0
    assert "wrote val 1 scene / " in capsys.readouterr().out
    # Only the card seen best still counts as labelled: one card.
    records: list[dict[str, Any]] = read_scenes(out, "val")  # JSON records
    best = max(card["visible_fraction"] for card in records[0]["cards"])
    assert main(["synth", "relabel", "--dataset", str(out), "--min-visible", str(best)]) == 0
    assert capsys.readouterr().out.endswith(": val 1 labelled card\n")


def test_cli_scenes_with_marks(deck_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "marks"
    argv = [
        "synth",
        "scenes",
        "--deck",
        str(deck_dir),
        "--count",
        "3",
        "--out",
        str(out),
        "--split",
        "train",
        "--workers",
        "1",
        "--no-progress",
        "--labels",
        "card+marks",
    ]
    assert main(argv) == 0
    assert "  1: mark" in (out / "data.yaml").read_text()
    records: list[dict[str, Any]] = read_scenes(out, "train")  # JSON records
    for rec in records:
        label = out / rec["file"].replace("images/", "labels/").replace(".jpg", ".txt")
        classes = [line.split()[0] for line in label.read_text().splitlines()]
        marks = sum(v >= 0.5 for c in rec["cards"] for v in c["corner_visible"])
        assert classes.count("1") == marks
        assert classes.count("0") == sum(c["labelled"] for c in rec["cards"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["synth", "scenes", "--deck", "{missing}", "--count", "2", "--out", "{tmp}/x"],
            "does not exist",
        ),
        (
            [
                "synth",
                "scenes",
                "--deck",
                "{deck}",
                "--count",
                "4",
                "--out",
                "{tmp}/x",
                "--val-fraction",
                "0.6",
                "--test-fraction",
                "0.5",
            ],
            "leave some scenes for train",
        ),
        (["synth", "deck", "--out", "{tmp}/d", "--style", "neon"], "unknown deck style"),
        (
            [
                "synth",
                "scenes",
                "--deck",
                "{deck}",
                "--count",
                "2",
                "--out",
                "{tmp}/x",
                "--backgrounds",
                "{missing}",
            ],
            "--backgrounds",
        ),
    ],
)
def test_cli_user_errors_are_one_line(
    argv: list[str],
    message: str,
    deck_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [a.format(missing=tmp_path / "missing", tmp=tmp_path, deck=deck_dir) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_cli_argument_errors_exit_2(deck_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["synth", "scenes", "--deck", str(deck_dir), "--count", "0", "--out", str(tmp_path)])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["synth"])
    assert exc.value.code == 2
