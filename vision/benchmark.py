"""Latency and memory of the recognizer, beside a yolo11n@640 ONNX reference in the same run.

The reference is the issue's yardstick ("no slower than yolo11n at 640, aim for half"):
it is exported once from ``yolo11n.yaml`` (random weights: speed does not depend on them)
and cached, so the comparison is always made on the same machine, in the same process.
"""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from skullcam.errors import UserError, first_line
from skullcam.parallel import usable_cores
from skullcam.vision import obb


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def time_calls(
    fn: Callable[[np.ndarray], object], frames: Sequence[np.ndarray], repeats: int, warmup: int = 3
) -> dict[str, float]:
    for frame in frames[:warmup]:
        fn(frame)
    times = []
    for i in range(repeats):
        frame = frames[i % len(frames)]
        start = time.perf_counter()
        fn(frame)
        times.append((time.perf_counter() - start) * 1000)
    return {
        "median_ms": statistics.median(times),
        "p95_ms": _percentile(times, 95),
        "fps": 1000 / statistics.mean(times),
    }


def reference_model(cache: Path) -> Path | None:
    """yolo11n at 640 px as ONNX, exported on first use; None without the train extras."""
    path = cache / "yolo11n-640.onnx"
    if path.is_file():
        return path
    try:
        from skullcam.vision.ultralytics_offline import import_ultralytics

        import_ultralytics()
        from ultralytics import YOLO
    except ImportError:
        return None
    cache.mkdir(parents=True, exist_ok=True)
    exported = Path(
        YOLO("yolo11n.yaml").export(
            format="onnx", imgsz=640, simplify=True, opset=17, verbose=False
        )
    )
    exported.replace(path)
    return path


def reference_runner(path: Path, threads: int) -> Callable[[np.ndarray], object]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # ONNX Runtime's own exception classes: a damaged file
        raise UserError(
            f"the cached reference model {path} does not load ({first_line(err)}); delete it, "
            "and the next bench exports it again"
        ) from None
    name = session.get_inputs()[0].name

    def run(frame: np.ndarray) -> object:
        image, _ = obb.letterbox(frame, (640, 640))
        return session.run(None, {name: obb.to_input_tensor(image)})

    return run


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_benchmark(
    model: Path | None,
    frames: Sequence[np.ndarray],
    repeats: int,
    cache: Path,
    data_dir: Path | None = None,
) -> dict[str, object]:
    from skullcam.vision.recognizer import Recognizer

    cores = usable_cores()
    report: dict[str, object] = {
        "frames": len(frames),
        "repeats": repeats,
        "cores": cores,
        "frame_size": list(frames[0].shape[:2]),
    }
    rss_before = max_rss_mb()
    for threads in sorted({1, cores}):
        recognizer = Recognizer.load(model, data_dir=data_dir, threads=threads)
        report["model"] = recognizer.version
        report["input_hw"] = list(recognizer.manifest.detector_input)
        report["detector_views"] = 2 if recognizer.manifest.detector_mirror else 1
        stats = time_calls(recognizer, frames, repeats)
        stats["detector_median_ms"] = time_calls(recognizer.detect_boxes, frames, repeats)[
            "median_ms"
        ]
        report[f"skullcam_{threads}_threads"] = stats
        ref = reference_model(cache)
        if ref is not None:
            report[f"yolo11n640_{threads}_threads"] = time_calls(
                reference_runner(ref, threads), frames, repeats
            )
        else:
            report["reference_missing"] = (
                f"no yolo11n@640 reference to compare with: exporting it needs the train extras"
                f" (pip install -e '.[train]'), or put a yolo11n-640.onnx in {cache}"
            )
    report["max_rss_mb"] = round(max_rss_mb(), 1)
    report["rss_growth_mb"] = round(max_rss_mb() - rss_before, 1)
    return report
