"""``skullcam bench``: recognizer latency, FPS and memory beside the yolo11n@640 reference."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from skullcam.cli import add_data_argument, positive_int
from skullcam.errors import UserError
from skullcam.files import make_folder


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bench",
        help="benchmark the recognizer (latency, FPS, memory)",
        description="Per-frame latency (median, p95) of the whole recognizer at its working "
        "size on 1 and on all cores, beside a yolo11n ONNX at 640 px in the same run.",
    )
    parser.add_argument(
        "--dataset",
        type=Path,
        default=None,
        help="scene folder to take frames from (default: bundled samples)",
    )
    parser.add_argument("--split", default="test", help="the dataset's split to use (test)")
    parser.add_argument(
        "--frames", type=positive_int, default=20, help="distinct frames to cycle (20)"
    )
    parser.add_argument(
        "--repeats", type=positive_int, default=60, help="timed calls per configuration (60)"
    )
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path.home() / ".cache" / "skullcam",
        help="where the yolo11n@640 reference ONNX is exported once (default ~/.cache/skullcam)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from skullcam.datasets import bundled_samples
    from skullcam.vision.benchmark import run_benchmark
    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.image_io import read_image

    dataset = args.dataset or bundled_samples("scenes")
    if not dataset.exists():
        raise UserError(f"no frames to benchmark: {dataset} missing; pass --dataset")
    scenes = read_scene_index(dataset, args.split)[: args.frames]  # never empty: it says so
    frames = [read_image(path) for path, _ in scenes]
    cache = make_folder(args.cache, "--cache folder")
    report = run_benchmark(args.model, frames, args.repeats, cache, data_dir=args.data)
    if "reference_missing" in report:  # the figure the issue asks for: never left out quietly
        print(f"skullcam bench: {report['reference_missing']}", file=sys.stderr)
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"model {report['model']}  input {report['input_hw']}  frames {report['frame_size']}"
        f"  detector views {report['detector_views']}  cores {report['cores']}"
    )
    for key, value in report.items():
        if isinstance(value, dict):
            extra = (
                f"  detector {value['detector_median_ms']:.1f} ms"
                if "detector_median_ms" in value
                else ""
            )
            print(
                f"  {key:<24} median {value['median_ms']:6.1f} ms  p95 {value['p95_ms']:6.1f} ms"
                f"  {value['fps']:6.1f} fps{extra}"
            )
    print(f"  max RSS {report['max_rss_mb']} MB (growth during bench {report['rss_growth_mb']} MB)")
    return 0
