"""The bundled recorded game ``skullcam run`` plays with no camera: loading it, the game it
records into (resumed after a restart), its mark, and pruning the games a looping TV makes."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skullcam.datasets import bundled_samples
from skullcam.device.resume_point import last_trick, resume_frame, trick_cards
from skullcam.errors import UserError
from skullcam.files import read_json, sync_folder, write_atomic
from skullcam.rules import GameRecord, RulesError
from skullcam.store import GameStore
from skullcam.store.tricks import DEMO_MARK as DEMO_MARK
from skullcam.store.tricks import DEMO_SOURCE as DEMO_SOURCE

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DemoGame:
    """A recorded game folder: frames (or a video) plus its record for players, dealer, bids."""

    folder: Path
    record: dict[str, Any]

    @classmethod
    def load(cls, folder: Path | None = None) -> DemoGame:
        folder = Path(folder) if folder is not None else bundled_samples("demo_game")
        game_json = folder / "game.json"
        if not game_json.is_file():
            raise UserError(
                f"no recorded demo game at {folder} (game.json missing): "
                "connect a camera and pass --camera, or pass --demo DIR"
            )
        record = read_json(game_json, "demo game record")
        try:  # all of it now: a bad bid found later would leave a half-made game in the store
            GameRecord.from_dict(record)
        except RulesError as err:
            raise UserError(f"{game_json}: {err}; fix the record or pass another --demo") from None
        return cls(folder, record)

    @property
    def players(self) -> list[str]:
        return [str(p) for p in self.record["players"]]


def start_demo_game(store: GameStore, demo: DemoGame) -> tuple[int, int, list[list[str]]]:
    """The game the demo records into, the frame to start from, and the resume guard.

    An unfinished game with the demo's players whose tricks came from the demo is resumed after
    its last recorded frame; otherwise a new game is created with the demo's bids entered (in a
    real game the phones enter them).
    """
    active = store.active_game()
    rec = demo.record
    if active is not None and active.players == demo.players and store.is_demo_game(active.id):
        _enter_bids(store, active.id, rec)  # a stop between the game and its bids left some out
        last = last_trick(store, active.id)
        start = resume_frame(last, DEMO_SOURCE)
        if start:  # said as a recording's resume is: the board does not start from scratch
            logger.info("resuming the demo's game %d at frame %d", active.id, start)
        return active.id, start, trick_cards(last) if start else []

    def mark(game_id: int) -> None:
        # On disk, name and bytes, before the game's row commits: a power cut that kept the
        # row but lost a plain write's mark left a demo game passing for a table's game.
        folder = store.game_dir(game_id)
        write_atomic(folder / DEMO_MARK, "recorded from the demo game\n")
        sync_folder(folder)

    try:
        # Marked before the game is committed: unmarked, it would pass for a table's game and
        # block every later demo.
        game_id = store.create_game(
            demo.players, int(rec.get("first_dealer", 0)), dict(rec.get("settings") or {}), mark
        )
    except OSError as err:
        folder = store.data_dir / "games"
        raise UserError(
            f"cannot write the game's images under {folder} ({err.strerror or err}): make it a "
            "writable folder (or free some disk space), or pass another --data"
        ) from err
    _enter_bids(store, game_id, rec)
    return game_id, 0, []


def _enter_bids(store: GameStore, game_id: int, rec: dict[str, Any]) -> None:
    """The demo's bids, for each round that has none yet (a round's bids are one write, the
    game another: a kill between them left the resumed game unscoreable for good)."""
    for number, rnd in enumerate(rec.get("rounds", []), start=1):
        bids = rnd.get("bids") if isinstance(rnd, dict) else None
        if isinstance(bids, list) and all(b is None for b in store.bids(game_id, number)):
            store.set_bids(game_id, number, list(bids))


def prune_demo_games(store: GameStore, keep: int = 2) -> None:
    """Delete the demo's finished games but the newest ``keep``: looping on a TV, the demo
    makes a game a minute, and each keeps its trick images."""
    finished = [g.id for g in store.games("finished") if store.is_demo_game(g.id)]
    for game_id in finished[keep:]:
        store.delete_game(game_id)
