"""A contact sheet: many scenes of a dataset with their labels drawn, so a person sees at a
glance that labels fit. Drawn from the files on disk (the YOLO label text and the scene
records), not from the renderer, so it checks what a trainer will actually read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam.captions import haloed_text
from skullcam.datasets.dataset import read_scenes
from skullcam.errors import UserError
from skullcam.files import make_folder

DARK = (20, 20, 20)
"""A card's name on the sheet: dark on a white halo."""


def draw_labels(image: np.ndarray, label_text: str, record: dict[str, Any] | None) -> np.ndarray:
    """The image with each YOLO OBB card label drawn in green (its top-left corner dotted), each
    corner-mark label (class 1) in yellow, and each unlabelled (too covered) card of the record
    outlined thin red."""
    out = image.copy()
    h, w = out.shape[:2]
    for line in label_text.splitlines():
        parts = line.split()
        if len(parts) != 9:
            continue
        pts = (np.asarray([float(v) for v in parts[1:]]).reshape(4, 2) * [w, h]).astype(np.int32)
        if parts[0] == "0":
            cv2.polylines(out, [pts], True, (0, 255, 0), 2, cv2.LINE_AA)
        else:  # corner marks (class 1)
            cv2.polylines(out, [pts], True, (0, 230, 255), 1, cv2.LINE_AA)
    if record is not None:
        for card in record.get("cards", []):
            corners = np.asarray(card["corners"], np.float32)
            if card["labelled"]:
                tl = tuple(int(v) for v in corners[0])
                cv2.circle(out, tl, 4, (255, 80, 0), -1, cv2.LINE_AA)
                haloed_text(out, card["face"], (tl[0] + 4, tl[1] - 4), DARK, (255, 255, 255))
            else:
                cv2.polylines(out, [corners.astype(np.int32)], True, (0, 0, 255), 1, cv2.LINE_AA)
    return out


def write_contact_sheet(
    dataset: Path,
    out: Path,
    split: str = "train",
    count: int = 12,
    columns: int = 4,
    scale: float = 0.5,
) -> Path:
    """Write a PNG grid of the first ``count`` scenes of ``split`` with labels drawn."""
    dataset, out = Path(dataset), Path(out)
    if not cv2.haveImageWriter(str(out)):  # else cv2.imwrite raises "could not find a writer"
        raise UserError(f"cannot write {out}: give an image name ending .png, .jpg or .webp")
    records = read_scenes(dataset, split)
    if not records:
        raise UserError(f"{dataset} has no {split} scenes: write some with 'skullcam synth scenes'")
    if not 0.05 <= scale <= 2.0:
        raise UserError(f"--scale must be between 0.05 and 2, got {scale}")
    tiles = []
    for rec in records[:count]:
        img = cv2.imread(str(dataset / str(rec["file"])), cv2.IMREAD_COLOR)
        if img is None:
            raise UserError(f"cannot read {dataset / str(rec['file'])}; regenerate the dataset")
        label_path = dataset / (
            str(rec["file"]).replace("images/", "labels/", 1).rsplit(".", 1)[0] + ".txt"
        )
        text = label_path.read_text() if label_path.is_file() else ""
        tile = draw_labels(img, text, rec)
        tiles.append(cv2.resize(tile, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    th, tw = tiles[0].shape[:2]
    rows = (len(tiles) + columns - 1) // columns
    sheet = np.full((rows * (th + 4) + 4, min(columns, len(tiles)) * (tw + 4) + 4, 3), 40, np.uint8)
    for k, tile in enumerate(tiles):
        r, c = divmod(k, columns)
        sheet[
            4 + r * (th + 4) : 4 + r * (th + 4) + th, 4 + c * (tw + 4) : 4 + c * (tw + 4) + tw
        ] = tile
    make_folder(out.parent, "folder for --out")  # one line naming it where it cannot be made
    if not cv2.imwrite(str(out), sheet):
        raise UserError(f"cannot write {out}: use a .png path in a writable folder")
    return out
