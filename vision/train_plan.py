"""What one ``skullcam train`` run does, with the defaults of the measured two-hour recipe.

Kept apart from ``training.py`` (which pulls in OpenCV and the crop pipeline) so that the
command line can show these defaults in ``--help`` without importing any of that.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from skullcam.errors import UserError


@dataclass
class TrainPlan:
    """One training run. The defaults (12 detector epochs from ``yolo11n-obb.yaml``, then 20
    classifier and 10 corner-reader epochs from scratch) took 37 min end to end on 3,000 scenes
    on a 2-core CPU with bfloat16 instructions; a CPU without them takes about 3 x as long.
    scripts/train_two_hours.sh gives each part a
    time budget instead, so that it fits two hours on either (models/README.md)."""

    dataset: Path
    out: Path
    work_dir: Path
    detector_epochs: int = 12
    classifier_epochs: int = 20
    imgsz: int = 320
    input_hw: tuple[int, int] = (256, 320)
    batch: int = 16
    crop_copies: int = 1
    # The detector's raw boxes on each covered card taught too (crops_from_candidates), up to
    # this many a card; 0: none. 3 was measured on a fine-tune of the shipped classifier.
    candidate_crops: int = 0
    max_classifier_scenes: int = 4000
    resume: bool = False
    skip_detector: bool = False
    detector_fraction: float = 1.0
    init_detector: Path | None = None
    init_classifier: Path | None = None
    classifier_lr: float = 4e-3
    # Peak detector learning rate (AdamW). None: 0.002 for a continuation (train_detector's
    # default), ultralytics' own choice from scratch.
    detector_lr: float | None = None
    # Epochs over which the detector's learning rate rises from 0 (ultralytics 8.4 leaves the
    # last epoch out of it). None: the default of the path, none for a continuation (as
    # enrollment's short fine-tune runs) and ultralytics' 3 epochs from scratch. A long
    # continuation should warm up, since AdamW's first steps at full rate knock a trained
    # detector back (mAP50-95 0.93 -> 0.88 after one epoch).
    detector_warmup: float | None = None
    skip_classifier: bool = False
    # Keep the --out model's corner reader (and, as with the other skips, its reading rules).
    skip_corner: bool = False
    # The corner reader: 10 epochs, 5.2 minutes on a 2-core CPU with bfloat16.
    corner_epochs: int = 10
    # Where and how wide to run: "cpu", or "cuda" / "cuda:N" for a GPU (the detector, the
    # classifier and the corner reader all train there); worker processes for the detector's
    # data loading and for cutting crops.
    device: str = "cpu"
    workers: int = 2
    # Time budgets in minutes, each replacing its epoch count when set: a GPU lent for a few
    # minutes runs at a speed not known beforehand, so a run sized in epochs could overrun it.
    detector_minutes: float | None = None
    classifier_minutes: float | None = None
    corner_minutes: float | None = None
    classifier_batch: int = 128


def check_device(device: str) -> str:
    """``--device`` as the user may write it: cpu, cuda, cuda:N or a bare GPU number N."""
    if device == "cpu" or device == "cuda" or device.removeprefix("cuda:").isdigit():
        return device
    raise UserError(f"--device {device!r} is not a device: give cpu, cuda, cuda:N or N")


def torch_device(device: str) -> str:
    """``--device`` as torch names it: "cpu", "cuda", "cuda:N" (a bare GPU number too)."""
    return f"cuda:{device}" if device.isdigit() else device


def ultralytics_device(device: str) -> str:
    """``--device`` as ultralytics names it: "cpu", or the GPU's number."""
    if device == "cpu":
        return device
    return device.removeprefix("cuda").removeprefix(":") or "0"
