"""Train a whole recognizer (detector + classifier) from a generated scene dataset.

The output folder gets the two ONNX files, the classifier's torch checkpoint (the starting
point ``skullcam enroll`` fine-tunes from) and, last, the manifest: a folder whose manifest
is present is always complete.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from skullcam.errors import UserError
from skullcam.files import make_folder
from skullcam.rules import FACES
from skullcam.vision.cpu_features import cpu_training_note
from skullcam.vision.crop_dataset import (
    CandidateBoxes,
    CropSet,
    DetectorBoxes,
    Scene,
    corner_patches_from_scenes,
    crops_from_candidates,
    crops_from_detector,
    crops_from_scenes,
    cut_in_parallel,
    merge,
    read_scene_index,
)
from skullcam.vision.reading_choice import choose_corner_weight
from skullcam.vision.readings import NOT_A_CARD
from skullcam.vision.recognizer import MANIFEST, ModelManifest, Recognizer, onnx_outputs
from skullcam.vision.train_plan import TrainPlan, torch_device, ultralytics_device

if TYPE_CHECKING:  # torch is a training-stack package: imported only where a step needs it
    from skullcam.vision.train_classifier import ClassifierResult

CLASSES: tuple[str, ...] = (*FACES, NOT_A_CARD)
DETECTOR_FILE = "card-detector.onnx"
CLASSIFIER_FILE = "card-classifier.onnx"
CHECKPOINT_FILE = "card-classifier.pt"
DETECTOR_CHECKPOINT_FILE = "card-detector.pt"
CORNER_FILE = "corner-reader.onnx"
CORNER_CHECKPOINT_FILE = "corner-reader.pt"
WEIGHT_FILES = (
    DETECTOR_FILE,
    DETECTOR_CHECKPOINT_FILE,
    CLASSIFIER_FILE,
    CHECKPOINT_FILE,
    CORNER_FILE,
    CORNER_CHECKPOINT_FILE,
)
"""The detector's ultralytics weights, kept so that enrollment can fine-tune it for a deck."""


def _data_yaml(dataset: Path) -> Path:
    path = dataset / "data.yaml"
    if not path.is_file():
        raise UserError(f"{dataset} has no data.yaml; generate scenes with 'skullcam synth scenes'")
    return path


def move_weights_in(staging: Path, out: Path) -> None:
    """Move a run's weights from ``staging`` into the model folder ``out``, manifest removed first.

    The manifest is what makes a folder a model, and it is written last; so a run that dies
    between two moves leaves a folder that refuses to load and says so, not one that quietly
    pairs a new detector with the old classifier. ``out`` is made only now, so a run that
    failed earlier leaves no empty model folder either.
    """
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).unlink(missing_ok=True)
    for name in WEIGHT_FILES:
        if (staging / name).is_file():  # no detector checkpoint when the detector was kept
            shutil.move(str(staging / name), out / name)


def train_recognizer(plan: TrainPlan) -> ModelManifest:
    # torch first: every step needs it, so a missing torch is the one to name (with both
    # missing, as on a runtime-only install, the message must not depend on the step order).
    import torch  # noqa: F401

    from skullcam.vision.train_detector import export_detector, train_detector

    if not plan.skip_detector:
        # Named now, before the folders are made: the detector's step imports it only once
        # the run is under way, and a runtime install has none (test_cli_missing_stack).
        import ultralytics  # noqa: F401
    _check_inputs(plan)
    if plan.skip_classifier:
        _check_out_has(plan, (CLASSIFIER_FILE, CHECKPOINT_FILE), "classifier", "classifier")
        _check_kept_classes(plan, (CLASSIFIER_FILE, CHECKPOINT_FILE), "classifier", "classifier")
    if plan.skip_corner:
        _check_out_has(plan, (CORNER_FILE, CORNER_CHECKPOINT_FILE), "corner", "corner reader")
        _check_kept_classes(plan, (CORNER_FILE, CORNER_CHECKPOINT_FILE), "corner", "corner reader")
    if plan.skip_detector:
        _check_out_has(plan, (DETECTOR_FILE,), "detector", "detector")
    if plan.skip_detector and plan.skip_classifier and plan.skip_corner:
        raise UserError(
            "--skip-detector, --skip-classifier and --skip-corner together leave nothing to "
            "train; drop the flag of the part to train again"
        )
    # Read now: moving the new weights in removes the --out model's manifest.
    base = _manifest_to_keep(plan)
    staging = _make_folders(plan)
    if plan.device == "cpu":  # once the run is sure to start: a refusal is its one line alone
        print(cpu_training_note())
    (staging / DETECTOR_CHECKPOINT_FILE).unlink(missing_ok=True)  # left by an interrupted run
    if plan.skip_detector:
        shutil.copyfile(plan.out / DETECTOR_FILE, staging / DETECTOR_FILE)
    else:
        best = train_detector(
            _data_yaml(plan.dataset),
            plan.work_dir,
            epochs=plan.detector_epochs,
            imgsz=plan.imgsz,
            batch=plan.batch,
            workers=plan.workers,
            resume=plan.resume,
            fraction=plan.detector_fraction,
            device=ultralytics_device(plan.device),
            init=plan.init_detector,
            extra=_detector_extra(plan),
        )
        export_detector(best, staging / DETECTOR_FILE, plan.input_hw)
        shutil.copyfile(best, staging / DETECTOR_CHECKPOINT_FILE)

    train_scenes = read_scene_index(plan.dataset, "train")[: plan.max_classifier_scenes]
    val_scenes = read_scene_index(plan.dataset, "val")[: max(50, plan.max_classifier_scenes // 8)]
    if plan.skip_classifier:
        _copy_kept(plan, (CLASSIFIER_FILE, CHECKPOINT_FILE), staging)
        record: dict[str, object] = {"classifier_epochs": "kept"}
    else:
        record = _train_classifier_step(plan, staging, train_scenes, val_scenes)
    corner = None
    for name in (CORNER_FILE, CORNER_CHECKPOINT_FILE):  # left by an interrupted run
        (staging / name).unlink(missing_ok=True)
    if plan.skip_corner:
        _copy_kept(plan, (CORNER_FILE, CORNER_CHECKPOINT_FILE), staging)
        record["corner_epochs"] = "kept"
        corner = CORNER_FILE
    elif plan.corner_epochs > 0:
        record |= _train_corner_step(plan, staging, train_scenes, val_scenes)
        corner = CORNER_FILE

    move_weights_in(staging, plan.out)
    manifest = replace(
        base,
        version=f"skullcam-{dt.datetime.now(dt.UTC):%Y%m%d-%H%M%S}",
        corner_reader=corner,
    )
    if corner is not None and val_scenes:
        # Read from the weights now in place; the manifest, which makes the folder a model,
        # is still written last, once, with the weight chosen.
        choice = choose_corner_weight(Recognizer(manifest), val_scenes)
        print(choice.sentence())
        manifest = replace(manifest, corner_weight=choice.weight)
        record["corner_weight"] = choice.to_json()
    manifest.write()
    (plan.out / "training.json").write_text(
        json.dumps(
            {
                "dataset": str(plan.dataset),
                "detector_epochs": "kept" if plan.skip_detector else _detector_epochs_run(plan),
                "detector_minutes": None if plan.skip_detector else plan.detector_minutes,
                "detector_lr": None if plan.skip_detector else plan.detector_lr,
                "detector_warmup": None if plan.skip_detector else plan.detector_warmup,
                "imgsz": "kept" if plan.skip_detector else plan.imgsz,
                "input_hw": list(manifest.detector_input),
            }
            | record,
            indent=2,
        )
        + "\n"
    )
    assert (plan.out / MANIFEST).is_file()
    return manifest


def _detector_extra(plan: TrainPlan) -> dict[str, object] | None:
    """ultralytics settings a plan adds to train_detector's: its time budget, a learning rate
    named with its optimiser (``optimizer="auto"`` ignores ``lr0``) and a warm-up. How biases
    warm up follows from the optimiser, in ``train_detector``."""
    extra: dict[str, object] = {}
    if plan.detector_minutes:
        extra["time"] = plan.detector_minutes / 60
    if plan.detector_lr is not None:
        extra |= {"optimizer": "AdamW", "lr0": plan.detector_lr}
    if plan.detector_warmup is not None:
        extra["warmup_epochs"] = plan.detector_warmup
    return extra or None


def _detector_epochs_run(plan: TrainPlan) -> int:
    """Epochs the detector really trained: a time budget decides them as it goes."""
    results = plan.work_dir / "detector" / "results.csv"
    if plan.detector_minutes is None or not results.is_file():
        return plan.detector_epochs
    return max(0, len(results.read_text().strip().splitlines()) - 1)


def _check_inputs(plan: TrainPlan) -> None:
    """Before any training: the files a run starts from, and where it writes, are usable. A
    mistake found after the detector's hour of training costs that hour."""
    if plan.out.exists() and not plan.out.is_dir():
        raise UserError(f"--out {plan.out} is a file; give a folder for the model")
    if plan.init_classifier is not None:
        if not plan.init_classifier.is_file():
            raise UserError(
                f"classifier checkpoint {plan.init_classifier} not found; "
                "give the card-classifier.pt of a trained model folder"
            )
        from skullcam.vision.train_classifier import load_checkpoint

        load_checkpoint(plan.init_classifier)  # a UserError naming the file if it is not one
    if plan.init_detector is not None and (
        plan.init_detector.suffix != ".pt" or not plan.init_detector.is_file()
    ):
        raise UserError(
            f"--init-detector {plan.init_detector}: give an ultralytics checkpoint (.pt), such "
            "as a model folder's card-detector.pt or a run's weights/last.pt"
        )


def _make_folders(plan: TrainPlan) -> Path:
    """Create the model folder and the scratch folder's staging area once every check has
    passed, before any training: an --out that cannot be written was found only when the
    trained weights moved in, hours later, and a --work that cannot be was a traceback."""
    make_folder(plan.out, "model folder (--out)")
    return make_folder(plan.work_dir / "staging", "scratch folder (--work)")


def _check_out_has(plan: TrainPlan, names: tuple[str, ...], flag: str, part: str) -> None:
    """Before any training: a part this run keeps must be in the ``--out`` model."""
    missing = [name for name in names if not (plan.out / name).is_file()]
    if missing:
        raise UserError(
            f"--skip-{flag} keeps the {part} of {plan.out}, but it has no {', '.join(missing)}; "
            f"drop --skip-{flag} or give --out a trained model folder"
        )


def _check_kept_classes(plan: TrainPlan, names: tuple[str, str], flag: str, part: str) -> None:
    """Before any training: a part this run keeps names this version's classes. The manifest
    it writes lists ``CLASSES``; a network trained before a card was added has one output per
    class it knew, and would read every card by the wrong list (the load refuses it, but only
    after the hours this run spent on the other parts)."""
    from skullcam.vision.classifier_net import CardClassifier
    from skullcam.vision.corner_net import CornerReaderNet
    from skullcam.vision.train_classifier import load_checkpoint

    onnx, checkpoint = names
    make = CornerReaderNet if flag == "corner" else CardClassifier
    _, trained = load_checkpoint(plan.out / checkpoint, make)
    outputs = onnx_outputs(plan.out / onnx)
    if trained == CLASSES and outputs in (None, len(CLASSES)):
        return
    if trained != CLASSES:
        known = f"its {checkpoint} lists {len(trained)} classes"
        if len(trained) == len(CLASSES):
            known += " in another order or by other names"
    else:
        known = f"its {onnx} has {outputs} outputs"
    again = (
        f" (--init-classifier {plan.out / checkpoint} starts from it with one output per class)"
        if flag == "classifier"
        else ""
    )
    raise UserError(
        f"--skip-{flag} keeps the {part} of {plan.out}, but {known}, and this version of "
        f"skullcam has {len(CLASSES)} (its faces and {NOT_A_CARD!r}): the {part} "
        f"must be trained again for them; drop --skip-{flag}{again}"
    )


def _copy_kept(plan: TrainPlan, names: tuple[str, ...], staging: Path) -> None:
    for name in names:
        shutil.copyfile(plan.out / name, staging / name)


def _manifest_to_keep(plan: TrainPlan) -> ModelManifest:
    """What the new manifest starts from: the training defaults, or, for a run that keeps parts
    of the ``--out`` model, that model's own reading rules.

    Its thresholds and switches (``min_confidence``, the corner reader's fallback threshold,
    the mirror view...) were chosen for it, often on thousands of validation scenes, so a run
    that only fine-tunes the classifier keeps them: writing the training defaults over them
    would make whoever ran it put them back by hand before comparing. The
    detector's input size stays with a kept detector: it is the size it was exported at.
    """
    fresh = ModelManifest(
        folder=plan.out,
        version="",
        detector=DETECTOR_FILE,
        classifier=CLASSIFIER_FILE,
        detector_input=plan.input_hw,
        classes=CLASSES,
    )
    keeps_part = plan.skip_detector or plan.skip_classifier or plan.skip_corner
    if not keeps_part or not (plan.out / MANIFEST).is_file():
        return fresh
    kept = ModelManifest.read(plan.out)
    return replace(
        kept,
        folder=plan.out,
        detector=DETECTOR_FILE,
        classifier=CLASSIFIER_FILE,
        detector_input=kept.detector_input if plan.skip_detector else plan.input_hw,
        classes=CLASSES,
    )


def _train_classifier_step(
    plan: TrainPlan, staging: Path, train_scenes: list[Scene], val_scenes: list[Scene]
) -> dict[str, object]:
    from skullcam.vision.train_classifier import (
        export_classifier,
        load_checkpoint,
        save_checkpoint,
        train_classifier,
    )

    workers = plan.workers
    train_set = cut_in_parallel(
        crops_from_scenes,
        train_scenes,
        CLASSES,
        workers,
        "classifier crops (train)",
        copies=plan.crop_copies,
        seed=1,
    )
    # Plus the crops the new detector itself cuts: the misalignments met at inference.
    detector = DetectorBoxes(staging / DETECTOR_FILE, plan.input_hw)
    detected = cut_in_parallel(
        crops_from_detector,
        train_scenes,
        CLASSES,
        workers,
        "classifier crops (detector)",
        detect=detector,
    )
    train_set = merge(train_set, detected)
    if plan.candidate_crops:
        candidates = cut_in_parallel(
            crops_from_candidates,
            train_scenes,
            CLASSES,
            workers,
            "classifier crops (covered cards)",
            detect=CandidateBoxes(staging / DETECTOR_FILE, plan.input_hw),
            per_card=plan.candidate_crops,
        )
        train_set = merge(train_set, candidates)
    val_set = cut_in_parallel(
        crops_from_scenes,
        val_scenes,
        CLASSES,
        workers,
        "classifier crops (val)",
        copies=1,
        seed=2,
        jitter=0.5,
    )
    init = None
    if plan.init_classifier is not None:
        init, init_classes = load_checkpoint(plan.init_classifier)
        if init_classes != CLASSES:
            init.replace_head(len(CLASSES))
    seconds = plan.classifier_minutes * 60 if plan.classifier_minutes else None
    with _epoch_bar(None if seconds else plan.classifier_epochs, "classifier") as report:
        result = train_classifier(
            train_set,
            val_set,
            epochs=plan.classifier_epochs,
            batch_size=plan.classifier_batch,
            lr=plan.classifier_lr,
            init=init,
            progress=report,
            device=torch_device(plan.device),
            seconds=seconds,
        )
    export_classifier(result.model, staging / CLASSIFIER_FILE)
    save_checkpoint(result.model, CLASSES, staging / CHECKPOINT_FILE)
    return {
        "classifier_epochs": result.epochs,
        "classifier_minutes": plan.classifier_minutes,
        "classifier_init": str(plan.init_classifier) if plan.init_classifier else None,
        "classifier_lr": plan.classifier_lr,
        "classifier_train_crops": len(train_set),
        "classifier_candidate_crops": plan.candidate_crops,
        "classifier_val_crops": len(val_set),
        "classifier_val_accuracy": round(result.val_accuracy, 5),
        "classifier_seconds": round(result.seconds, 1),
    }


CORNER_LR = 3e-3
CORNER_BATCH = 256


def _train_corner_step(
    plan: TrainPlan, staging: Path, train_scenes: list[Scene], val_scenes: list[Scene]
) -> dict[str, object]:
    """The corner reader, from scratch: it is small and learns in minutes (99.2 % of
    validation corner patches after 10 epochs, ~90 s an epoch on 2 cores)."""
    train_set = cut_in_parallel(
        corner_patches_from_scenes,
        train_scenes,
        CLASSES,
        plan.workers,
        "corner patches (train)",
        seed=3,
    )
    val_set = cut_in_parallel(
        corner_patches_from_scenes,
        val_scenes,
        CLASSES,
        plan.workers,
        "corner patches (val)",
        copies=1,
        seed=4,
    )
    result = fit_corner_reader(
        train_set,
        val_set,
        plan.corner_epochs,
        CORNER_LR,
        device=torch_device(plan.device),
        seconds=plan.corner_minutes * 60 if plan.corner_minutes else None,
    )
    save_corner_reader(result.model, staging)
    return {
        "corner_epochs": result.epochs,
        "corner_minutes": plan.corner_minutes,
        "corner_train_patches": len(train_set),
        "corner_val_patches": len(val_set),
        "corner_val_accuracy": round(result.val_accuracy, 5),
        "corner_seconds": round(result.seconds, 1),
    }


def fit_corner_reader(
    train: CropSet,
    val: CropSet,
    epochs: int,
    lr: float,
    init: Any = None,
    progress: bool = True,
    device: str = "cpu",
    seconds: float | None = None,
    at_most: float | None = None,
) -> ClassifierResult:
    """Train the corner reader (from scratch, or on from ``init``) with an epoch bar: the one
    recipe ``skullcam train`` and enrollment's fine-tune share (``seconds`` and ``at_most``:
    see ``train_classifier``)."""
    from skullcam.vision.corner_net import CornerReaderNet
    from skullcam.vision.train_classifier import train_classifier

    with _epoch_bar(None if seconds else epochs, "corner reader", progress) as report:
        return train_classifier(
            train,
            val,
            epochs=epochs,
            batch_size=CORNER_BATCH,
            lr=lr,
            init=init,
            progress=report,
            make_model=CornerReaderNet,
            turn=False,
            device=device,
            seconds=seconds,
            at_most=at_most,
        )


def save_corner_reader(model: Any, folder: Path) -> None:
    """The corner reader as a model folder holds it: ONNX for reading, torch weights for the
    next fine-tune."""
    from skullcam.vision.crops import PATCH_H, PATCH_W
    from skullcam.vision.train_classifier import export_classifier, save_checkpoint

    export_classifier(model, folder / CORNER_FILE, (PATCH_H, PATCH_W))
    save_checkpoint(model, CLASSES, folder / CORNER_CHECKPOINT_FILE)


@contextmanager
def _epoch_bar(
    epochs: int | None, what: str, shown: bool = True
) -> Iterator[Callable[[int, int, float, float], None]]:
    """A progress bar with the loss and validation accuracy of each finished epoch (counting
    up, with no end, when training runs to a time budget)."""
    bar = tqdm(total=epochs, desc=what, unit="epoch", disable=not shown)

    def report(epoch: int, total: int, loss: float, acc: float) -> None:
        bar.set_postfix(loss=f"{loss:.3f}", val_acc=f"{acc:.4f}")
        bar.update(1)

    try:
        yield report
    finally:
        bar.close()
