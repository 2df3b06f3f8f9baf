"""The pages by keyboard and screen reader, in headless chromium (see ``browser_support``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import require_browser, stream_open
from store_support import plays

from skullcam.store import GameStore

if TYPE_CHECKING:
    from flask import Flask

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FOCUSED = "const e = document.activeElement; return [e.className, e.dataset.player, e.dataset.bid];"
"""The focused element, as (class, player, bid): read in one script call, since the bid rows
are redrawn on every event of the game."""


def _tab_to(browser: Any, player: str, bid: str) -> None:
    """Tab from the top of the page to ``player``'s button for ``bid``: the keyboard alone
    reaches it."""
    for _ in range(80):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        if browser.execute_script(FOCUSED)[1:] == [player, bid]:
            return
    raise AssertionError(f"Tab never reached player {player}'s bid {bid}")


def test_a_bid_set_by_keyboard_keeps_the_focus_and_is_announced(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids?lang=es")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".bid-button"))
    _tab_to(browser, "1", "1")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    WebDriverWait(browser, 20).until(lambda d: store.bids(gid, 1)[1] == 1)
    # The redrawn row gives the focus back to the button pressed, lit: the player goes on from
    # there, not from the top of the page.
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script(FOCUSED) == ["bid-button on", "1", "1"]
    )
    # Said, in the page's language, by a polite live region.
    saved = browser.find_element(By.ID, "bid-saved")
    assert saved.get_attribute("role") == "status"
    WebDriverWait(browser, 20).until(lambda d: saved.text or saved.get_attribute("textContent"))
    assert saved.get_attribute("textContent") == "Apuesta guardada: Ben, 1"
    # Another phone's bid redraws the rows too: the focus stays where it was.
    store.set_bids(gid, 1, [0, 1, None])
    WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '.bid-button.on[data-player="0"]')
    )
    assert browser.execute_script(FOCUSED) == ["bid-button on", "1", "1"]
    # Round 1 deals one card (bids 0 and 1): the next Tab goes on to Cai's first button.
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.execute_script(FOCUSED) == ["bid-button", "2", "0"]


def _click(browser: Any, css: str) -> None:
    """Click ``css``, found afresh if a redraw of the rows replaced it in between."""

    def clicked(d: Any) -> bool:
        d.find_element(By.CSS_SELECTOR, css).click()
        return True

    WebDriverWait(browser, 20, ignored_exceptions=[StaleElementReferenceException]).until(clicked)


def test_a_bid_saved_again_is_announced_again(server: tuple[str, GameStore], browser: Any) -> None:
    """Ana's bid set to 1, changed to 0 by another phone, and set back to 1 here: the live
    region's text was the same "Bid saved: Ana, 1" as before, written over itself, so a
    screen reader said nothing the second time."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.get(f"{base}/game/{gid}/bids")
    WebDriverWait(browser, 20).until(stream_open)
    one = '.bid-button[data-player="0"][data-bid="1"]'
    _click(browser, one)
    saved = browser.find_element(By.ID, "bid-saved")
    WebDriverWait(browser, 20).until(lambda d: saved.get_attribute("textContent"))
    first = saved.get_attribute("textContent")
    assert first == "Bid saved: Ana, 1"
    store.set_bid(gid, 1, 0, 0)  # another phone
    WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '.bid-button.on[data-player="0"][data-bid="0"]')
    )
    _click(browser, one)
    WebDriverWait(browser, 20).until(lambda d: saved.get_attribute("textContent") != first)
    again = saved.get_attribute("textContent")
    assert again.strip() == first and store.bids(gid, 1)[0] == 1
    # A third save of it is said too: the text goes back to the first one.
    store.set_bid(gid, 1, 0, 0)
    WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '.bid-button.on[data-player="0"][data-bid="0"]')
    )
    _click(browser, one)
    WebDriverWait(browser, 20).until(lambda d: saved.get_attribute("textContent") == first)


def _lit(player: int, bid: int) -> Callable[[Any], bool]:
    """A wait condition: ``player``'s button for ``bid`` is drawn lit."""
    css = f'.bid-button.on[data-player="{player}"][data-bid="{bid}"]'
    return lambda browser: bool(browser.find_elements(By.CSS_SELECTOR, css))


def _pin_dialog_open(browser: Any) -> bool:
    return browser.find_element(By.ID, "pin-dialog").get_attribute("open") is not None


def test_the_focus_comes_back_to_the_bid_after_the_pin_dialog(
    app_server: tuple[str, Flask], browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone's first bid asks for the PIN; another phone's bid, while the dialog was open,
    redrew the rows and took the pressed button away, so the focus went back to nowhere (the
    page's top) when the dialog closed. It goes to the same button, drawn again."""
    import skullcam.table_pin
    from skullcam.web import get_store

    # The browser runs on this machine: let its requests count as a phone's on the Wi-Fi.
    monkeypatch.setattr(skullcam.table_pin, "from_this_machine", lambda *_: False)
    base, app = app_server
    app.config.update(PIN="4821", PIN_REQUIRED=True)
    store = get_store(app)
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.get(f"{base}/game/{gid}/bids")
    WebDriverWait(browser, 20).until(stream_open)
    browser.get(f"{base}/game/{gid}/bids")
    WebDriverWait(browser, 20).until(stream_open)
    _tab_to(browser, "1", "1")
    # Escape closed the dialog without settling the tap: the same tap again did nothing.
    for n, answer in enumerate((Keys.ESCAPE, "cancel", Keys.ESCAPE, "4821" + Keys.ENTER)):
        ActionChains(browser).send_keys(Keys.ENTER).perform()  # Ben's 1, from the keyboard
        WebDriverWait(browser, 20).until(lambda d: _pin_dialog_open(d))
        store.set_bid(gid, 1, 0, n % 2)  # another phone: the rows are drawn again
        WebDriverWait(browser, 20).until(_lit(player=0, bid=n % 2))
        if answer == "cancel":
            browser.find_element(By.ID, "pin-cancel").click()
        else:
            browser.find_element(By.ID, "pin-input").send_keys(answer)
        WebDriverWait(browser, 20).until(lambda d: not _pin_dialog_open(d))
        WebDriverWait(browser, 20).until(lambda d: d.execute_script(FOCUSED)[1:] == ["1", "1"])
    WebDriverWait(browser, 20).until(lambda d: store.bids(gid, 1)[1] == 1)
    assert store.bids(gid, 1) == [1, 1, None]


_WATCH = """
window.SK_WRITES = {"score-error": 0, "round-title": 0};
for (const id of Object.keys(SK_WRITES)) {
  new MutationObserver((seen) => { SK_WRITES[id] += seen.length; }).observe(
    document.getElementById(id), {childList: true, subtree: true, characterData: true});
}
"""
"""Counts the writes into the score's error and the round's title (written on every redraw)."""


def test_a_score_stopped_while_the_phone_looks_is_said_once(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.set_bids(gid, 2, [1, 1, 0])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-9"), (1, "green-2")))
    browser.get(f"{base}/game/{gid}/bids?lang=it")
    WebDriverWait(browser, 20).until(stream_open)
    error = browser.find_element(By.ID, "score-error")
    assert error.get_attribute("role") == "status"
    # The camera reads a card already played: the score stops, and the phone says why.
    store.record_trick(gid, 2, 1, plays((0, "green-9"), (1, "yellow-7"), (2, "yellow-1")))
    WebDriverWait(browser, 20).until(lambda d: "Pappagallo 9" in error.get_attribute("textContent"))
    # A later event of the game redraws the page: the same reason is not written (said) again.
    browser.execute_script(_WATCH)
    store.update_settings(gid, {"fourteen_bonus": 15})
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return SK_WRITES['round-title']"))
    assert browser.execute_script("return SK_WRITES['score-error']") == 0


CONTROLS = {"button", "textbox", "spinbutton", "checkbox", "combobox", "searchbox", "link"}
"""The accessibility tree's roles of what a player presses, types in or picks from."""


def _unnamed_controls(driver: Any) -> list[str]:
    """The controls in Chrome's accessibility tree (what a screen reader reaches: nothing
    hidden) that have no name."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    return [
        n["role"]["value"] + " " + str(n.get("backendDOMNodeId"))
        for n in tree
        if n.get("role", {}).get("value") in CONTROLS
        and not n.get("ignored")
        and not n.get("name", {}).get("value", "").strip()
    ]


def _loaded(driver: Any) -> bool:
    """A wait condition: the page and its script have run (app.js draws at load)."""
    return bool(driver.execute_script("return document.readyState === 'complete'"))


def test_every_page_says_its_language_and_names_every_control(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    pages = ["/", "/setup", "/history", f"/game/{gid}/bids", f"/game/{gid}/tricks"]
    pages += [f"/game/{gid}/settings", f"/game/{gid}/round/1/trick/0", "/tv"]
    browser.set_window_size(412, 915)
    for lang in ("en", "es", "it", "da"):
        for page in pages:
            browser.get(f"{base}{page}?lang={lang}")
            WebDriverWait(browser, 20).until(_loaded)
            # The setup's house rules are folded: opened, so their fields are checked too.
            browser.execute_script(
                "document.querySelectorAll('details').forEach(d => d.open = true)"
            )
            assert browser.execute_script("return document.documentElement.lang") == lang, page
            assert _unnamed_controls(browser) == [], (lang, page)


def test_a_round_button_that_runs_out_hands_the_focus_to_the_other(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    browser.get(f"{base}/game/{gid}/bids?lang=da")
    WebDriverWait(browser, 20).until(_loaded)
    browser.execute_script("document.getElementById('prev-round').focus()")
    # Round 2 back to round 1: ◀ is done, and the focus goes on to ▶, not to the page's top.
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    title = browser.find_element(By.ID, "round-title")
    WebDriverWait(browser, 20).until(lambda d: title.text.startswith("Runde 1 "))
    assert browser.execute_script("return document.activeElement.id") == "next-round"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    WebDriverWait(browser, 20).until(lambda d: title.text.startswith("Runde 2 "))
    assert browser.execute_script("return document.activeElement.id") == "prev-round"


def _press(browser: Any, element_id: str) -> None:
    """Focus ``element_id`` and press Enter on it, as a keyboard user does."""
    browser.execute_script(f"document.getElementById('{element_id}').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()


def test_go_to_round_hands_the_focus_to_the_first_bid_still_to_enter(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """ "Go to round N" hides itself once the page is there, and the focus fell to the page's
    top: it goes to the first bid button of the first player without a bid in that round."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, None, 0])  # round 1 played without Ben's bid: the score stops
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.set_bids(gid, 2, [1, 0, None])
    browser.get(f"{base}/game/{gid}/bids?lang=it")
    title = browser.find_element(By.ID, "round-title")
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "score-stop-go").is_displayed()
    )
    _press(browser, "score-stop-go")
    WebDriverWait(browser, 20).until(lambda d: title.text.startswith("Round 1 "))
    assert browser.execute_script(FOCUSED) == ["bid-button", "1", "0"]
    # Round 1 is behind the game: its line's button goes back to round 2, to Cai's bid.
    _press(browser, "round-moved-on-go")
    WebDriverWait(browser, 20).until(lambda d: title.text.startswith("Round 2 "))
    assert browser.execute_script(FOCUSED) == ["bid-button", "2", "0"]
