"""The NCNN benchmark's conversion computes what ONNX Runtime computes (else its timing is moot).

Only the classifier is converted here (seconds); the detector's conversion goes through
ultralytics and is checked by the benchmark itself. Skipped without the optional ``ncnn`` and
``pnnx`` packages, which skullcam does not depend on.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from repo_paths import SHIPPED_MODEL, load_benchmark

pytest.importorskip("torch")
pytest.importorskip("ncnn")
pytest.importorskip("pnnx")


def _bench() -> ModuleType:
    return load_benchmark("bench_ncnn")


@pytest.mark.slow  # ~10 s: torch trace + pnnx conversion
def test_classifier_ncnn_matches_onnx_runtime(tmp_path: Path) -> None:
    bench = _bench()
    onnx_path, param = bench.convert_classifier(SHIPPED_MODEL / "card-classifier.pt", tmp_path)
    _, crops = bench.sample_inputs()
    assert crops.shape == (bench.CLASSIFIER_BATCH, 3, 96, 64)

    expected = bench.ort_runner(onnx_path, threads=1)(crops)
    got = bench.ncnn_runner(param, threads=1)(crops)

    assert got.shape == expected.shape
    assert np.abs(got - expected).max() < 1e-2
    np.testing.assert_array_equal(got.argmax(axis=1), expected.argmax(axis=1))
