"""One way to start worker processes, shared by scene rendering and crop cutting."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from multiprocessing.pool import Pool
from typing import Any


def worker_pool(
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Pool:
    """A process pool whose workers never inherit a parent's thread pools.

    Not "fork": a parent that already runs ONNX Runtime or torch thread pools (training cuts
    crops, enroll renders scenes) can fork a child while another thread holds a lock, and that
    child waits forever. A fork server is a clean single-threaded parent for workers.
    """
    method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method).Pool(workers, initializer=initializer, initargs=initargs)
