"""Images are opened only at a size a Pi can hold: a small file may declare a huge picture."""

from __future__ import annotations

import struct
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
