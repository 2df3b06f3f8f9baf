"""``skullcam train``: train the recognizer (detector + classifier) from generated scenes."""

from __future__ import annotations

import argparse
from pathlib import Path

from skullcam.cli import (
    non_negative_float,
    non_negative_int,
    output_path,
    positive_float,
    positive_int,
)
from skullcam.vision.train_plan import TrainPlan


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "train",
        help="train the card recognizer on a scene dataset",
        description="Train the one-class card detector (ultralytics, offline, from a .yaml) and "
        "the face classifier on a dataset written by 'skullcam synth scenes', export both to "
        "ONNX and write the model folder --out. The default epochs took 37 min on 3,000 scenes "
        "on a 2-core CPU with bfloat16 instructions, about 3 x as long without; "
        "scripts/train_two_hours.sh (6,000 scenes, --detector-minutes 70, --classifier-minutes "
        "14, --corner-minutes 6) fits the two-hour budget on either (models/README.md).",
    )
    parser.add_argument("--dataset", type=Path, required=True, help="scene dataset folder")
    parser.add_argument(
        "--out",
        type=output_path,
        required=True,
        help="model folder to write (never implied: the installed models/ folder is every data "
        "folder's shipped model, so replacing it is said by name, --out models)",
    )
    parser.add_argument(
        "--work",
        type=output_path,
        default=Path("runs/train"),
        help="scratch folder (default runs/train)",
    )
    for part in ("detector", "classifier"):
        parser.add_argument(
            f"--{part}-epochs",
            type=positive_int,
            default=getattr(TrainPlan, f"{part}_epochs"),
            help=f"{part} epochs (default %(default)s)",
        )
    parser.add_argument(
        "--imgsz",
        type=positive_int,
        default=TrainPlan.imgsz,
        help=f"detector training size in pixels (default {TrainPlan.imgsz})",
    )
    parser.add_argument(
        "--batch",
        type=positive_int,
        default=TrainPlan.batch,
        help=f"detector batch size (default {TrainPlan.batch})",
    )
    parser.add_argument(
        "--max-classifier-scenes",
        type=positive_int,
        default=TrainPlan.max_classifier_scenes,
        help="train scenes the classifier's crops are cut from (the first N; val: N/8, at"
        f" least 50; default {TrainPlan.max_classifier_scenes})",
    )
    parser.add_argument(
        "--crop-copies",
        type=positive_int,
        default=TrainPlan.crop_copies,
        help=f"jittered crops per labelled card (default {TrainPlan.crop_copies})",
    )
    parser.add_argument(
        "--candidate-crops",
        type=non_negative_int,
        default=TrainPlan.candidate_crops,
        help="also teach the classifier up to N of the detector's raw boxes (before NMS, both "
        "views) on each partly covered card (default 0; the shipped classifier used 3)",
    )
    parser.add_argument("--resume", action="store_true", help="resume an interrupted detector run")
    parser.add_argument(
        "--skip-detector",
        action="store_true",
        help="keep the --out model's detector (and its input size); train the other parts",
    )
    parser.add_argument(
        "--skip-classifier",
        action="store_true",
        help="keep the --out model's classifier (with --skip-detector: train only the corner "
        "reader)",
    )
    corner = parser.add_mutually_exclusive_group()
    corner.add_argument(
        "--corner-epochs",
        type=non_negative_int,
        default=TrainPlan.corner_epochs,
        help="corner reader epochs, 0 for a model without one (default %(default)s)",
    )
    corner.add_argument(
        "--skip-corner",
        action="store_true",
        help="keep the --out model's corner reader. A run that keeps any part of the --out "
        "model keeps its thresholds and switches too (recognizer.json)",
    )
    parser.add_argument(
        "--init-detector",
        type=Path,
        default=None,
        help="continue training from this detector checkpoint (.pt) instead of from scratch",
    )
    parser.add_argument(
        "--init-classifier",
        type=Path,
        default=None,
        help="fine-tune from this classifier checkpoint (card-classifier.pt) instead of from "
        "scratch",
    )
    parser.add_argument(
        "--classifier-lr",
        type=positive_float,
        default=TrainPlan.classifier_lr,
        help=f"peak classifier learning rate (default {TrainPlan.classifier_lr:g})",
    )
    parser.add_argument(
        "--detector-lr",
        type=positive_float,
        default=None,
        help="peak detector learning rate, with AdamW (default: 0.002 with --init-detector, "
        "ultralytics' own choice from scratch)",
    )
    parser.add_argument(
        "--detector-warmup",
        type=non_negative_float,
        default=None,
        metavar="EPOCHS",
        help="raise the detector's learning rate from 0 over this many epochs, never the last "
        "(default: none with --init-detector, ultralytics' 3 from scratch)",
    )
    parser.add_argument(
        "--device",
        default=TrainPlan.device,
        help="where to train: cpu (default), or cuda / cuda:N / N for a GPU",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=TrainPlan.workers,
        help="worker processes for data loading and cutting crops (default %(default)s)",
    )
    for part in ("detector", "classifier", "corner"):
        parser.add_argument(
            f"--{part}-minutes",
            type=positive_float,
            default=None,
            help=f"train the {part if part != 'corner' else 'corner reader'} for this long "
            f"instead of --{part}-epochs (a GPU run's time budget)",
        )
    parser.add_argument(
        "--classifier-batch",
        type=positive_int,
        default=TrainPlan.classifier_batch,
        help="classifier batch size (default %(default)s)",
    )
    parser.set_defaults(func=_run)


def _device(name: str) -> str:
    """Check --device before any training starts: a GPU that is not there is found now, not
    after the scenes are cut."""
    from skullcam.errors import UserError
    from skullcam.vision.train_plan import check_device

    if check_device(name) == "cpu":
        return name
    try:
        import torch
    except ImportError:
        return name  # train_recognizer names the missing training stack
    if not torch.cuda.is_available():
        raise UserError(
            f"--device {name}: torch sees no GPU on this machine; train with --device cpu"
        )
    return name


def _run(args: argparse.Namespace) -> int:
    from skullcam.vision.training import train_recognizer

    plan = TrainPlan(
        dataset=args.dataset,
        out=args.out,
        work_dir=args.work,
        detector_epochs=args.detector_epochs,
        classifier_epochs=args.classifier_epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        max_classifier_scenes=args.max_classifier_scenes,
        crop_copies=args.crop_copies,
        candidate_crops=args.candidate_crops,
        resume=args.resume,
        skip_detector=args.skip_detector,
        skip_classifier=args.skip_classifier,
        skip_corner=args.skip_corner,
        corner_epochs=args.corner_epochs,
        init_detector=args.init_detector,
        init_classifier=args.init_classifier,
        classifier_lr=args.classifier_lr,
        detector_lr=args.detector_lr,
        detector_warmup=args.detector_warmup,
        device=_device(args.device),
        workers=args.workers,
        detector_minutes=args.detector_minutes,
        classifier_minutes=args.classifier_minutes,
        corner_minutes=args.corner_minutes,
        classifier_batch=args.classifier_batch,
    )
    manifest = train_recognizer(plan)
    print(f"wrote recognizer {manifest.version} to {manifest.folder}")
    return 0
