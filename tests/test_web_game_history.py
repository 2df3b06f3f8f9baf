"""The game's history on its tricks page: the game-level entries of the audit trail.

A referee settling a dispute the morning after reads it there. A house rule changed mid-game
(it rescores every round), a game finished by hand and a game resumed were on the audit trail
but not on the page: the history listed only the import, bids changed after play and tricks
taken back.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from store_support import hand, plays

from skullcam.store import GameStore
from skullcam.store.tricks import DEMO_MARK


def history(client: FlaskClient, gid: int, lang: str = "en") -> list[str]:
    """The lines of the game's history as a reader sees them (tags out, spaces folded)."""
    page = client.get(f"/game/{gid}/tricks?lang={lang}").get_data(as_text=True)
    listed = re.search(r'<ol class="audit" id="game-changes">(.*?)</ol>', page, re.S)
    assert listed is not None, "no game history on the page"
    items = re.findall(r"<li[^>]*>(.*?)</li>", listed[1], re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def round_one_played(store: GameStore) -> int:
    """Ana and Ben, four rounds: round 1 (one trick) played."""
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 4})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (0, "green-3")))
    return gid


def test_a_house_rule_changed_mid_game_is_in_the_games_history(
    client: FlaskClient, store: GameStore
) -> None:
    """Each settings change says which rules moved, from what to what, and where the game
    stood; a change that moved no rule's value (a default written out) is not listed."""
    gid = round_one_played(store)
    store.update_settings(gid, {"loot": True})
    store.set_bids(gid, 2, [1, 1])
    store.record_trick(gid, 2, 0, plays((0, "green-9"), (1, "green-2")))
    store.update_settings(gid, {"tie": "extra_round", "points_per_trick": 30})
    store.update_settings(gid, {"kraken_and_white_whale": False})  # its default: no change
    assert [c.kind for c in store.audit(gid)] == ["settings"] * 2  # the no change not audited
    assert history(client, gid) == [
        "House rule “Loot cards” turned on before round 2",
        "House rules changed during round 2, after trick 1: “Points per trick on an exact bid”"
        " changed from 20 to 30; “On a tie” changed from shared win to one more round",
    ]
    assert history(client, gid, "es")[0] == (
        "Regla de la casa «Cartas de Botín» activada antes de la ronda 2"
    )
    assert history(client, gid, "it")[1].startswith(
        "Regole della casa cambiate durante il round 2, dopo la presa 1: «Punti per presa"
    )
    assert history(client, gid, "da")[0] == "Husregel »Byttekort« slået til før runde 2"


def test_a_game_finished_by_hand_and_resumed_is_in_its_history(
    client: FlaskClient, store: GameStore
) -> None:
    """ "Finish game" tapped after round 1, then "Resume game": both on the history, in
    order, with where the game stood; a note sent with a change is shown. (Rounds cut to
    those played finish the game: the rule's change says so, with the rounds as they were, and
    the game's end after it, with the rounds as they are.)"""
    gid = round_one_played(store)
    store.finish_game(gid)
    store.resume_game(gid)
    store.update_settings(gid, {"rounds": 1}, note="we stop at one round")  # finishes it
    assert history(client, gid) == [
        "Game finished by hand before round 2",
        "Game reopened before round 2",
        "House rule “Number of rounds” changed from 4 to 1 before round 2 (we stop at one round)",
        "Game finished, no round left to play, after round 1",
    ]
    assert history(client, gid, "da")[:2] == [
        "Spillet afsluttet manuelt før runde 2",
        "Spillet genoptaget før runde 2",
    ]


def test_a_rule_changed_before_play_says_so(client: FlaskClient, store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {})
    store.update_settings(gid, {"pirate_abilities": True})
    assert history(client, gid) == [
        "House rule “Pirate abilities” turned on before the first trick"
    ]


def test_an_old_entry_naming_a_rule_this_version_dropped_is_worded_without_it(
    client: FlaskClient, store: GameStore
) -> None:
    """An entry written by another version (a rule since dropped, a value no longer taken)
    still leaves the page up: the rules of today that it moved are listed."""
    from skullcam.store.audit import write_audit

    gid = store.create_game(["Ana", "Ben"], 0, {})
    with store._write() as conn:
        before, after = {"old_rule": 1}, {"old_rule": 2, "loot": True, "tie": "coin"}
        write_audit(conn, gid, None, "settings", before, after, "")
    assert history(client, gid) == [
        "House rules changed before the first trick: “Loot cards” turned on;"
        " “On a tie” changed from shared win to coin"
    ]


def test_when_counts_the_tricks_as_they_stood_then(client: FlaskClient, store: GameStore) -> None:
    """Counted at their places now, the tricks gave an earlier change the wrong place: a
    trick entered by hand and taken back since was left out ("before round 2" for a change
    made after it), and a change made between a missed trick's insert and its take-back,
    with the round complete, read "during round 2, after trick 1" (the insert gone, the
    camera's trick moved back)."""
    gid = round_one_played(store)
    store.set_bids(gid, 2, [1, 1])
    store.enter_trick(gid, 2, 0, hand((0, "green-9"), (1, "green-2")))
    store.update_settings(gid, {"loot": True})
    store.remove_hand_trick(gid, 2, 0)
    assert history(client, gid)[0] == (
        "House rule “Loot cards” turned on during round 2, after trick 1"
    )
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 3})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (0, "green-3")))
    store.set_bids(gid, 2, [1, 1])
    store.record_trick(gid, 2, 0, plays((0, "green-4"), (1, "green-1")))
    store.insert_trick(gid, 2, 0, hand((0, "green-9"), (1, "green-2")))
    store.update_settings(gid, {"loot": True})
    store.remove_hand_trick(gid, 2, 0)
    assert history(client, gid)[0] == "House rule “Loot cards” turned on before round 3"


def two_rounds_played(store: GameStore, last: str = "camera") -> int:
    """Ana and Ben, two rounds, every trick recorded (round 2's last by hand where ``last``
    says so): the game finished by its last trick."""
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 2})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (0, "green-3")))
    store.set_bids(gid, 2, [1, 1])
    store.record_trick(gid, 2, 0, plays((0, "green-9"), (1, "green-2")))
    if last == "hand":
        store.enter_trick(gid, 2, 1, hand((0, "green-4"), (1, "green-1")))
    else:
        store.record_trick(gid, 2, 1, plays((0, "green-4"), (1, "green-1")))
    assert store.game(gid).status == "finished"
    return gid


def test_a_game_finished_by_its_last_trick_says_so_and_no_replacement_after(
    client: FlaskClient, store: GameStore
) -> None:
    """A referee reading the history saw no end to the game: it was not audited (only the
    live pages' events said so). The next game set up then added "Game 3 took the table:
    this game is no longer being played" to a game already over, which reads as cut short."""
    gid = two_rounds_played(store)
    newer = store.create_game(["Cai", "Dan"], 0, {})
    assert store.events_since(0, gid)[-1].payload == {"by": newer}  # its live pages are told
    assert history(client, gid) == ["Game finished by its last trick after round 2"]
    assert history(client, gid, "es") == ["Partida terminada con su última baza tras la ronda 2"]
    assert history(client, gid, "it") == [
        "Partita terminata con la sua ultima presa dopo il round 2"
    ]


def test_a_game_being_played_says_which_game_took_the_table(
    client: FlaskClient, store: GameStore
) -> None:
    """A game set aside mid-way by a new one says so, and which game took the table."""
    gid = round_one_played(store)
    newer = store.create_game(["Cai", "Dan"], 0, {})
    assert history(client, gid) == [
        f"Game {newer} took the table before round 2: this game is no longer being played",
    ]
    assert history(client, gid, "es") == [
        f"La partida {newer} ocupó la mesa antes de la ronda 2: esta ya no se está jugando",
    ]
    assert history(client, gid, "da") == [
        f"Spil {newer} overtog bordet før runde 2: dette spil spilles ikke længere"
    ]


def test_the_demo_taking_the_table_is_named_the_demo_not_by_its_number(
    client: FlaskClient, store: GameStore
) -> None:
    """The demo's games are deleted as it loops: "Game 7 took the table" named a game that
    was soon gone, and which the referee never set up."""
    gid = round_one_played(store)

    def mark(game_id: int) -> None:
        (store.game_dir(game_id) / DEMO_MARK).write_text("recorded from the demo game\n")

    demo = store.create_game(["Ana", "Ben"], 0, {}, mark)
    assert store.is_demo_game(demo)
    assert history(client, gid) == [
        "The demo took the table before round 2: this game is no longer being played"
    ]
    assert history(client, gid, "es") == [
        "La demo ocupó la mesa antes de la ronda 2: esta partida ya no se está jugando"
    ]
    assert history(client, gid, "it") == [
        "La demo ha preso il posto al tavolo prima del round 2: questa partita non si sta più"
        " giocando"
    ]
    assert history(client, gid, "da") == [
        "Demoen overtog bordet før runde 2: dette spil spilles ikke længere"
    ]
    store.delete_game(demo)  # a looping demo prunes it: the line names no missing game
    assert history(client, gid)[0].startswith("The demo took the table")


def test_a_game_reopened_by_a_trick_taken_back_says_so(
    client: FlaskClient, store: GameStore
) -> None:
    """The last trick entered by hand finished the game; taking it back reopened it: the
    history says both, the reopening where the game stood once the trick was gone."""
    gid = two_rounds_played(store, last="hand")
    store.remove_hand_trick(gid, 2, 1)
    assert store.game(gid).status == "active"
    lines = history(client, gid)
    assert lines[0] == "Game finished by its last trick after round 2"
    assert lines[1].startswith("Round 2 · Trick 2, ")
    assert lines[2:] == ["Game reopened by a trick taken back during round 2, after trick 1"]
    assert history(client, gid, "it")[2] == (
        "Partita riaperta dal ritiro di una presa durante il round 2, dopo la presa 1"
    )


def test_a_game_reopened_by_its_rules_says_why(client: FlaskClient, store: GameStore) -> None:
    """Rounds raised after the last, then a tie made to be broken by one more round: each
    reopening says why, after the rule's own line."""
    gid = two_rounds_played(store)
    store.update_settings(gid, {"rounds": 3})
    store.update_settings(gid, {"rounds": 2})  # finishes it again
    store.update_settings(gid, {"points_per_trick": 10})  # 0 all
    assert store.score(gid)["score"]["totals"][0] == store.score(gid)["score"]["totals"][1]
    store.update_settings(gid, {"tie": "extra_round"})
    assert store.game(gid).status == "active"
    assert history(client, gid) == [
        "Game finished by its last trick after round 2",
        "House rule “Number of rounds” changed from 2 to 3 after round 2",
        "Game reopened, rounds left to play, before round 3",
        "House rule “Number of rounds” changed from 3 to 2 before round 3",
        "Game finished, no round left to play, after round 2",
        "House rule “Points per trick on an exact bid” changed from 20 to 10 after round 2",
        "House rule “On a tie” changed from shared win to one more round after round 2",
        "Game reopened for one more round for a tie after round 2",
    ]
    assert history(client, gid, "da")[-1] == (
        "Spillet genåbnet til en runde mere ved uafgjort efter runde 2"
    )
