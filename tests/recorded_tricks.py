"""Helpers for tests of the recorder and the store: a held database, a seen trick."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from skullcam.vision.trick_state import PlayedCard, TrickObservation


@contextmanager
def held(path: Path) -> Iterator[None]:
    """Another program's write transaction on the database, as a sqlite3 shell would hold it."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("COMMIT")
        other.close()


def trick(cards: list[str], flags: tuple[str, ...] = ()) -> TrickObservation:
    """Three players' trick as the camera would hand it over, Ana leading."""

    def played(card: str, seat: int) -> PlayedCard:
        return PlayedCard(
            seat, card, card, 0.9, seat, 0.1 * seat, 1.0, (100.0 * seat, 100.0), (0, 0, 9, 9), 0.0
        )

    return TrickObservation(
        plays=tuple(played(c, s) for s, c in enumerate(cards)),
        players=(0, 1, 2),
        leader=0,
        arrival_seats=(0, 1, 2),
        flags=flags,
        taken_back=(),
        last_settled_at=1.0,
        completed_at=1.2,
    )
