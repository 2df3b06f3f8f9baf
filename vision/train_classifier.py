"""Train (or fine-tune) the face classifier on rectified crops and export it to ONNX.

One-cycle learning rate (short warm-up, then a long anneal) because the shared feasibility run
sat at chance for two minutes under a slow warm-up; augmentation happens on tensors so an
epoch on 10k crops stays around ten seconds on two cores.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from torch import nn

from skullcam.errors import UserError, first_line
from skullcam.vision.classifier_net import CardClassifier
from skullcam.vision.cpu_features import cpu_has_native_bf16
from skullcam.vision.crop_dataset import CropSet


@dataclass
class ClassifierResult:
    model: Any  # CardClassifier, or CornerReaderNet for the corner reader
    val_accuracy: float
    epochs: int
    seconds: float


def to_float_batch(images: torch.Tensor) -> torch.Tensor:
    """BGR uint8 NHWC -> RGB float NCHW in [0, 1] (same as crops_to_batch at inference).

    Done a batch at a time, on the training device: a GPU run keeps the whole crop set there
    as uint8, a quarter of its size in floats. The NCHW view of NHWC data is channels-last in
    memory, the layout the networks train in (:func:`channels_last`), and ``augment`` keeps it:
    no reordering per batch."""
    return torch.flip(images, dims=(3,)).permute(0, 3, 1, 2).float() / 255


def augment(x: torch.Tensor, gen: torch.Generator, turn: bool = True) -> torch.Tensor:
    """Light, colour and noise changes; a whole crop also half the time turned 180 degrees (a
    card is read both ways up), a corner patch instead shifted by up to 2 px (where the mark
    sits in it depends on how well the box fits)."""
    n, dev = x.shape[0], x.device
    if turn:
        turned = torch.rand(n, generator=gen, device=dev) < 0.5
        x = torch.where(turned[:, None, None, None], torch.flip(x, dims=(2, 3)), x)
    else:
        dy, dx = (int(v) for v in torch.randint(-2, 3, (2,), generator=gen, device=dev))
        x = torch.roll(x, (dy, dx), dims=(2, 3))
    gain = 1 + (torch.rand(n, 1, 1, 1, generator=gen, device=dev) - 0.5) * 0.5
    bias = (torch.rand(n, 1, 1, 1, generator=gen, device=dev) - 0.5) * 0.2
    tint = 1 + (torch.rand(n, 3, 1, 1, generator=gen, device=dev) - 0.5) * 0.12
    x = x * gain * tint + bias
    x = x + torch.randn(x.shape, generator=gen, device=dev) * 0.03
    return x.clamp(0, 1)


def fast_math(device: torch.device) -> contextlib.AbstractContextManager[object]:
    """The training step's arithmetic: bfloat16 autocast on a CPU that has it natively (the
    weights, optimiser and exported model stay float32), plain float32 otherwise."""
    if device.type == "cpu" and cpu_has_native_bf16():
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def channels_last(model: nn.Module) -> nn.Module:
    """The network's weights in channels-last order, which oneDNN's convolutions run without
    reordering: 1.3 x faster training steps on a 2-core Xeon in float32, the same
    arithmetic. Saved weights and the ONNX export do not depend on it.

    Called through ``Any``: torch 2.13's stubs (the CPU build ``install.sh`` falls back to) have
    no ``memory_format`` overload of ``Module.to``, though the method takes it."""
    moved: nn.Module = cast(Any, model).to(memory_format=torch.channels_last)
    return moved


def evaluate(model: nn.Module, images: torch.Tensor, labels: torch.Tensor) -> float:
    """Share of ``images`` (uint8 BGR NHWC, on the model's device) classified as ``labels``,
    in float32: the figure stands for the exported model."""
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(labels), 512):
            pred = model(to_float_batch(images[i : i + 512])).argmax(dim=1)
            correct += int((pred == labels[i : i + 512]).sum())
    return correct / max(1, len(labels))


def train_classifier(
    train: CropSet,
    val: CropSet,
    epochs: int = 12,
    batch_size: int = 128,
    lr: float = 4e-3,
    init: CardClassifier | None = None,
    seed: int = 0,
    progress: Callable[[int, int, float, float], None] | None = None,
    make_model: Callable[[int], nn.Module] = CardClassifier,
    turn: bool = True,
    device: str = "cpu",
    seconds: float | None = None,
    at_most: float | None = None,
) -> ClassifierResult:
    """Train from scratch, or fine-tune ``init`` (its head replaced when the classes differ).

    The corner reader trains here too: ``make_model`` builds its network, and ``turn=False``
    since a corner patch is always upright. ``device`` is a torch device ("cpu", "cuda",
    "cuda:1"). With ``seconds``, training runs for that long instead of ``epochs`` and the
    one-cycle schedule follows the clock: on a GPU lent for a few minutes the speed is not
    known beforehand, and a schedule cut short by a deadline would end at its peak rate.
    With ``at_most``, training ends after ``epochs`` or that many seconds, whichever comes
    first, the schedule following whichever is further along (enrollment's time budget).
    The returned model is on the CPU, ready to export."""
    dev = torch.device(device)
    torch.manual_seed(seed)
    gen = torch.Generator(device=dev).manual_seed(seed)
    n_classes = len(train.classes)
    if init is None:
        model = make_model(n_classes)
    else:
        model = init
        if model.head[-1].out_features != n_classes:
            model.replace_head(n_classes)
    model = model.to(dev)
    x_train, y_train = uint8_tensor(train.images, dev), torch.from_numpy(train.labels).to(dev)
    x_val, y_val = uint8_tensor(val.images, dev), torch.from_numpy(val.labels).to(dev)
    steps_per_epoch = math.ceil(len(y_train) / batch_size)
    epoch_steps = epochs * steps_per_epoch
    optimizer, schedule = one_cycle(model, lr, CLOCK_STEPS if seconds or at_most else epoch_steps)
    start = time.perf_counter()
    accuracy, epoch, steps, out_of_time = 0.0, 0, 0, False

    def after_step(loss: float) -> bool:
        nonlocal out_of_time, steps
        steps += 1
        if seconds:
            out_of_time = _follow_clock(schedule, time.perf_counter() - start, seconds)
        elif at_most:
            share = course_share(steps, epoch_steps, time.perf_counter() - start, at_most)
            out_of_time = follow_share(schedule, share)
        else:
            schedule.step()
        return out_of_time

    while not out_of_time and (seconds or epoch < epochs):
        mean_loss = train_epoch(
            model, x_train, y_train, batch_size, optimizer, gen, after_step, turn
        )
        epoch += 1
        accuracy = evaluate(model, x_val, y_val)
        if progress is not None:
            progress(epoch, 0 if seconds else epochs, mean_loss, accuracy)
    return ClassifierResult(model.cpu(), accuracy, epoch, time.perf_counter() - start)


def one_cycle(model: nn.Module, lr: float, total_steps: int) -> tuple[Any, Any]:
    """AdamW and a one-cycle schedule peaking at ``lr`` after 15 % of ``total_steps``: the
    recipe every classifier and corner reader here trains or fine-tunes with."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=lr, total_steps=total_steps, pct_start=0.15
    )
    return optimizer, schedule


LOSS = nn.CrossEntropyLoss(label_smoothing=0.05)


def train_epoch(
    model: nn.Module,
    x_train: torch.Tensor,
    y_train: torch.Tensor,
    batch_size: int,
    optimizer: Any,
    gen: torch.Generator,
    after_step: Callable[[float], bool],
    turn: bool = True,
) -> float:
    """One pass over the crops in a random order, augmented; the mean loss.

    ``after_step(loss)`` runs after each optimiser step: it advances the schedule (by step or
    by the clock) and shows progress, and returns True to end the epoch early."""
    model.train()
    channels_last(model)
    order = torch.randperm(len(y_train), generator=gen, device=y_train.device)
    total, seen = 0.0, 0
    for i in range(0, len(order), batch_size):
        idx = order[i : i + batch_size]
        batch = augment(to_float_batch(x_train[idx]), gen, turn)
        with fast_math(batch.device):
            logits = model(batch)
        loss = LOSS(logits.float(), y_train[idx])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        value = loss.item()
        total += value * len(idx)
        seen += len(idx)
        if after_step(value):
            break
    return total / max(1, seen)


CLOCK_STEPS = 10_000
"""Resolution of a clock-driven schedule: the one-cycle curve in this many steps, advanced to
the share of the time budget spent after each batch."""


def _follow_clock(schedule: Any, elapsed: float, seconds: float) -> bool:
    """Advance ``schedule`` to where ``elapsed`` of ``seconds`` puts it; True once time is up."""
    return follow_share(schedule, elapsed / seconds)


def course_share(steps: int, total_steps: int, elapsed: float, seconds: float | None) -> float:
    """How far a run of ``total_steps`` with a budget of ``seconds`` (None: none) has come:
    by its steps or by its time, whichever is further along, since whichever ends it first."""
    share = steps / total_steps
    return max(share, elapsed / seconds) if seconds else share


def follow_share(schedule: Any, share: float) -> bool:
    """Advance a ``CLOCK_STEPS``-long ``schedule`` to ``share`` of its course (it never goes
    back, nor past its last step); True once the course is run. The share is whatever ends the
    training: the time spent, or the steps done when a run has both a step count and a clock."""
    target = min(CLOCK_STEPS - 1, int(share * CLOCK_STEPS))
    while schedule.last_epoch < target:
        schedule.step()
    return share >= 1


def uint8_tensor(images: np.ndarray, dev: torch.device) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(images)).to(dev)


def export_classifier(
    model: nn.Module, path: Path, input_hw: tuple[int, int] | None = None
) -> None:
    """ONNX with a dynamic batch axis: one run classifies every card of a frame at once.
    ``input_hw`` defaults to the card crop; the corner reader passes its patch size."""
    import warnings

    from skullcam.vision.crops import CROP_H, CROP_W

    height, width = input_hw or (CROP_H, CROP_W)
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            (torch.zeros(1, 3, height, width),),  # the inputs, as a tuple
            str(tmp),
            dynamo=False,
            input_names=["crops"],
            output_names=["logits"],
            dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
            opset_version=17,
        )
    tmp.replace(path)


def save_checkpoint(model: nn.Module, classes: tuple[str, ...], path: Path) -> None:
    torch.save({"state_dict": model.state_dict(), "classes": list(classes)}, path)


def load_checkpoint(
    path: Path, make_model: Callable[[int], nn.Module] = CardClassifier
) -> tuple[Any, tuple[str, ...]]:
    """A saved network (the classifier, or with ``make_model`` the corner reader) and its
    class list; a file that is not one (a model's .onnx given for its .pt, a damaged copy) is
    a UserError naming it."""
    try:
        raw = torch.load(path, map_location="cpu", weights_only=True)
        classes = tuple(raw["classes"])
        model = make_model(len(classes))
        model.load_state_dict(raw["state_dict"])
    except (pickle.UnpicklingError, RuntimeError, KeyError, TypeError, ValueError, EOFError) as err:
        raise UserError(
            f"{path} is not a saved {make_model.__name__} network ({first_line(err)}); give the "
            ".pt file of a trained model folder"
        ) from None
    return model, classes
