"""Train -> export -> ONNX inference -> eval, end to end on a tiny generated dataset.

The model trained here is deliberately useless (one short epoch); what is tested is that every
stage runs and that the files it writes load and evaluate. Post-processing is compared with
ultralytics in tests/test_vision_obb.py and, on the shipped model, tests/test_vision_shipped.py.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from image_support import imread
from repo_paths import SHIPPED_MODEL
from training_stack import require_ultralytics

require_ultralytics()
pytestmark = pytest.mark.slow

import cv2  # noqa: E402
import torch  # noqa: E402

from skullcam.errors import UserError  # noqa: E402
from skullcam.vision.detector_cpu_speed import CriterionWrapper  # noqa: E402
from skullcam.vision.reading_choice import CORNER_WEIGHTS  # noqa: E402
from skullcam.vision.recognizer import ModelManifest, Recognizer  # noqa: E402
from skullcam.vision.training import TrainPlan  # noqa: E402


@pytest.fixture(scope="module")
def tiny_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from skullcam.datasets.dataset import write_data_yaml, write_scenes
    from skullcam.datasets.deck import write_deck

    root = tmp_path_factory.mktemp("tiny")
    deck = write_deck(root / "deck", style="classic")
    write_scenes(deck, root / "scenes", {"train": 20, "val": 4}, seed=3, progress=False)
    write_data_yaml(root / "scenes")
    return root / "scenes"


@pytest.fixture(scope="module")
def tiny_model(tiny_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from skullcam.vision.training import train_recognizer

    work = tmp_path_factory.mktemp("train")
    plan = TrainPlan(
        dataset=tiny_dataset,
        out=work / "model",
        work_dir=work / "runs",
        detector_epochs=1,
        classifier_epochs=1,
        corner_epochs=1,
        imgsz=128,
        batch=8,
    )
    train_recognizer(plan)
    return work / "model"


def test_training_writes_a_complete_model_folder(tiny_model: Path) -> None:
    manifest = json.loads((tiny_model / "recognizer.json").read_text())
    assert manifest["classes"][-1] == "none" and len(manifest["classes"]) == 70
    for name in (manifest["detector"], manifest["classifier"], "card-classifier.pt"):
        assert (tiny_model / name).is_file()
    assert (tiny_model / "card-detector.pt").is_file()  # what enrollment fine-tunes
    assert manifest["corner_reader"] == "corner-reader.onnx"
    assert (tiny_model / "corner-reader.pt").is_file()
    recognizer = Recognizer.load(tiny_model)
    assert recognizer.manifest.detector_input == (256, 320)
    assert recognizer.manifest.corner_reader == "corner-reader.onnx"
    # The corner reader's weight was chosen on the 4 validation scenes, and written.
    chosen = json.loads((tiny_model / "training.json").read_text())["corner_weight"]
    assert chosen["scenes"] == 4 and len(chosen["scores"]) == len(CORNER_WEIGHTS)
    assert manifest["corner_weight"] == chosen["weight"] in CORNER_WEIGHTS


def _copy_of(tiny_model: Path, tmp_path: Path, without: str | None = None) -> Path:
    """A copy of the tiny model to train into (the module's model is shared), less one file."""
    out = tmp_path / "model"
    shutil.copytree(tiny_model, out)
    if without is not None:
        (out / without).unlink()
    return out


def _corner_reader_run(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path, **budget: float
) -> tuple[Path, ModelManifest]:
    """A copy of the tiny model with only its corner reader trained again."""
    from skullcam.vision.training import train_recognizer

    out = _copy_of(tiny_model, tmp_path, without="corner-reader.onnx")
    plan = TrainPlan(
        dataset=tiny_dataset,
        out=out,
        work_dir=tmp_path / "runs",
        skip_detector=True,
        skip_classifier=True,
        corner_epochs=1,
        **budget,  # type: ignore[arg-type]
    )
    return out, train_recognizer(plan)


def test_a_corner_reader_run_keeps_the_detector_and_the_classifier(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    out, manifest = _corner_reader_run(tiny_model, tiny_dataset, tmp_path)
    for name in ("card-detector.onnx", "card-classifier.onnx"):
        assert (out / name).read_bytes() == (tiny_model / name).read_bytes()
    assert manifest.corner_reader == "corner-reader.onnx"
    assert json.loads((out / "training.json").read_text())["classifier_epochs"] == "kept"
    Recognizer.load(out)


def test_a_time_budget_replaces_the_epoch_count_and_is_recorded(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    """The plumbing a GPU run relies on: --corner-minutes reaches the trainer, and the epochs
    it ran are what training.json says."""
    out, _ = _corner_reader_run(tiny_model, tiny_dataset, tmp_path, corner_minutes=0.05)
    record = json.loads((out / "training.json").read_text())
    assert record["corner_minutes"] == 0.05
    assert record["corner_epochs"] >= 1 and record["corner_seconds"] >= 3.0
    Recognizer.load(out)


def test_keeping_a_classifier_the_out_folder_lacks_is_a_clear_error(
    tiny_dataset: Path, tmp_path: Path
) -> None:
    from skullcam.vision.training import train_recognizer

    plan = TrainPlan(
        dataset=tiny_dataset,
        out=tmp_path / "empty",
        work_dir=tmp_path / "runs",
        skip_detector=True,
        skip_classifier=True,
    )
    with pytest.raises(UserError, match="--skip-classifier"):
        train_recognizer(plan)


@pytest.mark.parametrize(
    ("flag", "part", "checkpoint"),
    [
        ("classifier", "classifier", "card-classifier.pt"),
        ("corner", "corner reader", "corner-reader.pt"),
    ],
)
def test_keeping_a_network_trained_before_a_card_was_added_is_refused_before_training(
    tiny_model: Path,
    tiny_dataset: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    flag: str,
    part: str,
    checkpoint: str,
) -> None:
    """This version knows a card the --out model's networks were not trained for: a kept
    classifier or corner reader would sit under a manifest listing a class it has no output
    for."""
    from skullcam.vision import training

    monkeypatch.setattr(training, "CLASSES", (*training.CLASSES[:-1], "ghost-ship", "none"))
    out = _copy_of(tiny_model, tmp_path)
    before = (out / "recognizer.json").read_bytes()
    plan = TrainPlan(
        dataset=tiny_dataset,
        out=out,
        work_dir=tmp_path / "runs",
        skip_detector=True,
        **{f"skip_{flag}": True},  # type: ignore[arg-type]
    )
    with pytest.raises(
        UserError,
        match=rf"--skip-{flag} keeps the {part} of .*, but its {checkpoint} lists 70 classes, "
        rf"and this version of skullcam has 71 .* the {part} must be trained again for them; "
        rf"drop --skip-{flag}",
    ):
        training.train_recognizer(plan)
    assert not (tmp_path / "runs").exists()  # refused before any step ran
    assert (out / "recognizer.json").read_bytes() == before


def test_a_classifier_run_keeps_the_corner_reader_and_the_models_reading_rules(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    """--skip-detector --skip-corner: only the classifier is new. The thresholds and switches
    the kept model was tuned with stay, rather than the training defaults."""
    from skullcam.vision.training import train_recognizer

    out = _copy_of(tiny_model, tmp_path)
    tuned = replace(
        ModelManifest.read(out),
        min_confidence=0.37,
        corner_min_confidence=0.91,
        turn_below=0.8,
        mirror_below=0.6,
        detector_mirror=False,
    )
    tuned.write()
    plan = TrainPlan(
        dataset=tiny_dataset,
        out=out,
        work_dir=tmp_path / "runs",
        classifier_epochs=1,
        skip_detector=True,
        skip_corner=True,
    )
    manifest = train_recognizer(plan)
    for name in ("card-detector.onnx", "corner-reader.onnx", "corner-reader.pt"):
        assert (out / name).read_bytes() == (tiny_model / name).read_bytes()
    assert manifest.version != tuned.version
    assert manifest.corner_reader == "corner-reader.onnx"
    kept = ("min_confidence", "corner_min_confidence", "turn_below", "mirror_below")
    assert [getattr(manifest, k) for k in kept] == [0.37, 0.91, 0.8, 0.6]
    assert manifest.detector_mirror is False
    assert ModelManifest.read(out) == manifest
    record = json.loads((out / "training.json").read_text())
    assert record["detector_epochs"] == "kept" and record["corner_epochs"] == "kept"
    assert record["classifier_epochs"] == 1
    # The kept detector's input size is the model's, not the run's --imgsz default.
    assert record["imgsz"] == "kept" and record["input_hw"] == list(tuned.detector_input)


def test_candidate_crops_add_the_detectors_raw_boxes_on_covered_cards(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    """--candidate-crops N: the classifier also learns up to N raw boxes a covered card, cut
    by the kept detector (here the shipped one, which finds the tiny scenes' cards)."""
    from skullcam.vision.training import train_recognizer

    shipped = SHIPPED_MODEL / "card-detector.onnx"
    crops = {}
    for n in (0, 2):
        out = _copy_of(tiny_model, tmp_path / str(n))
        shutil.copy(shipped, out / "card-detector.onnx")
        plan = TrainPlan(
            dataset=tiny_dataset,
            out=out,
            work_dir=tmp_path / str(n) / "runs",
            classifier_epochs=1,
            skip_detector=True,
            skip_corner=True,
            candidate_crops=n,
        )
        train_recognizer(plan)
        record = json.loads((out / "training.json").read_text())
        assert record["classifier_candidate_crops"] == n
        crops[n] = record["classifier_train_crops"]
    assert crops[0] < crops[2]


def test_keeping_a_corner_reader_the_out_folder_lacks_is_a_clear_error(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    from skullcam.vision.training import train_recognizer

    out = _copy_of(tiny_model, tmp_path, without="corner-reader.pt")
    plan = TrainPlan(
        dataset=tiny_dataset,
        out=out,
        work_dir=tmp_path / "runs",
        skip_detector=True,
        skip_corner=True,
    )
    with pytest.raises(
        UserError, match=r"--skip-corner keeps the corner reader.*corner-reader\.pt"
    ):
        train_recognizer(plan)
    assert (out / "recognizer.json").is_file()  # the model is left as it was
    plan = replace(plan, skip_classifier=True)
    shutil.copyfile(tiny_model / "corner-reader.pt", out / "corner-reader.pt")
    with pytest.raises(UserError, match="nothing to train"):
        train_recognizer(plan)


def test_eval_reports_every_metric_and_writes_its_images(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.error_causes import explain_errors
    from skullcam.vision.evaluate import evaluate, judge_scene

    recognizer = Recognizer.load(tiny_model)
    scenes = read_scene_index(tiny_dataset, "train")[:6]
    summary = evaluate(
        recognizer,
        scenes,
        recognizer.manifest.classes,
        out_dir=tmp_path,
        progress=False,
        explain=lambda frame, outcome: explain_errors(recognizer, frame, outcome),
    )
    for key in ("precision", "recall", "mAP50", "mAP50-95", "scene_accuracy"):
        assert 0.0 <= float(summary[key]) <= 1.0  # type: ignore[arg-type]
    assert summary["scenes"] == 6
    # Every miss and false alarm (the tiny model makes plenty) has exactly one cause.
    errors = [
        e
        for image, truth in scenes
        for e in judge_scene(image, truth, recognizer(imread(image))).errors
        if e.startswith(("missed", "extra"))
    ]
    causes = summary["error_causes"]
    assert isinstance(causes, dict)
    assert sum(causes.values()) == len(errors) > 0
    assert (tmp_path / "confusion.png").is_file()
    assert json.loads((tmp_path / "metrics.json").read_text())["scenes"] == 6


def test_corrupt_or_missing_model_files_give_a_clear_error(
    tiny_model: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(tiny_model, broken)
    (broken / "card-detector.onnx").write_bytes(b"not an onnx file")
    with pytest.raises(UserError, match="corrupt"):
        Recognizer.load(broken)
    (broken / "card-detector.onnx").unlink()
    with pytest.raises(UserError, match="missing"):
        Recognizer.load(broken)
    with pytest.raises(UserError, match="no recognizer model"):
        Recognizer.load(tmp_path / "nowhere")


def _fine_tune_plan(tiny_model: Path, tiny_dataset: Path, tmp_path: Path, init: Path) -> TrainPlan:
    """A classifier-only run into a fresh folder holding the tiny model's detector."""
    out = tmp_path / "tuned"
    out.mkdir()
    shutil.copyfile(tiny_model / "card-detector.onnx", out / "card-detector.onnx")
    return TrainPlan(
        dataset=tiny_dataset,
        out=out,
        work_dir=tmp_path / "runs",
        classifier_epochs=1,
        corner_epochs=0,
        skip_detector=True,
        init_classifier=init,
        classifier_lr=1e-9,  # so small that the weights must stay those of the checkpoint
    )


def test_classifier_fine_tunes_from_a_checkpoint_and_keeps_the_detector(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    from skullcam.vision.train_classifier import load_checkpoint
    from skullcam.vision.training import train_recognizer

    start_pt = tiny_model / "card-classifier.pt"
    plan = _fine_tune_plan(tiny_model, tiny_dataset, tmp_path, start_pt)
    train_recognizer(plan)
    start, _ = load_checkpoint(start_pt)
    tuned, _ = load_checkpoint(plan.out / "card-classifier.pt")
    weights = "features.0.0.weight"
    assert torch.allclose(start.state_dict()[weights], tuned.state_dict()[weights], atol=1e-6)
    detector = (plan.out / "card-detector.onnx").read_bytes()
    assert detector == (tiny_model / "card-detector.onnx").read_bytes()
    training = json.loads((plan.out / "training.json").read_text())
    assert training["classifier_init"] == str(start_pt)


def test_a_detector_continuation_keeps_the_readers_and_trains_at_the_rate_asked(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    """What a GPU run that trains only the detector further does (scripts/refine_on_gpu.sh,
    stage 1): it starts from the model's checkpoint at the learning rate given, with AdamW
    named, since ultralytics' "auto" optimiser ignores lr0, and the warm-up asked for reaches
    ultralytics (one epoch here, so ultralytics itself leaves it out); the classifier, the
    corner reader and the model's reading rules stay."""
    from ultralytics.utils import YAML

    from skullcam.vision.training import train_recognizer

    out = _copy_of(tiny_model, tmp_path)
    before = json.loads((out / "recognizer.json").read_text())
    plan = TrainPlan(
        dataset=tiny_dataset,
        out=out,
        work_dir=tmp_path / "runs",
        detector_epochs=1,
        imgsz=128,
        batch=8,
        init_detector=tiny_model / "card-detector.pt",
        detector_lr=1e-4,
        detector_warmup=0.5,
        skip_classifier=True,
        skip_corner=True,
    )
    train_recognizer(plan)
    args = YAML.load(tmp_path / "runs" / "detector" / "args.yaml")
    assert (args["optimizer"], args["lr0"]) == ("AdamW", 1e-4)
    assert (args["warmup_epochs"], args["warmup_bias_lr"]) == (0.5, 0.0)
    assert args["pretrained"] == str(tiny_model / "card-detector.pt")
    for name in ("card-classifier.onnx", "corner-reader.onnx"):
        assert (out / name).read_bytes() == (tiny_model / name).read_bytes()
    assert (out / "card-detector.onnx").read_bytes() != (
        tiny_model / "card-detector.onnx"
    ).read_bytes()
    record = json.loads((out / "training.json").read_text())
    assert (record["detector_lr"], record["detector_warmup"]) == (1e-4, 0.5)
    after = json.loads((out / "recognizer.json").read_text())
    assert after["min_confidence"] == before["min_confidence"]
    Recognizer.load(out)


@pytest.mark.parametrize(
    ("lr", "warmup", "expected"),
    [
        (None, None, None),  # each path's own defaults
        (1e-3, None, {"optimizer": "AdamW", "lr0": 1e-3}),  # "auto" would ignore lr0
        (None, 0.0, {"warmup_epochs": 0.0}),  # 0 is no warm-up, not "unset"
        (1e-3, 1.0, {"optimizer": "AdamW", "lr0": 1e-3, "warmup_epochs": 1.0}),
    ],
)
def test_a_plan_names_the_optimiser_with_its_detector_rate(
    tmp_path: Path, lr: float | None, warmup: float | None, expected: dict[str, object] | None
) -> None:
    from skullcam.vision.training import _detector_extra

    plan = TrainPlan(
        dataset=tmp_path, out=tmp_path, work_dir=tmp_path, detector_lr=lr, detector_warmup=warmup
    )
    assert _detector_extra(plan) == expected


@pytest.mark.parametrize(
    ("settings", "bias_rate"),
    [
        ({"optimizer": "AdamW", "lr0": 1e-3}, 0.0),
        ({"optimizer": "AdamW", "warmup_bias_lr": 0.05}, 0.05),  # one asked for stays
        ({"optimizer": "SGD"}, None),  # ultralytics' 0.1, meant for SGD
        ({"warmup_epochs": 1.0}, None),  # "auto": ultralytics 8.4 sets 0 itself
    ],
)
def test_biases_never_warm_up_at_sgds_rate_under_a_named_adamw(
    settings: dict[str, object], bias_rate: float | None
) -> None:
    """ultralytics warms biases up from 0.1 unless told otherwise, a rate for SGD that AdamW at
    lr 0.001 would take as a hundredfold jump; its own "auto" AdamW sets 0."""
    from skullcam.vision.train_detector import with_bias_warm_up_for_optimizer

    out = with_bias_warm_up_for_optimizer(settings)
    assert out.get("warmup_bias_lr") == bias_rate
    assert {k: v for k, v in out.items() if k != "warmup_bias_lr"} == {
        k: v for k, v in settings.items() if k != "warmup_bias_lr"
    }


def test_fine_tuning_from_a_missing_checkpoint_is_a_clear_error(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    from skullcam.vision.training import train_recognizer

    plan = _fine_tune_plan(tiny_model, tiny_dataset, tmp_path, tmp_path / "nope.pt")
    with pytest.raises(UserError, match=r"nope\.pt not found"):
        train_recognizer(plan)
    assert not (plan.out / "recognizer.json").exists()


def test_a_models_onnx_given_for_its_checkpoint_is_refused_before_training(
    tiny_model: Path, tiny_dataset: Path, tmp_path: Path
) -> None:
    from skullcam.vision.training import train_recognizer

    onnx = tiny_model / "card-classifier.onnx"
    plan = _fine_tune_plan(tiny_model, tiny_dataset, tmp_path, onnx)
    with pytest.raises(UserError, match=r"card-classifier\.onnx is not a saved CardClassifier"):
        train_recognizer(plan)
    assert not (tmp_path / "runs").exists()  # refused before any step ran


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("out", "tmp:a-file", r"--out .*a-file is a file; give a folder"),
        ("out", "tmp:a-file/model", r"cannot create model folder \(--out\) .*a-file/model"),
        ("work_dir", "tmp:a-file/runs", r"cannot create scratch folder \(--work\)"),
        ("init_detector", "tmp:nope.pt", r"--init-detector .*nope\.pt: give an ultralytics"),
        ("init_detector", "model:card-detector.onnx", r"an ultralytics checkpoint \(\.pt\)"),
        ("skip_detector", True, r"--skip-detector keeps the detector of .*card-detector\.onnx"),
    ],
)
def test_what_a_run_starts_from_is_checked_before_the_detector_trains(
    tiny_model: Path,
    tiny_dataset: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flag: str,
    value: Any,
    message: str,
) -> None:
    """``tmp:NAME`` is a path in the test's folder, ``model:NAME`` one of the tiny model's."""
    from skullcam.vision.training import train_recognizer

    (tmp_path / "a-file").write_text("not a folder")
    if isinstance(value, str):
        where, name = value.split(":")
        value = (tmp_path if where == "tmp" else tiny_model) / name
    plan = TrainPlan(
        dataset=tiny_dataset, out=tmp_path / "out", work_dir=tmp_path / "runs", detector_epochs=1
    )
    with pytest.raises(UserError, match=message):
        train_recognizer(replace(plan, **{flag: value}))
    assert not (tmp_path / "runs").exists()
    assert capsys.readouterr().out == ""  # the refusal alone: no training note before it


def test_enrollment_fine_tunes_the_detector_and_installs_it(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from enroll_support import enrolled

    from skullcam.datasets.deck import write_deck
    from skullcam.vision import adapt
    from skullcam.vision.adapt import AdaptPlan, adapt_detector
    from skullcam.vision.enroll import adapt_and_install

    enrollment = enrolled(tmp_path / "data", "alt", write_deck(tmp_path / "alt", style="alt"))
    plan = AdaptPlan(
        train_scenes=8, val_scenes=2, epochs=1, detector_epochs=1, workers=1, progress=False
    )
    messages: list[str] = []
    outcome = adapt_and_install(
        enrollment,
        plan,
        test_scenes=2,
        say=messages.append,
        base_model=tiny_model,
        min_accuracy=0.0,
    )
    assert any("fine-tuning the card detector" in m for m in messages)
    installed = outcome.model_dir / "card-detector.onnx"
    adapted = enrollment.work_dir / "adapt" / "detector" / "card-detector.onnx"
    assert installed.read_bytes() == adapted.read_bytes()
    assert installed.read_bytes() != (tiny_model / "card-detector.onnx").read_bytes()
    assert (outcome.model_dir / "card-detector.pt").is_file()
    assert json.loads((outcome.model_dir / "enroll.json").read_text())["detector_adapted"]
    Recognizer.load(outcome.model_dir)  # a complete, loadable model folder
    # The fine-tune's learning rate is the plan's: ultralytics' "auto" optimiser ignores lr0.
    (args_file,) = (enrollment.work_dir / "adapt").rglob("args.yaml")
    from ultralytics.utils import YAML

    args = YAML.load(args_file)
    assert (args["optimizer"], args["lr0"]) == ("AdamW", plan.detector_lr)

    # A finished fine-tune is reused, not run again; no detector epochs keeps the base's.
    def no_training(*args: object, **kwargs: object) -> None:
        raise AssertionError("the detector was trained again")

    monkeypatch.setattr(adapt, "call_in_fresh_interpreter", no_training)
    work, scenes = enrollment.work_dir / "adapt", enrollment.work_dir / "adapt" / "scenes"
    assert adapt_detector(scenes, tiny_model, work, plan, say=print)[0] == adapted
    kept = adapt_detector(scenes, tiny_model, work, AdaptPlan(detector_epochs=0), say=print)
    assert kept[0] == tiny_model / "card-detector.onnx"
    # Scenes rendered again for another plan (more --scenes) are new data: it learns again.
    done = scenes / "done.json"
    done.write_text(json.dumps({**json.loads(done.read_text()), "counts": {"train": 16}}))
    with pytest.raises(AssertionError, match="trained again"):
        adapt_detector(scenes, tiny_model, work, plan, say=print)


def test_ultralytics_leaves_torch_and_opencv_thread_counts_as_they_were(tmp_path: Path) -> None:
    # Exporting chose the CPU and set torch to one thread fewer than the cores (one, on 2):
    # enrollment's classifier fine-tune then ran a third slower.
    from ultralytics.utils import NUM_THREADS

    from skullcam.vision.train_detector import export_detector

    before = torch.get_num_threads(), cv2.getNumThreads()
    wanted = NUM_THREADS + 1
    torch.set_num_threads(wanted)
    cv2.setNumThreads(wanted)
    try:
        weights = tmp_path / "card-detector.pt"
        shutil.copyfile(SHIPPED_MODEL / weights.name, weights)
        export_detector(weights, tmp_path / "detector.onnx", (256, 320))
        assert (tmp_path / "detector.onnx").is_file()
        assert torch.get_num_threads() == wanted
        assert cv2.getNumThreads() == wanted
    finally:
        torch.set_num_threads(before[0])
        cv2.setNumThreads(before[1])


def test_exporting_weights_leaves_an_onnx_beside_them_alone(tmp_path: Path) -> None:
    # ultralytics exports beside the weights, under their name: exporting a model folder's
    # card-detector.pt in place overwrote its card-detector.onnx and then moved it away.
    from skullcam.vision.train_detector import export_detector

    folder = tmp_path / "model"
    folder.mkdir()
    shipped = SHIPPED_MODEL
    shutil.copyfile(shipped / "card-detector.pt", folder / "card-detector.pt")
    (folder / "card-detector.onnx").write_bytes(b"the model's own detector")
    export_detector(folder / "card-detector.pt", tmp_path / "out.onnx", (256, 320))
    assert (folder / "card-detector.onnx").read_bytes() == b"the model's own detector"
    assert sorted(p.name for p in folder.iterdir()) == ["card-detector.onnx", "card-detector.pt"]
    assert (tmp_path / "out.onnx").stat().st_size > 1_000_000


def _first_tensor(value: object) -> torch.Tensor:
    """The first tensor in a head's outputs (a tensor, or lists, tuples and dicts of them)."""
    while not isinstance(value, torch.Tensor):
        value = next(iter(value.values())) if isinstance(value, dict) else value[0]  # type: ignore[index]
    return value


def _threads_in_a_fresh_process(code: str) -> int:
    # Without the OMP_NUM_THREADS=1 that importing ultralytics put into this process.
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    run = subprocess.run(
        [sys.executable, "-c", f"{code}; import torch; print(torch.get_num_threads())"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return int(run.stdout.split()[-1])


def test_importing_ultralytics_our_way_leaves_torch_every_thread() -> None:
    # ultralytics sets OMP_NUM_THREADS=1 at import; torch loaded after that starts with one
    # thread and stays slow even once given more (a detector step 0.92 s against 0.53 s).
    alone = _threads_in_a_fresh_process("pass")
    ours = _threads_in_a_fresh_process(
        "from skullcam.vision.ultralytics_offline import import_ultralytics; import_ultralytics()"
    )
    assert ours == alone


class _Recorder(CriterionWrapper):
    """A criterion that notes how each training step reached it, then computes the loss."""

    def __init__(self, criterion: object, seen: list[tuple[torch.dtype, bool, int]]) -> None:
        super().__init__(criterion)
        self.seen = seen

    def __call__(self, preds: object, batch: dict) -> object:
        if torch.is_grad_enabled():  # a training step, not ultralytics' validation
            self.seen.append(
                (
                    _first_tensor(preds).dtype,
                    torch.is_autocast_enabled("cpu"),
                    torch.get_num_threads(),
                )
            )
        return self.criterion(preds, batch)


@pytest.mark.parametrize("bf16", ["0", "1"])
def test_cpu_detector_training_uses_every_thread_and_bfloat16_where_the_cpu_has_it(
    tiny_dataset: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    bf16: str,
) -> None:
    # ultralytics trains on one thread fewer than the cores and refuses bfloat16 off CUDA;
    # on this machine's 2 cores, with channels-last, a detector step became 3 x as fast.
    import ultralytics.engine.trainer as trainer_module
    from ultralytics.nn.tasks import OBBModel

    from skullcam.vision.cpu_features import BF16_ENV, cpu_has_native_bf16
    from skullcam.vision.detector_cpu_speed import Float32Loss
    from skullcam.vision.train_detector import train_detector

    monkeypatch.setenv(BF16_ENV, bf16)
    cpu_has_native_bf16.cache_clear()
    request.addfinalizer(cpu_has_native_bf16.cache_clear)
    seen: list[tuple[torch.dtype, bool, int]] = []
    network_out: list[torch.dtype] = []
    make_criterion = OBBModel.init_criterion
    monkeypatch.setattr(OBBModel, "init_criterion", lambda m: _Recorder(make_criterion(m), seen))
    float32_loss = Float32Loss.__call__

    def spy(self: Float32Loss, preds: object, batch: dict) -> object:
        network_out.append(_first_tensor(preds).dtype)
        return float32_loss(self, preds, batch)

    monkeypatch.setattr(Float32Loss, "__call__", spy)
    from ultralytics.utils import NUM_THREADS

    autocast, threads = trainer_module.autocast, NUM_THREADS + 1  # one more than it would use
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        best = train_detector(
            tiny_dataset / "data.yaml", tmp_path, epochs=1, imgsz=128, batch=8, workers=0
        )
        assert torch.get_num_threads() == threads
    finally:
        torch.set_num_threads(before)

    assert best.is_file()
    assert seen, "no training step reached the loss"
    assert all(dtype == torch.float32 and not on for dtype, on, _ in seen)
    assert {n for _, _, n in seen} == {threads}
    if bf16 == "1":
        assert network_out and set(network_out) <= {torch.bfloat16}
    else:
        assert not network_out
    assert trainer_module.autocast is autocast


def test_the_float32_loss_sees_float32_outside_autocast() -> None:
    from skullcam.vision.detector_cpu_speed import Float32Loss

    seen: list[Any] = []

    class Criterion:
        hyp = "the criterion's settings"

        def __call__(self, preds: object, batch: dict) -> str:
            seen.extend([preds, torch.is_autocast_enabled("cpu")])
            return "loss"

    bf = torch.ones(2, dtype=torch.bfloat16)
    preds = (bf, [bf, torch.arange(3)], {"angle": bf})
    loss = Float32Loss(Criterion())
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert loss(preds, {}) == "loss"
    got, autocast_on = seen
    assert not autocast_on
    assert got[0].dtype == torch.float32 and got[2]["angle"].dtype == torch.float32
    assert [t.dtype for t in got[1]] == [torch.float32, torch.int64]
    assert loss.hyp == "the criterion's settings"
    assert copy.deepcopy(loss).hyp == "the criterion's settings"


class _Interrupted(Exception):
    """Stands in for a power cut after a detector epoch's checkpoint was written."""


def test_a_dataset_moved_since_it_was_written_trains_from_where_it_is(
    tiny_dataset: Path, tmp_path: Path
) -> None:
    """data.yaml records the folder's absolute path and ultralytics reads the images from
    there: a copied or moved dataset failed with a traceback naming its old folder."""
    import shutil

    from skullcam.vision.train_detector import train_detector

    moved = tmp_path / "moved"
    shutil.copytree(tiny_dataset, moved)
    written = (moved / "data.yaml").read_text()
    stale = written.replace(f"path: {tiny_dataset.resolve()}", f"path: {tmp_path / 'gone'}")
    assert stale != written
    (moved / "data.yaml").write_text(stale)
    best = train_detector(moved / "data.yaml", tmp_path / "runs", epochs=1, imgsz=128, batch=8)
    assert best.is_file()
    assert (moved / "data.yaml").read_text() == stale  # the dataset's own file left as it was
    assert f"path: {moved.resolve()}" in (tmp_path / "runs" / "detector-data.yaml").read_text()


def test_an_interrupted_detector_run_resumes_from_its_last_epoch(
    tiny_dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from contextlib import contextmanager

    import skullcam.vision.train_detector as train_module

    real_speed = train_module.cpu_training_speed
    epochs_run: list[list[int]] = []

    @contextmanager
    def watched(model: Any, device: str) -> Any:
        run: list[int] = []
        epochs_run.append(run)
        model.add_callback("on_train_epoch_start", lambda trainer: run.append(trainer.epoch))

        def cut_after_first(trainer: Any) -> None:
            if len(epochs_run) == 1:
                raise _Interrupted

        model.add_callback("on_fit_epoch_end", cut_after_first)
        with real_speed(model, device) as bf16:
            yield bf16

    monkeypatch.setattr(train_module, "cpu_training_speed", watched)
    settings: dict[str, Any] = dict(epochs=2, imgsz=128, batch=8, workers=0)
    with pytest.raises(_Interrupted):
        train_module.train_detector(tiny_dataset / "data.yaml", tmp_path, **settings)
    assert (tmp_path / "detector" / "weights" / "last.pt").is_file()

    best = train_module.train_detector(
        tiny_dataset / "data.yaml", tmp_path, resume=True, **settings
    )
    assert best.is_file()
    assert epochs_run == [[0], [1]]  # the second sitting ran only the epoch the first lacked
    rows = (tmp_path / "detector" / "results.csv").read_text().strip().splitlines()
    assert len(rows) == 1 + 2  # a header, then both epochs
