"""Rosie's choice where the camera missed a card of her trick or of the trick after it: the
camera's referee, one taken up from the store, and the store's own record and score agree.

Ana, Ben, Cai and Dag, Ana dealing first, three rounds. Dag leads round 3; Ana wins its first
trick with Rosie and chooses Cai, who leads the second with yellow-12. Only a whole trick's
first card is surely its lead, so Rosie's choice is read from the trick after hers only when
that trick is whole, and otherwise asked of the table."""

from __future__ import annotations

from test_referee_next_round import seen

from skullcam.device.recorder import referee_from_store
from skullcam.device.referee import Referee
from skullcam.device.trick_filing import TrickFiler
from skullcam.rules import Settings
from skullcam.store import GameStore

PLAYERS = ["Ana", "Ben", "Cai", "Dag"]
SHORT = "only 3 cards for 4 players"
ROUNDS_ONE_AND_TWO = [
    [(1, "green-9"), (2, "green-3"), (3, "green-4"), (0, "green-5")],
    [(2, "green-1"), (3, "green-2"), (0, "green-6"), (1, "green-7")],
    [(1, "purple-5"), (2, "purple-6"), (3, "purple-7"), (0, "purple-8")],
]
ROSIES = [(3, "yellow-3"), (0, "pirate-rosie"), (1, "yellow-9"), (2, "yellow-1")]
CAIS_LEAD = (2, "yellow-12")
AFTER_ROSIES = [CAIS_LEAD, (3, "yellow-13"), (0, "purple-4"), (1, "purple-2")]
DAGS_LEAD = [(3, "black-2"), (0, "black-3"), (1, "black-4"), (2, "black-5")]


def _camera_records(store: GameStore, tricks: list[list[tuple[int, str]]]) -> tuple[int, Referee]:
    """The game's tricks seen by the camera's referee and filed as ``skullcam run`` files
    them (a short one with the camera's doubt), every bid 0: the game and the referee."""
    gid = store.create_game(PLAYERS, 0, {"rounds": 3, "pirate_abilities": True})
    for round_number in (1, 2, 3):
        store.set_bids(gid, round_number, [0, 0, 0, 0])
    ref = Referee(PLAYERS, 0, Settings(rounds=3, pirate_abilities=True))
    filer = TrickFiler(store, gid)
    for trick in ROUNDS_ONE_AND_TWO + tricks:
        outcome = ref.add(seen(trick, () if len(trick) == len(PLAYERS) else (SHORT,)))
        filer.record(outcome, {"plays": outcome.plays_json(), "flags": list(outcome.flags)})
    return gid, ref


def _agree(store: GameStore, gid: int, camera: Referee) -> None:
    """The camera's referee and one taken up from the store record the game alike, with the
    store's choices of round 3."""
    taken_up = referee_from_store(store, gid)
    assert camera.record() == taken_up.record()
    assert camera.abilities[2] == taken_up.abilities[2] == store.abilities(gid, 3)


def _scored_alike(store: GameStore, gid: int) -> None:
    """Completed by the table, the game a referee taken up from the store records is the
    store's, Rosie's choice of Cai in it, and it scores as the store scores it."""
    taken_up = referee_from_store(store, gid)
    assert store.abilities(gid, 3) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 2}]
    assert taken_up.record() == store.export_record(gid)
    scored = store.score(gid)
    assert scored["ok"] and taken_up.score() == scored["score"]


def test_a_short_trick_after_rosies_leaves_her_choice_to_the_table(store: GameStore) -> None:
    """The camera missed Cai's lead of the trick after Rosie's: its first card seen is Dag's.
    The referee took Dag for Rosie's choice, where the store asks the table; the table
    answers Cai and enters her card, and the game scores."""
    short = AFTER_ROSIES[1:]
    gid, camera = _camera_records(store, [ROSIES, short, DAGS_LEAD])
    _agree(store, gid, camera)
    assert camera.abilities[2] == []
    assert ("rosie", 3, 0) in [(p.kind, p.round, p.trick) for p in store.prompts(gid)]
    assert not store.score(gid)["ok"]  # the short trick stops it until completed
    rosie = next(p for p in store.prompts(gid) if p.kind == "rosie")
    store.answer_prompt(rosie.id, 2)
    store.add_play(gid, 3, 1, *CAIS_LEAD)
    _scored_alike(store, gid)


def test_a_short_rosie_trick_reads_no_choice_until_completed(store: GameStore) -> None:
    """The camera missed Cai's card of Rosie's trick: who won it is unknown (it might have
    been the Skull King), so no choice is read. Completed by the table, her choice is read
    from Cai's lead of the whole trick after, and a referee taken up from the store has it
    in its record as the store has it in its own."""
    gid, camera = _camera_records(store, [ROSIES[:3], AFTER_ROSIES, DAGS_LEAD])
    _agree(store, gid, camera)
    assert camera.abilities[2] == []
    store.add_play(gid, 3, 0, *ROSIES[3])
    _scored_alike(store, gid)
