"""Real-browser test of the phone's bids page when the server refuses a change: the player
reads the server's reason, and the page goes back to the bids the server holds.

Here the store's ``set_bid`` refuses every change, so the test does not depend on which
refusals the store makes.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import store_support
from browser_support import require_browser, stream_open

from skullcam.errors import UserError
from skullcam.store import GameStore

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

REFUSAL = "Ana's bid in round 1 cannot be changed: the game is being checked"


def wait(driver: Any) -> WebDriverWait:
    """Rows re-render on every event (and when the stream opens): retry stale lookups."""
    return WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException])


def click(driver: Any, css: str) -> None:
    """Click ``css``, finding it afresh if a re-render replaced it in between."""

    def attempt(d: Any) -> bool:
        d.find_element(By.CSS_SELECTOR, css).click()
        return True

    wait(driver).until(attempt)


def test_refused_bid_change_shows_the_servers_reason(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"scoring": "rascal"})
    store.set_bids(gid, 1, [1, 0, 0])

    calls: list[tuple[Any, ...]] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        calls.append(args)
        raise UserError(REFUSAL)

    store.set_bid = store.set_cannonball = refuse  # type: ignore[method-assign]
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    lit = '.bid-button[data-player="0"][data-bid="1"]'
    wait(browser).until(stream_open)

    # A second tap on the lit button sends nothing: it used to clear the bid without a word.
    click(browser, lit)
    # Tapping Ana's 0 asks to change her bid; the server says no, and why.
    click(browser, '.bid-button[data-player="0"][data-bid="0"]')
    wait(browser).until(lambda d: d.find_element(By.ID, "form-error").text == REFUSAL)
    assert browser.find_element(By.ID, "toast").text == REFUSAL
    # The refusal is read across the screen, not wrapped into half its width over the rows.
    width = browser.execute_script(
        "const r = document.getElementById('toast').getBoundingClientRect();"
        "return [r.left, r.right, r.width, window.innerWidth];"
    )
    assert width[0] >= 0 and width[1] <= width[3] and width[2] > width[3] / 2, width
    wait(browser).until(
        lambda d: "on" in d.find_element(By.CSS_SELECTOR, lit).get_attribute("class").split()
    )
    assert store.bids(gid, 1) == [1, 0, 0] and calls == [(gid, 1, 0, 0, None)]

    # A refused cannonball tick is undone on the page, not left looking accepted.
    box = '.bid-row[data-player="1"] .cannon input'
    click(browser, box)  # the error toast lets taps through to the rows under it
    wait(browser).until(lambda d: len(calls) == 2)
    assert calls[1] == (gid, 1, 1, True)  # the call alone, not Ben's bid as the page saw it
    wait(browser).until(lambda d: not d.find_element(By.CSS_SELECTOR, box).is_selected())
    assert browser.find_element(By.ID, "form-error").text == REFUSAL
    assert store.cannonball(gid, 1) is None


def test_tie_break_round_offers_the_cards_the_server_deals(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A tie-break round is dealt as the last round: the page once counted round 2 of a
    one-round game as 2 cards, offered a bid of 2 and then showed the server's refusal."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"rounds": 1, "tie": "extra_round"})
    store.set_bids(gid, 1, [0, 0, 0])
    plays = [(1, "green-2"), (2, "skull-king"), (0, "green-3")]
    store.record_trick(gid, 1, 0, [{"player": p, "card": c, "confidence": 0.9} for p, c in plays])
    # Cai took the trick on a bid of 0: Ana and Ben tie at 10 points, so round 2 is due.
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(lambda d: "Round 2" in d.find_element(By.ID, "round-title").text)
    assert "1 card dealt" in browser.find_element(By.ID, "round-title").text
    bids = browser.find_elements(By.CSS_SELECTOR, '.bid-button[data-player="0"]')
    assert [b.text for b in bids] == ["0", "1"]

    # Looking back at round 1 shows its own count, from the server too.
    click(browser, "#prev-round")
    wait(browser).until(lambda d: "Round 1" in d.find_element(By.ID, "round-title").text)
    assert "1 card dealt" in browser.find_element(By.ID, "round-title").text


def test_a_right_to_left_name_keeps_its_own_number(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """In "Total: Ana 10 · عليّ 10 · Ben 20" the browser drew the number after the Arabic name
    before it; the name is now set apart (first-strong isolate), a Latin one left as it is."""
    base, store = server
    gid = store.create_game(["Ana", "عليّ", "Ben"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    plays = [(1, "green-9"), (2, "green-2"), (0, "green-3")]
    store.record_trick(gid, 1, 0, [{"player": p, "card": c, "confidence": 0.9} for p, c in plays])
    browser.get(f"{base}/game/{gid}/bids")
    totals = "return document.getElementById('bid-totals').textContent"
    wait(browser).until(lambda d: d.execute_script(totals))
    # A name and its score are not split over two lines ("Anne-Sophie" / "50").
    expected = "Total: Ana\u00a010 · \u2068عليّ\u2069\u00a020 · Ben\u00a010"
    assert browser.execute_script(totals) == expected


def test_a_ticked_cannonball_box_stays_ticked_with_the_live_stream_down(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The page drew the box again from its own last state, not from the server's answer: a
    phone whose live stream was down showed the call it had just made as not made."""
    from selenium.webdriver.support import expected_conditions

    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"scoring": "rascal"})
    store.set_bids(gid, 1, [1, 0, 0])
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(stream_open)
    browser.execute_script("SK_STREAM.close()")
    box = '.bid-row[data-player="1"] .cannon input'
    drawn = browser.find_element(By.CSS_SELECTOR, box)
    drawn.click()
    wait(browser).until(expected_conditions.staleness_of(drawn))  # drawn again: answered
    assert store.cannonball(gid, 1) == [False, True, False]
    assert browser.find_element(By.CSS_SELECTOR, box).is_selected()


def test_an_earlier_rounds_cannonball_call_is_shown_and_put_right_from_its_round(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """◀ to an earlier round showed its bids but no cannonball box: a call set wrong there
    could be put right only through the API."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"scoring": "rascal"})
    store.set_bids(gid, 1, [1, 0, 0])
    store.set_cannonball(gid, 1, 2, True)  # Cai's call, made by mistake
    plays = [(1, "green-9"), (2, "green-2"), (0, "green-3")]
    store.record_trick(gid, 1, 0, [{"player": p, "card": c, "confidence": 0.9} for p, c in plays])
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(lambda d: "Round 2" in d.find_element(By.ID, "round-title").text)
    click(browser, "#prev-round")
    wait(browser).until(lambda d: "Round 1" in d.find_element(By.ID, "round-title").text)
    box = '.bid-row[data-player="2"] .cannon input'
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, box).is_selected())
    browser.find_element(By.CSS_SELECTOR, box).click()
    wait(browser).until(lambda d: store.cannonball(gid, 1) == [False, False, False])
    assert store.bids(gid, 1) == [1, 0, 0]  # the call alone changed
    assert "Round 1" in browser.find_element(By.ID, "round-title").text


def test_the_tv_shows_who_called_a_cannonball(server: tuple[str, GameStore], browser: Any) -> None:
    """A call changes what a bid is worth, and the TV's bid column did not show it."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"scoring": "rascal"})
    store.set_bids(gid, 1, [1, 0, 0])
    store.set_cannonball(gid, 1, 1, True)
    browser.get(f"{base}/tv")
    row = '#tv-table tr[data-player="{}"] td.bid'
    wait(browser).until(
        lambda d: "Cannonball" in d.find_element(By.CSS_SELECTOR, row.format(1)).text
    )
    # Read in one script: the TV may draw its table again between finding a row and reading it.
    ana = browser.execute_script(
        "return document.querySelector(arguments[0]).innerText", row.format(0)
    )
    assert "Cannonball" not in ana


_WATCH = """
window.SK_MUTATIONS = {total: 0, missing: 0, prompts: 0};
const what = {childList: true, subtree: true, characterData: true, attributes: true};
const ids = {total: "bid-total", missing: "bids-missing", prompts: "prompts"};
for (const [key, id] of Object.entries(ids)) {
  new MutationObserver((seen) => { SK_MUTATIONS[key] += seen.length; })
    .observe(document.getElementById(id), what);
}
"""


def _accessible_names(driver: Any, role: str) -> list[str]:
    """The names Chrome's accessibility tree gives every node of ``role``."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    return [
        n.get("name", {}).get("value", "")
        for n in tree
        if n.get("role", {}).get("value") == role and not n.get("ignored")
    ]


def test_bid_buttons_say_whose_bid_and_the_live_regions_speak_only_of_changes(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was (accessibility review): a screen reader heard 24 buttons "0, 1, 2, 3, 0, 1, ..."
    with nothing saying whose bid each sets; and every event of the game (a setting, another
    phone's bid) rewrote the bids total, the forgotten-bid alert and the open questions, so the
    reader said them all again."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, None])
    leader = store.state(gid)["leader"]
    live = [{"player": leader, "card": "tigress", "confidence": 0.9}]
    store.set_live(gid, 1, 0, live, winner=leader, leader=leader)  # play started: Cai forgot
    store.create_prompt(gid, "tigress", 1, 0, player=leader)
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(stream_open)
    wait(browser).until(lambda d: d.find_element(By.ID, "bids-missing").is_displayed())
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#prompts .prompt"))
    names = _accessible_names(browser, "button")
    assert {"Bid 0 · Ana", "Bid 1 · Ana", "Bid 0 · Ben", "Bid 1 · Cai"} <= set(names), names
    assert {"Ana", "Ben", "Cai"} <= set(_accessible_names(browser, "group"))
    assert browser.find_element(By.ID, "prompts").get_attribute("aria-live") == "polite"
    assert browser.find_element(By.ID, "bids-missing").get_attribute("role") == "status"

    def caught_up(d: Any) -> bool:
        return bool(d.execute_script("return window.SK_LAST_EVENT || 0") >= last)

    # An event that changes none of them leaves them alone.
    browser.execute_script(_WATCH)
    store.update_settings(gid, {"points_per_trick": 15})
    last = store.state(gid)["last_event_id"]
    wait(browser).until(caught_up)
    time.sleep(0.5)  # the page's refresh after that event
    assert browser.execute_script("return SK_MUTATIONS") == {"total": 0, "missing": 0, "prompts": 0}
    # Another phone changes Ben's bid: the number changes, the rest of the line is not rewritten.
    browser.execute_script("window.SK_LABEL = document.getElementById('bid-total-label')")
    store.set_bids(gid, 1, [1, 1, None])
    wait(browser).until(lambda d: d.find_element(By.ID, "bid-total-number").text == "2")
    assert browser.execute_script("return document.getElementById('bid-total-label') === SK_LABEL")
    seen = browser.execute_script("return SK_MUTATIONS")
    assert seen["missing"] == 0 and seen["prompts"] == 0, seen

    # A new question is drawn (and so said) at once.
    store.create_prompt(gid, "harry", 1, 0, player=0)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#prompts .prompt")) == 2)
    group = browser.find_elements(By.CSS_SELECTOR, "#prompts .prompt")[1]
    assert group.get_attribute("role") == "group"
    text_id = group.get_attribute("aria-labelledby")
    assert (
        browser.find_element(By.ID, text_id).text
        == group.find_element(By.CSS_SELECTOR, ".prompt-text").text
    )


def test_the_bids_total_says_over_or_under_in_words_once_every_bid_is_in(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was (accessibility review): over- and under-bid were told by the number's colour alone."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 1, None])
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")

    def label_ends(text: str) -> Any:
        return lambda d: d.find_element(By.ID, "bid-total-label").text.endswith(text)

    wait(browser).until(label_ends("tricks available · 1 still to bid"))
    for bids, words in [([1, 1, 0], "· 1 over"), ([0, 0, 0], "· 1 under")]:
        store.set_bids(gid, 1, bids)
        wait(browser).until(label_ends(words))
    store.set_bids(gid, 1, [0, 1, 0])
    wait(browser).until(label_ends("· as many as the tricks"))


def test_the_first_tab_offers_a_skip_past_the_nav_to_the_page(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was (accessibility review): a keyboard went through the nav's eleven links on every
    page before reaching a bid button."""
    from selenium.webdriver.common.keys import Keys

    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    skip = browser.find_element(By.CSS_SELECTOR, "a.skip-link")
    assert skip.rect["y"] < 0  # out of sight until the keyboard reaches it
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    assert browser.execute_script("return document.activeElement.className") == "skip-link"
    assert skip.text == "Skip to the page" and skip.rect["y"] >= 0
    skip.send_keys(Keys.ENTER)
    wait(browser).until(lambda d: d.execute_script("return document.activeElement.id") == "main")
    browser.switch_to.active_element.send_keys(Keys.TAB)
    focused = browser.execute_script("return document.activeElement.className")
    assert "bid-button" in focused, focused  # the page's first control, not the nav's


def test_a_doubtful_tricks_question_shows_its_reason_on_the_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    flag = "green-9 read with low confidence (0.41)"
    trick = [{"player": 1, "card": "green-5"}, {"player": 2, "card": "green-9"}]
    store.record_trick(gid, 1, 0, [*trick, {"player": 0, "card": "escape"}], flags=[flag])
    store.create_prompt(gid, "flagged", 1, 0, payload={"flags": [flag]})
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#prompts .prompt-why"))
    why = browser.find_element(By.CSS_SELECTOR, "#prompts .prompt-why").text
    assert why == "⚠ Parrot 9 read with low confidence (0.41)"
    # A doubt the camera adds while the question is open is drawn too (it stayed stale).
    store.correct_play(gid, 1, 0, 0, card="green-6", by_hand=False, flag="swapped meanwhile")
    wait(browser).until(
        lambda d: "swapped meanwhile" in d.find_element(By.CSS_SELECTOR, ".prompt-why").text
    )
    # The TV, which cannot scroll, asks without the reasons: they pushed the scores off it.
    browser.get(f"{base}/game/{gid}/tv")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tv-prompts .prompt"))
    assert not browser.find_elements(By.CSS_SELECTOR, "#tv-prompts .prompt-why")


_NAV_AND_BID = """
const box = (e) => e.getBoundingClientRect();
const links = [...document.querySelectorAll('nav.topnav a')];
return {
  nav: box(document.querySelector('nav.topnav')).height,
  tops: [...new Set(links.map((a) => Math.round(box(a).top)))],
  heights: links.map((a) => box(a).height),
  shown: ['#round-title', '.bid-name', '.bid-button'].map((css) => {
    const r = box(document.querySelector(css));
    return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }),
  reachable: links.map((a) => {
    a.scrollIntoView({inline: 'nearest', block: 'nearest'});
    const r = box(a);
    return r.left >= 0 && r.right <= innerWidth + 0.5;
  }),
  page: document.documentElement.scrollWidth <= innerWidth,
};
"""


@pytest.mark.parametrize("camera", ["frozen", "none"])
@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_small_phone_shows_the_round_a_name_and_its_bids_without_scrolling(
    server: tuple[str, GameStore], browser: Any, lang: str, camera: str
) -> None:
    """At 360x640 the nav wrapped to three rows (157 px): with the camera's notice above the
    bids, the first bid button was below the fold. The nav is now one row that scrolls
    sideways, every link still reachable and 44 px tall. Spanish and Italian: the longest.
    With no camera at all the notice and the "enter by hand" button above the bids still
    pushed the first bid button to 647-755 px: the notice is short now, and the restart
    advice for whoever started skullcam is folded under the bids."""
    base, store = server
    gid = store.create_game(["Maximiliana", "Bartholomew", "Cai", "Hanne-Marie"], 0, {})
    if camera == "none":
        store.set_camera_missing(True)
    else:
        store.set_camera_notice({"why": camera})
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        browser.get(f"{base}/game/{gid}/bids?lang={lang}")
        wait(browser).until(lambda d: d.find_element(By.ID, "no-camera").is_displayed())
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".bid-button"))
        seen = browser.execute_script(_NAV_AND_BID)
        assert len(seen["tops"]) == 1 and seen["nav"] < 60, seen
        assert min(seen["heights"]) >= 44, seen
        assert seen["shown"] == [True, True, True], seen
        assert all(seen["reachable"]) and seen["page"], seen
        how = browser.find_element(By.ID, "camera-how")
        assert how.is_displayed() == (camera == "none")
        if camera == "none":
            assert "--camera" in how.get_attribute("textContent")
            assert "--camera" not in browser.find_element(By.ID, "no-camera").text
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_IN_VIEW = """
const r = document.querySelector(arguments[0]).getBoundingClientRect();
return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
"""

SEVEN = ["Ana", "Bartolomeo", "Cai", "Dag", "Eve", "Massimiliano Bartolomei", "Gus"]


def _record_round(store: GameStore, gid: int, cards: list[str]) -> None:
    """The round being played's tricks, 7 cards each from ``cards``, led as the rules say."""
    for start in range(0, len(cards), 7):
        state = store.state(gid)
        order = [(state["leader"] + i) % 7 for i in range(7)]
        trick = cards[start : start + 7]
        played = store_support.plays(*zip(order, trick, strict=True))
        store.record_trick(gid, state["round"], state["next_trick"], played)


@pytest.mark.parametrize(
    ("lang", "missing", "said", "go"),
    [
        ("it", list(range(7)), "Il round 2 non ha puntate: i punti si fermano", "Vai al round 2"),
        ("en", [5], "Round 2 has no bid from Massimiliano Bartolomei: scores", "Go to round 2"),
    ],
)
def test_an_earlier_rounds_missing_bids_are_said_at_the_top_of_a_small_phone(
    server: tuple[str, GameStore],
    browser: Any,
    lang: str,
    missing: list[int],
    said: str,
    go: str,
) -> None:
    """A game night (7 players, 10 rounds): round 2 played without its bids, and why the
    scores stopped was said under all seven players' bid buttons, 1,200 px down a 360x640
    phone on round 3, which never saw it. It is said at the top now, short, above the first
    player's bid buttons, with a button to round 2, where the bids are entered."""
    base, store = server
    gid = store.create_game(SEVEN, 2, {"rounds": 10})
    deck = [f"{s}-{r}" for r in range(13, 0, -1) for s in ("purple", "green", "yellow")]
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0])
    _record_round(store, gid, deck[:7])
    store.set_bids(gid, 2, [None if p in missing else 0 for p in range(7)])
    _record_round(store, gid, deck[7:21])
    store.set_bids(gid, 3, [1, 0, 0, 1, 0, 0, 1])
    _record_round(store, gid, deck[:7])  # round 3's first trick: the table plays on
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        browser.get(f"{base}/game/{gid}/bids?lang={lang}")
        wait(browser).until(lambda d: d.find_element(By.ID, "score-stop").is_displayed())
        assert said in browser.find_element(By.ID, "score-stop-text").text
        assert browser.find_element(By.ID, "score-stop-go").text == go
        for css in ("#score-stop", "#score-stop-go", ".bid-button"):
            assert browser.execute_script(_IN_VIEW, css), css
        # Said once: not again under the bids, in the long form.
        assert browser.find_element(By.ID, "score-error").text == ""
        click(browser, "#score-stop-go")
        wait(browser).until(lambda d: "Round 2" in d.find_element(By.ID, "round-title").text)
        assert not browser.find_element(By.ID, "score-stop-go").is_displayed()
        for p in missing:
            click(browser, f'.bid-button[data-player="{p}"][data-bid="0"]')
        wait(browser).until(lambda d: None not in store.bids(gid, 2))
        wait(browser).until(lambda d: not d.find_element(By.ID, "score-stop").is_displayed())
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
