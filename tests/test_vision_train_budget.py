"""What a short GPU run needs from training, checked on the CPU: a time budget instead of an
epoch count, crops cut in worker processes, and the --device names (scripts/train_gpu.sh).

Needs torch (both training stacks have it), not ultralytics.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from repo_paths import SAMPLE_SCENES, SHIPPED_MODEL

torch = pytest.importorskip("torch", reason="torch is part of the training stack")

if TYPE_CHECKING:  # `torch` above is a module object to mypy, not a namespace of types
    from torch.optim.lr_scheduler import OneCycleLR

from skullcam.errors import UserError  # noqa: E402
from skullcam.vision import crop_dataset  # noqa: E402
from skullcam.vision.crop_dataset import (  # noqa: E402
    CropSet,
    DetectorBoxes,
    crops_from_detector,
    crops_from_scenes,
    cut_in_parallel,
    read_scene_index,
)
from skullcam.vision.train_classifier import (  # noqa: E402
    CLOCK_STEPS,
    _follow_clock,
    train_classifier,
)
from skullcam.vision.training import CLASSES, torch_device, ultralytics_device  # noqa: E402


def _schedule(lr: float = 1e-2) -> OneCycleLR:
    optimizer = torch.optim.AdamW(torch.nn.Linear(2, 2).parameters(), lr=lr)
    return torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=lr, total_steps=CLOCK_STEPS, pct_start=0.15
    )


@pytest.mark.filterwarnings("ignore:Detected call of")
def test_a_clock_driven_schedule_follows_the_share_of_time_spent() -> None:
    schedule = _schedule()
    rates = []
    for elapsed in (0.0, 15.0, 60.0, 99.0):
        assert not _follow_clock(schedule, elapsed, seconds=100.0)
        assert schedule.last_epoch == int(elapsed / 100 * CLOCK_STEPS)
        rates.append(schedule.get_last_lr()[0])
    # up to the peak at 15 % of the time, then down to nearly nothing at the end
    assert rates[0] < rates[1] and rates[1] == pytest.approx(1e-2)
    assert rates[1] > rates[2] > rates[3] and rates[3] < 1e-4
    assert _follow_clock(schedule, 100.0, seconds=100.0)  # time is up
    assert _follow_clock(schedule, 500.0, seconds=100.0)  # and stays up, never past the end
    assert schedule.last_epoch == CLOCK_STEPS - 1


def _random_crops(n: int, seed: int) -> CropSet:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, n)
    # class k is a flat crop of brightness 40 + 80 k: learnable in a few steps
    images = np.repeat((40 + 80 * labels).astype(np.uint8)[:, None, None, None], 3, axis=3)
    images = np.broadcast_to(images, (n, 96, 64, 3)).copy()
    return CropSet(images, labels.astype(np.int64), ("a", "b", "none"))


def test_training_to_a_time_budget_stops_and_returns_a_cpu_model() -> None:
    result = train_classifier(
        _random_crops(64, 0), _random_crops(24, 1), batch_size=16, seconds=1.5
    )
    assert result.epochs >= 1
    assert result.seconds >= 1.5  # it trains until the budget is spent, not an epoch count
    assert next(result.model.parameters()).device.type == "cpu"  # ready to export


def test_an_epoch_run_still_counts_its_epochs() -> None:
    result = train_classifier(_random_crops(32, 0), _random_crops(16, 1), epochs=2, batch_size=16)
    assert result.epochs == 2


def test_epochs_or_a_budget_whichever_ends_first() -> None:
    """Enrollment's corner reader: its epochs on a fast CPU, fewer where time runs out."""
    crops, val = _random_crops(32, 0), _random_crops(16, 1)
    roomy = train_classifier(crops, val, epochs=2, batch_size=16, at_most=3600)
    assert roomy.epochs == 2 and roomy.seconds < 3600  # the epochs ended it
    tight = train_classifier(crops, val, epochs=5, batch_size=16, at_most=1e-6)
    assert tight.epochs == 1  # the first batch spent the budget: one epoch of five


def test_crops_cut_by_worker_processes_are_the_ones_one_process_cuts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The detector's boxes have no randomness: two workers must give exactly what one does."""
    scenes = read_scene_index(SAMPLE_SCENES, "test")[:12]
    detect = DetectorBoxes(SHIPPED_MODEL / "card-detector.onnx", (256, 320), threads=1)
    alone = cut_in_parallel(crops_from_detector, scenes, CLASSES, 1, detect=detect)
    monkeypatch.setattr(crop_dataset, "PARALLEL_FROM", 0)
    shared = cut_in_parallel(crops_from_detector, scenes, CLASSES, 2, detect=detect)
    assert len(alone) > 20
    assert sorted(alone.labels.tolist()) == sorted(shared.labels.tolist())
    assert sorted(int(i.sum()) for i in alone.images) == sorted(int(i.sum()) for i in shared.images)


def test_each_chunk_draws_its_own_random_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    scenes = read_scene_index(SAMPLE_SCENES, "test")[:12]
    monkeypatch.setattr(crop_dataset, "PARALLEL_FROM", 0)
    monkeypatch.setattr(crop_dataset, "CHUNKS_PER_WORKER", 3)  # 6 chunks of 2 scenes
    first = cut_in_parallel(crops_from_scenes, scenes, CLASSES, 2, seed=5, copies=1)
    again = cut_in_parallel(crops_from_scenes, scenes, CLASSES, 2, seed=5, copies=1)
    other = cut_in_parallel(crops_from_scenes, scenes, CLASSES, 2, seed=6, copies=1)
    assert np.array_equal(first.images, again.images)  # reproducible for a worker count
    assert not np.array_equal(first.images, other.images)


def test_a_detector_travels_to_workers_without_its_session() -> None:
    detect = DetectorBoxes(SHIPPED_MODEL / "card-detector.onnx", (256, 320))
    frame = np.zeros((480, 640, 3), np.uint8)
    detect(frame)  # opens a session
    copy = pickle.loads(pickle.dumps(detect))
    assert copy._detector is None and copy.path == detect.path
    assert detect.threads == 0 and copy.threads == 1  # workers share the cores: one each
    assert copy(frame).shape[1:] == (4, 2)


@pytest.mark.parametrize(
    ("given", "for_torch", "for_ultralytics"),
    [("cpu", "cpu", "cpu"), ("cuda", "cuda", "0"), ("cuda:1", "cuda:1", "1"), ("2", "cuda:2", "2")],
)
def test_device_names(given: str, for_torch: str, for_ultralytics: str) -> None:
    assert torch_device(given) == for_torch
    assert ultralytics_device(given) == for_ultralytics


def _train(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skullcam", "train", "--dataset", str(SAMPLE_SCENES), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_device_that_is_not_one_is_refused_before_training() -> None:
    done = _train("--device", "gpu-please", "--out", "/nonexistent/model")
    assert done.returncode != 0
    assert "--device 'gpu-please' is not a device" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_asking_for_a_gpu_the_machine_lacks_is_a_clear_error() -> None:
    done = _train("--device", "cuda", "--out", "/nonexistent/model")
    assert done.returncode != 0
    assert "torch sees no GPU on this machine; train with --device cpu" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreadable_scene_stops_a_parallel_cut_as_it_stops_one_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A worker must not drop a chunk quietly: only "no card in this chunk" is not an error."""
    scenes = read_scene_index(SAMPLE_SCENES, "test")[:8]
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    scenes[5] = (broken, scenes[5][1])
    monkeypatch.setattr(crop_dataset, "PARALLEL_FROM", 0)
    with pytest.raises(UserError, match=r"cannot read scene image .*broken\.jpg"):
        cut_in_parallel(crops_from_scenes, scenes, CLASSES, 2, seed=1)
