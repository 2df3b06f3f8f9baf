"""Training's faster arithmetic (bfloat16 autocast where the CPU has it, channels-last
weights) must not change what is trained for: a float32 model whose ONNX export reads as the
torch network does.

Needs torch (both training stacks have it) and onnxruntime, not ultralytics.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is part of the training stack")

from skullcam.vision.cpu_features import BF16_ENV, cpu_has_native_bf16  # noqa: E402
from skullcam.vision.crop_dataset import CropSet  # noqa: E402
from skullcam.vision.train_classifier import (  # noqa: E402
    augment,
    export_classifier,
    fast_math,
    to_float_batch,
    train_classifier,
)


@pytest.fixture(autouse=True)
def _fresh_cpu_check() -> Iterator[None]:
    cpu_has_native_bf16.cache_clear()
    yield
    cpu_has_native_bf16.cache_clear()


def test_the_training_log_says_which_arithmetic_and_why_float32_is_slower(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from skullcam.vision import cpu_features

    monkeypatch.setenv(BF16_ENV, "1")  # forced: the CPU may have no such instructions
    assert cpu_features.cpu_training_note().endswith(f"in bfloat16 ({BF16_ENV}=1)")
    cpu_has_native_bf16.cache_clear()
    monkeypatch.setenv(BF16_ENV, "0")
    assert cpu_features.cpu_training_note().endswith(f"in float32 ({BF16_ENV}=0)")
    monkeypatch.delenv(BF16_ENV)
    monkeypatch.setattr(cpu_features, "cpu_has_native_bf16", lambda: False)
    note = cpu_features.cpu_training_note()
    assert "no bfloat16 instructions" in note and "3 x the times in models/README.md" in note
    assert "session" not in note  # the user's terminal, not the project's history
    monkeypatch.setattr(cpu_features, "cpu_has_native_bf16", lambda: True)
    assert cpu_features.cpu_training_note().endswith("in bfloat16 (AVX512-BF16 or AMX)")


def _crops(n: int, seed: int) -> CropSet:
    """Noise crops of three classes told apart by which colour channel is bright (training
    turns crops upside down, so the classes must not depend on where things are)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, n)
    images = rng.integers(0, 80, (n, 96, 64, 3), dtype=np.uint8)
    for i, label in enumerate(labels):
        images[i, :, :, label] += 150
    return CropSet(images, labels.astype(np.int64), ("blue", "green", "red"))


def test_the_environment_can_force_either_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BF16_ENV, "0")
    assert not cpu_has_native_bf16()
    assert not torch.is_autocast_enabled("cpu")
    with fast_math(torch.device("cpu")):
        assert not torch.is_autocast_enabled("cpu")
    cpu_has_native_bf16.cache_clear()
    monkeypatch.setenv(BF16_ENV, "1")
    assert cpu_has_native_bf16()
    with fast_math(torch.device("cpu")):
        assert torch.get_autocast_dtype("cpu") == torch.bfloat16
        assert torch.is_autocast_enabled("cpu")


def test_batches_come_channels_last_as_the_networks_train() -> None:
    batch = to_float_batch(torch.from_numpy(_crops(4, 0).images))
    assert batch.is_contiguous(memory_format=torch.channels_last)
    for turn in (True, False):  # a whole crop turned, or a corner patch shifted
        augmented = augment(batch, torch.Generator().manual_seed(0), turn)
        assert augmented.is_contiguous(memory_format=torch.channels_last)


@pytest.mark.parametrize("bf16", ["0", "1"])
def test_either_precision_learns_and_exports_a_float32_model(
    bf16: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import onnxruntime as ort

    monkeypatch.setenv(BF16_ENV, bf16)
    val = _crops(48, 1)
    result = train_classifier(_crops(192, 0), val, epochs=3, batch_size=32)
    assert result.val_accuracy == 1.0
    assert {p.dtype for p in result.model.parameters()} == {torch.float32}
    path = tmp_path / "classifier.onnx"
    export_classifier(result.model, path)
    x = to_float_batch(torch.from_numpy(val.images))
    with torch.no_grad():
        expected = result.model.eval()(x).numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"crops": x.numpy()})[0]
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-3)
