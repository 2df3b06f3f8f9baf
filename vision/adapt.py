"""Adapt the face classifier to an enrolled deck: scenes of it, crops, a short fine-tune.

The detector only says "card" and does not care about the art, so enrollment retrains only the
classifier (see ``models/README.md``). Starting from the active model's weights, a few epochs
on crops cut from scenes the generator renders with the user's own faces are enough: the
features (colour fields, corner numbers, pictures) carry over; only their look changes. The
crops are cut both on the true outlines and where the unchanged detector puts its boxes, the
misaligned crops the classifier meets in a game.

Every stage leaves its result in the work folder and is skipped when that result is already
there, and the fine-tune saves its full state after each epoch, so an interrupted adaptation
resumes where it stopped instead of starting over.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from skullcam.errors import UserError
from skullcam.files import write_atomic
from skullcam.vision.crop_dataset import (
    CropSet,
    crops_from_detector,
    crops_from_scenes,
    merge,
    read_scene_index,
)
from skullcam.vision.training import CHECKPOINT_FILE, CLASSIFIER_FILE

logger = logging.getLogger(__name__)

Say = Callable[[str], None]


@dataclass(frozen=True)
class AdaptPlan:
    """How much to generate and train. The defaults fit the 20-minute budget on 2 cores."""

    train_scenes: int = 1200
    val_scenes: int = 150
    epochs: int = 6
    lr: float = 3e-3
    batch_size: int = 128
    crop_copies: int = 2
    workers: int = 2
    seed: int = 0
    progress: bool = True


@dataclass
class AdaptResult:
    checkpoint: Path  # card-classifier.pt
    onnx: Path  # card-classifier.onnx
    val_accuracy: float
    seconds: float


def _write_json_atomic(path: Path, data: object) -> None:
    write_atomic(path, json.dumps(data, indent=2) + "\n")


def generate_scenes(
    deck_dir: Path, out: Path, counts: dict[str, int], seed: int, workers: int, progress: bool
) -> Path:
    """Render ``counts`` scenes of the deck into ``out`` once; a finished set is kept as is."""
    from skullcam.datasets.dataset import write_scenes

    done = out / "done.json"
    wanted = {"counts": counts, "seed": seed, "deck": str(deck_dir)}
    if done.is_file() and json.loads(done.read_text()) == wanted:
        return out
    if out.exists():
        shutil.rmtree(out)  # a half-written set from an interrupted run: redo it whole
    if workers <= 1:
        write_scenes(deck_dir, out, counts, seed=seed, workers=1, progress=progress)
    else:
        # The generator forks its workers. Forking a process that already runs ONNX Runtime,
        # torch or OpenCV thread pools (the photo checks and the self-check do) can deadlock
        # the children, so the rendering runs in a fresh interpreter.
        call = (
            "import json, sys; from pathlib import Path; "
            "from skullcam.datasets.dataset import write_scenes; "
            "a = json.loads(sys.argv[1]); "
            "write_scenes(Path(a['deck']), Path(a['out']), a['counts'], seed=a['seed'], "
            "workers=a['workers'], progress=a['progress'])"
        )
        args = {
            "deck": str(deck_dir),
            "out": str(out),
            "counts": counts,
            "seed": seed,
            "workers": workers,
            "progress": progress,
        }
        result = subprocess.run([sys.executable, "-c", call, json.dumps(args)], check=False)
        if result.returncode != 0:
            raise UserError(
                f"rendering scenes of {deck_dir} failed (exit {result.returncode}, see above); "
                "run the same command again to retry"
            )
    _write_json_atomic(done, wanted)
    return out


def _cached(cache: Path, classes: tuple[str, ...], cut: Callable[[], CropSet]) -> CropSet:
    """Crops cut once and cached as ``.npz`` (cutting is the slow part of a resumed run)."""
    if cache.is_file():
        with np.load(cache) as data:
            return CropSet(data["images"], data["labels"], classes)
    crops = cut()
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(tmp, images=crops.images, labels=crops.labels)
    os.replace(tmp, cache)
    return crops


def _crops(
    dataset: Path, split: str, cache: Path, classes: tuple[str, ...], **kw: object
) -> CropSet:
    """Crops of one split on the true card outlines, cached."""
    from tqdm import tqdm

    progress = bool(kw.pop("progress", True))

    def cut() -> CropSet:
        scenes = read_scene_index(dataset, split)
        return crops_from_scenes(
            tqdm(scenes, desc=f"crops ({split})", unit="scene", disable=not progress),
            classes,
            **kw,  # type: ignore[arg-type]
        )

    return _cached(cache, classes, cut)


def _detector_crops(
    dataset: Path,
    split: str,
    cache: Path,
    base_model: Path,
    classes: tuple[str, ...],
    progress: bool,
) -> CropSet:
    """Crops cut by the base model's own detector, cached.

    The detector is not retrained, so its boxes sit on the new deck's cards with the same
    misalignments as ever; a classifier that has seen only true outlines reads those worse
    (alt deck: 97.1 % on true outlines, about 94 % in the pipeline before this was added).
    """
    from tqdm import tqdm

    from skullcam.vision.recognizer import CardDetector, ModelManifest

    def cut() -> CropSet:
        detector = CardDetector.from_manifest(ModelManifest.read(base_model))
        scenes = read_scene_index(dataset, split)
        return crops_from_detector(
            tqdm(scenes, desc=f"detector crops ({split})", unit="scene", disable=not progress),
            classes,
            lambda frame: detector(frame)[0],
        )

    return _cached(cache, classes, cut)


def _training_args(plan: AdaptPlan) -> dict[str, object]:
    """The plan fields that shape the fine-tune (not the display or process count)."""
    args = asdict(plan)
    for key in ("progress", "workers"):
        args.pop(key)
    return args


def fine_tune(
    train: CropSet,
    val: CropSet,
    init_checkpoint: Path,
    state_path: Path,
    plan: AdaptPlan,
) -> tuple[object, float]:
    """AdamW with a one-cycle schedule from ``init_checkpoint``; resumable per epoch.

    The loop is ``train_classifier``'s with two additions enrollment needs: a per-batch
    progress bar whose time-left estimate covers the whole fine-tune, and the complete state
    (weights, optimiser, schedule, epoch) saved after each epoch to ``state_path``.
    """
    import torch
    from torch import nn
    from tqdm import tqdm

    from skullcam.vision.train_classifier import _augment, _to_tensor, evaluate, load_checkpoint

    model, base_classes = load_checkpoint(init_checkpoint)
    if tuple(base_classes) != tuple(train.classes):
        raise UserError(
            f"the active model's classifier ({init_checkpoint}) has other classes than this "
            "version of skullcam; reinstall skullcam to restore the shipped model"
        )
    torch.manual_seed(plan.seed)
    gen = torch.Generator().manual_seed(plan.seed)
    x_train, y_train = _to_tensor(train.images), torch.from_numpy(train.labels)
    x_val, y_val = _to_tensor(val.images), torch.from_numpy(val.labels)
    steps_per_epoch = math.ceil(len(y_train) / plan.batch_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=plan.lr, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=plan.lr, total_steps=plan.epochs * steps_per_epoch, pct_start=0.15
    )
    start_epoch, accuracy = 0, 0.0
    if state_path.is_file():
        saved = torch.load(state_path, map_location="cpu", weights_only=False)
        if saved.get("plan") == _training_args(plan) and saved.get("n_train") == len(y_train):
            model.load_state_dict(saved["model"])
            optimizer.load_state_dict(saved["optimizer"])
            schedule.load_state_dict(saved["schedule"])
            gen.set_state(saved["generator"])
            start_epoch, accuracy = int(saved["epoch"]), float(saved["accuracy"])
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    bar = tqdm(
        total=plan.epochs * steps_per_epoch,
        initial=start_epoch * steps_per_epoch,
        desc="fine-tuning",
        unit="batch",
        disable=not plan.progress,
    )
    for epoch in range(start_epoch, plan.epochs):
        model.train()
        order = torch.randperm(len(y_train), generator=gen)
        for i in range(0, len(order), plan.batch_size):
            idx = order[i : i + plan.batch_size]
            loss = loss_fn(model(_augment(x_train[idx], gen)), y_train[idx])
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            schedule.step()
            bar.update(1)
            bar.set_postfix(epoch=f"{epoch + 1}/{plan.epochs}", loss=f"{loss.item():.3f}")
        accuracy = evaluate(model, x_val, y_val)
        bar.set_postfix(epoch=f"{epoch + 1}/{plan.epochs}", val_acc=f"{accuracy:.4f}")
        tmp = state_path.with_suffix(".tmp")
        torch.save(
            {
                "plan": _training_args(plan),
                "n_train": len(y_train),
                "epoch": epoch + 1,
                "accuracy": accuracy,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "schedule": schedule.state_dict(),
                "generator": gen.get_state(),
            },
            tmp,
        )
        os.replace(tmp, state_path)
    bar.close()
    model.eval()
    return model, accuracy


def adapt_classifier(
    deck_dir: Path,
    base_model: Path,
    work_dir: Path,
    plan: AdaptPlan,
    say: Say = print,
) -> AdaptResult:
    """Scenes of ``deck_dir`` -> crops -> fine-tuned classifier in ``work_dir/classifier/``."""
    from skullcam.vision.train_classifier import export_classifier, save_checkpoint
    from skullcam.vision.training import CLASSES

    start = time.perf_counter()
    init = base_model / CHECKPOINT_FILE
    if not init.is_file():
        raise UserError(
            f"the active model at {base_model} has no {CHECKPOINT_FILE} to fine-tune from; "
            "activate a model that has one (skullcam enroll --list) or reinstall skullcam"
        )
    work_dir.mkdir(parents=True, exist_ok=True)
    say(f"rendering {plan.train_scenes + plan.val_scenes} scenes of the enrolled deck")
    scenes = generate_scenes(
        deck_dir,
        work_dir / "scenes",
        {"train": plan.train_scenes, "val": plan.val_scenes},
        seed=plan.seed,
        workers=plan.workers,
        progress=plan.progress,
    )
    say("cutting card crops from the scenes")
    train = _crops(
        scenes,
        "train",
        work_dir / "crops_train.npz",
        CLASSES,
        copies=plan.crop_copies,
        seed=plan.seed + 1,
        progress=plan.progress,
    )
    val = _crops(
        scenes,
        "val",
        work_dir / "crops_val.npz",
        CLASSES,
        copies=1,
        seed=plan.seed + 2,
        jitter=0.5,
        progress=plan.progress,
    )
    say("cutting crops where the detector puts its boxes")
    detected = _detector_crops(
        scenes, "train", work_dir / "crops_detector.npz", base_model, CLASSES, plan.progress
    )
    train = merge(train, detected)
    say(f"fine-tuning the face classifier on {len(train)} crops, {plan.epochs} epochs")
    model, accuracy = fine_tune(train, val, init, work_dir / "finetune_state.pt", plan)
    out = work_dir / "classifier"
    out.mkdir(exist_ok=True)
    export_classifier(model, out / CLASSIFIER_FILE)  # type: ignore[arg-type]
    save_checkpoint(model, CLASSES, out / CHECKPOINT_FILE)  # type: ignore[arg-type]
    return AdaptResult(
        checkpoint=out / CHECKPOINT_FILE,
        onnx=out / CLASSIFIER_FILE,
        val_accuracy=accuracy,
        seconds=time.perf_counter() - start,
    )
