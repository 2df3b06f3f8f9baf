"""NCNN vs ONNX Runtime on the recognizer's two networks: is NCNN worth a second backend?

Run: ``python benchmarks/bench_ncnn.py [--detector-pt PT] [--classifier-pt PT] [--repeats N]``.
Needs the train extras (torch, ultralytics) plus the optional ``ncnn`` and ``pnnx`` packages,
none of which the runtime needs: this is a measurement, not a code path of skullcam.

Both runtimes are fed models converted from the same torch weights, in a work folder:

- detector: ultralytics' own ONNX export (the shipped recipe, ``export_detector``) and its own
  NCNN export (which drives ``pnnx``), at the shipped 256 x 320 input;
- classifier: the shipped ONNX export (``export_classifier``) and a ``pnnx`` trace at batch 1.
  NCNN has no batch axis, so the NCNN side runs one extraction per crop; a batch of 6 crops is
  3 cards read both ways up, as ``Recognizer.classify`` does.

The outputs are compared on a real sample frame and its real card crops first (max abs
difference printed): a timing of a network that computes something else would be meaningless.
Timing is interleaved (ORT, NCNN, ORT, NCNN, ...) so that load from other jobs on the machine
hits both runtimes alike; absolute times on a busy machine are inflated, the ratio is the figure.
Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from skullcam.counts import counted

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "datasets" / "samples" / "scenes"
DETECTOR_HW = (256, 320)
CLASSIFIER_BATCH = 6


@contextlib.contextmanager
def quiet(log: Path) -> Iterator[None]:
    """Send stdout/stderr (ours and the pnnx subprocess's) to ``log``: the converters are chatty."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with log.open("ab") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def convert_detector(weights: Path, work: Path) -> tuple[Path, Path]:
    """(ONNX, NCNN .param) from one ultralytics checkpoint, both by ultralytics' exporters.

    The checkpoint is copied first: ultralytics writes its exports next to the weights, and the
    original may belong to a training run still writing there.
    """
    from skullcam.vision.train_detector import export_detector
    from skullcam.vision.ultralytics_offline import import_ultralytics

    work.mkdir(parents=True, exist_ok=True)
    local = work / "detector.pt"
    shutil.copyfile(weights, local)
    onnx_path = export_detector(local, work / "detector.onnx", DETECTOR_HW)
    import_ultralytics()
    from ultralytics import YOLO

    # ultralytics pins a pnnx version it would pip-install; offline it warns and goes on with
    # the installed one, which is what we want to measure anyway.
    folder = Path(YOLO(str(local)).export(format="ncnn", imgsz=list(DETECTOR_HW), verbose=False))
    return onnx_path, folder / "model.ncnn.param"


def convert_classifier(weights: Path, work: Path) -> tuple[Path, Path]:
    """(ONNX, NCNN .param) of the face classifier: shipped ONNX export, pnnx trace at batch 1."""
    import pnnx
    import torch

    from skullcam.vision.crops import CROP_H, CROP_W
    from skullcam.vision.train_classifier import export_classifier, load_checkpoint

    work.mkdir(parents=True, exist_ok=True)
    model, _ = load_checkpoint(weights)
    model.eval()
    onnx_path = work / "classifier.onnx"
    export_classifier(model, onnx_path)
    stem = work / "classifier"
    with torch.no_grad():
        pnnx.export(
            model,
            str(stem) + ".pnnx.pt",
            inputs=torch.rand(1, 3, CROP_H, CROP_W),
            pnnxparam=f"{stem}.pnnx.param",
            pnnxbin=f"{stem}.pnnx.bin",
            pnnxpy=f"{stem}_pnnx.py",
            pnnxonnx=f"{stem}.pnnx.onnx",
            ncnnparam=f"{stem}.ncnn.param",
            ncnnbin=f"{stem}.ncnn.bin",
            ncnnpy=f"{stem}_ncnn.py",
            fp16=False,  # fp32 weights in the .bin, as ultralytics' NCNN export writes them
        )
    return onnx_path, Path(f"{stem}.ncnn.param")


def ort_runner(path: Path, threads: int) -> Callable[[np.ndarray], np.ndarray]:
    """ONNX Runtime with the recognizer's own session options (vision/recognizer.py)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name

    def run(batch: np.ndarray) -> np.ndarray:
        return np.asarray(session.run(None, {name: batch})[0])

    return run


def ncnn_runner(param: Path, threads: int) -> Callable[[np.ndarray], np.ndarray]:
    """NCNN with its default options (what a Pi backend would start from), one image per call.

    NCNN blobs have no batch axis: a batch is run image by image, each in a fresh extractor
    (an extractor caches its blobs), and the outputs stacked, the same shape ORT returns.
    """
    import ncnn

    net = ncnn.Net()
    net.opt.num_threads = threads
    net.opt.use_vulkan_compute = False
    if net.load_param(str(param)) != 0 or net.load_model(str(param.with_suffix(".bin"))) != 0:
        raise RuntimeError(f"ncnn could not load {param}")
    input_name, output_name = net.input_names()[0], net.output_names()[0]

    def run(batch: np.ndarray) -> np.ndarray:
        outs = []
        for image in batch:
            ex = net.create_extractor()
            ex.input(input_name, ncnn.Mat(np.ascontiguousarray(image)))
            _, out = ex.extract(output_name)
            outs.append(np.array(out))
        return np.stack(outs)

    return run


def sample_inputs() -> tuple[np.ndarray, np.ndarray]:
    """A real detector input and real classifier crops from the bundled sample scenes."""
    from skullcam.vision import obb
    from skullcam.vision.crop_dataset import read_scene_index
    from skullcam.vision.crops import card_crop, crops_to_batch
    from skullcam.vision.image_io import read_image

    crops: list[np.ndarray] = []
    detector_input: np.ndarray | None = None
    for path, cards in read_scene_index(SAMPLES, "test"):
        frame = read_image(path)
        if detector_input is None and len(cards) >= 3:
            image, _ = obb.letterbox(frame, DETECTOR_HW)
            detector_input = obb.to_input_tensor(image)
        crops.extend(card_crop(frame, card.corners) for card in cards)
        if detector_input is not None and len(crops) >= CLASSIFIER_BATCH:
            break
    assert detector_input is not None, f"no sample scene with 3 cards under {SAMPLES}"
    return detector_input, crops_to_batch(crops[:CLASSIFIER_BATCH])


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    if a.shape != b.shape:
        raise ValueError(f"output shapes differ: ONNX Runtime {a.shape}, NCNN {b.shape}")
    return float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())


def stats(times_ms: list[float]) -> str:
    return (
        f"median {statistics.median(times_ms):7.2f} ms  p95 {np.percentile(times_ms, 95):7.2f} ms"
    )


def time_interleaved(
    runners: dict[str, Callable[[np.ndarray], Any]],
    inputs: dict[str, np.ndarray],
    repeats: int,
    label: str,
) -> dict[str, list[float]]:
    """Per-call ms of every runner, called in turn each repeat so that load hits all alike."""
    from tqdm import tqdm

    for name, run in runners.items():  # warm-up: first calls allocate and pick kernels
        for _ in range(3):
            run(inputs[name])
    times: dict[str, list[float]] = {name: [] for name in runners}
    for _ in tqdm(range(repeats), desc=label, leave=False):
        for name, run in runners.items():
            start = time.perf_counter()
            run(inputs[name])
            times[name].append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--detector-pt", type=Path, default=REPO / "runs/train3/detector/weights/last.pt"
    )
    parser.add_argument("--classifier-pt", type=Path, default=REPO / "models/card-classifier.pt")
    parser.add_argument("--repeats", type=int, default=200, help="timed calls per runtime")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--work", type=Path, help="keep the converted models here (default: temp)")
    args = parser.parse_args()
    for path in (args.detector_pt, args.classifier_pt):
        if not path.is_file():
            parser.error(f"{path} not found")

    # ncnn's OpenMP (its own libgomp) spins at every layer's barrier by default; with another
    # job on one of 2 cores that made a 2-thread detector call take ~3 s instead of ~25 ms
    # (measured here). Passive waiting must be set before libgomp loads, i.e. before the import.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import ncnn
    import onnxruntime as ort
    import pnnx

    with contextlib.ExitStack() as stack:
        work = args.work or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        work.mkdir(parents=True, exist_ok=True)
        log = work / "convert.log"
        print(
            f"onnxruntime {ort.__version__}, ncnn {ncnn.__version__}, pnnx {pnnx.__version__},"
            f" {os.cpu_count()} cores, OMP_WAIT_POLICY={os.environ['OMP_WAIT_POLICY']};"
            f" converting (log: {log}) ...",
            flush=True,
        )
        start = time.perf_counter()
        with quiet(log):
            det_onnx, det_param = convert_detector(args.detector_pt, work / "detector")
            cls_onnx, cls_param = convert_classifier(args.classifier_pt, work / "classifier")
        print(f"converted in {time.perf_counter() - start:.0f} s")

        det_in, cls_in = sample_inputs()
        inputs = {"det ort": det_in, "det ncnn": det_in, "cls ort": cls_in, "cls ncnn": cls_in}
        totals: dict[tuple[str, int], list[float]] = {}
        for threads in args.threads:
            runners = {
                "det ort": ort_runner(det_onnx, threads),
                "det ncnn": ncnn_runner(det_param, threads),
                "cls ort": ort_runner(cls_onnx, threads),
                "cls ncnn": ncnn_runner(cls_param, threads),
            }
            if threads == args.threads[0]:
                det_ort, det_ncnn = runners["det ort"](det_in), runners["det ncnn"](det_in)
                cls_ort, cls_ncnn = runners["cls ort"](cls_in), runners["cls ncnn"](cls_in)
                print(
                    f"agreement: detector {det_ort.shape} max |ORT - NCNN| "
                    f"{max_abs_diff(det_ort, det_ncnn):.2e} (outputs up to "
                    f"{np.abs(det_ort).max():.0f}; scores max |diff| "
                    f"{max_abs_diff(det_ort[:, 4], det_ncnn[:, 4]):.2e}); "
                    f"classifier {cls_ort.shape} logits {max_abs_diff(cls_ort, cls_ncnn):.2e}, "
                    f"same argmax {bool((cls_ort.argmax(1) == cls_ncnn.argmax(1)).all())}"
                )
            label = counted(threads, "thread")
            times = time_interleaved(runners, inputs, args.repeats, label)
            print(f"{label}, {args.repeats} interleaved calls each:")
            for name, values in times.items():
                print(f"  {name:<9} {stats(values)}")
            for runtime in ("ort", "ncnn"):
                # Per repeat, detector + classifier: the recognizer's network time per frame.
                totals[(runtime, threads)] = [
                    d + c
                    for d, c in zip(times[f"det {runtime}"], times[f"cls {runtime}"], strict=True)
                ]
                print(f"  both {runtime:<4} {stats(totals[(runtime, threads)])}")
            ratio = statistics.median(totals[("ncnn", threads)]) / statistics.median(
                totals[("ort", threads)]
            )
            print(f"  NCNN / ORT (median, detector + classifier): {ratio:.2f}")


if __name__ == "__main__":
    main()
