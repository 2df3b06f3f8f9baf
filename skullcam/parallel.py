"""One way to start worker processes, shared by scene rendering and crop cutting."""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections.abc import Callable
from multiprocessing.context import BaseContext
from multiprocessing.pool import Pool
from typing import Any


def worker_context() -> BaseContext:
    """Workers that never inherit a parent's thread pools.

    Not "fork": a parent that already runs ONNX Runtime or torch thread pools (training cuts
    crops, enroll renders scenes) can fork a child while another thread holds a lock, and that
    child waits forever. A fork server is a clean single-threaded parent for workers.
    """
    return mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")


def worker_pool(
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Pool:
    """A process pool of :func:`worker_context` workers."""
    return worker_context().Pool(
        workers, initializer=_start_worker, initargs=(initializer, initargs)
    )


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """Workers leave Ctrl-C to their parent, which ends the pool: they share its terminal's
    process group, and each printed its own KeyboardInterrupt traceback (a screenful above
    the one-line "interrupted")."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
