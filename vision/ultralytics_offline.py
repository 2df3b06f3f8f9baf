"""Make ultralytics run with no network: it must be imported through :func:`import_ultralytics`.

ultralytics decides whether it is online at import time, writes settings to HOME, and looks
for a font on the internet whenever it checks a dataset. Each of those stalls or fails on a
machine with no internet (see shared notes "ultralytics-offline"), so the environment is set up
before the first import, in a config folder of our own.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def _config_dir() -> Path:
    base = os.environ.get("SKULLCAM_YOLO_CONFIG")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "skullcam" / "yolo"


def _install_font(config_dir: Path) -> None:
    """ultralytics' dataset check fetches Arial.ttf unless a file of that name is present."""
    target = config_dir / "Ultralytics" / "Arial.ttf"
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        import matplotlib

        font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        shutil.copyfile(font, target)
    except (ImportError, OSError):
        target.write_bytes(b"")  # an empty file still stops the download attempt


def import_ultralytics(verbose: bool = False) -> Any:
    """Import ultralytics offline, with sync and auto-install off; returns the module.

    ``verbose`` (decided at first import) keeps ultralytics' epoch progress bars: wanted by
    ``skullcam train``, noise everywhere else.
    """
    config_dir = _config_dir()
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("YOLO_CONFIG_DIR", str(config_dir))
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ.setdefault("YOLO_VERBOSE", "True" if verbose else "False")
    _install_font(Path(os.environ["YOLO_CONFIG_DIR"]))
    # torch first: ultralytics sets OMP_NUM_THREADS=1 at import, and an OpenMP runtime that
    # starts under it stays slow even when torch is later given more threads (a detector
    # training step on 2 cores took 0.92 s instead of 0.53).
    import torch  # noqa: F401
    import ultralytics
    from ultralytics.utils import SETTINGS

    SETTINGS.update({"sync": False})
    return ultralytics


@contextmanager
def threads_kept() -> Iterator[None]:
    """Put torch's and OpenCV's thread counts back as they were once ultralytics is done.

    ultralytics changes both for the whole process: importing it turns OpenCV's threads off,
    and choosing the CPU for a run (training, and an ONNX export too) sets torch to one thread
    fewer than the machine has cores, on 2 cores to one. Enrollment exports its fine-tuned
    detector in its own process and then fine-tunes the classifier there, which ran at
    5.3 batches a second instead of 8.1.
    """
    import cv2
    import torch

    torch_threads, cv2_threads = torch.get_num_threads(), cv2.getNumThreads()
    try:
        yield
    finally:
        torch.set_num_threads(torch_threads)
        cv2.setNumThreads(cv2_threads)
