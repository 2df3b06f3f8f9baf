"""Real-browser test of a read-only data folder's pages (see ``test_web_read_only_pages``):
what a player sees is the notice, the game, its bids and its questions, and no control that
would write: the bid buttons are disabled, and New game, Import, the hand-entry form,
Correct, Confirm, Save and the questions' answers are gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import require_browser
from store_support import plays
from test_web_read_only_pages import _played_game, _unwritable

from skullcam.store import GameStore

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def read_only_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> tuple[str, GameStore, int]:
    """The ``server`` fixture's app on a played game's folder that cannot be written."""
    gid = _played_game(tmp_path / "data")
    _unwritable(monkeypatch, tmp_path / "data")
    base, store = request.getfixturevalue("server")
    assert store.read_only is not None
    return base, store, gid


def _shown(driver: Any, css: str) -> list[bool]:
    return [el.is_displayed() for el in driver.find_elements(By.CSS_SELECTOR, css)]


def _bid_buttons(driver: Any) -> dict[str, Any]:
    """The bid buttons as drawn now, read in one go (the rows are redrawn on every event)."""
    return dict(
        driver.execute_script(
            "const all = [...document.querySelectorAll('.bid-button')];"
            "return {enabled: all.filter((b) => !b.disabled).length,"
            " lit: all.filter((b) => b.classList.contains('on'))"
            ".map((b) => b.dataset.player + ':' + b.dataset.bid)};"
        )
    )


#: The doubtful trick's question where nothing can answer it: "confirm or correct it" asked
#: for what no button there does.
DOUBT = "Round 1, trick 1 looks doubtful."


def _questions(driver: Any, container: str) -> list[str]:
    """The open questions' texts in ``container``, once drawn (from the page's state)."""
    css = f"{container} .prompt-text"
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, css))
    return [el.text for el in driver.find_elements(By.CSS_SELECTOR, css)]


def _open(driver: Any, url: str) -> None:
    driver.get(url)
    note = driver.find_element(By.ID, "read-only-note")
    assert note.is_displayed() and note.text.startswith("Nothing can be recorded in ")


def test_a_read_only_folders_pages_offer_no_change(
    read_only_server: tuple[str, GameStore, int], browser: Any
) -> None:
    base, _store, gid = read_only_server
    browser.set_window_size(412, 915)
    game = f"{base}/game/{gid}"

    _open(browser, f"{base}/")
    assert _shown(browser, "#new-game") == [False]

    _open(browser, f"{base}/history")
    assert _shown(browser, "#import-button") == [False]
    assert _shown(browser, f"#history-game-{gid}") == [True]

    _open(browser, f"{game}/bids")
    # No bid can be changed; the question reads, unanswerable.
    # Every bid button drawn is disabled; round 1 is played out, and ◀ still goes back to its
    # bids (1, 0, 0) lit, as disabled.
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".bid-button"))
    assert _bid_buttons(browser)["enabled"] == 0
    browser.find_element(By.ID, "prev-round").click()
    WebDriverWait(browser, 10).until(lambda d: _bid_buttons(d)["lit"] == ["0:1", "1:0", "2:0"])
    assert _bid_buttons(browser)["enabled"] == 0
    assert not browser.find_elements(By.ID, "unlock-bids")
    assert _shown(browser, "#enter-by-hand") in ([], [False])
    assert _questions(browser, "#prompts") == [DOUBT]
    assert not browser.find_elements(By.CSS_SELECTOR, ".prompt-answer")

    _open(browser, f"{game}/prompts")
    assert _questions(browser, "#prompts") == [DOUBT]
    assert not browser.find_elements(By.CSS_SELECTOR, ".prompt-answer")

    _open(browser, f"{game}/tv")
    assert _questions(browser, "#tv-prompts") == [DOUBT]

    _open(browser, f"{game}/tricks")
    assert _shown(browser, "#enter-trick") == [False]
    assert _shown(browser, "a[href$='export.json']") == [True]

    _open(browser, f"{game}/round/1/trick/0")
    assert _shown(browser, ".correct-button") == [False, False, False]
    assert _shown(browser, "#confirm-trick") == [False]
    assert _shown(browser, "#plays") == [True]

    _open(browser, f"{game}/settings")
    assert _shown(browser, "#save-settings") == [False]
    assert _shown(browser, "#finish-game") == [False]
    fields = browser.find_elements(By.CSS_SELECTOR, "[data-setting]")
    assert fields and not any(f.is_enabled() for f in fields)

    _open(browser, f"{base}/setup")
    assert _shown(browser, "#start-game") == [False]


def _every_question_and_no_camera(data: Path) -> int:
    """A game with one open question of each kind (a doubtful trick, the Tigress, Rascal's bet,
    Harry's change, Rosie's choice asked, and Rosie's choice read from the next lead), played
    by a run that found no camera (its notice said to enter the tricks by hand)."""
    store = GameStore(data)
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    for kind, player in (("flagged", None), ("tigress", 2), ("rascal_bet", 0), ("harry", 1)):
        store.create_prompt(gid, kind, 1, 0, player)
    store.create_prompt(gid, "rosie", 1, None, 0)
    store.set_bids(gid, 2, [1, 1, 0])
    store.record_trick(gid, 2, 0, plays((2, "pirate-rosie"), (0, "green-2"), (1, "green-3")))
    store.record_trick(gid, 2, 1, plays((1, "green-4"), (2, "green-6"), (0, "green-7")))
    store.set_camera_missing(True, "no_camera")
    store.close()
    return gid


#: Each question as a folder that cannot be written says it: what is not recorded yet.
OPEN_QUESTIONS = sorted(
    [
        DOUBT,
        "Cai: Tigress as pirate or escape is not recorded yet.",
        "Ana won with Rascal: the bet (0, 10 or 20) is not recorded yet.",
        "Ben won with Harry: the bid's change (−1, 0 or +1) is not recorded yet.",
        "Ana won with Rosie: who leads next is not recorded yet.",
        "Cai won with Rosie, and Ben led the next trick.",
    ]
)


def test_a_read_only_folders_questions_and_camera_say_what_is_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, browser: Any
) -> None:
    """Rosie's, the Tigress's, Rascal's and Harry's questions were asked with no button to
    answer them, and the no-camera notice the run before left said to enter the tricks by
    hand, which cannot be done there."""
    gid = _every_question_and_no_camera(tmp_path / "data")
    _unwritable(monkeypatch, tmp_path / "data")
    base, _store = request.getfixturevalue("server")
    browser.set_window_size(412, 915)
    game = f"{base}/game/{gid}"

    pages = (
        ("bids", "#prompts", "#no-camera, #camera-how"),
        ("prompts", "#prompts", None),
        ("tv", "#tv-prompts", "#tv-no-camera"),
    )
    for page, container, camera in pages:
        _open(browser, f"{game}/{page}")
        # Drawn all at once, from the page's state: waiting for one is waiting for all.
        assert sorted(_questions(browser, container)) == OPEN_QUESTIONS, page
        assert not browser.find_elements(By.CSS_SELECTOR, ".prompt-answer")
        if camera is not None:
            notices = _shown(browser, camera)
            assert notices and not any(notices), (page, notices)
