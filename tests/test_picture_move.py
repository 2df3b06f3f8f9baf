"""A camera's move measured on the cards it moved at once: a knock or a turn moves every card
rigidly, which nothing at the table does."""

from __future__ import annotations

import math

import pytest

from skullcam.vision.picture_move import measure_move

DIAGONAL = 108.0
"""A card's diagonal at the working size."""


def around(seats: list[int], n: int = 8, radius: float = 110.0) -> list[tuple[float, float]]:
    """Cards in front of ``seats`` of ``n`` round the table centre (320, 240)."""
    angles = [math.pi / 2 + s * math.tau / n for s in seats]
    return [(320 + radius * math.cos(a), 240 + radius * math.sin(a)) for a in angles]


def moved(points, turn_degrees: float, shift=(0.0, 0.0), scale: float = 1.0, about=(320, 240)):
    a = math.radians(turn_degrees)
    out = []
    for x, y in points:
        dx, dy = x - about[0], y - about[1]
        out.append(
            (
                about[0] + scale * (dx * math.cos(a) - dy * math.sin(a)) + shift[0],
                about[1] + scale * (dx * math.sin(a) + dy * math.cos(a)) + shift[1],
            )
        )
    return out


def test_a_turn_shift_and_zoom_of_the_picture_is_measured_from_four_cards() -> None:
    before = around([6, 7, 0, 1])  # four cards of a trick half played
    after = moved(before, 30.0, shift=(12.0, -7.0), scale=0.9)
    move = measure_move(before, after, DIAGONAL)
    assert move is not None
    assert math.degrees(move.turn) == pytest.approx(30.0, abs=0.01)
    assert move.scale == pytest.approx(0.9, abs=1e-3)
    centre = move.apply((320.0, 240.0))  # the table centre goes where the picture took it
    assert centre == pytest.approx((332.0, 233.0), abs=0.01)
    for p, q in zip(before, after, strict=True):
        assert move.apply(p) == pytest.approx(q, abs=0.01)


def test_what_players_do_is_not_a_camera_move() -> None:
    before = around([0, 1, 2, 3])
    one = [*before[:3], (before[3][0] + 40, before[3][1])]  # a player nudges their card
    assert measure_move(before, one, DIAGONAL) is None
    swept = [(p[0] * 0.5 + 160, p[1] * 0.5 + 200) for p in before]  # bunched up by a hand
    swept = [(x + 60 * (k % 2), y) for k, (x, y) in enumerate(swept)]
    assert measure_move(before, swept, DIAGONAL) is None
    pile = [(320 + 10 * k, 240 + 5 * k) for k in range(4)]  # a pile slid as one
    assert measure_move(pile, moved(pile, 0.0, shift=(50.0, 20.0)), DIAGONAL) is None
    two = around([0, 4])  # two cards: could be two hands at once
    assert measure_move(two, moved(two, 30.0), DIAGONAL) is None
    jitter = [(x + 1.0, y - 1.0) for x, y in before]  # detection noise
    assert measure_move(before, jitter, DIAGONAL) is None


def test_a_camera_zoomed_past_what_a_raised_camera_gives_is_not_taken() -> None:
    before = around([0, 2, 4, 6])
    assert measure_move(before, moved(before, 0.0, scale=2.0), DIAGONAL) is None
