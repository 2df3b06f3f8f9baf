"""Images are opened only at a size a Pi can hold: a small file may declare a huge picture."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from skullcam.cli import main
from skullcam.errors import UserError
from skullcam.vision.enroll_tricks import decode_photo
from skullcam.vision.image_io import MAX_PIXELS, declared_size, read_image


def _png_declaring(width: int, height: int) -> bytes:
    """A few hundred bytes of PNG whose header says ``width`` x ``height`` (a decompression
    bomb's header; its pixel data is cut short, which no check here needs to reach)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"\x00" * (width + 1), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def test_the_header_says_the_size_of_pngs_and_jpegs() -> None:
    frame = np.zeros((48, 64, 3), np.uint8)
    for ext in (".png", ".jpg"):
        assert declared_size(cv2.imencode(ext, frame)[1].tobytes()) == (64, 48)
    assert declared_size(cv2.imencode(".bmp", frame)[1].tobytes()) is None  # OpenCV's own limit
    assert declared_size(b"") is None


def test_a_huge_declared_image_is_refused_before_decoding(tmp_path: Path, capsys) -> None:
    bomb = _png_declaring(20_000, 20_000)
    assert MAX_PIXELS < 20_000 * 20_000 and len(bomb) < 2_000
    with pytest.raises(UserError, match="20000 x 20000 pixels, too large to open"):
        decode_photo(bomb)
    path = tmp_path / "bomb.png"
    path.write_bytes(bomb)
    with pytest.raises(UserError, match=r"bomb\.png is 20000 x 20000 pixels"):
        read_image(path)
    assert main(["detect", str(path)]) == 2
    assert "too large to open" in capsys.readouterr().err


def test_a_jpegs_size_is_read_past_a_phones_large_exif() -> None:
    """Only the first 64 kB were searched: a frame header behind a phone's EXIF and preview
    (each segment up to 64 kB) went unread, and the decode went ahead whatever its size."""
    jpeg = cv2.imencode(".jpg", np.zeros((48, 64, 3), np.uint8))[1].tobytes()
    exif = b"\xff\xe1" + struct.pack(">H", 65533) + b"Exif\x00\x00" + b"\x00" * 65525
    padded = jpeg[:2] + exif + exif + jpeg[2:]
    assert len(padded) > 2 * 65536 and declared_size(padded) == (64, 48)


def _webp_declaring_16383_squared(path: Path) -> Path:
    """A 34-byte lossless WebP whose header says 16,383 x 16,383 pixels."""
    ok, encoded = cv2.imencode(
        ".webp", np.zeros((8, 8, 3), np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 101]
    )
    assert ok
    bomb = bytearray(encoded.tobytes())
    at = bomb.index(b"VP8L") + 9  # lossless: 14 bits of width - 1, 14 of height - 1
    head = int.from_bytes(bomb[at : at + 4], "little")
    bomb[at : at + 4] = ((head & ~((1 << 28) - 1)) | 16383 | 16383 << 14).to_bytes(4, "little")
    path.write_bytes(bytes(bomb))
    return path


def _fresh(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh process: skullcam imported first, as the commands import it."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)


def test_formats_whose_header_is_not_read_meet_opencvs_limit_too(tmp_path: Path) -> None:
    """A 34-byte WebP declaring 16,383 x 16,383 pixels was decoded (a 10 kB one took an
    enrollment upload to 1.7 GB): skullcam sets OpenCV's own limit before cv2 is imported."""
    path = _webp_declaring_16383_squared(tmp_path / "bomb.webp")
    code = "import sys; from skullcam.cli import main; sys.exit(main(['detect', sys.argv[1]]))"
    run = _fresh(code, str(path))
    assert run.returncode == 2
    assert "bomb.webp is too large to open (over 100 megapixels)" in run.stderr


def test_the_limit_is_said_not_a_traceback_where_frames_and_backgrounds_are_read(
    tmp_path: Path,
) -> None:
    """With OpenCV's limit set, a frame folder's oversized frame ended `skullcam replay` with
    a traceback, and a background photo over the limit broke `synth --backgrounds` (a review's
    reproductions)."""
    frames = tmp_path / "frames"
    frames.mkdir()
    _webp_declaring_16383_squared(frames / "000000.png")
    code = "import sys; from skullcam.cli import main; sys.exit(main(sys.argv[1:]))"
    run = _fresh(code, "replay", str(frames), "--players", "3", "--data", str(tmp_path / "d"))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "000000.png is too large to open (over 100 megapixels)" in run.stderr
    read = "import sys; from skullcam.datasets.props import _read_background as r; from pathlib "
    read += "import Path; print(r(Path(sys.argv[1])) is None)"
    assert _fresh(read, str(frames / "000000.png")).stdout.strip() == "True"
