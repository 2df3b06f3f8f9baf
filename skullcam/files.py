"""Writing a file so that a crash leaves either the old contents or the new, never half of both.

One helper for every small file skullcam keeps (labels, enrollment state, calibrations,
labelled trick photos): the recorded game and a user's enrollment must survive a power cut.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to a hidden temp file beside ``path``, flush it to disk, rename it over.

    The temp name starts with a dot so folder listings (``*.json``, ``*.txt``) never see it.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data.encode() if isinstance(data, str) else data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
