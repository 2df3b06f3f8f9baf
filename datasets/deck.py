"""Stand-in Skull King decks drawn procedurally, and the deck folder format.

A deck is a folder with one ``<face-id>.png`` per face (69) and ``manifest.json``. The stand-in
deck is drawn here with OpenCV primitives (no photographs of the real cards exist on these
machines); a user's enrolled deck of photos uses the same folder format, so scenes, games and
the recognizer work on either.

Faces are 224 x 348 px (56 x 87 mm at 4 px/mm). The design goal is that every face is
distinguishable at the size a card has in a 640 x 480 camera frame (about 80 x 120 px): large
suit colour fields, a large corner number with its suit mark (6 and 9 underlined), and for every
special card a distinct picture, background colour and letter mark. Two art styles exist so the
enrollment feature can be tested on art the recognizer never saw:

* ``classic``: white border, numbers in white corner boxes, a central emblem on a light oval
  (parrot, chest, map, Jolly Roger), specials on radial rays with a round letter mark.
* ``alt``: cream border, numbers in white on dark top/bottom bands, a different emblem per suit
  (feather, gem, compass rose, crossed swords), a different palette and font, specials framed
  in an arch on diagonal stripes with a square letter mark.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from skullcam.counts import counted
from skullcam.datasets.deck_drawing import (
    AA,
    BLACK,
    WHITE,
    Color,
    ell,
    fit_text,
    ink_for,
    poly,
    shade,
)
from skullcam.datasets.deck_pictures import EMBLEMS, special_picture
from skullcam.datasets.faces import FACES, split_number
from skullcam.errors import UserError
from skullcam.files import make_folder

PX_PER_MM = 4
SIZE_MM = (56, 87)
FACE_W = SIZE_MM[0] * PX_PER_MM  # 224
FACE_H = SIZE_MM[1] * PX_PER_MM  # 348
CORNER_RADIUS_MM = 3.5
DECK_FORMAT = "skullcam-deck/1"
STYLES = ("classic", "alt")

# Corner-mark regions in face fractions (x0, y0, x1, y1): the top-left one and its 180 degree
# twin. The scene generator reports how much of each stays visible.
CORNER_MARK_REGIONS: tuple[tuple[float, float, float, float], ...] = (
    (0.0, 0.0, 0.33, 0.33),
    (0.67, 0.67, 1.0, 1.0),
)


@dataclass(frozen=True)
class Style:
    """Palette, font and layout switches of one art style."""

    name: str
    border: Color
    suit_colors: dict[str, Color]
    font: int
    number_thickness: int
    special_colors: dict[str, Color]


CLASSIC = Style(
    name="classic",
    border=(250, 250, 250),
    suit_colors={
        "green": (60, 150, 40),
        "yellow": (30, 195, 240),
        "purple": (150, 50, 125),
        "black": (40, 35, 35),
    },
    font=cv2.FONT_HERSHEY_DUPLEX,
    number_thickness=5,
    special_colors={
        "escape": (215, 200, 170),
        "pirate-rosie": (70, 40, 200),
        "pirate-bendt": (40, 90, 150),
        "pirate-rascal": (170, 90, 30),
        "pirate-juanita": (110, 150, 20),
        "pirate-harry": (110, 110, 100),
        "tigress": (20, 120, 240),
        "skull-king": (30, 20, 120),
        "mermaid-alyra": (170, 160, 20),
        "mermaid-sirena": (150, 40, 210),
        "loot": (30, 70, 110),
        "kraken": (50, 20, 70),
        "white-whale": (100, 50, 10),
    },
)

ALT = Style(
    name="alt",
    border=(200, 232, 244),
    suit_colors={
        "green": (100, 185, 110),
        "yellow": (40, 150, 245),
        "purple": (185, 85, 100),
        "black": (70, 45, 25),
    },
    font=cv2.FONT_HERSHEY_COMPLEX,
    number_thickness=4,
    special_colors={
        "escape": (160, 175, 150),
        "pirate-rosie": (120, 90, 230),
        "pirate-bendt": (60, 140, 190),
        "pirate-rascal": (210, 140, 80),
        "pirate-juanita": (80, 120, 40),
        "pirate-harry": (80, 70, 60),
        "tigress": (60, 170, 250),
        "skull-king": (20, 30, 90),
        "mermaid-alyra": (140, 200, 90),
        "mermaid-sirena": (190, 120, 240),
        "loot": (60, 110, 150),
        "kraken": (90, 40, 40),
        "white-whale": (160, 110, 40),
    },
)

_STYLES = {"classic": CLASSIC, "alt": ALT}

# Letter marks of the specials (drawn in the corners next to their pictures).
SPECIAL_MARKS: dict[str, str] = {
    "escape": "E",
    "pirate-rosie": "R",
    "pirate-bendt": "B",
    "pirate-rascal": "Ra",
    "pirate-juanita": "J",
    "pirate-harry": "H",
    "tigress": "T",
    "skull-king": "SK",
    "mermaid-alyra": "A",
    "mermaid-sirena": "S",
    "loot": "L",
    "kraken": "K",
    "white-whale": "W",
}


def rounded_mask(w: int, h: int, radius: float) -> np.ndarray:
    """A uint8 mask (255 inside) of a ``w`` x ``h`` rectangle with rounded corners."""
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(radius))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, AA)
    return mask


def get_style(name: str) -> Style:
    """The named art style; a clear error lists the known ones."""
    try:
        return _STYLES[name]
    except KeyError:
        raise UserError(f"unknown deck style {name!r}: choose one of {', '.join(STYLES)}") from None


# ------------------------------------------------------------------------------ face drawing


def _corner_patch_number(style: Style, suit: str, rank: int, w: int, h: int) -> np.ndarray:
    """The top-left corner mark of a numbered card (number over a small suit emblem)."""
    col = style.suit_colors[suit]
    if style.name == "classic":
        patch = np.full((h, w, 3), style.border, np.uint8)
        ink = col if suit != "yellow" else shade(col, 0.6)
    else:
        patch = np.full((h, w, 3), shade(col, 0.55), np.uint8)
        ink = WHITE
    fit_text(
        patch,
        str(rank),
        (3, 2, w - 3, int(h * 0.58)),
        style.font,
        ink,
        style.number_thickness,
        underline=rank in (6, 9),
    )
    emblem = EMBLEMS[style.name][suit]
    s = min(w, h) * 0.2
    if style.name == "classic":
        cv2.circle(patch, (w // 2, int(h * 0.79)), int(s * 1.15), col, -1, AA)
    emblem(patch, w / 2, h * 0.79, s, col)
    return patch


def _corner_patch_special(style: Style, face: str, w: int, h: int) -> np.ndarray:
    col = style.special_colors[face]
    mark = SPECIAL_MARKS[face]
    patch = np.full((h, w, 3), style.border, np.uint8)
    if style.name == "classic":
        cv2.circle(patch, (w // 2, int(h * 0.36)), int(w * 0.46), col, -1, AA)
        cv2.circle(patch, (w // 2, int(h * 0.36)), int(w * 0.46), BLACK, 2, AA)
        fit_text(
            patch,
            mark,
            (int(w * 0.18), int(h * 0.16), int(w * 0.82), int(h * 0.56)),
            style.font,
            ink_for(col),
            3,
        )
    else:
        cv2.rectangle(patch, (3, 3), (w - 4, int(h * 0.7)), col, -1)
        fit_text(patch, mark, (8, 8, w - 8, int(h * 0.65)), style.font, ink_for(col), 3)
    # a small coloured stripe below: special cards have no suit
    cv2.rectangle(
        patch, (int(w * 0.2), int(h * 0.8)), (int(w * 0.8), int(h * 0.9)), shade(col, 0.6), -1
    )
    return patch


def _background_special(
    style: Style, img: np.ndarray, box: tuple[int, int, int, int], col: Color
) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    img[y0:y1, x0:x1] = col
    roi = img[y0:y1, x0:x1]
    if style.name == "classic":  # radial rays
        light = shade(col, 1.25)
        for k in range(16):
            a0, a1 = k * math.pi / 8, k * math.pi / 8 + math.pi / 16
            r = 400
            poly(
                roi,
                [
                    (cx - x0, cy - y0),
                    (cx - x0 + r * math.cos(a0), cy - y0 + r * math.sin(a0)),
                    (cx - x0 + r * math.cos(a1), cy - y0 + r * math.sin(a1)),
                ],
                light,
            )
    else:  # diagonal stripes and an arch frame
        dark = shade(col, 0.8)
        for k in range(-400, 400, 28):
            cv2.line(roi, (k, 0), (k + 400, 400), dark, 9, AA)
        aw = (x1 - x0) * 0.4
        ell(roi, (cx - x0, cy - y0 - 20), (aw, aw), shade(col, 1.35), 0, -1, (180, 360))
        cv2.rectangle(
            roi,
            (int(cx - x0 - aw), int(cy - y0 - 20)),
            (int(cx - x0 + aw), int(cy - y0 + 95)),
            shade(col, 1.35),
            -1,
        )


def render_face(face: str, style: str | Style = "classic") -> np.ndarray:
    """Draw one face (BGR, FACE_H x FACE_W). The rounded corners are filled with the border colour;
    scene rendering cuts them off with :func:`rounded_mask`."""
    st = get_style(style) if isinstance(style, str) else style
    if face not in FACES:
        raise UserError(
            f"unknown face {face!r}: expected one of the {len(FACES)} card ids of rules.md"
        )
    w, h = FACE_W, FACE_H
    img = np.full((h, w, 3), st.border, np.uint8)
    b = 10  # border width (2.5 mm)
    inner = (b, b, w - b, h - b)
    pw, ph = 64, 96  # corner patch size
    number = split_number(face)
    if number is not None:
        suit, rank = number
        col = st.suit_colors[suit]
        x0, y0, x1, y1 = inner
        img[y0:y1, x0:x1] = col
        cx, cy = w / 2, h / 2
        if st.name == "classic":
            # lighter wash at the edges + light oval behind the emblem
            cv2.rectangle(img, (x0 + 4, y0 + 4), (x1 - 5, y1 - 5), shade(col, 1.25), 3, AA)
            ell(img, (cx, cy), (70, 88), shade(col, 1.45))
            ell(img, (cx, cy), (70, 88), shade(col, 0.7), 0, 3)
        else:
            band = shade(col, 0.55)
            cv2.rectangle(img, (x0, y0), (x1, y0 + ph + 4), band, -1)
            cv2.rectangle(img, (x0, y1 - ph - 4), (x1, y1), band, -1)
            for k in range(y0 + ph + 14, y1 - ph - 10, 18):  # waves
                for xx in range(x0, x1, 30):
                    ell(img, (xx + 15, k), (15, 6), shade(col, 1.2), 0, 2, (0, 180))
        EMBLEMS[st.name][suit](img, cx, cy, 58, col)
        patch = _corner_patch_number(st, suit, rank, pw, ph)
    else:
        col = st.special_colors[face]
        _background_special(st, img, inner, col)
        special_picture(
            face, img, w / 2, h / 2 + (8 if st.name == "classic" else 0), 62, col, st.name == "alt"
        )
        patch = _corner_patch_special(st, face, pw, ph)
        # the name strip along the bottom edge reads as a texture at camera size
        cv2.rectangle(
            img, (b + pw + 4, h - b - 26), (w - b - pw - 4, h - b - 6), shade(col, 0.6), -1
        )
        cv2.rectangle(img, (b + pw + 4, b + 6), (w - b - pw - 4, b + 26), shade(col, 0.6), -1)
    if st.name == "classic":
        img[b + 2 : b + 2 + ph, b + 2 : b + 2 + pw] = patch
        img[h - b - 2 - ph : h - b - 2, w - b - 2 - pw : w - b - 2] = patch[::-1, ::-1]
    else:
        img[b : b + ph, b : b + pw] = patch
        img[h - b - ph : h - b, w - b - pw : w - b] = patch[::-1, ::-1]
    # rounded outline: paint outside the rounded card with the border colour
    mask = rounded_mask(w, h, CORNER_RADIUS_MM * PX_PER_MM)
    img[mask == 0] = st.border
    return img


# ------------------------------------------------------------------------------ deck folders


def write_deck(out: Path, style: str = "classic", name: str | None = None) -> Path:
    """Write the 69 faces of a stand-in deck and its manifest into ``out``; returns ``out``."""
    st = get_style(style)
    out = make_folder(Path(out), "deck folder")
    for face in FACES:
        cv2.imwrite(str(out / f"{face}.png"), render_face(face, st))
    manifest = {
        "format": DECK_FORMAT,
        "name": name or f"stand-in-{st.name}",
        "style": st.name,
        "faces": list(FACES),
        "size_mm": list(SIZE_MM),
        "px_per_mm": PX_PER_MM,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return out


def read_manifest(deck_dir: Path) -> dict[str, object]:
    """The deck's manifest (a clear UserError when the folder is not a deck)."""
    deck_dir = Path(deck_dir)
    path = deck_dir / "manifest.json"
    if deck_dir.exists() and not deck_dir.is_dir():
        raise UserError(
            f"{deck_dir} is a file, not a deck folder: give the folder written by "
            "'skullcam synth deck' (or skullcam enroll)"
        )
    if not deck_dir.is_dir():
        raise UserError(
            f"deck folder {deck_dir} does not exist: "
            f"create one with 'skullcam synth deck --out {deck_dir}'"
        )
    if not path.is_file():
        raise UserError(
            f"{deck_dir} is not a deck (no manifest.json): create one with 'skullcam synth deck'"
        )
    try:
        manifest = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise UserError(f"{path} is not valid JSON ({err}); regenerate the deck") from None
    if not isinstance(manifest, dict) or manifest.get("format") != DECK_FORMAT:
        raise UserError(f"{path} is not a {DECK_FORMAT} manifest; regenerate the deck")
    return manifest


FACE_EXTENSIONS = (".png", ".jpg", ".jpeg")


def _face_path(deck_dir: Path, face: str) -> Path | None:
    return next((p for ext in FACE_EXTENSIONS if (p := deck_dir / f"{face}{ext}").is_file()), None)


def load_deck(deck_dir: Path, size: tuple[int, int] = (FACE_W, FACE_H)) -> dict[str, np.ndarray]:
    """Every face of a deck folder as a BGR image of ``size`` (w, h), keyed by face id.

    Photos of a user's deck may have any size; they are resized so downstream code can rely on one
    shape. A folder of face images without ``manifest.json`` (a user's scans) is accepted too.
    A missing or unreadable face is a UserError naming the file.
    """
    deck_dir = Path(deck_dir)
    if not deck_dir.is_dir() or (deck_dir / "manifest.json").exists():
        read_manifest(deck_dir)  # names the problem: no folder, bad manifest
    elif not any(_face_path(deck_dir, face) for face in FACES):
        raise UserError(
            f"{deck_dir} is not a deck (no manifest.json and no <card-id>.png/.jpg faces): "
            "create one with 'skullcam synth deck'"
        )
    faces: dict[str, np.ndarray] = {}
    missing = []
    for face in FACES:
        path = _face_path(deck_dir, face)
        if path is None:
            missing.append(face)
            continue
        try:
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        except cv2.error:  # over OpenCV's limit (skullcam.MAX_IMAGE_PIXELS): a huge scan
            img = None
        if img is None:
            raise UserError(
                f"cannot read face image {path} (not an image, or over 100 megapixels); "
                "replace or regenerate it"
            )
        if (img.shape[1], img.shape[0]) != size:
            img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        faces[face] = img
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise UserError(
            f"deck {deck_dir} lacks {counted(len(missing), 'face')}: {shown}; regenerate it"
        )
    return faces
