"""Find the one card in an enrollment photo, rectify it to a deck face, and judge the shot.

Classical CV first (edges and thresholds, then the largest convex four-cornered outline of a
card's proportions) because it needs no model and works on any art: the enrolled deck is by
definition one the recognizer has not learned. The deck-independent card detector is the
fallback for photos where the outline does not close (a card on a surface of its own colour).

Each check returns a :class:`PhotoCheck` whose ``problem`` is one of :data:`PROBLEMS` and whose
``message`` tells the user what to do (kept as ``said``, a key and its values, so the enrollment
page can word it in its reader's language: ``enroll_messages``); nothing here raises for a bad
photo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from skullcam.datasets.deck import FACE_H, FACE_W
from skullcam.vision.crops import CARD_ASPECT, order_long_side_vertical, rectify
from skullcam.vision.enroll_messages import Message, message
from skullcam.vision.sharpness import sharpness

PROBLEMS = ("no-card", "two-cards", "too-small", "blurred", "glare", "wrong-card")
ASPECT_RANGE = (1.25, 1.85)  # perspective and a tilted phone stretch the outline
WORK_SIDE = 800  # photos are searched at most this large (a phone's 4000 px buys nothing)
MIN_SHORT_SIDE_PX = 48  # below this the corner numbers are a few pixels tall
# Edge steepness (see sharpness()). Calibrated on rendered photos of both stand-in decks: sharp
# shots score 0.24-0.5, a shot blurred by 4% of the card's width ~0.13 (or loses its outline).
MIN_SHARPNESS = 0.16
# Fraction of the face's inner area that is clipped white (all channels >= 250).
MAX_GLARE = 0.12

Detector = Callable[[np.ndarray], np.ndarray]
"""Frame -> card corners (K, 4, 2) in frame pixels: ``Recognizer.detect_boxes`` minus scores."""


@dataclass
class PhotoCheck:
    """The verdict on one photo: the rectified face when one card was found, and any problem."""

    problem: str | None
    said: Message
    face: np.ndarray | None = None  # FACE_H x FACE_W BGR, long side vertical
    corners: np.ndarray | None = None  # (4, 2) photo pixels, in the face's TL, TR, BR, BL order
    sharpness: float = 0.0
    glare: float = 0.0
    method: str = ""

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def message(self) -> str:
        """What to do, in English (the command line's text)."""
        return str(self.said)


def _signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def portrait_order(quad: np.ndarray) -> np.ndarray:
    """Clockwise corners, short edge first: warping them gives an upright, unmirrored face."""
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    if _signed_area(pts) < 0:
        pts = pts[::-1].copy()
    return order_long_side_vertical(pts)


def _aspect(quad: np.ndarray) -> float:
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    if short > long:
        short, long = long, short
    return long / max(short, 1e-6)


def _corners_where_sides_meet(lines: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """The four corners where consecutive side lines (point, direction) cross; None when two
    neighbouring sides run parallel, where a fitted outline is no card and the caller keeps
    the corners it had."""
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        det = d1[0] * (-d2[1]) - d1[1] * (-d2[0])
        if abs(det) < 1e-6:
            return None
        s = ((p2 - p1)[0] * (-d2[1]) - (p2 - p1)[1] * (-d2[0])) / det
        out.append(p1 + s * d1)
    return np.asarray(out, np.float32)


def _refine_corners(contour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Intersect lines fitted to each side's outline points: rounded corners cut no corner off."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 4:
            return quad
        t = ((pts - a) @ ab) / length**2
        rel = pts - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = pts[(t > 0.15) & (t < 0.85) & (dist < max(3.0, 0.03 * length))]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    refined = _corners_where_sides_meet(lines)
    if refined is None:
        return quad
    # A refinement that moves a corner by more than a tenth of the card is a bad fit: keep the
    # polygon's corners instead.
    if np.max(np.linalg.norm(refined - quad, axis=1)) > 0.1 * np.linalg.norm(quad[2] - quad[0]):
        return quad
    return refined


def _quad_of(
    contour: np.ndarray,
    image_area: float,
    edge_distance: np.ndarray,
    fine_distance: np.ndarray | None = None,
) -> tuple[np.ndarray, float] | None:
    """The card-shaped quadrilateral a contour outlines, with its area; None if it is not one."""
    hull = cv2.convexHull(contour)
    hull_area = float(cv2.contourArea(hull))
    if hull_area < 0.01 * image_area:
        return None
    peri = cv2.arcLength(hull, True)
    for eps in (0.015, 0.025, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            if float(cv2.contourArea(quad)) < 0.9 * hull_area:
                return None
            aspect = _aspect(quad)
            if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
                return None
            # The outline must run along (nearly) all four sides: a ragged blob (a hand, the
            # shadow of clutter) has a four-cornered hull too, but its edges stray from it.
            quad = _refine_corners(contour, quad)
            if not _card_like(quad):
                return None
            if fine_distance is not None:
                quad = _snap_sides(quad, fine_distance)
            if _support(edge_distance, quad) < 0.85:
                return None
            return quad, hull_area
        if len(approx) < 4:
            return None
    return None


def _support(
    edge_distance: np.ndarray, quad: np.ndarray, samples: int = 160, tol: float | None = None
) -> float:
    """Share of points along the quad's sides that have an image edge within a few pixels.

    An outline broken by a low-contrast stretch still scores high (it need not close), so a
    cream card on a pale table is found; a blob whose hull only happens to have four corners
    (a hand, the shadow of clutter) scores low. ``edge_distance`` is the distance transform of
    the edge map (pixels to the nearest edge).
    """
    if tol is None:
        tol = max(3.0, 0.012 * float(np.linalg.norm(quad[2] - quad[0])))
    t = np.linspace(0, 1, samples // 4, endpoint=False, dtype=np.float32)[:, None]
    along = np.concatenate([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    h, w = edge_distance.shape[:2]
    idx = np.round(along).astype(int)
    idx[:, 0] = idx[:, 0].clip(0, w - 1)
    idx[:, 1] = idx[:, 1].clip(0, h - 1)
    return float((edge_distance[idx[:, 1], idx[:, 0]] <= tol).mean())


def _card_like(quad: np.ndarray) -> bool:
    """Roughly a rectangle seen at an angle: corners near square, opposite sides near equal."""
    sides = [quad[(i + 1) % 4] - quad[i] for i in range(4)]
    lengths = [float(np.linalg.norm(v)) for v in sides]
    if min(lengths) < 1:
        return False
    for i in range(4):
        a, b = -sides[i - 1], sides[i]
        cos = float(a @ b) / (lengths[i - 1] * lengths[i])
        if abs(cos) > 0.5:  # interior angle outside 60..120 degrees
            return False
    return min(lengths[0], lengths[2]) >= 0.65 * max(lengths[0], lengths[2]) and min(
        lengths[1], lengths[3]
    ) >= 0.65 * max(lengths[1], lengths[3])


def _snap_sides(quad: np.ndarray, fine_distance: np.ndarray, reach: float = 0.04) -> np.ndarray:
    """Move each side along its normal onto the nearest line of fine edges (within ``reach``
    of the card's diagonal), then re-intersect: an outline from the colour mask includes the
    card's shadow, the card's real edge is a few pixels inside it."""
    h, w = fine_distance.shape[:2]
    diag = float(np.linalg.norm(quad[2] - quad[0]))
    centre = quad.mean(axis=0)
    offsets = np.arange(-reach * diag, reach * diag + 0.5, 1.0, dtype=np.float32)
    t = np.linspace(0.1, 0.9, 40, dtype=np.float32)[:, None]
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        n = np.array([-d[1], d[0]], np.float32)
        if float((a - centre) @ n) < 0:
            n = -n  # outward
        pts = a + t * (b - a)
        moved = np.round(pts[None] + offsets[:, None, None] * n).astype(int)  # (K, 40, 2)
        moved[..., 0] = moved[..., 0].clip(0, w - 1)
        moved[..., 1] = moved[..., 1].clip(0, h - 1)
        on_edge = (fine_distance[moved[..., 1], moved[..., 0]] <= 1.5).mean(axis=1)
        # Prefer the nearest of equally good lines: a small penalty for moving.
        scores = on_edge - 0.002 * np.abs(offsets)
        k = int(np.argmax(scores))
        best, best_score = float(offsets[k]), float(scores[k])
        if best_score < 0.5:
            best = 0.0  # no clear edge line near this side: leave it
        lines.append((a + best * n, d))
    snapped = _corners_where_sides_meet(lines)
    return quad if snapped is None else snapped


def _touches_border(quad: np.ndarray, shape: tuple[int, ...], margin: float = 2.0) -> bool:
    h, w = shape[:2]
    return bool(
        (quad[:, 0] < margin).any()
        or (quad[:, 1] < margin).any()
        or (quad[:, 0] > w - 1 - margin).any()
        or (quad[:, 1] > h - 1 - margin).any()
    )


def _background_mask(image: np.ndarray) -> np.ndarray:
    """Pixels unlike the photo's edges: the card, when the surface around it fills the border.

    The border's colours are clustered (a check cloth or wood has several) and each pixel is
    measured against the nearest cluster, so a patterned surface drops out as a whole.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    b = max(4, min(h, w) // 40)
    border = np.concatenate(
        [
            lab[:b].reshape(-1, 3),
            lab[-b:].reshape(-1, 3),
            lab[:, :b].reshape(-1, 3),
            lab[:, -b:].reshape(-1, 3),
        ]
    )
    border = border[:: max(1, len(border) // 4000)]
    k = 6
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # k-means++ draws from OpenCV's global generator: same photo, same answer
    # OpenCV takes None for bestLabels (it allocates them); its 5.0 stubs want an array (5.1's
    # accept None, hence unused-ignore: the type check passes on either).
    _, _, centres = cv2.kmeans(border, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload, unused-ignore]
    # Distance to the nearest border colour through a 32^3 table of Lab bins: one lookup per
    # pixel instead of one float pass per cluster.
    bins = (np.arange(32, dtype=np.float32) * 8 + 4)[:, None]
    grid = np.stack(np.meshgrid(bins[:, 0], bins[:, 0], bins[:, 0], indexing="ij"), axis=-1)
    table = np.min(
        np.stack([np.sqrt(((grid - c) ** 2).sum(axis=-1)) for c in centres]), axis=0
    ).ravel()
    q = np.clip(lab, 0, 255).astype(np.uint8) >> 3
    index = (q[..., 0].astype(np.int32) << 10) | (q[..., 1].astype(np.int32) << 5) | q[..., 2]
    dist = table[index]
    mask = (dist > 18).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)


def _candidate_masks(image: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Binary maps whose contours may outline the card, the edge map to check them on (fine
    and coarse edges) and the fine edges alone."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    sat = cv2.GaussianBlur(hsv[..., 1], (5, 5), 0)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    edges = np.bitwise_or(cv2.Canny(grey, 30, 90), cv2.Canny(sat, 30, 90))
    # A soft (slightly blurred) photo loses its fine edges; at a quarter of the size its
    # outline is crisp again.
    h, w = grey.shape[:2]
    coarse = np.zeros_like(grey)
    for factor in (4, 8):
        small = cv2.resize(grey, (w // factor, h // factor), interpolation=cv2.INTER_AREA)
        outline = cv2.resize(cv2.Canny(small, 15, 45), (w, h), interpolation=cv2.INTER_NEAREST)
        np.bitwise_or(coarse, outline, out=coarse)
    masks = [cv2.dilate(edges, kernel, iterations=2), _background_mask(image)]
    _, light = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for m in (light, 255 - light):
        masks.append(cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel, iterations=2))
    return masks, edges | coarse, edges


def find_card_quads(image: np.ndarray) -> list[np.ndarray] | None:
    """Card outlines (K, 4, 2) in ``image`` pixels, largest first, nested outlines dropped;
    None when only pieces of one card's print were outlined (its edge does not show)."""
    area = float(image.shape[0] * image.shape[1])
    found: list[tuple[np.ndarray, float]] = []
    masks, edges, fine = _candidate_masks(image)
    edge_distance = cv2.distanceTransform(255 - edges, cv2.DIST_L2, 3)
    fine_distance = cv2.distanceTransform(255 - fine, cv2.DIST_L2, 3)
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            if len(contour) < 20:
                continue
            candidate = _quad_of(contour, area, edge_distance, fine_distance)
            if candidate is None or _touches_border(candidate[0], image.shape):
                continue
            found.append(candidate)
    found.sort(key=lambda qa: -qa[1])
    kept: list[tuple[np.ndarray, float]] = []
    for quad, quad_area in found:
        centre = tuple(map(float, quad.mean(axis=0)))
        # Inside an already kept (larger) outline: the same card's outline found twice, its
        # border line or its art.
        if any(cv2.pointPolygonTest(k.reshape(-1, 1, 2), centre, False) >= 0 for k, _ in kept):
            continue
        # Of the near-equal outlines of this card (the colour mask includes the card's shadow,
        # the edges do not), keep the one that sits best on the fine edges.
        twins = [
            (q, a)
            for q, a in found
            if a >= 0.8 * quad_area
            and cv2.pointPolygonTest(
                quad.reshape(-1, 1, 2), tuple(map(float, q.mean(axis=0))), False
            )
            >= 0
        ]
        scores = [_support(fine_distance, q, tol=2.0) for q, _ in twins]
        top = max(scores)
        # The largest of those that sit (nearly) as well as the best: the card, not its inner
        # print frame.
        best = max(
            (qa for qa, score in zip(twins, scores, strict=True) if score >= top - 0.08),
            key=lambda qa: qa[1],
        )
        kept.append(best)
    # Far smaller outlines beside the card are clutter (a coin, a die), not a second card.
    if kept:
        biggest = kept[0][1]
        kept = [(q, a) for q, a in kept if a >= 0.35 * biggest]
    quads = [q for q, _ in kept]
    if len(quads) > 1 and _touching(quads):
        # Outlines that share an edge are the print panels of one card whose own edge did not
        # show (a cream border on a pale table): take their joint outline if it is card-shaped,
        # else admit that no clear card outline was found rather than call it two cards.
        hull = cv2.convexHull(np.concatenate(quads).reshape(-1, 1, 2))
        joint = _quad_of(hull, area, edge_distance)
        return [joint[0]] if joint is not None else None
    return quads


def _touching(quads: list[np.ndarray]) -> bool:
    """Whether every outline touches another one (within 3% of its size)."""
    for i, quad in enumerate(quads):
        tol = 0.03 * float(np.linalg.norm(quad[2] - quad[0]))
        if not any(_corner_gap(quad, other) < tol for j, other in enumerate(quads) if j != i):
            return False
    return True


def _corner_gap(quad: np.ndarray, other: np.ndarray) -> float:
    """How far the nearest corner of ``quad`` lies outside ``other`` (negative: inside it)."""
    poly = other.reshape(-1, 1, 2).astype(np.float32)
    return -max(cv2.pointPolygonTest(poly, tuple(map(float, p)), True) for p in quad)


def glare_fraction(face: np.ndarray) -> float:
    """Share of the face inside its border that is clipped white (a reflection, not print)."""
    h, w = face.shape[:2]
    my, mx = int(0.06 * h), int(0.06 * w)
    inner = face[my : h - my, mx : w - mx]
    return float((inner.min(axis=2) >= 250).mean())


def inspect_photo(
    image: np.ndarray,
    detector: Detector | None = None,
    min_sharpness: float = MIN_SHARPNESS,
    max_glare: float = MAX_GLARE,
) -> PhotoCheck:
    """Find the single card in ``image`` and rectify it, or say what is wrong with the photo."""
    if min(image.shape[:2]) < MIN_SHORT_SIDE_PX:
        # No card in it can be read (and the outline search cannot even shrink it).
        height, width = image.shape[:2]
        too_small = message("photo_picture_too_small", width=width, height=height)
        return PhotoCheck("too-small", too_small)
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = (
        cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if scale < 1
        else image
    )
    h, w = small.shape[:2]
    quads: list[np.ndarray] = []
    method = ""
    if abs(max(h, w) / min(h, w) - CARD_ASPECT) < 0.12 and _is_scan(small):
        # A scan cropped to the card (no phone camera has the card's 1.55 aspect ratio): the
        # whole picture is the face; searching it would find the print's inner frame instead.
        quads = [np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)]
        method = "whole image"
    unclear = False
    if not quads:
        found, method = find_card_quads(small), "outline"
        unclear = found is None
        quads = found or []
    if not quads and not unclear:
        # A soft photo loses its edges at full size; shrunk, its outline is crisp again. The
        # face is still cut from the full photo and then judged blurred or not.
        tiny_scale = 240 / max(h, w)
        tiny = cv2.resize(small, None, fx=tiny_scale, fy=tiny_scale, interpolation=cv2.INTER_AREA)
        quads = [q / tiny_scale for q in find_card_quads(tiny) or []]
        method = "outline (shrunk)"
    if not quads and detector is not None:
        quads = [np.asarray(q, np.float32) for q in detector(small)]
        method = "detector"
    if not quads:
        # A photo washed out by a reflection loses the card's outline: say why, not just
        # that no card was found.
        if unclear:
            return PhotoCheck("no-card", message("photo_edge_unclear"))
        if _washed_out(small):
            return PhotoCheck("glare", message("photo_washed_out"))
        return PhotoCheck("no-card", message("photo_no_card"))
    if len(quads) > 1 and _washed_out(small) and _outlines_near(quads, max(small.shape[:2]) * 0.05):
        # A reflection across one card can cut its outline in pieces that each look like a
        # card: "5 cards in the picture" for one card under a lamp (1 of 21 glare renders).
        return PhotoCheck("glare", message("photo_glare_cut"), method=method)
    if len(quads) > 1:
        return PhotoCheck("two-cards", message("photo_cards", n=len(quads)), method=method)
    corners = portrait_order(quads[0]) / scale
    short = min(
        float(np.linalg.norm(corners[1] - corners[0])),
        float(np.linalg.norm(corners[3] - corners[2])),
    )
    if short < MIN_SHORT_SIDE_PX:
        return PhotoCheck(
            "too-small",
            message("photo_too_small", width=short),
            corners=corners,
            method=method,
        )
    face = rectify(image, corners, size=(FACE_W, FACE_H))
    check = PhotoCheck(
        None,
        message("photo_ok"),
        face=face,
        corners=corners,
        sharpness=sharpness(face),
        # A scan has no reflection to wash print out, and its white print (a number panel,
        # the margin) is as clipped as glare: judged as a photo, 46 of the 69 stand-in faces
        # were refused as glare.
        glare=0.0 if method == "whole image" else glare_fraction(face),
        method=method,
    )
    if check.sharpness < min_sharpness:
        check.problem = "blurred"
        check.said = message(
            "photo_blurred", sharpness=check.sharpness, needed=float(min_sharpness)
        )
    elif check.glare > max_glare:
        check.problem = "glare"
        check.said = message("photo_glare", share=check.glare)
    return check


def _washed_out(image: np.ndarray) -> bool:
    """More than 3 % of the picture clipped white: a reflection, not print or a surface."""
    return float((image.min(axis=2) >= 250).mean()) > 0.03


def _outlines_near(quads: list[np.ndarray], gap: float) -> bool:
    """Some two of the outlines overlap or lie within ``gap`` pixels: pieces of one card, not
    two cards laid apart. Measured between the outlines themselves, not their upright boxes:
    the boxes of two cards turned 30 degrees overlap with a clear gap between the cards."""
    return any(_outline_gap(a, b) <= gap for i, a in enumerate(quads) for b in quads[i + 1 :])


def _outline_gap(a: np.ndarray, b: np.ndarray) -> float:
    """The distance between two convex outlines, 0 when they overlap. Apart, the nearest
    points are a corner of one and a side of the other; overlapping, some corner lies inside
    the other or their intersection has an area (two crossed cards)."""
    gap = min(_corner_gap(a, b), _corner_gap(b, a))
    if gap <= 0:
        return 0.0
    shared, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return 0.0 if shared > 0 else gap


def _is_scan(image: np.ndarray) -> bool:
    """A picture with no background at its edges: its border pixels vary like card print."""
    h, w = image.shape[:2]
    border = np.concatenate(
        [
            image[:3].reshape(-1, 3),
            image[-3:].reshape(-1, 3),
            image[:, :3].reshape(-1, 3),
            image[:, -3:].reshape(-1, 3),
        ]
    ).astype(np.float32)
    # A card's printed border is one even colour; a table seen edge to edge is not even.
    return float(border.std(axis=0).mean()) < 25.0 and h > 0 and w > 0
