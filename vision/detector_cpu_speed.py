"""Make ultralytics train the detector on a CPU at the speed the CPU allows.

Three things ultralytics leaves on the table on a CPU:

- **Threads.** Choosing the CPU sets torch to one thread fewer than the machine has cores, to
  leave one to the data loader: on 2 cores, one thread. With scenes cached in RAM the loader
  keeps up without it.
- **bfloat16.** Its autocast refuses bfloat16 anywhere but CUDA, although oneDNN runs it
  natively on a CPU with AMX or AVX512-BF16 (:func:`cpu_has_native_bf16`).
- **Channels-last.** It turns the network channels-last on CUDA only; oneDNN's convolutions
  are faster that way too.

Measured on a 2-core Xeon with AMX (the detector at batch 16 and 320 px, seconds a
batch with mosaic on, two interleaved runs each): ultralytics as it
is 1.68 / 1.58, all threads and channels-last 0.79 / 0.79, plus bfloat16 0.51 / 0.55: three
times as fast. Without mosaic (the last epochs) 1.51 against 0.46, measured with a first
version of this patch that left the loss in bfloat16 (float32 measured no slower).

The weights, the optimiser, the saved checkpoints and validation stay float32; only the
training step's forward and backward pass use bfloat16, and the loss is computed in float32.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from skullcam.vision.cpu_features import cpu_has_native_bf16


def as_float32(value: Any) -> Any:
    """Every tensor in ``value`` (nested in lists, tuples and dicts, as a head's outputs are)
    as float32."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.float() if value.is_floating_point() else value
    if isinstance(value, dict):
        return {key: as_float32(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(as_float32(item) for item in value)
    return value


class CriterionWrapper:
    """A wrapper around ultralytics' criterion that changes only the call: everything else
    (``update``, ``hyp`` and the rest of its interface) is the wrapped criterion's."""

    def __init__(self, criterion: Any) -> None:
        self.criterion = criterion

    def __getattr__(self, name: str) -> Any:
        if name == "criterion":  # looked up before __init__ ran, as copy and pickle do
            raise AttributeError(name)
        return getattr(self.criterion, name)


class Float32Loss(CriterionWrapper):
    """The detector's loss, computed in float32 on the network's bfloat16 outputs.

    Box regression and the task-aligned assigner compare coordinates up to 320 px, which
    bfloat16's 8-bit mantissa rounds to 2 px: the network may run in bfloat16, its targets may
    not.
    """

    def __call__(self, preds: Any, batch: dict[str, Any]) -> Any:
        import torch

        with torch.autocast("cpu", enabled=False):
            return self.criterion(as_float32(preds), batch)


def _bf16_on_cpu(original: Callable[..., AbstractContextManager[Any]]) -> Callable[..., Any]:
    """ultralytics' ``autocast(enabled, device)``, but bfloat16 on the CPU."""
    import torch

    def autocast(enabled: Any, device: str = "cuda") -> AbstractContextManager[Any]:
        if device == "cpu":
            return torch.autocast("cpu", dtype=torch.bfloat16)
        return original(enabled, device=device)

    return autocast


@contextmanager
def cpu_training_speed(model: Any, device: str) -> Iterator[bool]:
    """While training ``model`` (an ultralytics ``YOLO``) on ``device``: all of torch's
    threads, channels-last weights and, where the CPU has it natively, bfloat16 steps.
    Yields whether bfloat16 is on. A GPU run is left exactly as ultralytics runs it."""
    if device != "cpu":
        yield False
        return
    import torch
    import ultralytics.engine.trainer as trainer_module

    threads = torch.get_num_threads()  # before ultralytics' device choice lowers it
    original: Any = getattr(trainer_module, "autocast", None)  # gone in some future release?
    bf16 = cpu_has_native_bf16() and original is not None

    def on_train_start(trainer: Any) -> None:
        torch.set_num_threads(threads)
        network = getattr(trainer.model, "module", trainer.model)
        network.to(memory_format=torch.channels_last)
        if bf16:
            network.criterion = Float32Loss(network.init_criterion())

    model.add_callback("on_train_start", on_train_start)
    if bf16:
        trainer_module.autocast = _bf16_on_cpu(original)
    try:
        yield bf16
    finally:
        if bf16:
            trainer_module.autocast = original
