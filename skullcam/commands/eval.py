"""``skullcam eval``: precision, recall, mAP and scene accuracy on a labelled scene split."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from skullcam.cli import add_data_argument, non_negative_int, output_path
from skullcam.counts import counted
from skullcam.files import make_folder


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "eval",
        help="evaluate the recognizer on labelled scenes",
        description="Per-card precision/recall, mAP50, mAP50-95, scene accuracy (every card "
        "right, nothing extra), the cause of each miss and false alarm, a confusion-matrix "
        "image and the worst scenes annotated.",
    )
    parser.add_argument(
        "--dataset",
        "--scenes",
        dest="dataset",
        type=Path,
        required=True,
        help="scene dataset folder (from 'skullcam synth scenes')",
    )
    parser.add_argument("--split", default="test", help="split to evaluate (default: test)")
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument(
        "--out",
        type=output_path,
        default=Path("runs/eval"),
        help="report folder (default: runs/eval)",
    )
    parser.add_argument(
        "--limit",
        type=non_negative_int,
        default=0,
        help="evaluate only the first N scenes (default 0: all)",
    )
    parser.add_argument(
        "--threads",
        type=non_negative_int,
        default=0,
        help="threads the recognizer runs on (default 0: up to 4, as the live loop does); with 1"
        " the detector's two views run one after the other, and the mirror view only where the "
        "first leaves a box in doubt (mirror_below in the model's recognizer.json)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        metavar="REPORT",
        help="an earlier report folder of the same scenes (another model's --out): also say "
        "how many scenes this model fixed and broke against it, with McNemar's p",
    )
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from skullcam.datasets.dataset import read_rendered_with
    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.error_causes import explain_errors
    from skullcam.vision.evaluate import evaluate
    from skullcam.vision.image_io import check_image_file
    from skullcam.vision.recognizer import Recognizer
    from skullcam.vision.scene_compare import (
        check_same_scenes,
        compare_scenes,
        read_scene_verdicts,
    )

    make_folder(args.out, "report folder")  # before minutes of evaluation, not after
    # read now: a missing earlier report is said before the evaluation, not after it
    before = read_scene_verdicts(args.against) if args.against is not None else None
    scenes = read_scene_index(args.dataset, args.split)  # a bad label costs no model load
    if args.limit:
        scenes = scenes[: args.limit]
    for path, _ in scenes:  # a missing image is said now, not minutes into the evaluation
        check_image_file(path)
    if before is not None:  # the same scenes, or the comparison is said to be off now
        check_same_scenes(before, [str(path.resolve()) for path, _ in scenes])
    recognizer = Recognizer.load(args.model, data_dir=args.data, threads=args.threads)
    summary = evaluate(
        recognizer,
        scenes,
        recognizer.manifest.classes,
        out_dir=args.out,
        explain=lambda frame, outcome: explain_errors(recognizer, frame, outcome),
        # the same seed renders other pixels under another OpenCV: say which drew these
        about={"dataset_rendered_with": read_rendered_with(args.dataset)},
    )
    comparison = None
    if before is not None:
        comparison = compare_scenes(before, read_scene_verdicts(args.out))
        summary["against"] = {
            "report": str(args.against),
            **asdict(comparison),
            "p_value": comparison.p_value,
        }
    if args.json:
        print(json.dumps(summary))
        return 0
    scenes_seen, cards = summary["scenes"], summary["cards"]
    assert isinstance(scenes_seen, int) and isinstance(cards, int)
    print(
        f"model {recognizer.version} on {counted(scenes_seen, 'scene')}, {counted(cards, 'card')}"
    )
    rendered = summary["dataset_rendered_with"] or "rendered with libraries not recorded"
    print(f"  scenes {rendered}")
    for key in (
        "precision",
        "recall",
        "mAP50",
        "mAP50-95",
        "scene_accuracy",
        "scene_accuracy_overlapped",
    ):
        print(f"  {key:<26} {float(summary[key]):.4f}")  # type: ignore[arg-type]
    edge = summary["frame_edge"]
    assert isinstance(edge, dict)
    print(
        f"  cut by the frame's edge     {edge['edge_cards']} of {counted(cards, 'card')}, "
        f"recall {edge['edge_recall']:.4f} "
        f"(the others {edge['inside_recall']:.4f})"
    )
    print(
        f"  hidden cards read right     {summary['hidden_read_right']} "
        "(under half visible: neither credit nor fault)"
    )
    per_card = summary["per_card"]
    assert isinstance(per_card, dict)
    weakest = sorted(per_card.items(), key=lambda kv: min(kv[1]["precision"], kv[1]["recall"]))
    print(
        "  weakest cards: "
        + ", ".join(f"{face} P={v['precision']:.3f} R={v['recall']:.3f}" for face, v in weakest[:5])
    )
    confusions = summary["confusions"]
    assert isinstance(confusions, list)
    if confusions:
        print("  confusions: " + "; ".join(f"{t} -> {p} x{n}" for t, p, n in confusions[:8]))
    causes = summary["error_causes"]
    assert isinstance(causes, dict)
    for cause, n in causes.items():
        print(f"  {cause}: {n}")
    if comparison is not None:
        print(f"  against {args.against}: {comparison.describe()}")
    print(f"  report, confusion matrix and worst cases in {args.out}")
    return 0
