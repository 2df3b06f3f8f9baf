"""The shipped model's weights under a changed manifest, for tests of a manifest setting."""

from __future__ import annotations

import json
from pathlib import Path

from skullcam.vision.recognizer import MANIFEST, shipped_model_dir


def shipped_model_with(folder: Path, **manifest: object) -> Path:
    """``folder`` holding links to the shipped ONNX files and its manifest with ``manifest``
    changed; called again on the same folder, it rewrites only the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("card-detector.onnx", "card-classifier.onnx", "corner-reader.onnx"):
        if not (folder / name).exists():
            (folder / name).symlink_to(shipped_model_dir() / name)
    raw = json.loads((shipped_model_dir() / MANIFEST).read_text())
    (folder / MANIFEST).write_text(json.dumps(raw | manifest))
    return folder
