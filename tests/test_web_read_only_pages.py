"""A data folder that cannot be written (a USB stick mounted read-only) is served for viewing
and exporting, every write refused. Its pages showed the bid buttons, the hand-entry form,
Correct, New game and Import all the same, and the table learned nothing could be recorded
only from the refusal after a tap. Every page now says so once at its top, in the reader's
language, and its writing controls are hidden (``.writes``) or disabled.

Being root writes through ``chmod -w``, so the folder is made unwritable here by the store's
own test of it (``store.database.unwritable``) answering so: the store then reads a copy and
refuses every write, as on a read-only disk (``test_store_read_only`` runs it for real).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
import store_support
from flask import Flask

from skullcam.store import GameStore
from skullcam.store import database as database_module
from skullcam.web import create_app, get_store

#: What the notice starts with in each language (refusal ``read_only``, as a sentence).
NOTICE = {
    "en": "Nothing can be recorded in ",
    "es": "No se puede grabar nada en ",
    "it": "In ",
    "da": "Intet kan optages i ",
}
#: Each language's advice to copy the folder to a writable disk.
COPY_ADVICE = {
    "en": "copy the data folder to a writable disk",
    "es": "copia la carpeta de datos a un disco escribible",
    "it": "copia la cartella dei dati su un disco scrivibile",
    "da": "datamappen kopieres til en skrivbar disk",
}


def _played_game(data: Path) -> int:
    """A game with its first round's bids and one trick the camera doubted (an open question
    with Confirm and Correct), written while the folder could still be written."""
    store = GameStore(data)
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    cards = store_support.plays((1, "green-5"), (2, "green-9"), (0, "escape"))
    store.record_trick(gid, 1, 0, cards, flags=["low_confidence"])
    store.create_prompt(gid, "flagged", 1, 0)
    store.close()
    return gid


def _unwritable(monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    """The store finds ``data``'s database cannot be written, from now on."""
    monkeypatch.setattr(database_module, "unwritable", lambda folder: folder / "skullcam.db")


@pytest.fixture
def read_only_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Flask, int]:
    data = tmp_path / "data"
    gid = _played_game(data)
    _unwritable(monkeypatch, data)
    app = create_app(data, test_config={"SSE_MAX_SECONDS": 0.3, "TESTING": True})
    assert get_store(app).read_only is not None
    return app, gid


def _pages(gid: int) -> list[str]:
    return [
        "/",
        "/setup",
        "/history",
        "/tv",
        f"/game/{gid}/bids",
        f"/game/{gid}/tricks",
        f"/game/{gid}/prompts",
        f"/game/{gid}/settings",
        f"/game/{gid}/round/1/trick/0",
    ]


@pytest.mark.parametrize("lang", sorted(NOTICE))
def test_every_page_of_a_read_only_folder_says_so_once_at_its_top(
    read_only_app: tuple[Flask, int], lang: str
) -> None:
    app, gid = read_only_app
    client = app.test_client()
    folder = str(get_store(app).data_dir)
    for path in _pages(gid):
        page = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        notes = re.findall(r'<p id="read-only-note"[^>]*>([^<]*)</p>', page)
        assert len(notes) == 1, path
        said = notes[0]
        assert said.startswith(NOTICE[lang]) and folder in said, (path, said)
        assert COPY_ADVICE[lang] in said, (path, said)
        # At the top: the first thing in the page's main part.
        assert re.search(r'<main id="main"[^>]*>\s*(\{#.*?#\}\s*)?<p id="read-only-note"', page)
        assert 'data-read-only="1"' in page


def test_a_writable_folders_pages_say_nothing_of_it(client: Any, store: GameStore) -> None:
    gid = _played_game_in(store)
    for path in _pages(gid):
        page = client.get(path).get_data(as_text=True)
        assert "read-only-note" not in page and "data-read-only" not in page, path


def _played_game_in(store: GameStore) -> int:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    return gid


@pytest.mark.parametrize("lang", sorted(NOTICE))
def test_a_read_only_folders_demo_game_offers_no_new_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A game the demo recorded, seen on a folder that cannot be written: its banner said
    "Press New game to start yours" with a New game link (to a setup that cannot start one).
    It now says what the game is, with no link and no call to press one; the TV likewise."""
    from skullcam.device.demo_game import DEMO_MARK
    from skullcam.web.i18n import STRINGS

    data = tmp_path / "data"
    store = GameStore(data)

    def mark(game_id: int) -> None:
        (store.game_dir(game_id) / DEMO_MARK).write_text("recorded from the demo game\n")

    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {}, mark)
    store.close()
    _unwritable(monkeypatch, data)
    client = create_app(data, test_config={"TESTING": True}).test_client()
    said = STRINGS["demo_banner_read_only"][lang]
    for path in ["/", f"/game/{gid}/bids", f"/game/{gid}/tricks", f"/game/{gid}/settings"]:
        page = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        note = re.search(r'<p id="demo-note"[^>]*>(.*?)</p>', page)
        assert note is not None and html.unescape(note.group(1)) == said, (path, note)
    tv = client.get(f"/tv?lang={lang}").get_data(as_text=True)
    shown = re.search(r'id="tv-demo"[^>]*hidden>([^<]*)<', tv)
    assert shown is not None and html.unescape(shown.group(1)) == said


@pytest.mark.parametrize("key", ["prompt_flagged", "prompt_flagged_correct"])
def test_a_doubtful_tricks_question_has_its_read_only_wording(key: str) -> None:
    """app.js words a doubtful trick's question with ``key + "_open"`` on a folder that cannot
    be written, where no button confirms or corrects: the same doubt, with no call to act."""
    from skullcam.web.i18n import LANGUAGES, STRINGS

    open_ = STRINGS[f"{key}_open"]
    for lang in LANGUAGES:
        asked, said = STRINGS[key][lang], open_[lang]
        assert said.endswith(".") and asked.startswith(said[:-1]) and said != asked, lang
        assert set(re.findall(r"\{\w+\}", said)) == {"{round}", "{trick}"}, lang


@pytest.mark.parametrize(
    "key",
    ["prompt_tigress", "prompt_rosie", "prompt_rosie_read", "prompt_rascal_bet", "prompt_harry"],
)
def test_every_question_has_its_read_only_wording(key: str) -> None:
    """app.js says every question with ``key + "_open"`` on a folder that cannot be written
    (each kind the store asks has one): what is not recorded yet, in every language, with the
    question's names, and nothing asked ("Ana won with Rosie: who leads next?" had no button)."""
    from skullcam.store import PROMPT_KINDS
    from skullcam.web.i18n import LANGUAGES, STRINGS

    assert all(f"prompt_{kind}_open" in STRINGS for kind in PROMPT_KINDS)
    for lang in LANGUAGES:
        asked, said = STRINGS[key][lang], STRINGS[f"{key}_open"][lang]
        assert said.endswith(".") and "?" not in said and said != asked, lang
        assert set(re.findall(r"\{\w+\}", said)) == set(re.findall(r"\{\w+\}", asked)), lang
