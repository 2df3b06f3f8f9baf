"""One way to start worker processes, shared by scene rendering and crop cutting."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from collections.abc import Callable
from multiprocessing.context import BaseContext
from multiprocessing.pool import Pool
from typing import Any


def usable_cores() -> int:
    """The cores this process may run on, which ``taskset``, a cgroup cpuset or a container
    can make fewer than the machine has. Threads sized from the machine's count share a core
    there: the recognizer's two detector views side by side on one core pinned with
    ``taskset -c 0`` took 42.9 ms a frame, against 26.4 ms with one thread."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on macOS or Windows
        return os.cpu_count() or 1


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
