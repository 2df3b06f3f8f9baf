"""Package marker; see the module docstrings. The bundled samples are found from here, so
they are found wherever the package is installed, not only in a checkout."""

from pathlib import Path


def bundled_samples(name: str) -> Path:
    """``datasets/samples/<name>``: ``scenes`` (held-out scenes for bench and tests) or
    ``demo_game`` (the recorded game ``skullcam run`` replays without a camera)."""
    return Path(__file__).resolve().parent / "samples" / name
