"""An int8 detector: would ONNX Runtime's static quantization make recognition faster?

Run: ``python benchmarks/bench_int8.py [--model models] [--dataset DIR --split val]``.
Needs ``onnx`` (a train extra) for the quantizer; the quantized model itself would run on
ONNX Runtime alone. A measurement, not a code path of skullcam: it prints figures and asserts
nothing.

The shipped detector is quantized (QOperator, uint8 activations, int8 per-channel weights,
MinMax calibration on frames of the bundled sample scenes). Its output head (``/model.23/``)
stays in float: quantized whole, the head's one output tensor holds box coordinates up to 320
next to scores in [0, 1], and one scale for both wipes the scores out (measured: max score
error 0.96). Then both detectors are timed interleaved (so load from other jobs hits both
alike) and the whole recognizer is evaluated with each on the same scenes.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import numpy as np
from bench_ncnn import ort_runner, stats, time_interleaved

from skullcam.counts import counted

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "datasets" / "samples" / "scenes"
HEAD = "/model.23/"


def detector_inputs(scenes: list[Path], input_hw: tuple[int, int]) -> list[np.ndarray]:
    from skullcam.vision import obb
    from skullcam.vision.image_io import read_image

    return [obb.to_input_tensor(obb.letterbox(read_image(p), input_hw)[0]) for p in scenes]


def quantize_detector(source: Path, target: Path, calibration: list[np.ndarray]) -> None:
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    prepared = target.with_name("prepared.onnx")
    quant_pre_process(str(source), str(prepared))
    graph = onnx.load(str(prepared)).graph
    name = graph.input[0].name

    class Frames(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self._left = iter(calibration)

        def get_next(self) -> dict[str, np.ndarray] | None:
            tensor = next(self._left, None)
            return None if tensor is None else {name: tensor}

    quantize_static(
        str(prepared),
        str(target),
        Frames(),
        quant_format=QuantFormat.QOperator,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        calibrate_method=CalibrationMethod.MinMax,
        nodes_to_exclude=[n.name for n in graph.node if n.name.startswith(HEAD)],
    )


def scene_accuracy(model: Path, dataset: Path, split: str, limit: int) -> str:
    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.evaluate import evaluate
    from skullcam.vision.recognizer import Recognizer

    recognizer = Recognizer.load(model)
    scenes = read_scene_index(dataset, split)[:limit]
    report = evaluate(recognizer, scenes, recognizer.manifest.classes, progress=True)
    return (
        f"{report['scene_accuracy']:.2%} of {len(scenes)} scenes right, "
        f"P {report['precision']:.3f} R {report['recall']:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=REPO / "models")
    parser.add_argument("--dataset", type=Path, default=SAMPLES, help="scenes to evaluate on")
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, default=1300, help="at most this many scenes")
    parser.add_argument("--repeats", type=int, default=200, help="timed calls per detector")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()

    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.recognizer import ModelManifest

    manifest = ModelManifest.read(args.model)
    frames = [path for path, _ in read_scene_index(SAMPLES, "test")]
    calibration = detector_inputs(frames, manifest.detector_input)
    with tempfile.TemporaryDirectory() as tmp:
        int8_model = Path(tmp) / "model"
        shutil.copytree(args.model, int8_model)
        quantize_detector(
            args.model / manifest.detector, int8_model / manifest.detector, calibration
        )
        fp32, int8 = args.model / manifest.detector, int8_model / manifest.detector
        sizes = [path.stat().st_size / 1e6 for path in (fp32, int8)]
        print(f"detector: {sizes[0]:.1f} MB float, {sizes[1]:.1f} MB int8")

        sample = calibration[0]
        ref, got = ort_runner(fp32, 1)(sample), ort_runner(int8, 1)(sample)
        print(f"max score difference on a sample frame: {np.abs(ref[0, 4] - got[0, 4]).max():.3f}")
        for threads in args.threads:
            runners = {"float": ort_runner(fp32, threads), "int8": ort_runner(int8, threads)}
            said = counted(threads, "thread")
            times = time_interleaved(runners, dict.fromkeys(runners, sample), args.repeats, said)
            for label, ms in times.items():
                print(f"  {said} detector {label:5s} {stats(ms)}")
        for label, model in (("float", args.model), ("int8", int8_model)):
            print(
                f"recognizer with the {label} detector: "
                f"{scene_accuracy(model, args.dataset, args.split, args.limit)}"
            )


if __name__ == "__main__":
    main()
