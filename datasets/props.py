"""Things on and around the cards: table surfaces, hands and arms, clutter, card backs.

Everything here draws with OpenCV primitives from a ``numpy.random.Generator`` so a scene is a
pure function of its seed. Table textures are generated in table coordinates (so a camera tilt
makes wood planks converge like the cards do); hands and clutter are drawn in image pixels at
the scene's scale (px per mm) and report the mask they cover, which is what occlusion
accounting needs.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

AA = cv2.LINE_AA
TABLE_KINDS = ("wood", "felt", "cloth", "plain")
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


def _lowfreq(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Smooth noise in [0, 1] of shape (h, w) with about ``cells`` blobs across."""
    gh = max(2, int(cells * h / max(w, 1)) + 1)
    small = rng.random((gh, cells + 1), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _color(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> np.ndarray:
    return np.clip(np.asarray(base, np.float32) + rng.integers(-spread, spread + 1, 3), 0, 255)


def _read_background(path: Path) -> np.ndarray | None:
    """A background photo, shrunk to a side of at most 4,000 pixels (a table is drawn at a
    few hundred); None when it is no image. A photo over ``skullcam.MAX_IMAGE_PIXELS`` is
    read at an eighth of its size: OpenCV refuses to decode it whole."""
    try:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:
        try:  # a JPEG decodes at an eighth; other formats are refused again
            img = cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_8)
        except cv2.error:
            img = None
    if img is not None and max(img.shape[:2]) > 4000:
        scale = 4000 / max(img.shape[:2])
        img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return img


def table_texture(
    rng: np.random.Generator,
    w: int,
    h: int,
    px_per_mm: float,
    backgrounds: tuple[Path, ...] = (),
) -> np.ndarray:
    """A ``w`` x ``h`` BGR table surface, drawn at ``px_per_mm``; one of TABLE_KINDS or, when
    ``backgrounds`` holds image files, sometimes a random crop of one of them."""
    if backgrounds and rng.random() < 0.5:
        img = _read_background(backgrounds[int(rng.integers(len(backgrounds)))])
        if img is not None and img.shape[0] > 8 and img.shape[1] > 8:
            scale = max(w / img.shape[1], h / img.shape[0]) * float(rng.uniform(1.0, 1.6))
            img = cv2.resize(img, (int(img.shape[1] * scale) + 1, int(img.shape[0] * scale) + 1))
            y0 = int(rng.integers(0, img.shape[0] - h + 1))
            x0 = int(rng.integers(0, img.shape[1] - w + 1))
            return np.ascontiguousarray(img[y0 : y0 + h, x0 : x0 + w])
    kind = TABLE_KINDS[int(rng.choice(4, p=[0.4, 0.2, 0.2, 0.2]))]
    if kind == "wood":
        base = _color(rng, (40, 85, 140), 35) * float(rng.uniform(0.5, 1.3))
        plank_mm = float(rng.uniform(70, 160))
        vertical = rng.random() < 0.5
        L, S = (h, w) if vertical else (w, h)  # along-grain length, across
        across = np.arange(S, dtype=np.float32) / px_per_mm
        plank = (across // plank_mm).astype(np.int32)
        tones = rng.uniform(0.8, 1.15, plank.max() + 2).astype(np.float32)
        wobble = _lowfreq(rng, L, S, 6) * 30.0
        grain = np.sin((across[None, :] + wobble) * float(rng.uniform(0.5, 1.2)))
        field = tones[plank][None, :] * (0.9 + 0.08 * grain) * (0.9 + 0.2 * _lowfreq(rng, L, S, 4))
        seam = (np.abs(across - (plank + 1) * plank_mm) < 0.8) | (
            np.abs(across - plank * plank_mm) < 0.8
        )
        field = np.where(seam[None, :], field * 0.55, field)
        if not vertical:
            field = field.T
        img = field[..., None] * base[None, None, :]
    elif kind == "felt":
        base = _color(
            rng,
            [(60, 120, 30), (120, 60, 20), (40, 40, 120), (90, 90, 90)][int(rng.integers(4))],
            25,
        )
        field = 0.85 + 0.25 * _lowfreq(rng, h, w, 5)
        img = field[..., None] * base[None, None, :]
        img = img + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    elif kind == "cloth":
        c1 = rng.integers(30, 250, 3).astype(np.float32)
        c2 = rng.integers(30, 250, 3).astype(np.float32)
        sq = float(rng.uniform(15, 45)) * px_per_mm
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        pattern = int(rng.integers(3))
        if pattern == 0:  # checks
            sel = ((xx // sq + yy // sq) % 2)[..., None]
        elif pattern == 1:  # stripes
            sel = ((xx // sq) % 2)[..., None]
        else:  # plain weave
            sel = np.zeros((h, w, 1), np.float32)
        img = c1 * (1 - sel) + c2 * sel
        weave = 1.0 + 0.05 * np.sin(xx * 2.2) * np.sin(yy * 2.2)
        img = img * weave[..., None] * (0.85 + 0.25 * _lowfreq(rng, h, w, 4))[..., None]
    else:
        base = _color(
            rng,
            [(235, 235, 235), (150, 150, 150), (35, 35, 35), (170, 200, 215)][int(rng.integers(4))],
            20,
        )
        img = np.broadcast_to(base, (h, w, 3)) * (0.9 + 0.15 * _lowfreq(rng, h, w, 3))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


# ------------------------------------------------------------------------------ hands and arms

SKIN_TONES = ((150, 185, 230), (110, 150, 200), (80, 115, 165), (55, 80, 120), (170, 195, 225))


def draw_arm(
    img: np.ndarray,
    mask: np.ndarray,
    start: tuple[float, float],
    end: tuple[float, float],
    px_per_mm: float,
    rng: np.random.Generator,
) -> None:
    """Draw an arm from ``start`` (usually beyond the image border) to a hand whose fingertips
    reach ``end``; the covered pixels are set to 255 in ``mask``. Draws a soft shadow first."""
    tone = np.asarray(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    skin = tuple(int(v) for v in np.clip(tone + rng.integers(-15, 16, 3), 0, 255))
    sleeve = tuple(int(v) for v in rng.integers(10, 240, 3))
    sx, sy = start
    ex, ey = end
    length = math.hypot(ex - sx, ey - sy) or 1.0
    ux, uy = (ex - sx) / length, (ey - sy) / length
    palm_len = 95 * px_per_mm
    wrist = (ex - ux * palm_len, ey - uy * palm_len)
    arm_w = int(70 * px_per_mm * float(rng.uniform(0.85, 1.15)))
    layer = np.zeros(mask.shape, np.uint8)
    colour = np.zeros_like(img)
    sleeve_end = (
        sx + (wrist[0] - sx) * float(rng.uniform(0.3, 0.8)),
        sy + (wrist[1] - sy) * float(rng.uniform(0.3, 0.8)),
    )

    def seg(
        a: tuple[float, float], b: tuple[float, float], width: int, col: tuple[int, ...]
    ) -> None:
        pa, pb = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
        cv2.line(layer, pa, pb, 255, width, AA)
        cv2.line(colour, pa, pb, col, width, AA)

    seg(start, wrist, int(arm_w * 0.85), skin)
    seg(start, sleeve_end, arm_w + 4, sleeve)
    # palm, fingers, thumb
    px, py = wrist[0] + ux * palm_len * 0.4, wrist[1] + uy * palm_len * 0.4
    ang = math.degrees(math.atan2(uy, ux))
    axes = (int(palm_len * 0.45), int(42 * px_per_mm))
    cv2.ellipse(layer, (int(px), int(py)), axes, ang, 0, 360, 255, -1, AA)
    cv2.ellipse(colour, (int(px), int(py)), axes, ang, 0, 360, skin, -1, AA)
    nx, ny = -uy, ux
    curl = float(rng.uniform(0.55, 1.0))
    for k, off in enumerate((-0.6, -0.2, 0.2, 0.6)):
        base = (px + nx * off * 34 * px_per_mm, py + ny * off * 34 * px_per_mm)
        flen = (40 + 10 * (k in (1, 2))) * px_per_mm * curl
        tip = (base[0] + ux * (palm_len * 0.4 + flen), base[1] + uy * (palm_len * 0.4 + flen))
        seg(base, tip, max(2, int(17 * px_per_mm)), skin)
    side = 1 if rng.random() < 0.5 else -1
    tb = (px + side * nx * 35 * px_per_mm, py + side * ny * 35 * px_per_mm)
    tt = (
        tb[0] + (side * nx * 0.7 + ux * 0.7) * 45 * px_per_mm,
        tb[1] + (side * ny * 0.7 + uy * 0.7) * 45 * px_per_mm,
    )
    seg(tb, tt, max(2, int(20 * px_per_mm)), skin)
    # shadow, then the arm with a light gradient across it
    shadow_off = (int(rng.integers(4, 14)), int(rng.integers(4, 14)))
    small_shade = 0.8 + 0.35 * _lowfreq(rng, img.shape[0] // 8 + 1, img.shape[1] // 8 + 1, 3)
    shade = cv2.resize(small_shade, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    composite(img, mask, layer, colour, shadow=0.45, offset=shadow_off, sigma=6.0, shade=shade)


def composite(
    img: np.ndarray,
    mask: np.ndarray,
    layer: np.ndarray,
    colour: np.ndarray,
    shadow: float,
    offset: tuple[int, int],
    sigma: float,
    shade: np.ndarray | None = None,
) -> None:
    """Blend ``colour`` into ``img`` where ``layer`` (uint8 alpha) is set, after darkening a
    blurred copy of ``layer`` shifted by ``offset`` (its shadow). Works on the bounding box of
    the layer only, which keeps props cheap."""
    x, y, w, h = cv2.boundingRect(layer)
    if w == 0 or h == 0:
        return
    m = int(3 * sigma) + max(abs(offset[0]), abs(offset[1])) + 2
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(img.shape[1], x + w + m), min(img.shape[0], y + h + m)
    lay = layer[y0:y1, x0:x1]
    roi = img[y0:y1, x0:x1]
    sh = np.zeros_like(lay)
    dy, dx = offset
    sh[max(0, dy) :, max(0, dx) :] = lay[: lay.shape[0] - max(0, dy), : lay.shape[1] - max(0, dx)]
    sh = cv2.GaussianBlur(sh, (0, 0), sigma)
    out = roi.astype(np.float32) * (1 - shadow * sh[..., None].astype(np.float32) / 255.0)
    alpha = lay.astype(np.float32)[..., None] / 255.0
    col = colour[y0:y1, x0:x1].astype(np.float32)
    if shade is not None:
        col = col * shade[y0:y1, x0:x1, None]
    roi[:] = np.clip(out * (1 - alpha) + col * alpha, 0, 255).astype(np.uint8)
    mask[y0:y1, x0:x1][lay > 127] = 255


def random_arm_ends(
    rng: np.random.Generator, w: int, h: int, target: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """A start point beyond a random image edge and an end near ``target``."""
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    start = [(t * w, h + 60), (-60, t * h), (t * w, -60), (w + 60, t * h)][side]
    end = (target[0] + float(rng.normal(0, 25)), target[1] + float(rng.normal(0, 25)))
    return (float(start[0]), float(start[1])), end


# ------------------------------------------------------------------------------------ clutter

CLUTTER_KINDS = ("coin", "die", "mug", "phone", "pad", "pencil", "box")


def draw_clutter(
    img: np.ndarray,
    mask: np.ndarray,
    center: tuple[float, float],
    px_per_mm: float,
    rng: np.random.Generator,
    kind: str | None = None,
) -> str:
    """Draw one clutter object at ``center`` (image px); covered pixels go to 255 in ``mask``.
    Returns the kind drawn. The score pad and the card box are deliberate hard negatives: white
    rectangles of about a card's size that must not be labelled as cards."""
    kind = kind or CLUTTER_KINDS[int(rng.integers(len(CLUTTER_KINDS)))]
    layer = np.zeros(mask.shape, np.uint8)
    colour = np.zeros_like(img)
    cx, cy = center
    ang = float(rng.uniform(0, 180))
    s = px_per_mm

    def rect(
        w_mm: float,
        h_mm: float,
        col: int | tuple[int, ...],
        target: np.ndarray,
        fill: int | None = None,
    ) -> np.ndarray:
        box = cv2.boxPoints(((cx, cy), (w_mm * s, h_mm * s), ang)).astype(np.int32)
        cv2.fillPoly(target, [box], col if fill is None else fill, AA)
        return box

    if kind == "coin":
        r = int(11 * s)
        cv2.circle(layer, (int(cx), int(cy)), r, 255, -1, AA)
        cv2.circle(
            colour,
            (int(cx), int(cy)),
            r,
            (60, 160, 200) if rng.random() < 0.5 else (180, 180, 175),
            -1,
            AA,
        )
        cv2.circle(colour, (int(cx), int(cy)), max(1, int(r * 0.7)), (90, 120, 140), 1, AA)
    elif kind == "die":
        rect(16, 16, 255, layer, 255)
        rect(16, 16, (235, 235, 235) if rng.random() < 0.7 else (40, 40, 200), colour)
        for _ in range(int(rng.integers(1, 7))):
            pip = rng.uniform(-5, 5, 2) * s
            cv2.circle(
                colour,
                (int(cx + pip[0]), int(cy + pip[1])),
                max(1, int(1.5 * s)),
                (20, 20, 20),
                -1,
                AA,
            )
    elif kind == "mug":
        r = int(42 * s)
        col = tuple(int(v) for v in rng.integers(20, 240, 3))
        cv2.circle(layer, (int(cx), int(cy)), r, 255, -1, AA)
        cv2.circle(colour, (int(cx), int(cy)), r, col, -1, AA)
        cv2.circle(colour, (int(cx), int(cy)), int(r * 0.85), (30, 50, 70), -1, AA)
        hx, hy = cx + r * math.cos(math.radians(ang)), cy + r * math.sin(math.radians(ang))
        cv2.circle(layer, (int(hx), int(hy)), int(r * 0.35), 255, int(6 * s) + 1, AA)
        cv2.circle(colour, (int(hx), int(hy)), int(r * 0.35), col, int(6 * s) + 1, AA)
    elif kind == "phone":
        rect(72, 150, 255, layer, 255)
        rect(72, 150, (25, 25, 25), colour)
        rect(64, 135, (60, 50, 45) if rng.random() < 0.5 else (200, 160, 120), colour)
    elif kind == "pad":
        rect(100, 150, 255, layer, 255)
        rect(100, 150, (238, 240, 240), colour)
        for k in range(-6, 7):
            d = k * 10 * s
            p0 = (
                cx + d * math.cos(math.radians(ang + 90)) - 45 * s * math.cos(math.radians(ang)),
                cy + d * math.sin(math.radians(ang + 90)) - 45 * s * math.sin(math.radians(ang)),
            )
            p1 = (
                p0[0] + 90 * s * math.cos(math.radians(ang)),
                p0[1] + 90 * s * math.sin(math.radians(ang)),
            )
            cv2.line(
                colour, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), (200, 160, 140), 1, AA
            )
    elif kind == "pencil":
        a = math.radians(ang)
        half = (85 * s * math.cos(a), 85 * s * math.sin(a))
        end0 = (int(cx - half[0]), int(cy - half[1]))
        end1 = (int(cx + half[0]), int(cy + half[1]))
        cv2.line(layer, end0, end1, 255, max(2, int(7 * s)), AA)
        cv2.line(colour, end0, end1, (30, 200, 240), max(2, int(7 * s)), AA)
        cv2.circle(colour, end1, max(1, int(3 * s)), (40, 40, 40), -1, AA)
    else:  # the deck's box: card-sized, printed
        rect(62, 92, 255, layer, 255)
        rect(62, 92, (30, 30, 90), colour)
        rect(40, 30, (40, 180, 220), colour)
    composite(img, mask, layer, colour, shadow=0.35, offset=(3, 4), sigma=3.0)
    return kind


def card_back(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """The back of a card (face-down cards of earlier tricks): dark with a compass pattern."""
    col = [(60, 30, 110), (90, 50, 20), (30, 30, 30)][int(rng.integers(3))]
    img = np.full((h, w, 3), col, np.uint8)
    b = max(2, w // 22)
    cv2.rectangle(img, (b, b), (w - 1 - b, h - 1 - b), (40, 170, 210), max(1, b // 2), AA)
    c = (w // 2, h // 2)
    for k in range(8):
        a = k * math.pi / 4
        r = w * (0.35 if k % 2 == 0 else 0.2)
        cv2.line(
            img,
            c,
            (int(c[0] + r * math.cos(a)), int(c[1] + r * math.sin(a))),
            (40, 170, 210),
            max(1, b // 2),
            AA,
        )
    cv2.circle(img, c, int(w * 0.3), (40, 170, 210), max(1, b // 2), AA)
    return img


def list_backgrounds(folder: Path | None) -> tuple[Path, ...]:
    """The image files of a user's background folder, sorted (empty when ``folder`` is None)."""
    if folder is None:
        return ()
    return tuple(sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_EXTENSIONS))
