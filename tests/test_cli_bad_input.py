"""Bad input on the command line: one line naming what was wrong and what to do, exit code 2,
no traceback and nothing recorded or saved half-way."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import cv2
import numpy as np
import pytest
from image_support import grey_empty_table, imread
from model_variants import shipped_model_with
from repo_paths import SAMPLE_SCENES

from skullcam.cli import main
from skullcam.vision.recognizer import MANIFEST, shipped_model_dir

NOT_UTF8 = b"\xff\xfe\x00\x81 binary"


def fails(argv: list[str], capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    """Run the CLI; it must exit 2 with one error line holding every needle."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err
    return err


def refused_by_parser(argv: list[str], capsys: pytest.CaptureFixture[str], needle: str) -> None:
    """An out-of-range option is refused by argparse (one error line, exit 2)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err, err


@pytest.fixture
def image(tmp_path: Path) -> Path:
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), np.full((480, 640, 3), 90, np.uint8))
    return path


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "frame_000000.png"), np.zeros((48, 64, 3), np.uint8))
    return folder


# --- item 2/3: models that do not load, or do not match their manifest ----------------------


def test_activate_refuses_a_model_whose_files_are_missing(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "half"
    folder.mkdir()
    (folder / MANIFEST).write_text((shipped_model_dir() / MANIFEST).read_text())
    (folder / "card-detector.onnx").symlink_to(shipped_model_dir() / "card-detector.onnx")
    data = tmp_path / "data"
    fails(
        ["enroll", "--activate", str(folder), "--data", str(data)],
        capsys,
        "not activated",
        "card-classifier.onnx is missing",
    )
    assert not (data / "active_model").exists()


def test_activate_refuses_an_empty_name(tmp_path: Path, capsys) -> None:
    fails(["enroll", "--activate", "", "--data", str(tmp_path)], capsys, "no complete model")


def test_going_back_to_the_shipped_model_says_why_the_pointer_cannot_go(
    tmp_path: Path, capsys
) -> None:
    """A folder where the pointer file goes (or a read-only card) was a traceback."""
    (tmp_path / "active_model").mkdir()
    fails(
        ["enroll", "--activate", "shipped", "--data", str(tmp_path)],
        capsys,
        f"cannot remove {tmp_path / 'active_model'} (Is a directory), the file naming the active",
        "move",
    )


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"detector_input": [100, 100]}, "card-detector.onnx has input 1x3x256x320"),
        (
            {"classes": "first ten"},
            "card-classifier.onnx has output nx70, the manifest needs Nx10 (detector_input "
            "[256, 320], 10 classes); card-classifier.onnx was trained for 70 classes and the "
            "manifest lists 10: train it again (skullcam train without --skip-classifier)",
        ),
        (
            {"detector": "card-classifier.onnx", "classifier": "card-detector.onnx"},
            "card-classifier.onnx has input nx3x96x64",
        ),
    ],
)
def test_a_model_that_does_not_match_its_manifest_is_refused_at_load(
    tmp_path: Path, image: Path, capsys, change: dict, needle: str
) -> None:
    if change.get("classes") == "first ten":
        classes = json.loads((shipped_model_dir() / MANIFEST).read_text())["classes"]
        change = {"classes": [*classes[:9], "none"]}
    model = shipped_model_with(tmp_path / "model", **change)
    fails(
        ["detect", str(image), "--model", str(model)],
        capsys,
        f"model {model} doesn't match its recognizer.json",
        needle,
    )


def _shipped_classes() -> list[str]:
    return json.loads((shipped_model_dir() / MANIFEST).read_text())["classes"]


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (
            {"classes": ["green-1", *_shipped_classes()[:-2], "none"]},
            "lists green-1 more than once",
        ),
        ({"classes": _shipped_classes()[:-1]}, "classes has no 'none'"),
        ({"detector_conf": 5}, "detector_conf is 5; it must be from 0 to 1"),
        ({"detector_iou": 1.5}, "detector_iou is 1.5; it must be from 0 to 1"),
        ({"min_confidence": -1}, "min_confidence is -1; it must be from 0 to 1"),
        ({"corner_min_confidence": 2}, "corner_min_confidence is 2; it must be from 0 to 1"),
        ({"mirror_below": 1.2}, "mirror_below is 1.2; it must be from 0 to 1"),
        ({"min_confidence": "NaN"}, "min_confidence is nan; it must be from 0 to 1"),
        ({"corner_weight": 1000}, "corner_weight must be 0 to 4, not 1000"),
        ({"detector_input": "256x320"}, "detector_input must be [height, width] in pixels"),
        ({"classes": "green-1"}, "classes must be a list of card ids, not 'green-1'"),
        ({"detector_conf": True}, "expected a number, not True"),
        ({"version": None}, "version must be text, not None"),
        ({"corner_weight": -0.5}, "corner_weight must be 0 to 4, not -0.5"),
    ],
)
def test_a_manifest_with_a_face_twice_or_a_threshold_out_of_range_is_refused(
    tmp_path: Path, image: Path, capsys, change: dict, needle: str
) -> None:
    model = shipped_model_with(tmp_path / "model", **change)
    fails(["detect", str(image), "--model", str(model)], capsys, str(model / MANIFEST), needle)
    data = tmp_path / "data"
    fails(
        ["enroll", "--activate", str(model), "--data", str(data)], capsys, "not activated", needle
    )
    assert not (data / "active_model").exists()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[1, 2]", "a JSON object with version, detector, classifier, detector_input, classes"),
        ("[1, 2]", "expected, not array"),
        (
            '{"version": "v", "detector": "d"}',
            "it has no 'classifier', 'detector_input', 'classes'",
        ),
        ("{oops", "recognizer manifest is not valid JSON (line 1, column 2"),
    ],
)
def test_a_manifest_that_is_no_object_or_lacks_keys_says_what_it_needs(
    tmp_path: Path, image: Path, capsys, text: str, needle: str
) -> None:
    model = shipped_model_with(tmp_path / "model")
    (model / MANIFEST).write_text(text)
    fails(["detect", str(image), "--model", str(model)], capsys, str(model / MANIFEST), needle)


def test_a_manifest_that_is_a_folder_is_said_so_not_missing(
    tmp_path: Path, image: Path, capsys
) -> None:
    model = shipped_model_with(tmp_path / "model")
    (model / MANIFEST).unlink()
    (model / MANIFEST).mkdir()
    err = fails(["detect", str(image), "--model", str(model)], capsys, str(model / MANIFEST))
    assert "is a folder" in err and "missing" not in err, err


def test_model_given_as_a_file_that_is_no_manifest(tmp_path: Path, image: Path, capsys) -> None:
    fails(["detect", str(image), "--model", str(image)], capsys, f"model {image} is a file")


# --- item 4: non-finite seat directions -----------------------------------------------------


@pytest.mark.parametrize(
    "extra", [["--first-seat", "nan"], ["--first-seat", "inf"], ["--center", "nan,inf"]]
)
def test_calibrate_refuses_non_finite_numbers(tmp_path: Path, capsys, extra: list[str]) -> None:
    data = tmp_path / "data"
    fails(["calibrate", "--players", "4", *extra, "--data", str(data)], capsys, repr(extra[1]))
    assert not (data / "seats.json").exists()


def test_a_non_finite_saved_calibration_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "seats.json").write_text(
        '{"format": "skullcam-seats/1", "centre": [NaN, 1], "angles_degrees": [0, 180]}'
    )
    fails(["calibrate", "--show", "--data", str(tmp_path)], capsys, "bad seat calibration")


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('"centre": [1, 2], "angles_degrees": "oops"', "its 'angles_degrees' is not valid"),
        ('"centre": "x", "angles_degrees": [0, 180]', "its 'centre' is not valid"),
        ('"angles_degrees": [0, 180]', "no 'centre'"),
        ('"centre": {"x": 1}, "angles_degrees": [0, 180]', "its 'centre' is not valid"),
        ('"centre": [1, 2], "angles_degrees": [0, 90], "frame_size": [0, 4]', "'frame_size'"),
    ],
)
def test_a_damaged_calibration_names_its_file_and_field(
    tmp_path: Path, capsys, body: str, said: str
) -> None:
    """It said "(could not convert string to float: 'o')", naming neither."""
    path = tmp_path / "seats.json"
    path.write_text('{"format": "skullcam-seats/1", ' + body + "}")
    fails(["calibrate", "--show", "--data", str(tmp_path)], capsys, str(path), said)


# --- item 5: the enrollment web page's port -------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_enroll_refuses_a_port_out_of_range(tmp_path: Path, capsys, port: str) -> None:
    refused_by_parser(
        ["enroll", "--port", port, "--data", str(tmp_path)], capsys, "not a port number"
    )


def test_enroll_says_when_the_port_is_taken(tmp_path: Path, frames: Path, capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["enroll", "--camera", str(frames), "--host", "127.0.0.1", "--port", str(port)]
        fails([*argv, "--trust-names", "--data", str(tmp_path)], capsys, "cannot listen")


# --- item 6: bids checked before the replay -------------------------------------------------


@pytest.mark.parametrize(
    ("bids", "needle"),
    [
        ([[-5, 0, 0, 0]], "round 1: Player 1's bid -5 is out of range: bids are 0..1"),
        ([[1, 0, 0, 0], [0, 99, 0, 0]], "round 2: Player 2's bid 99 is out of range"),
        ([[1, 0, 0, 0], [True, 0, 0, 0]], "4 whole numbers"),
        ([[0, 0, 0, 0]] * 12, "bids for 12 rounds, but the game has 10"),
    ],
)
def test_replay_checks_bids_before_the_pipeline(
    tmp_path: Path, frames: Path, monkeypatch, capsys, bids: list, needle: str
) -> None:
    from skullcam.vision import recognizer as recognizer_module

    def no_pipeline(*a: object, **k: object) -> None:
        raise AssertionError("the bids must be refused before the model loads")

    monkeypatch.setattr(recognizer_module.Recognizer, "load", staticmethod(no_pipeline))
    path = tmp_path / "bids.json"
    path.write_text(json.dumps(bids))
    fails(["replay", str(frames), "--players", "4", "--bids", str(path)], capsys, needle)


# --- item 7: files that are not UTF-8 -------------------------------------------------------


@pytest.mark.parametrize("option", ["--bids", "--settings"])
def test_replay_binary_json_files(tmp_path: Path, frames: Path, capsys, option: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(NOT_UTF8)
    fails(["replay", str(frames), "--players", "4", option, str(path)], capsys, "not UTF-8")


def test_binary_seat_calibration(tmp_path: Path, frames: Path, capsys) -> None:
    (tmp_path / "seats.json").write_bytes(NOT_UTF8)
    fails(["calibrate", "--show", "--data", str(tmp_path)], capsys, "seats.json", "not UTF-8")
    argv = ["replay", str(frames), "--players", "4", "--data", str(tmp_path)]
    fails(argv, capsys, "seats.json", "not UTF-8")


def test_binary_active_model_pointer(tmp_path: Path, image: Path, capsys) -> None:
    (tmp_path / "active_model").write_bytes(NOT_UTF8)
    fails(["detect", str(image), "--data", str(tmp_path)], capsys, "active_model", "--activate")
    # The list still lists: it is where a model to choose again is found.
    assert main(["enroll", "--list", "--data", str(tmp_path)]) == 0
    listed = capsys.readouterr()
    assert "shipped" in listed.out
    assert "active_model" in listed.err and "enroll --activate" in listed.err


def test_binary_demo_game(tmp_path: Path, capsys) -> None:
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "game.json").write_bytes(NOT_UTF8)
    argv = ["run", "--demo", str(tmp_path / "demo"), "--no-web", "--data", str(tmp_path / "d")]
    fails(argv, capsys, "game.json", "not UTF-8")


def test_score_of_a_deeply_nested_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    fails(["score", str(path)], capsys, "nested too deeply")


# --- item 8: --data that is a file or cannot be created -------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--no-web", "--max-seconds", "1"],
        ["calibrate", "--players", "4"],
        ["calibrate", "--reset"],
        ["enroll", "--activate", "shipped"],
    ],
)
def test_data_folder_that_is_a_file(image: Path, capsys, argv: list[str]) -> None:
    fails([*argv, "--data", str(image)], capsys, f"data folder {image} is a file")
    assert image.is_file()


def test_data_folder_that_cannot_be_created(tmp_path: Path, capsys) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("x")
    data = blocked / "data"
    fails(
        ["run", "--no-web", "--max-seconds", "1", "--data", str(data)],
        capsys,
        f"cannot create data folder {data}",
    )
    fails(
        ["calibrate", "--players", "4", "--data", str(data)],
        capsys,
        f"cannot create data folder {data}",
    )


def test_record_frames_when_recordings_is_a_file(
    tmp_path: Path, frames: Path, monkeypatch, capsys
) -> None:
    from skullcam.vision import recognizer as recognizer_module

    monkeypatch.setattr(recognizer_module.Recognizer, "load", staticmethod(lambda *a, **k: None))
    data = tmp_path / "data"
    data.mkdir()
    (data / "recordings").write_text("not a folder")
    from skullcam.store import GameStore

    GameStore(data).create_game(["A", "B", "C"], 0, {})  # a game to record into
    argv = ["run", "--camera", str(frames), "--record-frames", "--no-web", "--data", str(data)]
    fails(argv, capsys, "recordings folder", "is a file")


# --- item 9: numbers and paths checked before work starts ----------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["synth", "scenes", "--deck", "d", "--count", "2", "--out", "o", "--seed", "-1"], "0 or"),
        (["synth", "game", "--deck", "d", "--players", "3", "--out", "o", "--seed", "-1"], "0 or"),
        (["bench", "--frames", "0"], "at least 1"),
        (["bench", "--repeats", "0"], "at least 1"),
        (["train", "--dataset", "d", "--classifier-epochs", "0"], "at least 1"),
        (["train", "--dataset", "d", "--classifier-epochs", "-1"], "at least 1"),
        (["train", "--dataset", "d", "--skip-corner", "--corner-epochs", "3"], "not allowed"),
        (["eval", "--dataset", "d", "--limit", "-1"], "0 or more"),
        (["eval", "--dataset", "d", "--threads", "-1"], "0 or more"),
        (["run", "--max-seconds", "-1"], "more than 0"),
        (
            ["synth", "scenes", "--deck", "d", "--count", "99999999999999999999", "--out", "o"],
            "1,000,000",
        ),
        (["run", "--speed", "nan"], "finite"),
        (["run", "--speed", "1e-300"], "0.05 to 1000"),
        (["run", "--speed", "-1"], "must be 0 (as fast as possible)"),
        (["run", "--port", "99999"], "not a port number"),
    ],
)
def test_numbers_out_of_range_are_refused_by_the_parser(
    capsys, argv: list[str], needle: str
) -> None:
    refused_by_parser(argv, capsys, needle)


def test_eval_report_folder_that_is_a_file(image: Path, capsys) -> None:
    fails(["eval", "--dataset", "d", "--out", str(image)], capsys, "report folder", "is a file")


def scene_dataset(folder: Path, *lines: str) -> Path:
    """A scene dataset whose test split's scenes.jsonl is ``lines``; ``{good}`` in a line
    stands for a real label of the bundled samples (with its image copied alongside)."""
    labels = folder / "labels" / "test"
    (folder / "images" / "test").mkdir(parents=True)
    labels.mkdir(parents=True)
    good = (SAMPLE_SCENES / "labels" / "test" / "scenes.jsonl").read_text().splitlines()[0]
    image = json.loads(good)["file"]
    (folder / image).write_bytes((SAMPLE_SCENES / image).read_bytes())
    (labels / "scenes.jsonl").write_text(
        "".join(line.replace("{good}", good) + "\n" for line in lines)
    )
    return labels / "scenes.jsonl"


def eval_and_bench(dataset: Path, out: Path) -> list[list[str]]:
    return [
        ["eval", "--dataset", str(dataset), "--out", str(out)],
        ["bench", "--dataset", str(dataset), "--frames", "2", "--repeats", "1"],
    ]


@pytest.mark.parametrize(
    ("lines", "needles"),
    [
        (["{good}", '{"file": "x.jpg", "cards": [}'], ["line 2 is not valid JSON", "column 29"]),
        (["[1, 2]"], ["line 1 is not a scene label", "JSON object expected"]),
        (['{"cards": []}'], ["line 1 is not a scene label", "no image file named"]),
        (
            [
                '{"file": "a.jpg", "cards": [{"face": "blue-14", '
                '"corners": [[0, 0], [1, 0], [1, 1], [0, 1]]}]}'
            ],
            ["line 1 is not a scene label", "unknown card 'blue-14'"],
        ),
        (
            ['{"file": "a.jpg", "cards": [{"face": "green-1"}]}'],
            ["line 1", "card has no 'corners'"],
        ),
        (["", "  "], ["no scenes in", "it is empty"]),
        (['{"file": "a.jpg", "cards": null}'], ["line 1", "'cards' must be a list of cards"]),
        (['{"file": "a.jpg", "cards": [7]}'], ["line 1", "card 1 is not a JSON object"]),
        (
            ['{"file": "a.jpg", "cards": [{"face": "green-1", "corners": [[0, 0], [1, 0]]}]}'],
            ["line 1", "card 1 (green-1): 'corners' must be four [x, y] pairs of numbers"],
        ),
        (
            ['{"file": "a.jpg", "cards": [{"face": "green-1", "corners": null}]}'],
            ["card 1 (green-1): 'corners' must be four"],
        ),
        (
            [
                '{"file": "a.jpg", "cards": [{"face": "green-1", '
                '"corners": [[0, 0], [1, "x"], [1, 1], [0, 1]]}]}'
            ],
            ["card 1 (green-1): 'corners' must be four"],
        ),
        (
            [
                '{"file": "a.jpg", "cards": [{"face": "green-1", "corners": '
                '[[0, 0], [1, 0], [1, 1], [0, 1]], "visible_fraction": "most"}]}'
            ],
            ["card 1 (green-1): 'visible_fraction' must be a number from 0 to 1"],
        ),
        (
            [
                '{"file": "a.jpg", "cards": [{"face": "green-1", "corners": '
                '[[0, 0], [1, 0], [1, 1], [0, 1]], "corner_visible": 1}]}'
            ],
            ["card 1 (green-1): 'corner_visible' must be two numbers"],
        ),
    ],
)
def test_eval_and_bench_name_the_file_and_line_of_a_bad_scene_label(
    tmp_path: Path, capsys, lines: list[str], needles: list[str]
) -> None:
    index = scene_dataset(tmp_path / "scenes", *lines)
    for argv in eval_and_bench(tmp_path / "scenes", tmp_path / "report"):
        fails(argv, capsys, str(index), *needles)


def test_eval_and_bench_name_a_scene_image_missing_or_corrupt(tmp_path: Path, capsys) -> None:
    missing = '{"file": "images/test/gone.jpg", "cards": []}'
    scene_dataset(tmp_path / "scenes", "{good}", missing)
    gone = tmp_path / "scenes" / "images" / "test" / "gone.jpg"
    for argv in eval_and_bench(tmp_path / "scenes", tmp_path / "report"):
        fails(argv, capsys, f"image {gone} does not exist")
    gone.write_bytes(b"\xff\xd8 not really a jpeg")
    for argv in eval_and_bench(tmp_path / "scenes", tmp_path / "report"):
        assert main(argv) == 2
        err = capsys.readouterr().err  # eval's progress bar comes first
        assert "Traceback" not in err
        assert f"{gone} is not a readable image" in err.strip().splitlines()[-1], err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--from", "photos", "--list"], "--list: not allowed with argument --from"),
        (["--activate", "shipped", "--from", "photos"], "--from: not allowed with argument"),
        (["--list", "--activate", "shipped"], "--activate: not allowed with argument --list"),
    ],
)
def test_enroll_takes_one_task_a_run(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Listing, activating and enrolling are one each a run: given two, one was done and the
    other dropped without a word."""
    refused_by_parser(["enroll", *argv, "--data", str(tmp_path)], capsys, needle)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--reset", "--players", "5"], "--reset does only that: give it alone, without --players"),
        (["--show", "--players", "3"], "--show does only that: give it alone, without --players"),
        (["--show", "--reset"], "--show does only that: give it alone, without --reset"),
        (
            ["--reset", "--first-seat", "left"],
            "--reset does only that: give it alone, without --first-seat",
        ),
        (["--show", "--model", "m"], "--show does only that: give it alone, without --model"),
    ],
)
def test_calibrate_show_and_reset_do_only_that(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Given with a new calibration's --players, --show showed the old layout and --reset
    forgot it, saving no seats and saying nothing of them."""
    main(["calibrate", "--players", "4", "--data", str(tmp_path)])
    saved = (tmp_path / "seats.json").read_text()
    capsys.readouterr()
    fails(["calibrate", *argv, "--data", str(tmp_path)], capsys, needle)
    assert (tmp_path / "seats.json").read_text() == saved  # nothing done


def test_contact_sheet_names_the_extensions_that_work(tmp_path: Path, capsys) -> None:
    argv = ["synth", "sheet", "--dataset", str(tmp_path), "--out", str(tmp_path / "s.txt")]
    fails(argv, capsys, "s.txt", ".png")


def test_contact_sheet_in_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    out = tmp_path / "a-file" / "sheet" / "s.png"
    argv = ["synth", "sheet", "--dataset", str(SAMPLE_SCENES), "--split", "test", "--out", str(out)]
    fails(argv, capsys, f"cannot create folder for --out {out.parent}")


def test_detect_refuses_an_image_too_thin_to_hold_cards(tmp_path: Path, capsys) -> None:
    thin = tmp_path / "thin.png"
    cv2.imwrite(str(thin), np.full((2, 3000, 3), (40, 80, 120), np.uint8))
    fails(["detect", str(thin)], capsys, str(thin), "3000x2 pixels", "too small or too thin")


def _grey_pictures(folder: Path) -> list[Path]:
    """A sample scene as greyscale files: 8-bit and 16-bit single-channel PNGs, and a JPEG
    whose three channels are the same."""
    scene = imread(SAMPLE_SCENES / "images" / "test" / "test_000000.jpg")
    grey = cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)
    pictures = {
        "grey.png": grey,
        "grey16.png": grey.astype(np.uint16) * 257,
        "grey3.jpg": cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR),
    }
    for name, picture in pictures.items():
        cv2.imwrite(str(folder / name), picture)
    return [folder / name for name in pictures]


def test_detect_refuses_a_picture_of_cards_with_no_colour(tmp_path: Path, capsys) -> None:
    for path in _grey_pictures(tmp_path):
        fails(
            ["detect", str(path), "--data", str(tmp_path)],
            capsys,
            f"{path}: the picture has no colour: card suits are told apart by colour; "
            "use a colour photo or camera",
        )


def test_detect_reads_an_empty_grey_table_as_no_cards(tmp_path: Path, capsys) -> None:
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), grey_empty_table())
    assert main(["detect", str(table), "--json", "--data", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["images"] == [{"path": str(table), "cards": []}]
    assert "no colour" not in err


def test_eval_scores_an_empty_grey_table(tmp_path: Path, capsys) -> None:
    empty = '{"file": "images/test/t.png", "cards": []}'
    scene_dataset(tmp_path / "scenes", empty)
    cv2.imwrite(str(tmp_path / "scenes" / "images" / "test" / "t.png"), grey_empty_table())
    report = tmp_path / "r"
    assert main(["eval", "--dataset", str(tmp_path / "scenes"), "--out", str(report)]) == 0
    metrics = json.loads((report / "metrics.json").read_text())
    assert (metrics["scenes"], metrics["scene_accuracy"]) == (1, 1.0)
    # no card to find, at the edge or inside: nothing is divided by zero
    assert metrics["frame_edge"] == {
        "edge_cards": 0,
        "edge_recall": 0.0,
        "inside_cards": 0,
        "inside_recall": 0.0,
    }
    # a hand-made dataset has no data.yaml to say which OpenCV drew it
    assert metrics["dataset_rendered_with"] is None
    said = capsys.readouterr().out
    assert "scenes rendered with libraries not recorded" in said
    assert " on 1 scene, 0 cards\n" in said  # it said "1 scenes"


def test_eval_refuses_a_scene_with_no_colour(tmp_path: Path, capsys) -> None:
    index = scene_dataset(tmp_path / "scenes", "{good}")
    image = tmp_path / "scenes" / json.loads(index.read_text())["file"]
    grey = cv2.cvtColor(imread(image), cv2.COLOR_BGR2GRAY)
    cv2.imwrite(str(image), grey)
    assert main(["eval", "--dataset", str(tmp_path / "scenes"), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err  # after eval's progress bar
    assert f"{image} has no colour" in err.strip().splitlines()[-1], err


def test_detect_reads_the_good_images_and_names_each_bad_one(tmp_path: Path, capsys) -> None:
    good = SAMPLE_SCENES / "images" / "test" / "test_000000.jpg"
    text = tmp_path / "text.jpg"
    text.write_text("hello")
    gone = tmp_path / "gone.jpg"
    argv = ["detect", str(good), str(text), str(gone), str(good), "--data", str(tmp_path)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out.count(f"{good}: 6 cards") == 2 and "yellow-14" in out
    assert err.splitlines() == [
        f"skullcam detect: error: image {gone} does not exist",  # said before the model loads
        f"skullcam detect: error: {text} is not a readable image (corrupt, empty or unknown "
        "format): give a JPEG or PNG photo",
    ]
    assert main([*argv, "--json"]) == 2
    out, err = capsys.readouterr()
    payload = json.loads(out)
    assert [image["path"] for image in payload["images"]] == [str(good), str(good)]
    assert len(payload["images"][0]["cards"]) == 6 and payload["model"]
    assert len(err.splitlines()) == 2
    # Every image bad (even before the model loads): still the one JSON object a program
    # reading stdout expects.
    # It has the same keys either way: "model" is null when no model was loaded to read nothing.
    for bad, model in (([str(text), str(gone)], payload["model"]), ([str(gone)], None)):
        assert main(["detect", *bad, "--json", "--data", str(tmp_path)]) == 2
        out, err = capsys.readouterr()
        assert json.loads(out) == {"images": [], "model": model}
        assert len(err.splitlines()) == len(bad)
    assert main(["detect", str(good), "--json", "--data", str(tmp_path)]) == 0


# --- item 10: a folder named like a photo ----------------------------------------------------


def test_enroll_lists_a_folder_named_like_a_photo_as_a_problem(tmp_path: Path, capsys) -> None:
    photos = tmp_path / "photos"
    (photos / "green-3.jpg").mkdir(parents=True)
    argv = ["enroll", "--from", str(photos), "--trust-names", "--data", str(tmp_path / "d")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "green-3.jpg: a folder, not a photo" in err
    assert "Traceback" not in err


# --- item 11: messages that say what was really wrong --------------------------------------


def test_a_folder_given_as_an_image(tmp_path: Path, capsys) -> None:
    fails(["detect", str(tmp_path)], capsys, f"{tmp_path} is a folder, not an image")
    argv = ["calibrate", "--image", str(tmp_path), "--data", str(tmp_path / "d")]
    fails(argv, capsys, f"{tmp_path} is a folder, not an image")


def test_a_file_given_as_a_deck(tmp_path: Path, image: Path, capsys) -> None:
    argv = ["synth", "scenes", "--deck", str(image), "--count", "2", "--out", str(tmp_path / "o")]
    fails(argv, capsys, f"{image} is a file, not a deck folder")


def test_replay_of_an_empty_source(capsys) -> None:
    fails(["replay", "", "--players", "4"], capsys, "no recording given")


def test_a_demo_with_a_bad_bid_names_the_file_and_round_and_records_nothing(
    tmp_path: Path, capsys
) -> None:
    demo = tmp_path / "demo"
    demo.mkdir()
    record = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben", "Cai"],
        "rounds": [{"bids": [9, 0, 0], "tricks": []}],
    }
    (demo / "game.json").write_text(json.dumps(record))
    data = tmp_path / "data"
    fails(
        ["run", "--demo", str(demo), "--no-web", "--speed", "0", "--data", str(data)],
        capsys,
        str(demo / "game.json"),
        "round 1: Ana's bid 9 is out of range",
    )
    if (data / "skullcam.db").exists():
        from skullcam.store import GameStore

        assert GameStore(data).games() == []


@pytest.mark.parametrize("centre", ["1e9,1e9", "-5,-5", "641,10"])
def test_calibrate_refuses_a_centre_off_the_camera_frame(
    tmp_path: Path, capsys, centre: str
) -> None:
    data = tmp_path / "data"
    argv = ["calibrate", "--players", "4", f"--center={centre}", "--data", str(data)]
    fails(argv, capsys, "outside the 640 x 480 camera frame")
    assert not (data / "seats.json").exists()
    assert main(["calibrate", "--players", "4", "--center=320,200", "--data", str(data)]) == 0


def test_a_read_only_data_folder_is_one_line_naming_the_file(tmp_path: Path, capsys) -> None:
    import os

    if os.geteuid() == 0:  # root writes through a read-only mode; make the file a folder instead
        (tmp_path / "seats.json").mkdir()
        blocked = tmp_path / "seats.json"
    else:
        tmp_path.chmod(0o555)
        blocked = tmp_path / "seats.json"
    try:
        fails(["calibrate", "--players", "4", "--data", str(tmp_path)], capsys, str(blocked))
    finally:
        tmp_path.chmod(0o755)


def test_a_read_only_file_system_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a read-only file system (an SD card the kernel remounted so) even removing a file
    that is not there is refused, with EROFS: the write's clean-up of its temp file raised
    that in turn, and calibrate ended in a traceback instead of naming the file."""
    import errno

    from skullcam import files

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(files, "open", read_only, raising=False)
    monkeypatch.setattr(Path, "unlink", read_only)
    argv = ["calibrate", "--players", "4", "--data", str(tmp_path)]
    fails(argv, capsys, f"cannot write {tmp_path / 'seats.json'} (Read-only file system)")


def test_calibrate_reset_on_a_read_only_file_system_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only file system refuses to remove seats.json whether it is there or not."""
    import errno

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "unlink", read_only)
    argv = ["calibrate", "--reset", "--data", str(tmp_path)]
    fails(argv, capsys, f"cannot remove {tmp_path / 'seats.json'} (Read-only file system)")


def test_a_host_that_is_no_address_is_one_line(tmp_path: Path, capsys) -> None:
    argv = ["run", "--host", "999.1.1.1", "--data", str(tmp_path), "--speed", "0"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "'999.1.1.1' is not an address" in err and "Traceback" not in err
    assert "PIN" not in out  # no PIN handed out for a server that never started


def test_an_empty_camera_name_is_refused_not_read_as_this_folder(tmp_path: Path, capsys) -> None:
    argv = ["run", "--no-web", "--camera", "", "--data", str(tmp_path)]
    fails(argv, capsys, "no camera given (an empty name)")


@pytest.mark.parametrize(
    "command",
    [
        ["calibrate", "--players", "3"],
        ["run", "--camera", "none", "--port", "0", "--max-seconds", "1"],
    ],
)
def test_an_empty_data_folder_name_is_refused_not_read_as_this_folder(
    command: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--data "$DATA"`` with DATA unset: read as a path, "" was the current folder, and the
    game store (or the seats) was made wherever the command was started."""
    monkeypatch.chdir(tmp_path)
    refused_by_parser([*command, "--data", ""], capsys, "argument --data: no folder given")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        ["synth", "deck"],
        ["synth", "game", "--deck", "deck", "--players", "2"],
        ["synth", "scenes", "--deck", "deck", "--count", "1"],
        ["synth", "sheet", "--dataset", str(SAMPLE_SCENES), "--split", "test"],
        ["eval", "--dataset", str(SAMPLE_SCENES), "--limit", "1"],
        ["train", "--dataset", "scenes"],
    ],
)
def test_an_empty_output_name_is_refused_not_read_as_this_folder(
    command: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--out "$DIR"`` with DIR unset: "" was the current folder, where 'synth deck' wrote
    its 69 faces and 'eval' its report."""
    monkeypatch.chdir(tmp_path)
    refused_by_parser([*command, "--out", ""], capsys, "argument --out: no path given")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_recording_is_named_before_the_missing_game(tmp_path: Path, capsys) -> None:
    argv = ["run", "--no-web", "--camera", str(tmp_path / "gone.mp4"), "--data", str(tmp_path)]
    fails(argv, capsys, "no camera or recording named", "gone.mp4")


def test_bench_cache_that_is_no_folder_is_one_line(capsys) -> None:
    fails(["bench", "--cache", "/dev/null", "--frames", "1"], capsys, "--cache folder /dev/null")


def test_bench_with_a_damaged_cached_reference_says_to_delete_it(tmp_path: Path, capsys) -> None:
    (tmp_path / "yolo11n-640.onnx").write_bytes(b"half a download")
    argv = ["bench", "--cache", str(tmp_path), "--frames", "1", "--repeats", "1"]
    fails(argv, capsys, "yolo11n-640.onnx does not load", "delete it")


def test_enroll_list_says_a_model_that_cannot_load(tmp_path: Path, capsys) -> None:
    import shutil

    from skullcam.vision.recognizer import shipped_model_dir

    data = tmp_path / "data"
    broken = data / "models" / "mine-1"
    shutil.copytree(shipped_model_dir(), broken)
    (broken / "card-classifier.onnx").write_bytes(b"not a model")
    shutil.copytree(shipped_model_dir(), data / "models" / "mine-2")
    assert main(["enroll", "--list", "--data", str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    (line,) = [x for x in lines if "mine-1" in x]
    assert "cannot be used" in line and "card-classifier.onnx" in line
    (fine,) = [x for x in lines if "mine-2" in x]
    assert "cannot be used" not in fine


# --- a review's findings (session 27) -------------------------------------------------------


@pytest.mark.parametrize(
    "argv_of",
    [
        lambda f, frames: ["trick", "green-1", "green-2", "--settings", str(f)],
        lambda f, frames: ["score", str(f)],
        lambda f, frames: ["replay", str(frames), "--players", "4", "--bids", str(f)],
    ],
    ids=["trick", "score", "replay"],
)
def test_a_number_of_thousands_of_digits(tmp_path: Path, frames: Path, capsys, argv_of) -> None:
    """json.loads refuses ints over 4,300 digits with a bare ValueError, not a decode error."""
    path = tmp_path / "huge.json"
    path.write_text('{"rounds": 1' + "0" * 5000 + "}")
    fails(argv_of(path, frames), capsys, "huge.json", "too many digits")


@pytest.mark.parametrize(
    ("meta", "needle"),
    [
        ('{"fps": "fast"}', 'got "fast"'),
        ('{"fps": [10]}', "got [10]"),
        ('{"fps": -5}', "got -5"),
        ('{"fps": true}', "got true"),
        ('{"fps": 1e999}', "got Infinity"),
    ],
)
def test_replay_of_a_game_folder_with_a_bad_fps(
    tmp_path: Path, frames: Path, capsys, meta: str, needle: str
) -> None:
    (frames / "meta.json").write_text(meta)
    err = fails(["replay", str(frames), "--players", "4"], capsys, "meta.json", needle)
    assert "more than 0 and at most 240" in err and 'remove "fps"' in err
    assert "'skullcam replay --fps N'" in err  # named as replay's: 'run' has no --fps


def test_replay_of_a_game_folder_whose_meta_is_not_utf8(
    tmp_path: Path, frames: Path, capsys
) -> None:
    (frames / "meta.json").write_bytes(NOT_UTF8)
    fails(["replay", str(frames), "--players", "4"], capsys, "meta.json", "not UTF-8", "delete")


@pytest.mark.parametrize("dealer", ["true", "7", '"Ana"'])
def test_replay_of_a_game_folder_whose_record_names_no_seat(
    frames: Path, capsys, dealer: str
) -> None:
    """The record kept with a recording fills in --first-dealer; a bad one is named as the
    record's, not blamed on an option the user never gave."""
    players = '["Ana", "Ben", "Cai", "Dee"]'
    (frames / "game.json").write_text(f'{{"players": {players}, "first_dealer": {dealer}}}')
    err = fails(["replay", str(frames), "--players", "4"], capsys, "game.json", "first_dealer")
    assert "seat 0..3" in err and f"got {dealer}" in err


def test_replay_names_that_differ_only_in_case(frames: Path, capsys) -> None:
    argv = ["replay", str(frames), "--players", "3", "--names", "Ana,Ben,ana"]
    fails(argv, capsys, "distinct", "'Ana' and 'ana' are one name")


def test_replay_names_left_empty_are_said_empty(frames: Path, capsys) -> None:
    argv = ["replay", str(frames), "--players", "4", "--names", ",,,"]
    fails(argv, capsys, "got ',,,' (a name is empty)")


def test_replay_names_that_differ_only_in_what_draws_nothing(frames: Path, capsys) -> None:
    """A variation selector or a Braille blank shows nothing: "Ana" with one is "Ana"."""
    argv = ["replay", str(frames), "--players", "3", "--names", "Ana,Ana\ufe0f,\u2800"]
    fails(argv, capsys, "(a name is empty)")
    argv = ["replay", str(frames), "--players", "3", "--names", "Ana,Ana\ufe0f,Cai"]
    fails(argv, capsys, "distinct", "'Ana' appears twice")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["score"], "skullcam score: error: the following arguments are required: GAME.json"),
        (["nosuch"], "skullcam: error: argument COMMAND: invalid choice: 'nosuch'"),
        (["replay", "x.mp4"], "skullcam replay: error: the following arguments are required"),
        # An option the command lacks is said by the command, not by 'skullcam' at large.
        (["trick", "green-7", "--jsn"], "skullcam trick: error: unrecognized arguments: --jsn"),
        (["run", "--fps", "10"], "skullcam run: error: unrecognized arguments: --fps 10"),
        (["synth", "deck", "--out", "d", "--bad"], "skullcam synth deck: error: unrecognized"),
    ],
)
def test_a_usage_error_is_one_line_too(argv: list[str], said: str, capsys) -> None:
    """argparse printed its usage block first: the error was the last of 4-5 lines."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(said) and "--help" in err


def test_a_subcommands_own_error_names_it_whole(tmp_path: Path, capsys) -> None:
    """'synth game --habit' was said as 'skullcam synth', '--pace' as 'skullcam synth game'."""
    argv = ["synth", "game", "--deck", str(tmp_path), "--players", "3", "--out", str(tmp_path)]
    assert main([*argv, "--habit", "lead-soon=2"]) == 2
    assert capsys.readouterr().err.startswith("skullcam synth game: error: --habit")


def test_replay_refuses_in_one_line_before_saying_what_it_took(tmp_path: Path, capsys) -> None:
    """The names taken from the game's record were said first: the error was line two."""
    folder = tmp_path / "game"
    folder.mkdir()
    record = {"format": "skullcam-game/1", "players": ["A", "B", "C"], "rounds": []}
    (folder / "game.json").write_text(json.dumps(record))
    fails(["replay", str(folder), "--players", "3", "--first-dealer", "5"], capsys, "seat 0..2")


def test_replay_says_when_its_bids_file_stops_short() -> None:
    """Bids for round 1 of 3 were taken with rounds 2 and 3 at 0, unsaid."""
    from skullcam.commands.replay import _bids_short

    assert _bids_short([[1, 0, 1, 0]], 3) == (
        "replay: --bids has bids for 1 of 3 rounds: the later rounds' bids count as 0 in the scores"
    )
    assert _bids_short([[1, 0]] * 3, 3) is None and _bids_short(None, 3) is None
    assert _bids_short([], 1) == (  # a one-round game: "0 of 1 rounds" was said
        "replay: --bids has bids for 0 of 1 round: the later rounds' bids count as 0 in the scores"
    )


def test_a_second_run_on_the_same_data_folder_is_refused(tmp_path: Path, capsys) -> None:
    """Two recorders on one folder: the second wrote its trick images over the first's."""
    from skullcam.files import hold_lock

    data = tmp_path / "data"
    data.mkdir()
    held = hold_lock(data / "run.lock", "held")
    try:
        argv = ["run", "--no-web", "--speed", "0", "--data", str(data)]
        fails(argv, capsys, "another 'skullcam run' is already recording into", "--data")
    finally:
        assert held is not None
        held.close()


def test_a_data_folder_without_file_locks_is_said_not_blamed_on_another_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """A file system that takes no locks (ENOLCK; EOPNOTSUPP on some network shares) was
    reported as another 'skullcam run' recording into the folder: there was none to stop."""
    import errno
    import fcntl
    import os

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    argv = ["run", "--no-web", "--speed", "0", "--data", str(tmp_path)]
    said = fails(argv, capsys, f"run.lock ({os.strerror(errno.ENOLCK)}): its file system takes")
    assert "another" not in said


def test_a_folder_where_the_run_lock_goes_is_named_with_what_to_do(tmp_path: Path, capsys) -> None:
    (tmp_path / "run.lock").mkdir()
    argv = ["run", "--no-web", "--speed", "0", "--data", str(tmp_path)]
    fails(argv, capsys, "run.lock (Is a directory): move that folder aside, or pass another")


@pytest.mark.parametrize("pin", [" 4821", "4821 ", "48 21", "12", "1234567890123"])
def test_run_refuses_a_pin_no_phone_can_type(tmp_path: Path, capsys, pin: str) -> None:
    """A phone's PIN box drops spaces and takes 12 characters: such a PIN locked every phone
    out, each told "wrong PIN"; one under 4 is guessed at once."""
    refused_by_parser(
        ["run", "--pin", pin, "--data", str(tmp_path)], capsys, "4 to 12 characters with no spaces"
    )


@pytest.mark.parametrize("where", ["SKULLCAM_DATA", "HOME", "--data"])
def test_the_data_folder_is_data_then_skullcam_data_then_the_home_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """interfaces.md: stateful commands take --data DIR, default $SKULLCAM_DATA or
    ~/.local/share/skullcam (an empty variable counts as unset)."""
    home, env, given = tmp_path / "home", tmp_path / "env", tmp_path / "given"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SKULLCAM_DATA", str(env) if where != "HOME" else "")
    argv = ["calibrate", "--players", "4", "--center", "320,240"]
    assert main([*argv, "--data", str(given)] if where == "--data" else argv) == 0
    expected = {"SKULLCAM_DATA": env, "HOME": home / ".local/share/skullcam", "--data": given}
    written = sorted(p.parent for p in tmp_path.rglob("seats.json"))
    assert written == [expected[where]]
