"""Train the one-class oriented-box card detector with ultralytics, offline, and export ONNX.

From a model ``.yaml`` (no pretrained weights can be had here). Augmentation suits a
top-down table camera: any rotation, flips allowed (the detector only says "card"), small
hue shifts. The export is a fixed ``(height, width)`` input sized for 4:3 camera frames, so no
compute is spent on letterbox padding.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from skullcam.datasets.dataset import data_yaml_for_here
from skullcam.errors import UserError
from skullcam.vision.detector_cpu_speed import cpu_training_speed
from skullcam.vision.ultralytics_offline import import_ultralytics, threads_kept

DETECTOR_YAML = "yolo11n-obb.yaml"


@threads_kept()
def train_detector(
    data_yaml: Path,
    project: Path,
    name: str = "detector",
    epochs: int = 8,
    imgsz: int = 320,
    batch: int = 16,
    workers: int = 2,
    resume: bool = False,
    fraction: float = 1.0,
    patience: int = 50,
    device: str = "cpu",
    init: Path | None = None,
    extra: dict[str, Any] | None = None,
) -> Path:
    """Train (or resume) and return the path of the best ``.pt`` checkpoint.

    ``init`` continues from a checkpoint of our own (a longer schedule in several sittings,
    as models were trained on a 2-core CPU before the GPU run; or a fine-tune) without a
    warm-up, with AdamW at ``extra["lr0"]`` (default 0.002). The optimiser is named because
    ultralytics' ``optimizer="auto"`` ignores ``lr0`` and picks its own (AdamW at 0.002 for
    a single-class run under 10,000 steps, as continuations are, whatever rate they ask
    for).
    """
    import_ultralytics(verbose=True)
    from ultralytics import YOLO

    if not data_yaml.is_file():
        raise UserError(
            f"dataset description {data_yaml} not found; make one with 'skullcam synth scenes'"
        )
    run_dir = project.resolve() / name
    data_yaml = data_yaml_for_here(data_yaml, project.resolve() / f"{name}-data.yaml")
    last = run_dir / "weights" / "last.pt"
    if resume and last.is_file():
        model = YOLO(str(last))
        settings: dict[str, Any] = {"resume": True}
    else:
        if run_dir.exists() and not resume:
            shutil.rmtree(run_dir)
        model = YOLO(DETECTOR_YAML)
        if init is not None:
            extra = {"warmup_epochs": 0.0, "optimizer": "AdamW", "lr0": 0.002, **(extra or {})}
        settings = {
            "data": str(data_yaml.resolve()),
            "epochs": epochs,
            "imgsz": imgsz,
            "batch": batch,
            "workers": workers,
            "device": device,
            "project": str(project.resolve()),
            "name": name,
            "exist_ok": True,
            # Our own checkpoint to continue from; never a hub name (that would download).
            "pretrained": str(init) if init is not None else False,
            "amp": False,
            "plots": False,
            "verbose": False,
            "degrees": 180.0,
            "fliplr": 0.5,
            "flipud": 0.5,
            "hsv_h": 0.01,
            "mosaic": 1.0,
            "close_mosaic": max(1, epochs // 4),
            "patience": patience,
            "fraction": fraction,
            "seed": 0,
            "deterministic": True,
            "cache": "ram",  # decode and resize each scene once, not once per epoch
        } | (extra or {})
        settings = with_bias_warm_up_for_optimizer(settings)
    with cpu_training_speed(model, device):
        model.train(**settings)
    best = run_dir / "weights" / "best.pt"
    if not best.is_file():
        best = last
    if not best.is_file():
        raise UserError(f"training produced no weights under {run_dir}")
    return best


def with_bias_warm_up_for_optimizer(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with biases warming up from 0 where AdamW is named and no bias warm-up
    rate is: ultralytics starts them at 0.1 (``warmup_bias_lr``), a rate meant for SGD that
    AdamW at lr 0.001 takes as a hundredfold jump. Its "auto" choice (AdamW or MuSGD in
    ultralytics 8.4) sets 0 itself; a named SGD keeps 0.1."""
    if settings.get("optimizer") == "AdamW" and "warmup_bias_lr" not in settings:
        return settings | {"warmup_bias_lr": 0.0}
    return settings


@threads_kept()
def export_detector(weights: Path, out: Path, input_hw: tuple[int, int]) -> Path:
    """Export to ONNX at a fixed (height, width) and move it to ``out``.

    ultralytics writes the ONNX beside the weights, under their name: exported in place,
    ``models/card-detector.pt`` would overwrite ``models/card-detector.onnx`` and the move
    would then take it away. So a copy of the weights is exported in a folder of its own.
    """
    import_ultralytics()
    from ultralytics import YOLO

    with tempfile.TemporaryDirectory(prefix="skullcam-export-") as tmp:
        copy = Path(tmp) / "detector.pt"
        shutil.copyfile(weights, copy)
        exported = Path(
            YOLO(str(copy)).export(
                format="onnx",
                imgsz=list(input_hw),
                simplify=True,
                dynamic=False,
                opset=17,
                verbose=False,
            )
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(exported), out)
    return out
