"""`skullcam bench` runs the shipped recognizer and reports what it measured.

The yolo11n reference is left out here (exporting it takes ultralytics and seconds); the
figures themselves belong in the model card, not in assertions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from model_variants import shipped_model_with

import skullcam.vision.benchmark as benchmark
from skullcam.cli import main
from skullcam.parallel import usable_cores
from skullcam.vision.recognizer import shipped_model_dir

BENCH = ["bench", "--frames", "2", "--repeats", "3"]


@pytest.fixture(autouse=True)
def no_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(benchmark, "reference_model", lambda cache: None)


def test_bench_json_has_latency_per_thread_count_and_the_views(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*BENCH, "--json", "--cache", str(tmp_path), "--model", str(shipped_model_dir())]
    assert main(args) == 0
    said = capsys.readouterr()
    report = json.loads(said.out)
    assert report["frames"] == 2 and report["frame_size"] == [480, 640]
    assert report["detector_views"] == 2
    for threads in sorted({1, usable_cores()}):
        stats = report[f"skullcam_{threads}_threads"]
        assert 0 < stats["median_ms"] <= stats["p95_ms"]
        assert stats["detector_median_ms"] > 0
        assert f"yolo11n640_{threads}_threads" not in report
    assert report["max_rss_mb"] > 0
    # The reference left out is said, on stderr and in the report, not silently dropped.
    assert "pip install -e '.[train]'" in report["reference_missing"]
    assert "no yolo11n@640 reference" in said.err


def test_bench_text_names_the_views_of_the_model_it_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = shipped_model_with(tmp_path / "one-view", detector_mirror=False)
    assert main([*BENCH, "--cache", str(tmp_path), "--model", str(model)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "detector views 1" in header and "input [256, 320]" in header
