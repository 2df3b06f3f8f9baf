"""Real-browser test: headless Debian chromium drives the app served by waitress.

Set up a game on a phone-sized screen, enter bids, push tricks the way the recorder does
(through the store), watch the TV update live over server-sent events, open the replay,
correct a card and see the score change. Screenshots go to docs/img/ (tv.png, replay.png,
bids.png) when SKULLCAM_SCREENSHOTS=1, else to the test's temporary folder.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import require_browser, stream_open
from repo_paths import DOCS
from store_support import BO_LEADS_AFTER_ROSIE, plays, rosie_wins_round_2, spec_example
from test_camera_refile import filed_and_moved_by_the_camera
from web_support import game_with_round_2_led_by_the_read_winner

from skullcam.store import GameStore

if TYPE_CHECKING:
    from flask import Flask

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

DECK = [f"{s}-{r}" for r in range(13, 0, -1) for s in ("purple", "green", "yellow")]

DOCS_IMG = DOCS / "img"

SEVEN_NAMES = ["Ana", "Bartolomeo", "Cai", "Dag", "Eve", "Massimiliano Bartolomei", "Gus"]
"""A game night's seven players: two long names among them."""

MINUS = "\u2212"
"""The sign of a negative number on every page (the exports keep ASCII "-")."""


def shot_dir(tmp_path: Path) -> Path:
    if os.environ.get("SKULLCAM_SCREENSHOTS") == "1":
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        return DOCS_IMG
    return tmp_path


SEATS = [(270, 330), (60, 170), (270, 20), (480, 170)]
"""Where ``fake_frame`` lays the cards (top-left corners): one at each side of the table."""


def fake_frame(
    path: Path, cards: list[str], spots: list[tuple[int, int]] = SEATS
) -> dict[str, Any]:
    """A 640x480 'table' with the trick's cards drawn as labelled rectangles at ``spots``."""
    import cv2
    import numpy as np

    image = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    dets = []
    for i, card in enumerate(cards):
        x, y = spots[i % len(spots)]
        cv2.rectangle(image, (x, y), (x + 92, y + 134), (235, 235, 230), -1)
        cv2.putText(image, card.split(":")[0][:10], (x + 4, y + 70), 0, 0.45, (20, 20, 20), 1)
        dets.append({"card": card, "confidence": 0.97 - 0.1 * i, "box": [x, y, x + 92, y + 134]})
    cv2.imwrite(str(path), image)
    return {"image_size": [640, 480], "cards": dets}


@contextmanager
def _screen(browser: Any, width: int, height: int, mobile: bool = False) -> Iterator[None]:
    """The page's viewport set to a screen's size (a phone's with ``mobile``), put back after."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _open_on_a_screen(
    browser: Any, url: str, width: int, height: int, mobile: bool = False
) -> None:
    """``url`` on a width x height screen (a phone's with ``mobile``), in a window 120 px
    taller for the browser's own bars. The screen stays set until the caller clears it."""
    browser.set_window_size(width, height + 120)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    browser.get(url)


def play_trick(
    store: GameStore,
    gid: int,
    cards: list[str],
    image_dir: Path | None = None,
    spots: list[tuple[int, int]] = SEATS,
) -> None:
    """Record the next trick the way the recorder does: live updates, then the completed trick."""
    state = store.state(gid)
    n = len(state["game"]["players"])
    order = [(state["leader"] + i) % n for i in range(n)]
    plays = [
        {"player": p, "card": c, "confidence": round(0.99 - 0.07 * i, 2)}
        for i, (p, c) in enumerate(zip(order, cards, strict=True))
    ]
    for k in range(1, n):
        store.set_live(gid, state["round"], state["next_trick"], plays[:k], leader=order[0])
    extra: dict[str, Any] = {}
    if image_dir is not None:
        frame = image_dir / f"r{state['round']:02d}t{state['next_trick']:02d}.jpg"
        extra = {
            "completion_image": frame,
            "detections": fake_frame(frame, cards, spots),
            "model_version": "cards-test",
        }
        for det, play in zip(extra["detections"]["cards"], plays, strict=True):
            det["player"] = play["player"]
    store.record_trick(gid, state["round"], state["next_trick"], plays, **extra)


def wait(driver: Any, seconds: float = 20) -> WebDriverWait:
    """Waits retry when a live re-render replaced the element a condition was looking at.

    20 s, not 10: the first browser test after a fresh install once timed out at 10 s (a cold
    Chromium), and a wait that passes returns as soon as its condition holds."""
    from selenium.common.exceptions import StaleElementReferenceException

    return WebDriverWait(driver, seconds, ignored_exceptions=[StaleElementReferenceException])


def test_setup_says_when_no_more_players_can_be_added_or_removed(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Setting up a game night of eight on a phone: a ninth tap on "+ Add player" did nothing
    and said nothing (the rules allow 8), nor did ✕ with two players left. The button is
    disabled at eight with "8 players at most", and ✕ at two."""
    base, _ = server
    with _screen(browser, 360, 640, mobile=True):
        browser.get(base + "/setup?lang=da")
        add = browser.find_element(By.ID, "add-player")
        note = browser.find_element(By.ID, "players-full")

        def removes() -> list[Any]:
            return browser.find_elements(By.CSS_SELECTOR, "#player-list button.remove")

        for _ in range(5):
            assert add.is_enabled() and not note.is_displayed()
            add.click()
        assert len(removes()) == 8
        assert not add.is_enabled() and note.text == "Højst 8 spillere"
        assert all(btn.is_enabled() for btn in removes())
        removes()[0].click()
        assert add.is_enabled() and not note.is_displayed()
        while len(removes()) > 2:
            removes()[0].click()
        assert not any(btn.is_enabled() for btn in removes())


def test_setup_bids_live_tv_replay_correction(
    server: tuple[str, GameStore], browser: Any, tmp_path: Path
) -> None:
    base, store = server
    shots = shot_dir(tmp_path)

    # --- a phone sets up the game
    browser.set_window_size(412, 915)
    browser.get(base + "/setup")
    names = ["Ana", "Ben", "Cai", "Dee"]
    browser.find_element(By.ID, "add-player").click()
    browser.find_element(By.ID, "add-player").click()
    inputs = browser.find_elements(By.CSS_SELECTOR, "input.player-name")
    assert len(inputs) == 5
    # A row left blank is dropped: the dealer is still Dee, not whoever sits after her.
    for box, name in zip(inputs, ["Ana", "", "Ben", "Cai", "Dee"], strict=True):
        box.send_keys(name)
    Select(browser.find_element(By.ID, "first-dealer")).select_by_visible_text("Player 2")
    browser.find_element(By.ID, "start-game").click()
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "form-error"), "no name yet"))
    Select(browser.find_element(By.ID, "first-dealer")).select_by_visible_text("Dee")
    browser.find_element(By.CSS_SELECTOR, ".settings-box summary").click()
    browser.find_element(By.ID, "start-game").click()
    wait(browser).until(ec.url_contains("/bids"))
    gid = int(browser.current_url.split("/game/")[1].split("/")[0])
    assert store.game(gid).players == names and store.game(gid).first_dealer == 3

    # --- bids on the phone: big buttons, the total against the tricks available
    wait(browser).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".bid-button")))
    # Measured in one script call: the rows re-render on every event, and a button found first
    # and measured after could already be gone (a stale element, seen on a fresh CI clone).
    width, height = browser.execute_script(
        "const r = document.querySelector('.bid-button').getBoundingClientRect();"
        "return [r.width, r.height];"
    )
    assert height >= 48 and width >= 48  # touch targets
    for player, bid in [(0, 1), (1, 0), (2, 0), (3, 1)]:
        # The rows re-render on every event, so find the button afresh each time.
        css = f'.bid-button[data-player="{player}"][data-bid="{bid}"]'

        # Named functions, not lambdas with bound defaults: mypy cannot infer such a lambda.
        def clicked(d: Any, css: str = css) -> bool:
            return _click(d, css)

        def bid_saved(d: Any, p: int = player, b: int = bid) -> bool:
            return store.bids(gid, 1)[p] == b

        wait(browser).until(clicked)
        wait(browser).until(bid_saved)
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "bid-total-number"), "2"))
    browser.save_screenshot(str(shots / "bids.png"))

    # --- the TV, in a second window at 1080p
    phone = browser.current_window_handle
    browser.switch_to.new_window("window")
    _open_on_a_screen(browser, base + "/tv", 1920, 1080)
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 1"))
    tv = browser.current_window_handle

    # Round 1 (Ana leads: left of dealer Dee): Dee trumps with the black 14 (+20 bonus).
    play_trick(store, gid, ["green-4", "green-2", "green-3", "black-14"], store.game_dir(gid))
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-banner"), "Trick won by Dee"))
    # What the bonus is for, and whose bid it waits on ("+20 bonus if bid made" said neither).
    assert (
        "+20 for the Jolly Roger 14 if Dee makes their bid"
        in browser.find_element(By.ID, "tv-banner").text
    )
    # That trick ended round 1 (one card each): the banner keeps round 1's points in view
    # while the board moves on to round 2.
    round1 = store.score(gid)["score"]["rounds"][0]["points"]
    shown = " · ".join(
        f"{n} {'+' if v > 0 else '−' if v < 0 else ''}{abs(v)}"
        for n, v in zip(names, round1, strict=True)
    )
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-banner"), f"Round 1: {shown}"))
    # Rounds 2 and 3, recorded as the camera would.
    store.set_bids(gid, 2, [1, 0, 1, 0])
    play_trick(store, gid, ["yellow-9", "yellow-3", "yellow-12", "yellow-1"])
    # Dee's yellow 12 wins again, with no bonus: the banner is that line alone (it once
    # read "null" on a second line where the bonus would be).
    banner = (By.ID, "tv-banner")
    wait(browser).until(lambda d: d.find_element(*banner).text == "Trick won by Dee")
    play_trick(store, gid, ["purple-2", "purple-11", "purple-5", "purple-7"])
    store.set_bids(gid, 3, [1, 1, 0, 1])
    play_trick(store, gid, ["green-13", "green-12", "green-11", "green-10"], store.game_dir(gid))
    # The table keeps bonuses on a missed bid: the banner names the bonus on that condition.
    store.update_settings(gid, {"keep_bonus_on_miss": True})
    play_trick(
        store, gid, ["skull-king", "pirate-rosie", "escape", "yellow-5"], store.game_dir(gid)
    )
    kept = "+30 for capturing Rosie D' Laney, whether or not"
    wait(browser).until(ec.text_to_be_present_in_element(banner, kept))
    play_trick(
        store, gid, ["purple-13", "mermaid-alyra", "purple-4", "purple-6"], store.game_dir(gid)
    )
    store.set_bids(gid, 4, [2, 1, 0, 1])
    state = store.state(gid)
    leader = state["leader"]
    live = [
        {"player": leader, "card": "yellow-10", "confidence": 0.98},
        {"player": (leader + 1) % 4, "card": "black-3", "confidence": 0.95},
    ]
    store.set_live(gid, 4, 0, live, winner=(leader + 1) % 4, leader=leader)
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 4"))
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-live-cards"), "Jolly Roger 3"))
    totals_before = _tv_totals(browser)
    assert totals_before == dict(zip(names, store.score(gid)["score"]["totals"], strict=True))
    # 8 players would still fit; 4 certainly must not scroll.
    assert browser.execute_script("return document.documentElement.scrollHeight") <= 1080
    wait(browser, 20).until(lambda d: not d.find_element(By.ID, "tv-banner").is_displayed())
    browser.save_screenshot(str(shots / "tv.png"))

    # --- replay of round 3 trick 1 (the Skull King takes Rosie)
    browser.switch_to.window(phone)
    browser.set_window_size(1280, 900)
    browser.get(f"{base}/game/{gid}/round/3/trick/1")
    wait(browser).until(
        lambda d: (
            d.execute_script("return document.getElementById('trick-image').naturalWidth") == 640
        )
    )
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "Skull King" in page and "Play order" in page and "Why" in page
    assert "+30" in page
    assert browser.find_elements(By.CSS_SELECTOR, "svg.overlay rect")
    browser.save_screenshot(str(shots / "replay.png"))

    # --- correct round 1: Dee's black 14 was really the black 13 (Dee loses the +20 bonus)
    browser.get(f"{base}/game/{gid}/round/1/trick/0")
    browser.find_elements(By.CSS_SELECTOR, ".correct-button")[3].click()
    heading = browser.find_element(By.CSS_SELECTOR, "#correct-form h3").text
    assert heading == "Correct play 4 · Dee (Jolly Roger 14)"  # was "... or player #4"
    menu = Select(browser.find_element(By.ID, "correct-card"))
    offered = {o.get_attribute("value") for o in menu.options}
    assert {"tigress:pirate", "tigress:escape"} <= offered and "tigress" not in offered
    menu.select_by_value("black-13")
    browser.find_element(By.ID, "correct-save").click()
    wait(browser).until(ec.presence_of_element_located((By.ID, "audit")))
    assert "Jolly Roger 14 → Jolly Roger 13" in browser.find_element(By.ID, "audit").text
    trick = store.trick(gid, 1, 0)
    assert trick.original_plays[3]["card"] == "black-14"
    assert trick.plays[3]["card"] == "black-13"

    # --- the TV recomputed the game live
    browser.switch_to.window(tv)
    expected = dict(zip(names, store.score(gid)["score"]["totals"], strict=True))
    assert expected != totals_before
    wait(browser).until(lambda d: _tv_totals(d) == expected)


def _click(driver: Any, css: str) -> bool:
    """Click the element matching ``css``; False (retry) while a live re-render replaces it."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        NoSuchElementException,
        StaleElementReferenceException,
    )

    try:
        driver.find_element(By.CSS_SELECTOR, css).click()
    except (
        StaleElementReferenceException,
        NoSuchElementException,
        ElementClickInterceptedException,
    ):
        return False
    return True


def _tv_totals(driver: Any) -> dict[str, int]:
    """Name -> total as the TV shows them (read in one script call: rows re-render live)."""
    pairs = driver.execute_script(
        "return [...document.querySelectorAll('#tv-table tbody tr')].map(r =>"
        " [r.querySelector('.pname').textContent, r.querySelector('td.total').textContent])"
    )
    return {name: int(total.replace(MINUS, "-")) for name, total in pairs}


def test_tv_eight_players_spanish_prompt_answered_on_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    names = ["Ana", "Ben", "Cai", "Dee", "Eva", "Fede", "Gio", "Hanne-Marie"]
    gid = store.create_game(names, 0, {})
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0, 0])
    cards = [f"green-{r}" for r in range(1, 8)]
    play_trick(store, gid, [*cards, "tigress:pirate"])
    store.create_prompt(gid, "tigress", 1, 0, player=0)
    _open_on_a_screen(browser, base + "/tv?lang=es", 1920, 1080)
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Ronda 2"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#tv-table tbody tr")) == 8
    # The TV shows the question read-only (no buttons) ...
    wait(browser).until(
        ec.text_to_be_present_in_element(
            (By.ID, "tv-prompts"), "¿Tigresa como Pirata o como Huida?"
        )
    )
    assert not browser.find_elements(By.CSS_SELECTOR, "#tv-prompts button")
    # ... and fits a 1080p screen without scrolling.
    assert browser.execute_script("return document.documentElement.scrollHeight") <= 1080
    # The secondary text reads from across the room: 3.2vh at least (was 2.6vh, 20 px axes).
    sizes = browser.execute_script(
        "return ['#tv-table th', '.tv-side h2', '#tv-prompts .prompt'].map(s =>"
        " parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"
    )
    assert min(sizes) >= 0.032 * 1080 - 0.5, sizes
    # The chart's axis labels are in its own units: measured as drawn.
    axis = browser.execute_script(
        "return document.querySelector('.chart .axis').getBoundingClientRect().height"
    )
    assert axis >= 0.026 * 1080, axis
    chart = browser.find_element(By.CSS_SELECTOR, "#tv-chart svg")
    assert chart.get_attribute("aria-label") == "Puntuación acumulada"
    # Whose line is whose, without telling colours apart: the number in each line's end
    # mark is the one in that player's swatch.
    marks = [m.text for m in chart.find_elements(By.CSS_SELECTOR, "text.mark")]
    swatches = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#tv-table .swatch")]
    assert marks == [str(p) for p in range(1, 9)] and sorted(swatches, key=int) == marks
    # A phone answers it; the TV drops the question live.
    tv = browser.current_window_handle
    browser.switch_to.new_window("window")
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids?lang=es")
    wait(browser).until(lambda d: _click(d, '.prompt-answer[data-answer="escape"]'))
    wait(browser).until(lambda d: store.prompts(gid) == [])
    assert store.trick(gid, 1, 0).plays[7]["card"] == "tigress:escape"
    browser.switch_to.window(tv)
    wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#tv-prompts .prompt"))


def test_finishing_a_game_asks_first(server: tuple[str, GameStore], browser: Any) -> None:
    """One tap on "Finish game" must not end a game by mistake: the page asks, and a "no"
    leaves the game open for the camera to record into; a "yes" by mistake is undone by
    "Resume game" on the same page."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.get(f"{base}/game/{gid}/settings")
    wait(browser).until(ec.element_to_be_clickable((By.ID, "finish-game"))).click()
    alert = wait(browser).until(ec.alert_is_present())
    assert "Settings can resume it" in alert.text
    alert.dismiss()
    assert store.game(gid).status == "active"
    browser.find_element(By.ID, "finish-game").click()
    wait(browser).until(ec.alert_is_present()).accept()
    wait(browser).until(lambda d: store.game(gid).status == "finished")
    # The page goes on to the tricks list once the server answers: opening Settings before
    # that navigation lands was overtaken by it (a fresh CI clone timed out on the tricks page).
    wait(browser).until(lambda d: d.current_url.endswith(f"/game/{gid}/tricks"))
    browser.get(f"{base}/game/{gid}/settings")
    wait(browser).until(ec.element_to_be_clickable((By.ID, "resume-game"))).click()
    wait(browser).until(lambda d: d.current_url.endswith(f"/game/{gid}/bids"))
    assert store.game(gid).status == "active"


def test_import_refuses_a_record_not_in_utf8(
    server: tuple[str, GameStore], browser: Any, tmp_path: Path
) -> None:
    """A record saved as Latin-1 is refused by name, not imported with "S\ufffdren" in it."""
    base, store = server
    record = tmp_path / "latin1.json"
    record.write_bytes(
        '{"format": "skullcam-game/1", "players": ["Søren", "Ana"]}'.encode("latin-1")
    )
    browser.get(base + "/history")
    browser.find_element(By.ID, "import-file").send_keys(str(record))
    browser.find_element(By.ID, "import-button").click()
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "form-error"), "latin1.json is not UTF-8")
    )
    assert store.games() == []


def test_an_imported_record_names_its_file_in_the_games_history(
    server: tuple[str, GameStore], browser: Any, tmp_path: Path
) -> None:
    """History's import sends the file's name: the game's tricks page, where it lands,
    starts the game's history with "Game imported from the file tuesday.json"."""
    base, store = server
    record = tmp_path / "tuesday.json"
    record.write_text(json.dumps(spec_example()), encoding="utf-8")
    browser.get(base + "/history")
    browser.find_element(By.ID, "import-file").send_keys(str(record))
    browser.find_element(By.ID, "import-button").click()
    said = "Game imported from the file tuesday.json"
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "game-changes"), said))
    (game,) = store.games()
    assert store.audit(game.id)[0].after["file"] == "tuesday.json"


def test_the_missed_card_is_added_from_the_replay_page(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The camera saw 2 cards for 3 players: the page offers only the player with no card,
    and adding hers puts the trick (and the score) right."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    two = [{"player": 1, "card": "green-5"}, {"player": 2, "card": "green-9"}]
    store.record_trick(gid, 1, 0, two, flags=["only 2 cards for 3 players"])
    browser.get(f"{base}/game/{gid}/round/1/trick/0")
    wait(browser).until(ec.element_to_be_clickable((By.ID, "add-play"))).click()
    players = Select(browser.find_element(By.ID, "correct-player"))
    offered = [o.text for o in players.options if o.is_enabled()]
    assert offered == ["Ana"]
    cards = Select(browser.find_element(By.ID, "correct-card"))
    first = [(o.get_attribute("value"), o.text) for o in cards.options[:11]]
    assert [value for value, _ in first] == [f"green-{n}" for n in range(1, 12)]  # deck order
    assert first[0][1] == "Parrot 1"  # the card's name, not its id too
    cards.select_by_value("green-12")
    browser.find_element(By.ID, "correct-save").click()
    wait(browser).until(ec.presence_of_element_located((By.ID, "audit")))
    assert "card added: Ana Parrot 12" in browser.find_element(By.ID, "audit").text
    assert not browser.find_elements(By.ID, "add-play")
    assert store.score(gid)["score"]["totals"] == [20, 10, 10]  # Ana made her 1, the rest 0


def test_the_cameras_move_of_a_trick_is_moved_back_from_its_page(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The camera moved round 2's last trick to round 3's first place; the table, which led
    round 3 out of turn, taps "Move it back" on that trick's page, twice (one tap moved the
    round's tricks, with no way to move them again): the page sends the JSON the route
    takes, goes to the game's tricks, and round 2 and round 3 are in their places."""
    base, store = server
    gid, moved_id, second_id = filed_and_moved_by_the_camera(store)
    browser.get(f"{base}/game/{gid}/round/3/trick/0")
    hint = wait(browser).until(ec.visibility_of_element_located((By.ID, "move-back-hint")))
    assert "from round 2 trick 2" in hint.text
    button = browser.find_element(By.ID, "move-back")
    button.click()  # the first tap only asks again, as a removal's does: it moves tricks
    assert button.text == "Tap again to move it back"
    assert store.trick(gid, 3, 0).id == moved_id
    button.click()
    wait(browser).until(ec.url_to_be(f"{base}/game/{gid}/tricks"))
    assert store.trick(gid, 2, 1).id == moved_id
    assert store.trick(gid, 3, 0).id == second_id


def test_a_card_no_one_can_enter_is_offered_only_to_the_play_that_holds_it(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The camera read a pirate without its name. Its play's Correct menu keeps it selected;
    every other play's menu and the missing card's left it in, and the store refuses it as a
    new card (which pirate decides Rosie's, Rascal's and Harry's abilities)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai", "Dag"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0, 0])
    three = [{"player": 1, "card": "green-5"}, {"player": 2, "card": "pirate"}]
    three.append({"player": 3, "card": "green-9"})
    store.record_trick(gid, 1, 0, three, flags=["only 3 cards for 4 players"])
    browser.get(f"{base}/game/{gid}/round/1/trick/0")
    cards = Select(browser.find_element(By.ID, "correct-card"))

    def offered() -> set[str]:
        return {str(o.get_attribute("value")) for o in cards.options if o.is_enabled()}

    buttons = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".correct-button"))
    buttons[1].click()
    assert cards.first_selected_option.get_attribute("value") == "pirate"
    assert {"pirate", "pirate-rosie"} <= offered()
    browser.find_element(By.ID, "correct-cancel").click()
    buttons[0].click()
    assert "pirate" not in offered() and "pirate-rosie" in offered()
    browser.find_element(By.ID, "correct-cancel").click()
    browser.find_element(By.ID, "add-play").click()
    assert "pirate" not in offered()
    assert cards.first_selected_option.get_attribute("value") != "pirate"


def test_a_phone_can_go_through_many_pages_in_one_tab(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Pages left behind in the browser's back/forward cache must not keep their live
    streams open: six of them used up the browser's connections and the next page hung."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    three = [(1, "green-5"), (2, "green-9"), (0, "green-3")]
    store.record_trick(gid, 1, 0, [{"player": p, "card": c} for p, c in three])
    replay = "round/1/trick/0"
    pages = ["bids", "tricks", "settings", replay, "tricks", replay, "bids", "tv", replay, "bids"]
    browser.set_page_load_timeout(12)
    for page in pages:
        browser.get_once(f"{base}/game/{gid}/{page}")  # a hung page times out here
    assert browser.current_url.endswith("/bids")


def test_a_refusal_is_shown_in_the_tables_language(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Two names a table reads as one are refused by the store; a Spanish page says why in
    Spanish (the answer's ``error_text``), not in the store's English."""
    base, store = server
    browser.get(base + "/setup?lang=es")
    inputs = browser.find_elements(By.CSS_SELECTOR, "input.player-name")
    for box, name in zip(inputs, ["Ana", "ana", "Ben"], strict=False):
        box.send_keys(name)
    Select(browser.find_element(By.ID, "first-dealer")).select_by_visible_text("Ben")
    browser.find_element(By.ID, "start-game").click()
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "form-error"), "«Ana» y «ana» son el mismo")
    )
    assert store.games() == []


def test_the_pages_fill_a_strings_blanks_once_whatever_a_name_holds(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The script's ``t()`` filled one field after another, so a value holding a later field's
    blank had it filled too: a player named "{n}", filled before the play's number, read "2".
    Every field is now filled in one pass, as the server's ``str.format`` does."""
    base, _ = server
    browser.get(base + "/")
    wait(browser).until(lambda d: d.execute_script("return typeof SK === 'object'"))
    said = browser.execute_script(
        "return [SK.t('correct_play', {name: '{n}', n: 2}),"
        " SK.t('bonus_if_made', {name: '{what}', what: '+20'}),"
        " SK.t('bonus_for_card', {points: 10})]"
    )
    assert said == ["Correct play 2 · {n}", "+20 if {what} makes their bid", "+10 for {card}"]


def test_a_phone_off_the_wifi_is_told_so_in_its_language(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: the browser's own "Failed to fetch", in English whatever the page's language."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.get(f"{base}/game/{gid}/bids?lang=es")
    button = '.bid-button[data-player="0"][data-bid="1"]'
    wait(browser).until(ec.element_to_be_clickable((By.CSS_SELECTOR, button)))
    browser.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        browser.find_element(By.CSS_SELECTOR, button).click()
        wait(browser).until(
            ec.text_to_be_present_in_element((By.ID, "form-error"), "Sin conexión con el servidor")
        )
        # The page also says, before any tap, that it lost the game's live stream.
        browser.execute_script("window.SK_STREAM.onerror()")
        assert browser.find_element(By.ID, "offline").text == "Reconectando…"
    finally:
        online = {**offline, "offline": False}
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", online)
    assert store.bids(gid, 1) == [None, None, None]


def test_the_tv_page_on_an_upright_phone_shows_every_column(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A player opening /tv on a phone saw the Total column cut off: the TV's layout is sized
    for a 16:9 screen. Upright and narrow, it is one column that scrolls."""
    base, store = server
    names = ["Ana", "Ben", "Cai", "Dee", "Eva", "Fede", "Gio", "Hanne-Marie Kristoffersen"]
    gid = store.create_game(names, 0, {})
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0, 0])
    play_trick(store, gid, [f"green-{r}" for r in range(1, 9)])
    with _screen(browser, 390, 844, mobile=True):
        browser.get(base + "/tv")
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-table tbody tr")) == 8
        )
        right_edges = browser.execute_script(
            "return [...document.querySelectorAll('#tv-table td.total')]"
            ".map(td => td.getBoundingClientRect().right);"
        )
        assert len(right_edges) == 8 and max(right_edges) <= 390
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        # The chart, sized by itself in the column that scrolls, is there.
        assert browser.find_element(By.CSS_SELECTOR, "#tv-chart svg").size["height"] > 100


def test_a_forgotten_bid_is_said_at_once_and_the_totals_stand(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: nothing said while the round was played without Cai's bid, and then every total
    on the TV dropped to 0 until someone entered it."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    play_trick(store, gid, ["green-3", "green-1", "green-2"])
    store.set_bids(gid, 2, [0, 1, None])
    play_trick(store, gid, ["green-5", "green-9", "green-2"])
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv")
    wait(browser).until(
        ec.text_to_be_present_in_element(
            (By.ID, "tv-missing-bids"), "Play has started without a bid from Cai"
        )
    )
    play_trick(store, gid, ["yellow-5", "yellow-9", "yellow-2"])  # round 2 over, unscored
    wait(browser).until(lambda d: d.find_element(By.ID, "tv-error").is_displayed())
    totals = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#tv-table td.total")]
    assert sorted(totals) == ["10", f"{MINUS}10", f"{MINUS}10"]  # round 1's, not 0, 0, 0


def test_bids_are_locked_on_the_phones_once_the_game_is_over(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: a stray tap after the last trick changed a bid, and so the winner, unnoticed."""
    base, store = server
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    store.set_bids(gid, 1, [1, 0])
    play_trick(store, gid, ["green-3", "green-9"])
    assert store.game(gid).status == "finished"
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "game-over"), "Captain of the Seven Seas")
    )
    # The totals, best first, on the phone too (was: the winner's name alone).
    # Waited for, not read once: each render replaces the box's children (stale elements).
    wait(browser).until(
        lambda d: d.find_element(By.ID, "final-standings").text == "Total: Ana 20 · Ben 10"
    )
    wait(browser).until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "#game-over a")
            .get_attribute("href")
            .endswith(f"/game/{gid}/tv")
        )
    )
    button = '.bid-button[data-player="0"][data-bid="0"]'
    assert not browser.find_element(By.CSS_SELECTOR, button).is_enabled()
    # Locked, the final bids are still read: muted, not faded to 1.5:1 (opacity 0.35).
    assert browser.find_element(By.CSS_SELECTOR, button).value_of_css_property("opacity") == "1"
    browser.find_element(By.ID, "unlock-bids").click()
    wait(browser).until(ec.alert_is_present()).accept()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, button).is_enabled())
    browser.find_element(By.CSS_SELECTOR, button).click()
    wait(browser).until(lambda d: store.bids(gid, 1) == [0, 0])


def test_a_game_finished_with_no_round_played_has_no_winner(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: Settings -> Finish game right after setup named every player "Captain of the
    Seven Seas" with 0 points on the TV (and the bids page)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])  # bid, but no trick played: round 1 scores nothing
    store.finish_game(gid)
    browser.get(f"{base}/tv")
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "tv-winner"), "Ended with no rounds played")
    )
    assert "Captain" not in browser.find_element(By.ID, "tv-board").text
    browser.get(f"{base}/game/{gid}/bids?lang=es")
    over = browser.find_element(By.ID, "game-over")
    assert over.text.startswith("Fin de la partida · Terminó sin ninguna ronda jugada")
    assert "Capitán" not in over.text
    # Round 1 played out (Ben's zero bid made; Cai took the trick) names its winner.
    store.resume_game(gid)
    play_trick(store, gid, ["green-3", "green-9", "green-5"])
    store.finish_game(gid)
    browser.get(f"{base}/tv?lang=en")
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "tv-winner"), "Captain of the Seven Seas: Ben")
    )


def test_the_tv_and_the_bids_page_wait_for_harrys_answer_to_name_the_winner(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: "Fin de la partida · Capitán de los Siete Mares: Bo" on the TV and the phones while
    Harry's bid change was still open; Ana's +1 makes her the winner."""
    base, store = server
    gid = store.create_game(["Ana", "Bo"], 0, {"rounds": 1, "pirate_abilities": True})
    store.set_bids(gid, 1, [0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (0, "pirate-harry")))  # Ana -10, Bo +10
    browser.get(f"{base}/tv?lang=es")
    wait(browser).until(
        ec.text_to_be_present_in_element(
            (By.ID, "tv-winner"), "El resultado espera las preguntas abiertas"
        )
    )
    assert "Capitán" not in browser.find_element(By.ID, "tv-board").text
    browser.get(f"{base}/game/{gid}/bids?lang=en")
    over = wait(browser).until(lambda d: d.find_element(By.ID, "game-over"))
    wait(browser).until(
        ec.text_to_be_present_in_element(
            (By.ID, "game-over"), "Game over · The result waits for the open questions"
        )
    )
    assert "Captain" not in over.text
    (harry,) = store.prompts(gid)
    store.answer_prompt(harry.id, 1)  # Ana bid 1 after all: +20; the page hears it live
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "game-over"), "Captain of the Seven Seas: Ana")
    )


def _finished_without_the_last_rounds_bids(store: GameStore) -> int:
    """Ana and Ben, two rounds: round 1 bid and played (Ana +20, Ben +10), round 2 played
    with no bids entered, and so the camera finished the game with its score stopped."""
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 2})
    store.set_bids(gid, 1, [1, 0])
    play_trick(store, gid, ["green-3", "green-9"])  # Ana +20, Ben +10
    play_trick(store, gid, ["green-4", "green-5"])  # round 2, no bids entered
    play_trick(store, gid, ["yellow-4", "yellow-5"])
    assert store.game(gid).status == "finished" and not store.score(gid)["ok"]
    return gid


def test_a_finished_game_whose_score_stops_names_no_winner(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: the last round played with no bids entered, the TV and the phones crowned the
    leader of the rounds before it ("Captain of the Seven Seas: Ana"), whom the missing bids
    could still unseat, beside the box saying the scores cannot be computed."""
    base, store = server
    gid = _finished_without_the_last_rounds_bids(store)
    browser.get(f"{base}/tv")
    wait(browser).until(lambda d: d.find_element(By.ID, "tv-error").is_displayed())
    assert not browser.find_element(By.ID, "tv-winner").is_displayed()
    assert "Captain" not in browser.find_element(By.ID, "tv-board").text
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "game-over"), "Game over"))
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "score-stop"), "Round 2 has no bids")
    )
    assert "Captain" not in browser.find_element(By.ID, "game-over").text
    assert browser.find_elements(By.ID, "final-standings") == []
    # The bids entered, the game has its winner again.
    store.set_bids(gid, 2, [1, 1])  # one trick each in round 2: Ana +20, Ben +20
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "game-over"), "Captain of the Seven Seas: Ana")
    )
    wait(browser).until(
        lambda d: d.find_element(By.ID, "final-standings").text == "Total: Ana 40 · Ben 30"
    )


def test_bids_never_entered_are_entered_after_the_game_without_the_change_warning(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The camera ended a game whose last round's bids were never entered (a game night):
    entering them took "Change a bid", whose confirmation said "changing a bid changes the
    final score" of a game with no final score. That round's buttons now take the bids as
    they are, with no confirmation; another round's bids are still locked, and their
    confirmation says the score waits for the missing bids."""
    base, store = server
    gid = _finished_without_the_last_rounds_bids(store)
    browser.get(f"{base}/game/{gid}/bids?lang=it")
    wait(browser).until(lambda d: "Round 2" in d.find_element(By.ID, "round-title").text)
    assert browser.find_elements(By.ID, "unlock-bids") == []
    wait(browser).until(lambda d: _click(d, '.bid-button[data-player="0"][data-bid="1"]'))
    wait(browser).until(lambda d: store.bids(gid, 2) == [1, None])
    browser.find_element(By.ID, "prev-round").click()
    wait(browser).until(lambda d: "Round 1" in d.find_element(By.ID, "round-title").text)
    button = '.bid-button[data-player="0"][data-bid="0"]'
    assert not browser.find_element(By.CSS_SELECTOR, button).is_enabled()
    browser.find_element(By.ID, "unlock-bids").click()
    alert = wait(browser).until(ec.alert_is_present())
    assert "non ha un punteggio finale finché mancano le puntate del round 2" in alert.text
    assert "cambia il punteggio finale" not in alert.text
    alert.dismiss()
    assert not browser.find_element(By.CSS_SELECTOR, button).is_enabled()
    browser.find_element(By.ID, "next-round").click()
    wait(browser).until(lambda d: _click(d, '.bid-button[data-player="1"][data-bid="1"]'))
    wait(browser).until(lambda d: store.bids(gid, 2) == [1, 1])
    wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "game-over"), "Capitano dei Sette Mari: Ana")
    )


def test_a_phone_reads_who_won_and_the_link_to_the_final_scores(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: on an upright phone the TV's winner line was cut to "Captain of …" (the names
    hidden by its ellipsis), and the game-over box's link was drawn in its own background."""
    base, store = server
    long = "Maximiliano Fernández-García de la Vega"
    gid = store.create_game(["Ana", long], 0, {"rounds": 1})
    store.set_bids(gid, 1, [1, 1])
    play_trick(store, gid, ["escape", "escape"])  # the long name leads and takes it
    with _screen(browser, 390, 844, mobile=True):
        browser.get(base + "/tv")
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-winner").is_displayed())
        winner = browser.find_element(By.ID, "tv-winner")
        assert winner.text == f"Captain of the Seven Seas: {long}"
        fits = "const w = arguments[0]; return w.scrollWidth <= w.clientWidth;"
        assert browser.execute_script(fits, winner)
        browser.get(f"{base}/game/{gid}/tricks")
        link = browser.find_element(By.CSS_SELECTOR, "#tricks-game-over a")
        box = browser.find_element(By.ID, "tricks-game-over")
        assert link.value_of_css_property("color") != box.value_of_css_property("background-color")
        # The bids page's link to the final scores starts a line of its own: after " · " it
        # wrapped and left the dot hanging at the end of the totals ("Søren −50 ·").
        browser.get(f"{base}/game/{gid}/bids?lang=da")
        wait(browser).until(lambda d: d.find_elements(By.ID, "final-standings"))
        seen = browser.execute_script(
            "const link = document.querySelector('#game-over a');"
            "const totals = document.getElementById('final-standings').getBoundingClientRect();"
            "return {text: link.textContent, before: link.previousSibling.nodeName,"
            " below: link.getBoundingClientRect().top >= totals.bottom - 1};"
        )
        assert seen == {"text": "Slutstilling", "before": "BR", "below": True}


def test_the_questions_page_says_so_once_the_last_one_is_answered(
    server: tuple[str, GameStore], browser: Any
) -> None:
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    play_trick(store, gid, ["green-5", "green-9", "tigress:escape"])
    store.create_prompt(gid, "tigress", 1, 0, player=0)
    browser.get(f"{base}/game/{gid}/prompts?lang=es")
    assert not browser.find_element(By.ID, "no-prompts").is_displayed()
    browser.find_element(By.CSS_SELECTOR, '.prompt-answer[data-answer="pirate"]').click()
    wait(browser).until(lambda d: d.find_element(By.ID, "no-prompts").is_displayed())
    assert browser.find_element(By.ID, "no-prompts").text == "No hay preguntas pendientes."
    assert not browser.find_elements(By.CSS_SELECTOR, ".prompt")


def test_rosies_question_says_who_led_next_and_confirms_it_in_one_tap(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The trick after Ana's Rosie recorded, led by Bo: the store follows Bo as her choice,
    but a phone went on asking "Ana won with Rosie: who leads next?". It says what was read,
    live, and "Yes: Bo" confirms it on a 360 px phone; the TV says it too."""
    base, store = server
    gid = rosie_wins_round_2(store)
    with _screen(browser, 360, 640, mobile=True):
        browser.get(f"{base}/game/{gid}/prompts?lang=en")
        text = browser.find_element(By.CSS_SELECTOR, ".prompt-text").text
        assert text == "Ana won with Rosie: who leads next?"  # nothing read yet: asked as before
        store.record_trick(gid, 2, 1, BO_LEADS_AFTER_ROSIE)
        read = "Ana won with Rosie, and Bo led the next trick. Did Ana choose Bo?"
        asked = (By.CSS_SELECTOR, ".prompt-text")
        wait(browser).until(ec.text_to_be_present_in_element(asked, read))
        buttons = browser.find_elements(By.CSS_SELECTOR, ".prompt-answer")
        assert [(b.text, b.get_attribute("data-answer")) for b in buttons] == [
            ("Yes: Bo", "1"),
            ("Ana", "0"),
        ]
        assert buttons[0].rect["x"] + buttons[0].rect["width"] <= 360
        phone = browser.current_window_handle
        browser.switch_to.new_window("window")
        browser.get(f"{base}/tv?lang=en")
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-prompts"), read))
        browser.close()
        browser.switch_to.window(phone)
        buttons[0].click()
        wait(browser).until(lambda d: d.find_element(By.ID, "no-prompts").is_displayed())
    assert store.prompts(gid) == [] and store.prompts(gid, status="answered")[0].answer == 1


def test_a_phone_left_on_an_old_game_is_sent_to_the_new_one(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: a phone left on game 1's bids page after another phone set up game 2 kept
    showing game 1 as live and took bids into it (its stream follows game 1 only)."""
    base, store = server
    old = store.create_game(["Ana", "Ben"], 0, {})
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{old}/bids")
    wait(browser).until(stream_open)
    button = '.bid-button[data-player="0"][data-bid="1"]'
    # Waited for, not read once: a live re-render may replace the button between the lookup
    # and the read (a stale element, 1 full run in ~15).
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, button).is_enabled())
    assert not browser.find_element(By.ID, "replaced").is_displayed()
    new = store.create_game(["Dan", "Eva"], 0, {})
    wait(browser).until(lambda d: d.find_element(By.ID, "replaced").is_displayed())
    link = browser.find_element(By.ID, "replaced-link")
    assert link.get_attribute("href") == f"{base}/game/{new}/bids"
    wait(browser).until(lambda d: not d.find_element(By.CSS_SELECTOR, button).is_enabled())
    # A late correction of the old game's bids is still possible, once asked.
    browser.find_element(By.ID, "unlock-bids").click()
    alert = wait(browser).until(ec.alert_is_present())
    assert "Another game is at the table now" in alert.text
    alert.accept()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, button).is_enabled())
    browser.find_element(By.CSS_SELECTOR, button).click()
    wait(browser).until(lambda d: store.bids(old, 1) == [1, None])
    assert store.bids(new, 1) == [None, None]
    link.click()
    wait(browser).until(lambda d: d.current_url == f"{base}/game/{new}/bids")


def test_a_phone_fixing_an_earlier_round_stays_there_when_a_round_ends(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: the page jumped to the new round as the round ended, so the next tap on a bid
    landed in the wrong round."""
    base, store = server
    gid = store.create_game(["Ana", "Ben"], 0, {})
    store.set_bids(gid, 1, [1, 0])
    play_trick(store, gid, ["green-3", "green-9"])
    store.set_bids(gid, 2, [1, 1])
    play_trick(store, gid, ["green-4", "green-8"])
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 2"))
    wait(browser).until(stream_open)
    browser.find_element(By.ID, "prev-round").click()
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 1"))
    play_trick(store, gid, ["yellow-4", "yellow-8"])  # round 2 ends: the game moves on
    last = store.state(gid)["last_event_id"]
    wait(browser).until(lambda d: d.execute_script("return window.SK_LAST_EVENT || 0") >= last)
    time.sleep(0.5)  # the page's refresh after that event
    assert "Round 1" in browser.find_element(By.ID, "round-title").text
    wait(browser).until(lambda d: _click(d, '.bid-button[data-player="1"][data-bid="1"]'))
    wait(browser).until(lambda d: store.bids(gid, 1) == [1, 1])


def test_a_phone_entering_a_rounds_bids_stays_there_when_the_round_ends(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A game night of eight, bids tapped in late: the camera ended round 2 between two taps,
    the page followed the game to round 3, and the next three bids meant for round 2 landed
    in round 3 (round 2's stayed missing). A page whose round has some bids in and some not
    stays on it; one with none in, or all, follows the game."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 0, 1])
    play_trick(store, gid, ["green-3", "green-9", "green-4"])  # round 2 now, no bid in
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 2"))
    wait(browser).until(stream_open)
    wait(browser).until(lambda d: _click(d, '.bid-button[data-player="0"][data-bid="1"]'))
    wait(browser).until(lambda d: store.bids(gid, 2) == [1, None, None])
    for cards in (["yellow-4", "yellow-8", "yellow-2"], ["black-4", "black-8", "black-2"]):
        play_trick(store, gid, cards)  # round 2 ends, with Ben's and Cai's bids still to come
    last = store.state(gid)["last_event_id"]
    wait(browser).until(lambda d: d.execute_script("return window.SK_LAST_EVENT || 0") >= last)
    time.sleep(0.5)  # the page's refresh after that event
    assert "Round 2" in browser.find_element(By.ID, "round-title").text
    wait(browser).until(lambda d: _click(d, '.bid-button[data-player="1"][data-bid="0"]'))
    wait(browser).until(lambda d: store.bids(gid, 2) == [1, 0, None])
    assert store.bids(gid, 3) == [None, None, None]
    # Round 3's page, none of its bids in, follows the game on to round 4.
    wait(browser).until(lambda d: _click(d, "#next-round"))
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 3"))
    store.set_bids(gid, 2, [1, 0, 1])
    for k in range(3):
        play_trick(store, gid, [f"purple-{k + 2}", f"purple-{k + 5}", f"purple-{k + 9}"])
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 4"))


_IN_VIEW = """
const el = document.getElementById(arguments[0]);
if (!el || !el.getClientRects().length) return null;
const box = el.getBoundingClientRect();
return {top: box.top, bottom: box.bottom, text: el.innerText, height: innerHeight};
"""


def _tap_bid(browser: Any, player: int, bid: int) -> None:
    """Tap ``player``'s ``bid`` on the bids page, finding the button afresh after a re-render."""
    css = f'.bid-button[data-player="{player}"][data-bid="{bid}"]'
    wait(browser).until(lambda d: _click(d, css))


def test_a_phone_left_on_an_ended_rounds_bids_is_shown_the_way_to_the_next(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A game night of eight on a 360 x 640 phone: bids tapped in late, scrolled down to the
    sixth player's row, as the camera ended round 2. The page stays on round 2 (by design: a
    tap meant for it would land in round 3), and nothing in view said the game had moved on;
    the ▶ to it was at the top of the page, out of view. A line that stays in view says
    "Round 3 has started", with a button that goes there; it goes once the page is there."""
    base, store = server
    names = ["Margrethe", "Alessandro", "Bo", "Kristoffer"]
    names += ["Francesca", "Søren", "Giuseppina", "Niccolò"]
    gid = store.create_game(names, 0, {})
    store.set_bids(gid, 1, [0] * 8)
    play_trick(store, gid, [f"green-{i + 2}" for i in range(8)])  # round 2 now, no bid in
    with _screen(browser, 360, 640, mobile=True):
        browser.get(f"{base}/game/{gid}/bids")
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 2"))
        wait(browser).until(stream_open)
        for player in range(5):
            _tap_bid(browser, player, 0)
        wait(browser).until(lambda d: store.bids(gid, 2)[:5] == [0] * 5)
        browser.execute_script(
            "document.querySelector('.bid-row[data-player=\"5\"]').scrollIntoView()"
        )
        assert browser.execute_script(_IN_VIEW, "round-moved-on") is None
        for suit in ("yellow", "purple"):  # round 2's two tricks: round 3 begins
            play_trick(store, gid, [f"{suit}-{i + 2}" for i in range(8)])
        wait(browser).until(lambda d: d.execute_script(_IN_VIEW, "round-moved-on"))
        seen = browser.execute_script(_IN_VIEW, "round-moved-on")
        assert seen["top"] >= 0 and seen["bottom"] <= seen["height"], seen
        assert " ".join(seen["text"].split()) == "Round 3 has started Go to round 3", seen
        assert "Round 2" in browser.find_element(By.ID, "round-title").text
        wait(browser).until(lambda d: _click(d, "#round-moved-on-go"))
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, "round-title"), "Round 3"))
        assert browser.execute_script(_IN_VIEW, "round-moved-on") is None


def test_a_card_swapped_before_the_pickup_takes_the_winners_banner_down(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Cai swaps his card just after the trick completed, and the camera corrects the trick:
    the TV's banner must not go on naming the old winner for its remaining seconds (9 s on a
    round's last trick) over a board that already shows the new one."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 1"))
    play_trick(store, gid, ["green-5", "green-9", "green-3"])  # Ben leads; Cai's 9 wins
    banner = (By.ID, "tv-banner")
    wait(browser).until(ec.text_to_be_present_in_element(banner, "Trick won by Cai"))
    wait(browser).until(ec.text_to_be_present_in_element(banner, "Round 1:"))
    note = "the camera saw green-9 swapped for green-1 before the pickup"
    store.correct_play(gid, 1, 0, 1, card="green-1", note=note, by_hand=False)
    wait(browser, 4).until(lambda d: not d.find_element(*banner).is_displayed())
    assert store.score(gid)["score"]["totals"] == [10, 20, 10]  # Ben won, as he bid


def test_the_tvs_banner_says_an_unnamed_mermaid_as_the_replay_page_does(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The banner named a captured unnamed mermaid alone: "+20 por capturar a Sirena sin
    nombre" (as the replay page's note did, pages._bonus_note)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv?lang=es")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Ronda 1"))
    play_trick(store, gid, ["pirate", "mermaid", "green-3"])  # Ben's pirate takes Cai's mermaid
    banner = (By.ID, "tv-banner")
    said = "+20 por capturar a una Sirena si Ben cumple su apuesta"
    wait(browser).until(ec.text_to_be_present_in_element(banner, said))


def test_the_tvs_banner_names_the_loot_alliance(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A trick with a Loot in it: the banner named the winner and his capture, and not the
    alliance the Loot made, +20 each to two players (a game night with the expansion cards)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"loot": True})
    store.set_bids(gid, 1, [0, 1, 0])
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv?lang=it")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 1"))
    play_trick(store, gid, ["black-14", "loot", "green-3"])  # Ben leads his 14 and wins: Cai's Loot
    banner = (By.ID, "tv-banner")
    said = "Alleanza del Bottino: Cai e Ben (+20 ciascuno se entrambe le puntate sono esatte)."
    wait(browser).until(ec.text_to_be_present_in_element(banner, said))
    capture = "+20 per il Jolly Roger 14 se Ben indovina la puntata"
    assert capture in browser.find_element(*banner).text


@pytest.mark.parametrize(
    ("size", "mobile", "lang", "why", "nobody"),
    [
        (
            (1920, 1080),
            False,
            "it",
            "Nessuno vince questa presa\nIl Kraken distrugge la presa; le sue carte",
            "nessuno",
        ),
        (
            (360, 640),
            True,
            "en",
            "Nobody wins this trick\nThe Kraken destroys the trick; its cards",
            "nobody",
        ),
    ],
)
def test_the_tvs_banner_says_why_nobody_wins_a_kraken_trick(
    server: tuple[str, GameStore],
    browser: Any,
    size: tuple[int, int],
    mobile: bool,
    lang: str,
    why: str,
    nobody: str,
) -> None:
    """A game night with the Kraken (Italian TV at 1080p): the banner said only "Nessuno vince
    questa presa", not why. It says why now, as the replay page's explanation words it, and
    says "nobody wins" once: the Kraken's sentence under the head had it again ("Nessuno
    vince questa presa" over "Il Kraken distrugge la presa: nessuno la vince; ...")."""
    base, store = server
    gid = store.create_game(SEVEN_NAMES, 2, {"kraken_and_white_whale": True})
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0])
    with _screen(browser, *size, mobile=mobile):
        browser.get(f"{base}/tv?lang={lang}")
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-round").text)
        wait(browser).until(stream_open)
        kraken = ["green-5", "kraken", "green-9", "yellow-3", "green-2", "green-7", "green-1"]
        play_trick(store, gid, kraken)
        assert store.trick(gid, 1, 0).resolution["winner"] is None
        banner = (By.ID, "tv-banner")
        wait(browser).until(ec.text_to_be_present_in_element(banner, why))
        assert browser.find_element(*banner).text.lower().count(nobody) == 1
        top, bottom, height = browser.execute_script(
            "const r = document.getElementById('tv-banner').getBoundingClientRect();"
            "return [r.top, r.bottom, innerHeight];"
        )
        assert top >= 0 and bottom <= height, (top, bottom, height)


@pytest.mark.parametrize(
    ("size", "mobile"),
    [((1280, 720), False), ((1920, 1080), False), ((640, 360), True), ((844, 390), True)],
)
def test_a_tall_banner_ends_above_the_tvs_foot(
    server: tuple[str, GameStore], browser: Any, size: tuple[int, int], mobile: bool
) -> None:
    """Three 14s and a mermaid captured, two Loot alliances and seven players' round points:
    from 34 % of the screen's height down, the banner ran 39 px past a 720p TV's foot, the
    round's points cut off. It rises as far as it must, and no further than the top. On a
    phone held sideways (640 x 360) it is whole on the screen too, in type for a phone."""
    base, store = server
    gid = store.create_game(SEVEN_NAMES, 2, {"loot": True})
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0])
    with _screen(browser, *size, mobile=mobile):
        browser.get(base + "/tv?lang=it")
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 1"))
        # Dag leads; Ana's Harry takes three 14s and Cai's mermaid; Massimiliano's and Gus's Loot.
        trick = ["green-14", "yellow-14", "loot", "loot", "pirate-harry", "mermaid-sirena"]
        play_trick(store, gid, [*trick, "black-14"])
        banner = (By.ID, "tv-banner")
        wait(browser).until(ec.text_to_be_present_in_element(banner, "Round 1: Ana +120"))
        top, bottom, height, whole = browser.execute_script(
            "const b = document.getElementById('tv-banner'), r = b.getBoundingClientRect();"
            "return [r.top, r.bottom, innerHeight, b.scrollHeight <= b.clientHeight];"
        )
    assert top >= 0 and bottom <= height and whole, (top, bottom, height, whole)


@pytest.mark.parametrize(
    ("size", "mobile"),
    [
        ((360, 640), True),
        ((640, 360), True),
        ((844, 390), True),
        ((1280, 720), False),
        ((1920, 1080), False),
    ],
)
def test_the_final_board_cuts_no_name_it_has_room_for(
    server: tuple[str, GameStore], browser: Any, size: tuple[int, int], mobile: bool
) -> None:
    """The game over drops the Bid and Won columns, but the names kept the width they had
    beside them: an upright phone's final board read "Barto…" and "Mass…" with a third of
    its width empty, the 1080p TV's "Massimiliano Bartol…" (a game night's final screen)."""
    base, store = server
    names = ["Ana", "Bartolomeo", "Cai", "Dag", "Eve", "Massimiliano Bartolomei", "Gus"]
    gid = store.create_game(names, 2, {})
    store.finish_game(gid)
    with _screen(browser, *size, mobile=mobile):
        browser.get(f"{base}/game/{gid}/tv?lang=it")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tv-table.over .pname"))
        cut, right, width = browser.execute_script(
            "const names = [...document.querySelectorAll('#tv-table .pname')];"
            "const box = document.getElementById('tv-table').getBoundingClientRect();"
            "const room = document.querySelector('.tv-scores').getBoundingClientRect();"
            "return [names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent),"
            " box.right, Math.min(room.right, document.documentElement.clientWidth)];"
        )
    assert cut == []
    assert right <= width + 0.5  # within its column: not over the side's cards and chart


def test_a_trick_with_a_card_missing_is_asked_to_be_corrected_not_confirmed(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A game night's camera missed the last card of two tricks: the TV and the phones asked
    "La presa 5 del round 9 sembra dubbia: confermala o correggila." while the phones offered
    Correct only (the server refuses to confirm a trick with a card missing)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2")), flags=["short"])
    store.create_prompt(gid, "flagged", 1, 0, payload={"flags": ["short"]})
    said = "La presa 1 del round 1 non si può contare così come è stata registrata: correggila."
    for page, where in [("/tv", "tv-prompts"), (f"/game/{gid}/bids", "prompts")]:
        browser.get(f"{base}{page}?lang=it")
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, where), said))
        assert "confermala" not in browser.find_element(By.ID, where).text


def test_a_double_tap_on_start_sets_up_one_game(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Two taps before the page moved on made two games (the phone landed on the second, the
    first stayed behind as an unfinished copy)."""
    base, store = server
    browser.get(base + "/setup")
    inputs = browser.find_elements(By.CSS_SELECTOR, "input.player-name")
    for box, name in zip(inputs, ["Xena", "Yuri", "Zed"], strict=True):
        box.send_keys(name)
    start = browser.find_element(By.ID, "start-game")
    browser.execute_script("arguments[0].click(); arguments[0].click();", start)
    wait(browser).until(ec.url_contains("/bids"))
    assert [g.players for g in store.games()] == [["Xena", "Yuri", "Zed"]]


def test_a_page_come_back_to_shows_the_correction_made_meanwhile(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Back to the tricks list after correcting a card on the trick's page: the list came
    from the browser's back/forward cache, streaming "from now", and kept the old card."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    play_trick(store, gid, ["green-5", "green-9", "green-13"])
    browser.get(f"{base}/game/{gid}/tricks")
    wait(browser).until(ec.text_to_be_present_in_element((By.TAG_NAME, "main"), "Parrot 13"))
    browser.get(f"{base}/game/{gid}/round/1/trick/0")
    store.correct_play(gid, 1, 0, 2, card="green-11")
    browser.back()
    wait(browser).until(ec.text_to_be_present_in_element((By.TAG_NAME, "main"), "Parrot 11"))


_TV_BOTTOMS = """
const bottom = (el) => el ? Math.round(el.getBoundingClientRect().bottom) : 0;
const last = (sel) => { const all = document.querySelectorAll(sel); return all[all.length - 1]; };
return {rows: bottom(last('#tv-table tbody tr')), cards: bottom(last('#tv-live-cards li')),
        scores: bottom(document.querySelector('.tv-scores')),
        chart: bottom(document.querySelector('#tv-chart svg')),
        winner: document.getElementById('tv-winner').getBoundingClientRect().height};
"""


def test_the_tv_fits_eight_long_names_with_every_card_on_the_table(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Each card's line wrapped to two under a long name, and the chart below ran off the
    screen (the board cannot scroll); a tie of long names took four lines of the head."""
    base, store = server
    names = [
        "Maximiliano Fernández-García de la Vega",
        "Søren Ærø Østergaard-Christiansen",
        "Giulia D'Annunzio-Bellini Rossi",
        "Wolfeschlegelsteinhausenbergerdorff",
        "Jean-François Pérez-Lefebvre",
        "Hanne-Marie Kristensen-Bjørnsen",
        "Ñoño Ibáñez Núñez de Arce",
        "Ævar Þór Ólafsson-Långström",
    ]
    gid = store.create_game(names, 7, {"rounds": 1})
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0, 0])
    order = [(store.state(gid)["leader"] + i) % 8 for i in range(8)]
    cards = [f"green-{r}" for r in range(3, 9)] + ["mermaid-sirena", "escape"]
    plays = [{"player": p, "card": c} for p, c in zip(order, cards, strict=True)]
    store.set_live(gid, 1, 0, plays, leader=order[0], winner=order[6])
    store.create_prompt(gid, "flagged", 1, 0)
    _open_on_a_screen(browser, base + "/tv", 1920, 1080)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 8)
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tv-chart svg"))
    assert browser.execute_script("return document.documentElement.scrollHeight") <= 1080
    seen = browser.execute_script(_TV_BOTTOMS)
    assert max(seen["rows"], seen["cards"], seen["chart"]) <= 1080, seen
    assert seen["rows"] <= seen["scores"], seen  # the last row is not cut off by the footer
    # Seven of them tie on 10 (each bid 0 and lost the trick of escapes and loot).
    store.set_bids(gid, 1, [0] * 8)
    escapes = ["escape"] * 5 + ["loot", "loot", "tigress:escape"]
    store.record_trick(
        gid, 1, 0, [{"player": p, "card": c} for p, c in zip(order, escapes, strict=True)]
    )
    wait(browser).until(lambda d: d.find_element(By.ID, "tv-winner").is_displayed())
    seen = browser.execute_script(_TV_BOTTOMS)
    assert seen["winner"] < 1.5 * 0.06 * 1080, seen  # one line of 6vh text, cut with "…"
    assert max(seen["rows"], seen["cards"], seen["chart"]) <= 1080, seen


def _eight_under_a_head_full_of_notices(
    store: GameStore, settings: dict[str, Any] | None = None
) -> int:
    """A game of eight whose TV shows every notice: no camera, a bid missing, a warning (a
    trick led out of turn) and two questions, with three cards on the table."""
    names = ["Maximiliano", "Christopher", "Jean-Baptiste", "Bartholomew"]
    names += ["Anne-Sophie", "Guðmundur", "Wilhelmina", "Konstantin"]
    gid = store.create_game(names, 0, {"rounds": 2, **(settings or {})})
    store.set_bids(gid, 1, [0] * 8)
    wrong = [{"player": (2 + i) % 8, "card": f"green-{i + 3}"} for i in range(8)]  # Ben leads
    store.record_trick(gid, 1, 0, wrong)  # "... led, but by the rules Christopher leads it"
    store.set_bids(gid, 2, [1, 0, None, 0, 1, 0, 0, 0])
    leader = store.state(gid)["leader"]
    plays = [{"player": (leader + i) % 8, "card": f"yellow-{i + 2}"} for i in range(3)]
    store.set_live(gid, 2, 0, plays, leader=leader, winner=plays[2]["player"])
    store.create_prompt(gid, "flagged", 1, 0)
    store.create_prompt(gid, "tigress", 2, 0, player=3)
    store.set_camera_missing(True)
    return gid


def _open_tv_with_every_notice(
    browser: Any, url: str, width: int, height: int, camera: bool = True
) -> None:
    """The TV of ``_eight_under_a_head_full_of_notices`` on a width x height screen, once
    every notice is up; without ``camera``'s (a data folder that cannot be written does not
    show what the run before left of it)."""
    _open_on_a_screen(browser, url, width, height)
    if camera:
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-no-camera").is_displayed())
    wait(browser).until(lambda d: d.find_element(By.ID, "tv-missing-bids").is_displayed())
    wait(browser).until(lambda d: d.find_element(By.ID, "tv-warnings").is_displayed())
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-prompts *")) >= 2)
    assert browser.find_element(By.ID, "tv-no-camera").is_displayed() == camera


def test_the_tv_keeps_every_row_of_eight_under_a_head_full_of_notices(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """No camera, a bid missing, a warning and two questions: the no-camera notice was three
    lines of command line, and at 1280 x 720 in Spanish four and a half of eight rows showed
    (a review of screenshots, session 50). The leader's name is underlined (the rule did not
    reach it), and the game over drops the Bid and Won columns."""
    base, store = server
    gid = _eight_under_a_head_full_of_notices(store)
    leader = store.state(gid)["leader"]
    for width, height in ((1280, 720), (1920, 1080)):
        _open_tv_with_every_notice(browser, f"{base}/game/{gid}/tv?lang=es", width, height)
        seen = browser.execute_script(_TV_BOTTOMS)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#tv-table tbody tr")) == 8
        assert seen["rows"] <= min(seen["scores"], height), (width, seen)
        no_camera = browser.find_element(By.ID, "tv-no-camera").text
        assert "--camera" not in no_camera and no_camera.startswith("Sin cámara")
    underline = browser.execute_script(
        "return getComputedStyle(document.querySelector('#tv-table tr.leader .pname'))"
        ".textDecorationLine"
    )
    assert underline == "underline"
    store.set_live(gid, 2, 0, [], leader=leader)
    last = [{"player": (leader + i) % 8, "card": f"yellow-{i + 2}"} for i in range(8)]
    store.set_bids(gid, 2, [1, 0, 0, 0, 1, 0, 0, 0])
    store.record_trick(gid, 2, 0, last)
    store.record_trick(
        gid,
        2,
        1,
        [{"player": p["player"], "card": "escape"} for p in last[:5]]
        + [
            {"player": p["player"], "card": c}
            for p, c in zip(last[5:], ["loot", "loot", "tigress:escape"], strict=True)
        ],
    )
    wait(browser).until(lambda d: d.find_element(By.ID, "tv-winner").is_displayed())
    shown = [th.is_displayed() for th in browser.find_elements(By.CSS_SELECTOR, "#tv-table th")]
    assert shown == [True, True, False, False, True]


def test_the_tv_keeps_every_row_of_eight_under_every_notice_and_the_read_only_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    browser: Any,
) -> None:
    """The same game served from a data folder that cannot be written: the TV says so too
    (base.html's notice over the board), and not the no-camera notice the run before left
    (it said to enter the tricks by hand, which cannot be done there). Eight rows, the cards
    and the questions stay on a 720p and a 1080p screen in every language, with nothing to
    scroll, and the notice is whole in its tooltip where the screen cuts it short."""
    from test_web_read_only_pages import _unwritable

    store = GameStore(tmp_path / "data")
    gid = _eight_under_a_head_full_of_notices(store)
    store.close()
    _unwritable(monkeypatch, tmp_path / "data")
    base, served = request.getfixturevalue("server")
    said = {lang: served.read_only_reason() for lang in ("en", "es", "it", "da")}
    assert all(said.values())
    for lang in said:
        for width, height in ((1280, 720), (1920, 1080)):
            url = f"{base}/game/{gid}/tv?lang={lang}"
            _open_tv_with_every_notice(browser, url, width, height, camera=False)
            seen = browser.execute_script(_TV_BOTTOMS)
            note = browser.find_element(By.ID, "read-only-note")
            where = (lang, width, seen, note.rect)
            assert note.is_displayed(), where
            assert note.get_attribute("title") == note.get_attribute("textContent"), where
            assert note.rect["y"] + note.rect["height"] <= 0.2 * height, where  # 2 lines
            assert len(browser.find_elements(By.CSS_SELECTOR, "#tv-table tbody tr")) == 8
            assert seen["rows"] <= min(seen["scores"], height), where
            assert max(seen["cards"], seen["chart"]) <= height, where
            scroll = browser.execute_script("return document.documentElement.scrollHeight")
            assert scroll <= height, where
            asked = browser.execute_script(
                "const all = document.querySelectorAll('#tv-prompts .prompt');"
                "return all.length ? all[all.length - 1].getBoundingClientRect().bottom : 0;"
            )
            assert asked <= height, where
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_TV_UNDER_THE_STOP = """
const box = (el) => el.getBoundingClientRect();
const stop = box(document.getElementById('tv-error')).top;
const shown = [...document.querySelectorAll('#tv-prompts .prompt, #tv-prompts .tv-more')]
  .filter((el) => !el.hidden);
const cards = document.querySelectorAll('#tv-live-cards li');
const rows = document.querySelectorAll('#tv-table tbody tr');
return {stop, side: box(document.querySelector('.tv-side')).bottom,
        cards: box(cards[cards.length - 1]).bottom, rows: box(rows[rows.length - 1]).bottom,
        shown: shown.map((el) => [el.className, el.textContent, box(el).bottom])};
"""


def test_the_tv_counts_the_questions_it_has_no_room_for_above_the_scores_stop(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A game night of eight: eight cards on the table, questions open and the score
    stopped on a card read twice. The red line saying why lay over the board's foot, and the
    third question under it (and past the column), unseen, with nothing saying it was there.
    Now the board ends above the line, and the questions that do not fit are counted."""
    base, store = server
    names = ["Margrethe", "Alessandro", "Bo", "Kristoffer"]
    names += ["Francesca", "Søren", "Giuseppina", "Niccolò"]
    gid = store.create_game(names, 5, {"rounds": 3})
    for r in (1, 2):
        store.set_bids(gid, r, [0] * 8)
        lead = store.state(gid)["leader"]
        suit = "green" if r == 1 else "yellow"
        cards = [f"{suit}-{i + 3}" for i in range(8)]
        store.record_trick(
            gid, r, 0, [{"player": (lead + i) % 8, "card": cards[i]} for i in range(8)]
        )
    lead = store.state(gid)["leader"]
    twice = ["yellow-3"] + [f"purple-{i + 3}" for i in range(7)]  # yellow-3 again: the score stops
    store.record_trick(gid, 2, 1, [{"player": (lead + i) % 8, "card": twice[i]} for i in range(8)])
    for r, t in ((1, 0), (2, 0), (2, 1)):
        store.create_prompt(gid, "flagged", r, t)
    # Five questions: three fitted at 720p once the head was set closer (c63bcc4), and the
    # test must still see some counted there.
    store.create_prompt(gid, "tigress", 2, 1, player=(lead + 1) % 8)
    store.create_prompt(gid, "rascal_bet", 2, 1, player=(lead + 2) % 8)
    store.set_bids(gid, 3, [0] * 8)
    lead = store.state(gid)["leader"]
    live = [{"player": (lead + i) % 8, "card": f"black-{i + 3}"} for i in range(8)]
    store.set_live(gid, 3, 0, live, leader=lead, winner=live[7]["player"])
    assert not store.score(gid)["ok"]
    for width, height in ((1280, 720), (1920, 1080)):
        _open_on_a_screen(browser, f"{base}/game/{gid}/tv", width, height)
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-error").is_displayed())
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 8
        )
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-prompts .prompt")) == 5
        )
        seen = browser.execute_script(_TV_UNDER_THE_STOP)
        assert max(seen["side"], seen["cards"], seen["rows"]) <= seen["stop"], (width, seen)
        questions = [text for kind, text, _ in seen["shown"] if kind == "prompt"]
        more = [text for kind, text, _ in seen["shown"] if kind == "tv-more"]
        assert all(end <= seen["side"] + 0.5 for _, _, end in seen["shown"]), (width, seen)
        assert questions and questions[0].startswith("Round 1, trick 1"), (width, seen)
        left = 5 - len(questions)
        assert more == (
            []
            if not left
            else [f"+{left} more question" + ("s" if left > 1 else "") + " on the phones"]
        ), (width, seen)
        if height == 720:
            assert left, seen  # the case seen: not all fit under eight cards at 720p
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _eight_cards_under_three_questions(store: GameStore) -> int:
    """A game night of eight in round 4 of 4: rounds 1 to 3 played (a round's tricks green,
    yellow and purple, 3 to 10 each, so no card is played twice), a question open on each of
    the first three tricks, and round 4's eight cards on the table."""
    names = ["Margrethe", "Alessandro", "Bo", "Kristoffer"]
    names += ["Francesca", "Søren", "Giuseppina", "Niccolò"]
    gid = store.create_game(names, 5, {"rounds": 4})
    for r in (1, 2, 3):
        store.set_bids(gid, r, [0] * 8)
        for t, suit in enumerate(["green", "yellow", "purple"][:r]):
            lead = store.state(gid)["leader"]
            trick = [{"player": (lead + i) % 8, "card": f"{suit}-{i + 3}"} for i in range(8)]
            store.record_trick(gid, r, t, trick)
    for r, t in ((1, 0), (2, 0), (2, 1)):
        store.create_prompt(gid, "flagged", r, t)
    store.set_bids(gid, 4, [0] * 8)
    lead = store.state(gid)["leader"]
    live = [{"player": (lead + i) % 8, "card": f"black-{i + 3}"} for i in range(8)]
    store.set_live(gid, 4, 0, live, leader=lead, winner=live[7]["player"])
    return gid


def _tv_questions(browser: Any) -> tuple[list[str], list[str]]:
    """The questions the TV shows and its "+N more" line, once each shown one is checked to
    end inside the side column."""
    seen = browser.execute_script(_TV_UNDER_THE_STOP)
    assert all(end <= seen["side"] + 0.5 for _, _, end in seen["shown"]), seen
    questions = [text for kind, text, _ in seen["shown"] if kind == "prompt"]
    return questions, [text for kind, text, _ in seen["shown"] if kind == "tv-more"]


def test_the_tv_counts_the_questions_again_when_the_score_stops_or_goes_on(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """At 1080p in Spanish, with no camera, eight cards on the table and three questions
    open, a correction that stopped the score (a card read twice) brought the red line up
    across the board's foot, and the third question ran under it, uncounted, until the next
    event: the questions were fitted to the room the last render had left, before the line
    was shown. Taken back, the score went on and a question stayed counted with room for it.
    Now the questions are fitted after the line, as a page loaded then fits them."""
    base, store = server
    gid = _eight_cards_under_three_questions(store)
    store.set_camera_missing(True)
    with _screen(browser, 1920, 1080):
        browser.get(f"{base}/game/{gid}/tv?lang=es")
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-no-camera").is_displayed())
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 8
        )
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-prompts .prompt")) == 3
        )
        questions, more = _tv_questions(browser)
        assert len(questions) == 3 and not more, (questions, more)
        store.correct_play(gid, 3, 0, 0, card="purple-3")  # round 3's third trick has it too
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-error").is_displayed())
        questions, more = _tv_questions(browser)
        assert len(questions) == 2 and questions[0].startswith("La baza 1 de la ronda 1"), questions
        assert more == ["+1 pregunta más en los móviles"], more
        store.correct_play(gid, 3, 0, 0, card="green-3")  # as the camera read it
        wait(browser).until(lambda d: not d.find_element(By.ID, "tv-error").is_displayed())
        questions, more = _tv_questions(browser)
        assert len(questions) == 3 and not more, (questions, more)


def test_the_chart_under_a_head_full_of_notices_is_readable_or_left_out(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The chart took what the head and the cards left: a thumbnail 26 px high at 720p in
    Italian (3.6% of the screen, its labels 2 px), 62 px in Spanish and Danish (a review of
    screenshots). It is 18% of the screen high at least, or it is left out with its
    heading, and never cut off. Left out, it leaves no empty box between the cards on the
    table and the questions (78 px at 720p in Italian, 182 px at 1080p in Spanish)."""
    base, store = server
    gid = _eight_under_a_head_full_of_notices(store)
    seen: dict[tuple[str, int], bool] = {}
    for lang in ("en", "es", "it", "da"):
        for width, height in ((1280, 720), (1920, 1080)):
            _open_tv_with_every_notice(browser, f"{base}/game/{gid}/tv?lang={lang}", width, height)
            chart = browser.find_element(By.CSS_SELECTOR, "#tv-chart svg")
            heading = browser.find_element(By.CSS_SELECTOR, ".tv-chart h2")
            shown = chart.is_displayed()
            assert heading.is_displayed() == shown
            side, cards_end, questions = browser.execute_script(
                "const box = (css) => document.querySelector(css).getBoundingClientRect();"
                "return [box('.tv-side').bottom, box('.tv-live').bottom, box('#tv-prompts').top];"
            )
            if shown:
                assert chart.size["height"] >= 0.18 * height, (lang, width, chart.size)
                assert chart.location["y"] + chart.size["height"] <= side + 0.5, (lang, width)
            else:
                assert questions - cards_end <= 0.015 * height, (lang, width, questions, cards_end)
            seen[lang, height] = shown
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # English leaves it room: it is there.
    assert seen["en", 720] and seen["en", 1080], seen


_TV_CUT = """
const cut = (el) => el.scrollWidth > el.clientWidth;
const row = document.querySelector('#tv-live-cards li.winning');
return {head: Math.max(...[...document.querySelectorAll('.tv-head > *')]
          .filter((el) => !el.hidden).map((el) => el.getBoundingClientRect().right)),
        cut: [...row.children].filter(cut).map((el) => el.textContent),
        tag: row.querySelector('.tag').title};
"""


def test_the_tvs_head_and_winning_card_fit_under_a_head_full_of_notices(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """At 1280 x 720 in English the winner's row on the table read "Anne-Soph… Treasure
    Chest… winn" (a review of screenshots): "winning now" gives way to a star where the row
    has no room for it, and the name and the card stay whole."""
    base, store = server
    gid = _eight_under_a_head_full_of_notices(store)
    words = {"en": "winning now", "es": "gana ahora", "it": "vince ora", "da": "vinder nu"}
    for lang, said in words.items():
        _open_tv_with_every_notice(browser, f"{base}/game/{gid}/tv?lang={lang}", 1280, 720)
        seen = browser.execute_script(_TV_CUT)
        assert seen["head"] <= 1280 and not seen["cut"] and seen["tag"] == said, (lang, seen)
        row = browser.find_element(By.CSS_SELECTOR, "#tv-live-cards li.winning")
        assert said in row.get_attribute("textContent")  # a screen reader still hears it
        assert len(browser.find_elements(By.CSS_SELECTOR, "#tv-table tbody tr")) == 8
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_tv_and_the_bids_page_say_what_the_score_warns_about(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was: the tricks page said the score counts a trick as played out of turn; the TV and
    the phones showed the same totals without a word. The TV says it in one small line that
    leaves the board on the screen."""
    base, store = server
    gid = game_with_round_2_led_by_the_read_winner(store)
    store.correct_play(gid, 2, 0, 2, card="tigress:pirate")
    english = "round 2: trick 2: Ana led, but by the rules Ben leads it; scored as played"
    browser.set_window_size(1920, 1200)
    with _screen(browser, 1920, 1080):
        browser.get(f"{base}/game/{gid}/tv")
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-warnings"), english))
        line = browser.find_element(By.ID, "tv-warnings")
        # 3.6vh (2.6vh was too small from 3 m), on at most two lines: the rest is cut.
        assert line.text == "⚠ " + english and line.size["height"] < 2.5 * 0.036 * 1080
        assert line.value_of_css_property("font-size") == f"{0.036 * 1080:g}px"
        assert browser.execute_script("return document.documentElement.scrollHeight") <= 1080
        seen = browser.execute_script(_TV_BOTTOMS)
        assert max(seen["rows"], seen["cards"], seen["chart"]) <= 1080, seen
        store.correct_play(gid, 2, 0, 2, card="green-2")  # undone: the line goes
        wait(browser).until(lambda d: not d.find_element(By.ID, "tv-warnings").is_displayed())
    store.correct_play(gid, 2, 0, 2, card="tigress:pirate")
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids?lang=es")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "score-warnings"), "se puntúa"))
    assert browser.find_element(By.ID, "score-warnings").text == (
        "⚠ ronda 2: baza 2: salió Ana, pero según las reglas sale Ben; se puntúa tal como se jugó"
    )


def test_replay_labels_stay_on_the_picture_on_a_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A label of a card at the picture's right edge (a long name, its player, its confidence)
    ran past the picture on a 390 px phone (to 416 px, the picture ending at 378)."""
    base, store = server
    url = _four_card_trick(store)
    with _replay_on_a_phone(browser, base + url, 390, 844):
        picture, labels = browser.execute_script(
            "const r = r => [r.left, r.right];"
            "return [r(document.querySelector('svg.overlay').getBoundingClientRect()),"
            " [...document.querySelectorAll('svg.overlay text')]"
            ".map(t => r(t.getBoundingClientRect()))];"
        )
    assert len(labels) == 4
    for left, right in labels:
        assert picture[0] - 1 <= left and right <= picture[1] + 1


def _four_card_trick(
    store: GameStore,
    centres: list[tuple[int, int]] = SEATS,
    cards: tuple[str, ...] = ("green-13", "green-12", "green-11", "mermaid-sirena"),
) -> str:
    """A recorded trick of four ``cards``, with its picture (the cards at ``centres``, by
    default where ``play_trick`` lays them): its replay page's address."""
    gid = store.create_game(["Ana", "Ben", "Cai", "Hanne-Marie"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0, 0])
    play_trick(store, gid, list(cards), store.game_dir(gid), centres)
    return f"/game/{gid}/round/1/trick/0"


@contextmanager
def _replay_on_a_phone(browser: Any, url: str, width: int, height: int) -> Iterator[None]:
    """A replay page on a phone's screen, its picture loaded; the screen put back after."""
    with _screen(browser, width, height, mobile=True):
        browser.get(url)
        wait(browser).until(
            lambda d: (
                d.execute_script("return document.getElementById('trick-image').naturalWidth")
                == 640
            )
        )
        yield


def test_every_page_shows_a_negative_score_with_the_same_minus_sign(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The TV's totals, the bids page's and the tricks page's read "-10" while the TV's
    round banner read "−10": every page now writes the minus sign (U+2212)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 1, 1])
    play_trick(store, gid, ["green-9", "green-2", "green-3"])  # Ben leads and wins: 2 miss
    totals = store.score(gid)["score"]["totals"]
    assert totals == [-10, 20, -10]
    minus_ten = f"{MINUS}10"

    browser.get(f"{base}/game/{gid}/tv")
    wait(browser).until(lambda d: _tv_totals(d) == {"Ana": -10, "Ben": 20, "Cai": -10})
    assert browser.execute_script(
        "return [...document.querySelectorAll('#tv-table td.total')].map(td => td.textContent)"
    ) == ["20", minus_ten, minus_ten]
    browser.get(f"{base}/game/{gid}/bids")
    totals_line = (By.ID, "bid-totals")
    wait(browser).until(ec.text_to_be_present_in_element(totals_line, "Total"))
    assert browser.find_element(*totals_line).text == (
        f"Total: Ana {minus_ten} · Ben 20 · Cai {minus_ten}"
    )
    browser.get(f"{base}/game/{gid}/tricks")
    points = browser.find_elements(By.CSS_SELECTOR, "#round-1-score tbody td:last-child")
    assert [td.text for td in points] == [minus_ten, "20", minus_ten]
    store.finish_game(gid)
    browser.get(f"{base}/history")
    result = browser.find_element(By.CSS_SELECTOR, f"#history-game-{gid} .totals").text
    assert result == f"Total: Ben 20 · Ana {minus_ten} · Cai {minus_ten}"  # best first


def test_replay_labels_are_legible_and_apart_on_a_small_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The labels were sized in the picture's pixels: 15 of them drew 8 CSS px tall on a
    360 px phone, and four cards laid close together had their labels over each other."""
    base, store = server
    close_together = [(200, 150), (230, 162), (260, 174), (290, 186)]
    with _replay_on_a_phone(browser, base + _four_card_trick(store, close_together), 360, 640):
        picture, labels = browser.execute_script(
            "const svg = document.querySelector('svg.overlay');"
            "const box = (e) => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; };"
            "const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
            "return [box(svg), [...svg.querySelectorAll('text')].map((t) =>"
            " [parseFloat(getComputedStyle(t).fontSize) * scale, box(t)])];"
        )
    assert len(labels) == 4
    assert min(size for size, _ in labels) >= 12, labels
    for i, (_, (left, top, right, bottom)) in enumerate(labels):
        assert picture[0] - 1 <= left and right <= picture[2] + 1
        for _, (left2, top2, right2, bottom2) in labels[i + 1 :]:
            apart = right <= left2 or right2 <= left or bottom <= top2 or bottom2 <= top
            assert apart, labels


_REPLAY_MARKS = """
const svg = document.querySelector('svg.overlay');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return [[...svg.querySelectorAll('text')].map((t) => t.textContent.replace(/\\s+/g, ' ').trim()),
        [...svg.querySelectorAll('rect')]
          .map((r) => parseFloat(getComputedStyle(r).strokeWidth) * scale)];
"""


def test_replay_labels_say_the_play_order_and_the_winner(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The picture's labels named each card and its player; only the list beside it said in
    what order they were played and which one won. Each label now starts with its place in
    the order, and the winner's has the list's star, its box drawn bolder."""
    base, store = server
    url = _four_card_trick(store)  # the Mermaid, played fourth, takes three Parrots
    for width, height in ((360, 640), (1280, 800)):
        with _replay_on_a_phone(browser, base + url, width, height):
            labels, strokes = browser.execute_script(_REPLAY_MARKS)
        assert [label[:3] for label in labels] == ["1. ", "2. ", "3. ", "4. "], labels
        assert [i for i, label in enumerate(labels) if "★" in label] == [3], labels
        assert "Mermaid Sirena ★" in labels[3], labels
        assert strokes[3] >= max(3.5, 2 * max(strokes[:3])), (width, strokes)


_LABELS_OVER = """
const svg = document.querySelector('svg.overlay');
const box = (e) => e.getBoundingClientRect();
const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
const texts = [...svg.querySelectorAll('text')], cards = [...svg.querySelectorAll('rect')];
return texts.map((t, i) => [parseFloat(getComputedStyle(t).fontSize) * box(svg).width
    / svg.viewBox.baseVal.width, box(t).width * box(t).height - area(box(t), box(svg)),
  cards.reduce((sum, c, j) => sum + (i === j ? 0 : area(box(t), box(c))), 0),
  texts.reduce((sum, u, j) => sum + (i === j ? 0 : area(box(t), box(u))), 0)]);
"""


def test_long_replay_labels_lie_off_the_other_cards_on_a_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """On one line above its card, "Harry il Gigante · Cai 87%" (240 px) was five cards wide
    on a 360 px phone and lay over the card beside it (343 px² of it; 413 px² of other cards
    under the four labels in Italian, 558 in English). A label is now two lines, the card and
    whose it is, beside its card where it covers no other card nor label."""
    base, store = server
    pirates = ("green-13", "pirate-harry", "pirate-rascal", "mermaid-sirena")
    url = base + _four_card_trick(store, cards=pirates)
    for lang in ("it", "es", "en"):
        for width, height in ((360, 640), (1280, 800)):
            with _replay_on_a_phone(browser, f"{url}?lang={lang}", width, height):
                labels = browser.execute_script(_LABELS_OVER)
            assert len(labels) == 4
            for size, outside, over_cards, over_labels in labels:
                assert size == pytest.approx(14, abs=0.1), (lang, width, labels)
                assert outside < 1 and over_cards < 1 and over_labels < 1, (lang, width, labels)


_LABELS_NEAR = """
const svg = document.querySelector('svg.overlay');
const box = (e) => e.getBoundingClientRect();
const apart = (a, b) => Math.hypot(Math.max(0, a.left - b.right, b.left - a.right),
  Math.max(0, a.top - b.bottom, b.top - a.bottom));
const cards = [...svg.querySelectorAll('rect')];
return [...svg.querySelectorAll('text')].filter((t, i) => cards.some((c, j) =>
  j !== i && apart(box(t), box(c)) < apart(box(t), box(cards[i])) - 0.5)).length;
"""


def test_eight_replay_labels_lie_by_their_own_cards(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Eight cards in a ring: six labels lay nearer another card than their own on a 360 px
    phone (one at 1280 px), read as that card's. Eight in a row, two of them corrected, froze
    the page on a phone while a corrected label's second line named the picture's card too (a
    label slid past another met it again by a rounding error): it loads."""
    base, store = server
    names = ["Ana", "Ben", "Cai", "Hanne-Marie", "Maximiliano", "Søren", "Wilhelmina", "Konstantin"]
    cards = ["green-13", "green-12", "green-11", "green-10", "yellow-9", "purple-8", "black-7"]
    cards.append("mermaid-sirena")
    ring = [
        (274 + round(190 * math.cos(i * math.pi / 4)), 173 + round(150 * math.sin(i * math.pi / 4)))
        for i in range(8)
    ]
    row = [(8 + i * 78, 170) for i in range(8)]
    urls = []
    for spots in (ring, row):
        gid = store.create_game(names, 0, {})
        store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0, 0])
        play_trick(store, gid, cards, store.game_dir(gid), spots)
        urls.append(f"{base}/game/{gid}/round/1/trick/0")
    for width, height, most in ((360, 640, 2), (1280, 800, 0)):
        with _replay_on_a_phone(browser, urls[0], width, height):
            assert browser.execute_script(_LABELS_NEAR) <= most, width
    gid = int(urls[1].split("/")[4])
    store.correct_play(gid, 1, 0, 2, card="green-2")
    store.correct_play(gid, 1, 0, 5, card="purple-3")
    browser.set_page_load_timeout(30)
    with _replay_on_a_phone(browser, urls[1], 360, 640):
        assert len(browser.find_elements(By.CSS_SELECTOR, "svg.overlay text")) == 8


_LABELS_OUT = """
const svg = document.querySelector('svg.overlay').getBoundingClientRect();
return [...document.querySelectorAll('svg.overlay text')].map((t) => t.getBoundingClientRect())
  .filter((b) => b.top < svg.top - 0.5 || b.bottom > svg.bottom + 0.5).length;
"""


def test_an_eight_card_replay_keeps_every_label_on_its_picture(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A game night of eight, read in Italian on a 360 px phone: the cards as the camera
    boxed them in round 3's second trick. With no free place above or below its card, the
    label of the card at the top of the picture was slid up past the picture's top, over the
    "Round e prese" button (3 of 15 tricks in Italian). It stays on the picture now."""
    import cv2
    import numpy as np

    base, store = server
    names = ["Margrethe", "Alessandro", "Bo", "Kristoffer"]
    names += ["Francesca", "Søren", "Giuseppina", "Niccolò"]
    gid = store.create_game(names, 2, {"rounds": 4})
    seen = [
        ("black-4", [184, 92, 286, 196]),
        ("black-2", [300, 81, 366, 174]),
        ("purple-1", [364, 107, 460, 211]),
        ("yellow-13", [401, 192, 496, 258]),
        ("purple-9", [355, 280, 464, 380]),
        ("black-1", [287, 328, 348, 424]),
        ("green-9", [178, 278, 277, 389]),
        ("black-13", [140, 202, 242, 278]),
    ]
    image = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    for _, (x1, y1, x2, y2) in seen:
        cv2.rectangle(image, (x1, y1), (x2, y2), (235, 235, 230), -1)
    frame = store.game_dir(gid) / "r01t00.jpg"
    cv2.imwrite(str(frame), image)
    leader = store.state(gid)["leader"]
    plays = [
        {"player": (leader + k) % 8, "card": c, "confidence": 0.9} for k, (c, _) in enumerate(seen)
    ]
    cards = [{**p, "box": box} for p, (_, box) in zip(plays, seen, strict=True)]
    dets = {"image_size": [640, 480], "cards": cards}
    store.set_bids(gid, 1, [0] * 8)
    store.record_trick(gid, 1, 0, plays, completion_image=frame, detections=dets)
    with _replay_on_a_phone(browser, f"{base}/game/{gid}/round/1/trick/0?lang=it", 360, 640):
        assert len(browser.find_elements(By.CSS_SELECTOR, "svg.overlay text")) == 8
        assert browser.execute_script(_LABELS_OUT) == 0
        assert browser.execute_script(_LABELS_NEAR) <= 2


def test_the_labels_of_cards_piled_up_lie_apart_on_a_small_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Seven or eight cards piled up, each 30 px right of and 14 px below the last, on a
    360 px phone: eight two-line labels are taller than the picture, no spot beside a card nor
    above or below one was free, and the last labels lay over the others (1,448 px² of them in
    Italian, 356 in English, 30 in Danish). Each takes a free spot anywhere on the picture."""
    base, store = server
    names = ["Ana", "Ben", "Cai", "Hanne-Marie", "Maximiliano", "Søren", "Wilhelmina", "Konstantin"]
    cards = ["pirate-harry", "green-13", "mermaid-sirena", "pirate-rascal", "yellow-12"]
    cards += ["black-7", "purple-8", "escape"]
    urls = []
    for n in (7, 8):
        gid = store.create_game(names[:n], 0, {})
        store.set_bids(gid, 1, [1] + [0] * (n - 1))
        pile = [(150 + 30 * i, 120 + 14 * i) for i in range(n)]
        play_trick(store, gid, cards[:n], store.game_dir(gid), pile)
        urls.append(f"{base}/game/{gid}/round/1/trick/0")
    placed = (
        "return [...document.querySelectorAll('svg.overlay text')]"
        ".every((t) => t.transform.baseVal.length)"
    )
    for url in urls:
        for lang in ("en", "it", "da"):
            with _replay_on_a_phone(browser, f"{url}?lang={lang}", 360, 640):
                wait(browser).until(lambda d: d.execute_script(placed))
                labels = browser.execute_script(_LABELS_OVER)
                off = browser.execute_script(_LABELS_OUT)
            over_labels = [round(over) for _, _, _, over in labels]
            assert off == 0 and max(over_labels) < 1, (url, lang, over_labels)
            assert all(size == pytest.approx(14, abs=0.1) for size, *_ in labels), (lang, labels)


def _tv_with_its_camera_notice_hidden(
    base: str, store: GameStore, browser: Any
) -> tuple[int, tuple[str, str]]:
    """A new game on the TV, its camera line (missing, or seeing badly) not shown yet."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 1"))
    notice = (By.ID, "tv-no-camera")
    assert not browser.find_element(*notice).is_displayed()
    return gid, notice


def test_the_tv_says_when_no_camera_records_the_game(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """skullcam run with no camera and the table's game in progress serves the pages but
    records nothing: the board looked watched all the same."""
    base, store = server
    gid, notice = _tv_with_its_camera_notice_hidden(base, store, browser)
    store.set_camera_missing(True)  # as the run does; the page hears it as an event
    wait(browser).until(lambda d: d.find_element(*notice).is_displayed())
    assert "tricks are not being recorded" in browser.find_element(*notice).text
    # No command line on the TV, read across the room (it took three lines of the head);
    # the phones give it.
    assert "--camera" not in browser.find_element(*notice).text
    store.set_camera_missing(False)
    wait(browser).until(lambda d: not d.find_element(*notice).is_displayed())
    # A recording played as the camera that ran out of frames mid-game: a normal round showed.
    store.set_camera_missing(True, "frames_ended")
    ran_out = "The camera's frames ran out: nothing records tricks now."
    wait(browser).until(ec.text_to_be_present_in_element(notice, ran_out))
    store.set_camera_missing(True, "camera_failed")  # tried again: not "restart skullcam"
    wait(browser).until(ec.text_to_be_present_in_element(notice, "tries it again"))
    store.set_camera_missing(False)
    wait(browser).until(lambda d: not d.find_element(*notice).is_displayed())
    # The phones say it too: a table without a TV would not know otherwise.
    store.set_camera_missing(True, "frames_ended")
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids?lang=es")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "no-camera"), "fotogramas"))
    store.set_camera_missing(True)
    browser.get(f"{base}/game/{gid}/bids?lang=en")
    phone_notice = (By.ID, "no-camera")
    wait(browser).until(lambda d: d.find_element(*phone_notice).is_displayed())
    assert "tricks are not being recorded" in browser.find_element(*phone_notice).text
    # How to restart with a camera is folded under the bids, for whoever started skullcam.
    how = browser.find_element(By.ID, "camera-how")
    assert how.is_displayed() and not how.get_property("open")  # folded
    how.find_element(By.TAG_NAME, "summary").click()
    assert how.get_property("open") and "(skullcam run --camera 0)" in how.text


def test_the_tv_and_the_phones_say_when_the_camera_sees_badly(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A frozen, dark or blurred picture still delivers frames: nothing told the table, which
    played on while the camera saw nothing new or nothing at all, or misread soft cards (or,
    its frames read too slowly, missed cards laid and taken quickly)."""
    base, store = server
    gid, notice = _tv_with_its_camera_notice_hidden(base, store, browser)
    store.set_camera_notice({"why": "moved"})  # the tricks left the seat calibration
    wait(browser).until(ec.text_to_be_present_in_element(notice, "seats were calibrated"))
    store.set_camera_notice({"why": "slow", "source": "camera"})  # too few frames read a second
    wait(browser).until(ec.text_to_be_present_in_element(notice, "the camera's pictures"))
    # Read from a file, the notice names it, not a camera the table would look at.
    store.set_camera_notice({"why": "slow", "source": "recording"})
    wait(browser).until(ec.text_to_be_present_in_element(notice, "the recording's pictures"))
    store.set_camera_notice({"why": "slow", "source": "demo"})
    wait(browser).until(ec.text_to_be_present_in_element(notice, "the demo's pictures"))
    assert "camera" not in browser.find_element(*notice).text
    # A recording played faster than this machine reads it: it is played slower.
    store.set_camera_notice({"why": "slow", "speed": 8, "source": "recording"})
    wait(browser).until(ec.text_to_be_present_in_element(notice, "recording plays 8 times as"))
    assert "--speed 1 is real time" in browser.find_element(*notice).text
    store.set_camera_notice({"why": "slow", "speed": 8, "source": "demo"})
    wait(browser).until(ec.text_to_be_present_in_element(notice, "The demo plays 8 times as"))
    store.set_camera_notice({"why": "dark"})  # a shutter left closed
    wait(browser).until(ec.text_to_be_present_in_element(notice, "almost black"))
    store.set_camera_notice({"why": "blurred", "sharpness": 0.08})  # the live loop's event
    wait(browser).until(ec.text_to_be_present_in_element(notice, "picture is blurred"))
    assert browser.find_element(*notice).is_displayed()
    store.set_camera_notice({"why": "frozen"})
    wait(browser).until(ec.text_to_be_present_in_element(notice, "has stopped changing"))
    store.set_camera_missing(True, "camera_failed")  # reopened and failing: that is said
    wait(browser).until(ec.text_to_be_present_in_element(notice, "tries it again"))
    store.set_camera_missing(False)
    store.set_camera_notice(None)
    wait(browser).until(lambda d: not d.find_element(*notice).is_displayed())
    store.set_camera_notice({"why": "blurred", "sharpness": 0.08})
    browser.set_window_size(412, 915)
    browser.get(f"{base}/game/{gid}/bids?lang=it")
    phone_notice = (By.ID, "no-camera")
    wait(browser).until(ec.text_to_be_present_in_element(phone_notice, "è sfocata"))
    assert browser.find_element(*phone_notice).is_displayed()
    # A fractional speed with the language's decimal mark: "2.5" read as a thousands mark.
    store.set_camera_notice({"why": "slow", "speed": 2.5, "source": "recording"})
    wait(browser).until(ec.text_to_be_present_in_element(phone_notice, "scorre 2,5 volte"))


def test_the_tv_says_when_it_shows_the_demos_game(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Plain 'skullcam run' with no camera replays a recorded game on the TV: nothing said it
    was a demo, and the table took the replay for a camera watching."""
    from skullcam.device.demo_game import DEMO_MARK

    base, store = server
    store.create_game(
        ["Ana", "Ben", "Cai"], 0, {}, lambda g: (store.game_dir(g) / DEMO_MARK).touch()
    )
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Round 1"))
    note = (By.ID, "tv-demo")
    assert browser.find_element(*note).is_displayed()
    assert browser.find_element(*note).text.startswith("Demo: a recorded game replayed")
    store.create_game(["Xan", "Yui", "Zed"], 0, {})  # the table's own: the TV follows it
    wait(browser).until(lambda d: not d.find_element(*note).is_displayed())
    assert "Xan" in browser.find_element(By.ID, "tv-table").text


def test_the_tv_shows_a_player_over_the_bid_by_more_than_colour(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was (accessibility review): red text alone said a player had taken more tricks than
    bid; a colour-blind player saw a plain number."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    play_trick(store, gid, ["green-5", "green-9", "green-3"])  # round 1: Cai's 9
    store.set_bids(gid, 2, [0, 0, 0])
    play_trick(store, gid, ["yellow-5", "yellow-9", "yellow-2"])  # whoever took it is over
    browser.set_window_size(1920, 1080)
    browser.get(base + "/tv?lang=es")
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-round"), "Ronda 2"))
    won = store.state(gid)["tricks_won"]
    over = [p for p in range(3) if won[p] > 0]
    assert len(over) == 1
    row = '#tv-table tr[data-player="{}"] td.won'
    cell = browser.find_element(By.CSS_SELECTOR, row.format(over[0]))
    assert "over" in cell.get_attribute("class").split()
    mark = cell.find_element(By.CSS_SELECTOR, ".over-mark")
    shown = mark.find_element(By.CSS_SELECTOR, '[aria-hidden="true"]')
    assert shown.text == "↑" and mark.get_attribute("title") == "más bazas que las apostadas"
    assert mark.get_attribute("textContent") == "↑más bazas que las apostadas"  # said, too
    others = [p for p in range(3) if p not in over]
    for p in others:
        assert not browser.find_elements(By.CSS_SELECTOR, row.format(p) + " .over-mark")


_CORRECT_RIGHTS = """
return {width: document.documentElement.clientWidth,
        page: document.documentElement.scrollWidth,
        table: [document.getElementById('plays').scrollWidth,
                document.getElementById('plays').clientWidth],
        rights: [...document.querySelectorAll('.correct-button')]
          .map(b => Math.ceil(b.getBoundingClientRect().right))};
"""


@pytest.mark.parametrize(
    ("width", "scale", "body_font"),
    [(195, 4, ""), (390, 2, "36px")],
    ids=["zoom-200", "text-200"],
)
def test_every_correct_button_is_in_view_at_200_percent(
    server: tuple[str, GameStore], browser: Any, width: int, scale: int, body_font: str
) -> None:
    """Was (accessibility review): at 200 % zoom (a 390 px phone is 195 CSS px wide) the plays
    table was 269 px wide and every Correct button lay past the screen's edge, reachable only by
    scrolling the table sideways; with doubled text, likewise. Under 600 px each play is now a
    block of its own."""
    base, store = server
    names = ["Ana", "Benjamin", "Cai", "Hanne-Marie Kristoffersen"]
    gid = store.create_game(names, 0, {})
    store.set_bids(gid, 1, [1, 0, 0, 0])
    play_trick(store, gid, ["green-13", "tigress:pirate", "mermaid-sirena", "yellow-14"])
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 844, "deviceScaleFactor": scale, "mobile": True},
    )
    try:
        browser.get(f"{base}/game/{gid}/round/1/trick/0")
        wait(browser).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".correct-button")))
        if body_font:
            browser.execute_script("document.body.style.fontSize = arguments[0]", body_font)
        seen = browser.execute_script(_CORRECT_RIGHTS)
        assert len(seen["rights"]) == 4
        assert max(seen["rights"]) <= seen["width"], seen
        assert seen["page"] <= seen["width"], seen
        assert seen["table"][0] <= seen["table"][1], seen  # the table does not scroll sideways
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_correction_form_closes_from_the_keyboard_back_to_its_button(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Was (accessibility review): Esc did nothing, and Cancel left the focus on the page's
    body, so the next Tab started again at the top of the page."""
    from selenium.webdriver.common.keys import Keys

    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    play_trick(store, gid, ["green-3", "green-9", "green-5"])
    browser.get(f"{base}/game/{gid}/round/1/trick/0")
    buttons = browser.find_elements(By.CSS_SELECTOR, ".correct-button")
    form = browser.find_element(By.ID, "correct-form")
    focused = "return document.activeElement"
    for close in ("escape", "cancel"):
        buttons[1].send_keys(Keys.ENTER)
        wait(browser).until(lambda d: form.is_displayed())
        assert browser.execute_script(focused) == browser.find_element(By.ID, "correct-card")
        if close == "escape":
            browser.switch_to.active_element.send_keys(Keys.ESCAPE)
        else:
            browser.find_element(By.ID, "correct-cancel").send_keys(Keys.ENTER)
        wait(browser).until(lambda d: not form.is_displayed())
        assert browser.execute_script(focused) == buttons[1], close
    assert store.trick(gid, 1, 0).plays == store.trick(gid, 1, 0).original_plays


def test_the_chart_before_any_round_draws_no_axis_values_or_marks(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """It read "10" over "0", with every player's mark on the "0" (a review, session 40)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai", "Dee"], 0, {"rounds": 4})
    browser.set_window_size(1920, 1080)
    browser.get(f"{base}/game/{gid}/tv")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tv-chart svg"))
    chart = browser.find_element(By.CSS_SELECTOR, "#tv-chart svg")
    assert chart.find_elements(By.CSS_SELECTOR, "text.mark") == []
    assert [a.text for a in chart.find_elements(By.CSS_SELECTOR, "text.axis")] == [
        "1",
        "2",
        "3",
        "4",
    ]
    # Once round 1 scores, the values and the marks are there.
    store.set_bids(gid, 1, [1, 0, 0, 0])
    store.record_trick(
        gid,
        1,
        0,
        [{"player": (1 + i) % 4, "card": f"green-{i + 1}"} for i in range(4)],
    )
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-chart text.mark")) == 4)


_CHART_MARKS = """
return [...document.querySelectorAll('#tv-chart circle')].map((c) => {
  const box = c.getBoundingClientRect();
  return {x1: box.left, y1: box.top, x2: box.right, y2: box.bottom, cy: c.cy.baseVal.value};
});
"""


def test_the_charts_end_marks_of_eight_close_totals_lie_apart(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Eight totals 10 points apart under a leader far ahead: the marks at the lines' ends
    lay 20 units apart, 34 wide, in a staircase on one another (only a tie stepped aside; a
    review of screenshots). Each stays at its line end's height, stepped aside as need be."""
    base, store = server
    names = ["Maximiliano", "Christopher", "Jean-Baptiste", "Bartholomew"]
    names += ["Anne-Sophie", "Guðmundur", "Wilhelmina", "Konstantin"]
    gid = store.create_game(names, 0, {"rounds": 4})
    # Maximiliano bids and wins every trick; the others' bids of 0 are made or missed, for
    # totals of 120, 60, 40, 30, 20, 10, 0 and -30.
    missed = [(0, 0, 0), (0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)]
    missed.append((1, 1, 1))
    for rnd in (1, 2, 3):
        store.set_bids(gid, rnd, [rnd] + [m[rnd - 1] for m in missed[1:]])
        for trick, suit in enumerate(["green", "yellow", "purple"][:rnd]):
            leader = store.state(gid)["leader"]
            order = [(leader + i) % 8 for i in range(8)]
            ranks = iter(range(2, 9))
            cards = [f"{suit}-{13 if p == 0 else next(ranks)}" for p in order]
            store.record_trick(
                gid,
                rnd,
                trick,
                [{"player": p, "card": c} for p, c in zip(order, cards, strict=True)],
            )
    assert store.score(gid)["score"]["totals"] == [120, 60, 40, 30, 20, 10, 0, -30]
    browser.set_window_size(1920, 1200)
    with _screen(browser, 1920, 1080):
        browser.get(f"{base}/game/{gid}/tv")
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-chart circle")) == 8
        )
        marks = browser.execute_script(_CHART_MARKS)
        # Read on the same screen: the chart's text and marks are sized to it (fitChart).
        ends = browser.execute_script(
            "return [...document.querySelectorAll('#tv-chart path.line')]"
            ".map((l) => +l.getAttribute('d').split(',').pop())"
        )
    overlaps = [
        (i + 1, j + 1)
        for i, a in enumerate(marks)
        for j, b in enumerate(marks[i + 1 :], i + 1)
        if a["x1"] < b["x2"] and b["x1"] < a["x2"] and a["y1"] < b["y2"] and b["y1"] < a["y2"]
    ]
    assert overlaps == []
    assert [round(m["cy"], 1) for m in marks] == ends


def test_the_replay_title_keeps_each_word_with_its_number_on_a_phone(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """At 390 px it broke as "Round 3 · Trick / 2" (a review, session 40)."""
    base, store = server
    gid = store.create_game(["Maximiliana", "Bartholomew", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(
        gid, 1, 0, [{"player": (1 + i) % 3, "card": f"green-{i + 1}"} for i in range(3)]
    )
    browser.set_window_size(390, 844)
    browser.get(f"{base}/game/{gid}/round/1/trick/0?lang=da")
    lines = browser.execute_script(
        "return [...document.querySelectorAll('h1 .unbroken')].map(s => s.getClientRects().length)"
    )
    assert lines == [1, 1]


def test_a_rematch_fills_the_setup_with_the_last_tables_game(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A new game offered empty boxes, the first dealer again and the default ten rounds,
    though the table had just played four (a review, session 40). The demo's game is not
    the table's and is passed over."""
    base, store = server
    played = store.create_game(["Ana", "Ben", "Cai", "Dee"], 2, {"rounds": 4, "loot": True})
    store.finish_game(played)
    demo = store.create_game(["Xu", "Yo", "Zed"], 0, {})
    (store.game_dir(demo) / "DEMO").write_text("recorded from the demo game\n")
    browser.get(base + "/setup")
    same = browser.find_element(By.ID, "same-players")
    assert same.text == "Same players as last game (Ana, Ben, Cai, Dee)"
    same.click()
    browser.find_element(By.ID, "start-game").click()
    wait(browser).until(lambda d: "/bids" in d.current_url)
    newest = store.games()[0]
    assert newest.id not in (played, demo)
    assert (newest.players, newest.first_dealer) == (["Ana", "Ben", "Cai", "Dee"], 2)
    assert newest.settings == {"rounds": 4, "loot": True}


def test_a_card_laid_while_the_tv_reloads_stays_on_the_tv(
    app_server: tuple[str, Flask], browser: Any
) -> None:
    """The TV reloads the game on a bid; a card laid while that reload is on its way comes as
    a live event, and the reload's answer, read before the card was laid, took the card off
    the TV until the next one. Here the answer is held back 1.5 s after it is read. Was: a
    browser test failed once in CI (session 49) waiting for a live card after new bids."""
    from skullcam.web import get_store

    base, app = app_server
    store = get_store(app)
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"rounds": 2})
    browser.set_window_size(1920, 1080)
    browser.get(f"{base}/game/{gid}/tv")
    wait(browser).until(lambda d: d.execute_script("return !!window.SK_TV_STATE"))
    answer = app.view_functions["api.state"]

    def read_then_wait(**kw: Any) -> Any:
        read = answer(**kw)
        time.sleep(1.5)
        return read

    app.view_functions["api.state"] = read_then_wait
    store.set_bids(gid, 1, [1, 0, 0])  # the TV reloads...
    time.sleep(0.5)  # ...its answer is read...
    leader = store.state(gid)["leader"]
    store.set_live(gid, 1, 0, [{"player": leader, "card": "green-10", "confidence": 0.98}])
    cards = (By.ID, "tv-live-cards")
    wait(browser).until(ec.text_to_be_present_in_element(cards, "Parrot 10"))
    time.sleep(2.0)  # ...and comes after the card
    assert "Parrot 10" in browser.find_element(*cards).text
    # A card laid during a reload, then the trick recorded: the reload asked for the trick
    # holds it, and the card laid before it must not be put back on that answer.
    store.set_bids(gid, 1, [1, 0, 1])
    time.sleep(0.5)
    plays = [{"player": (leader + i) % 3, "card": f"green-{10 + i}"} for i in range(3)]
    store.set_live(gid, 1, 0, [{**plays[0], "confidence": 0.98}, {**plays[1], "confidence": 0.9}])
    store.record_trick(gid, 1, 0, plays)
    time.sleep(3.5)  # both answers are in: the round is over, nothing lies on the table
    assert browser.execute_script("return window.SK_TV_STATE.live") is None
    # Only the round's last trick, dimmed, not the cards laid as live.
    assert "past" in browser.find_element(*cards).get_attribute("class").split()


def test_the_tv_says_the_bids_against_tricks_and_which_trick_was_last(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """ "Bids 3 / 2" had no unit and "Last trick 1" read as a count (a review, session 40).
    At a round's start the last round's last trick stays, named by its round: the TV
    emptied, and the room could not see how the round ended (a review of screenshots)."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"rounds": 2})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(
        gid, 1, 0, [{"player": (1 + i) % 3, "card": f"green-{i + 3}"} for i in range(3)]
    )
    store.set_bids(gid, 2, [1, 1, None])
    browser.set_window_size(1920, 1080)
    browser.get(f"{base}/game/{gid}/tv")
    total = (By.ID, "tv-bidtotal")
    wait(browser).until(lambda d: d.find_element(*total).text == "Bids 2 / 2 tricks · 2 of 3 in")
    lines = "return [...document.querySelectorAll('#tv-live-cards li')].map((li) => li.innerText)"
    assert [" ".join(line.split()) for line in browser.execute_script(lines)] == [
        "Last trick · Round 1, trick 1",
        "Ben Parrot 3",
        "Cai Parrot 4",
        "Ana Parrot 5 ★ wins the trick",
    ]
    store.set_bids(gid, 2, [1, 1, 1])
    wait(browser).until(lambda d: d.find_element(*total).text == "Bids 3 / 2 tricks · 1 over")
    leader = store.state(gid)["leader"]
    store.record_trick(
        gid, 2, 0, [{"player": (leader + i) % 3, "card": f"yellow-{i + 3}"} for i in range(3)]
    )
    caption = (By.CSS_SELECTOR, "#tv-live-cards .caption")
    wait(browser).until(ec.text_to_be_present_in_element(caption, "Last trick · Trick 1"))
    # A card laid and taken back: the camera publishes a trick of no cards. The last trick
    # stays, also once the state is read again (a bid changed); it went blank there.
    store.set_live(gid, 2, 1, [{"player": 0, "card": "black-2"}], leader=0)
    wait(browser).until(lambda d: "Last trick" not in d.find_element(By.ID, "tv-live-cards").text)
    store.set_live(gid, 2, 1, [])
    store.set_bids(gid, 2, [1, 1, 0])
    wait(browser).until(lambda d: d.find_element(*total).text.startswith("Bids 2 / 2"))
    # The bids' total and the cards are drawn together, from the state read again.
    assert browser.find_element(*caption).text.startswith("Last trick · Trick 1")


_TV_WHY = """
const why = document.getElementById('tv-why');
const rows = document.querySelectorAll('#tv-table tbody tr');
return {text: why.innerText, lines: why.getBoundingClientRect().height
          / parseFloat(getComputedStyle(why).lineHeight),
        font: parseFloat(getComputedStyle(why).fontSize),
        rows: rows[rows.length - 1].getBoundingClientRect().bottom,
        chart: document.querySelector('#tv-chart svg').getClientRects().length > 0,
        page: document.documentElement.scrollHeight};
"""


def test_the_tv_says_why_the_last_tricks_winner_won(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """The TV starred the last trick's winner with no word on why that card won; the replay
    page alone explained it. The TV says the rule in a short line in the table's language,
    readable from across the room, with every row and the chart still on the screen."""
    base, store = server
    gid = store.create_game(["Ana", "Ben", "Cai", "Dee"], 0, {"rounds": 4})
    store.set_bids(gid, 1, [1, 0, 0, 0])
    cards = ["green-3", "yellow-9", "skull-king", "green-4"]
    store.record_trick(gid, 1, 0, [{"player": (1 + i) % 4, "card": c} for i, c in enumerate(cards)])
    why = {
        "en": "The Skull King beats every pirate and every numbered card.",
        "es": "El Skull King vence a todos los Piratas y a todas las cartas numeradas.",
        "it": "Il Re dei Teschi batte tutti i Pirati e tutte le carte numerate.",
        "da": "Skull King slår alle pirater og alle talkort.",
    }
    for lang, text in why.items():
        for width, height in ((1280, 720), (1920, 1080)):
            with _screen(browser, width, height):
                browser.get(f"{base}/game/{gid}/tv?lang={lang}")
                wait(browser).until(lambda d: d.find_element(By.ID, "tv-why").is_displayed())
                seen = browser.execute_script(_TV_WHY)
            assert seen["text"] == text, (lang, seen)
            assert seen["lines"] < 2.5 and seen["font"] >= 0.032 * height - 0.1, (lang, seen)
            assert seen["chart"] and max(seen["rows"], seen["page"]) <= height, (lang, seen)
    # A card on the table: the line goes with the last trick it was about.
    store.set_live(gid, 1, 1, [{"player": 3, "card": "green-7"}], leader=3)
    wait(browser).until(lambda d: not d.find_element(By.ID, "tv-why").is_displayed())


_TV_WHY_PLACED = """
const why = document.getElementById('tv-why');
const column = why.closest('.tv-scores, .tv-side').getBoundingClientRect();
const rows = document.querySelectorAll('#tv-table tbody tr');
return {shown: why.getClientRects().length > 0, whole: why.scrollHeight <= why.clientHeight + 1,
        in_column: why.getBoundingClientRect().bottom <= column.bottom + 0.5,
        font: parseFloat(getComputedStyle(why).fontSize),
        rows: rows[rows.length - 1].getBoundingClientRect().bottom,
        chart: document.querySelector('#tv-chart svg').getBoundingClientRect().height,
        page: document.documentElement.scrollHeight};
"""


def test_the_tv_says_why_under_eight_cards_whole(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Under seven or eight cards the line on why the winner won was left out (beside the cards
    it took the chart of a game of eight off a 1080p screen), and elsewhere it was cut at two
    lines: the White Whale's tie in Italian ran to five. It is whole under the score table,
    in all four languages at 720p and 1080p, with a question open, every row and the chart
    still on the screen."""
    base, store = server
    names = ["Maximiliano Fernández-García", "Søren Østergaard-Christiansen", "Giulia Rossi"]
    names += ["Wolfeschlegelsteinhausen", "Jean-François Pérez", "Hanne-Marie Kristensen"]
    names += ["Ñoño Ibáñez Núñez", "Ævar Þór Ólafsson"]
    gid = store.create_game(names, 7, {"rounds": 3, "kraken_and_white_whale": True})
    store.set_bids(gid, 1, [1, 0, 0, 0, 0, 0, 0, 0])
    leader = store.state(gid)["leader"]
    cards = ["yellow-12", "white-whale", "skull-king", "black-12", "mermaid", "pirate-harry"]
    cards += ["green-3", "escape"]  # the Whale: the first of the two 12s wins
    store.record_trick(
        gid, 1, 0, [{"player": (leader + i) % 8, "card": c} for i, c in enumerate(cards)]
    )
    store.create_prompt(gid, "flagged", 1, 0)
    for lang in ("en", "es", "it", "da"):
        for width, height in ((1280, 720), (1920, 1080)):
            with _screen(browser, width, height):
                browser.get(f"{base}/game/{gid}/tv?lang={lang}")
                wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tv-prompts *"))
                wait(browser).until(lambda d: d.find_element(By.ID, "tv-why").is_displayed())
                seen = browser.execute_script(_TV_WHY_PLACED)
            assert seen["whole"] and seen["in_column"], (lang, height, seen)
            assert seen["font"] >= 0.032 * height - 0.1, (lang, height, seen)
            assert seen["chart"] >= 0.18 * height, (lang, height, seen)
            assert max(seen["rows"], seen["page"]) <= height, (lang, height, seen)


_TV_WHY_UNDER_NOTICES = """
const box = (el) => el.getBoundingClientRect();
const why = document.getElementById('tv-why');
const column = box(why.closest('.tv-scores, .tv-side'));
const rows = document.querySelectorAll('#tv-table tbody tr');
return {shown: why.getClientRects().length > 0, text: why.textContent, title: why.title,
        lines: box(why).height / parseFloat(getComputedStyle(why).lineHeight),
        in_column: box(why).bottom <= column.bottom + 0.5,
        font: parseFloat(getComputedStyle(why).fontSize),
        rows: box(rows[rows.length - 1]).bottom,
        scores: box(document.querySelector('.tv-scores')).bottom,
        questions: box(document.getElementById('tv-prompts')).bottom,
        side: box(document.querySelector('.tv-side')).bottom,
        page: document.documentElement.scrollHeight};
"""


def _last_trick_of_eight(store: GameStore, gid: int, cards: list[str]) -> None:
    """The game of ``_eight_under_a_head_full_of_notices`` with its cards taken off the table
    and eight of ``cards`` played as round 2's first trick: the TV shows it as the last trick."""
    store.set_live(gid, 2, 0, [])
    leader = store.state(gid)["leader"]
    store.record_trick(
        gid, 2, 0, [{"player": (leader + i) % 8, "card": c} for i, c in enumerate(cards)]
    )


def _tv_why_under_notices(browser: Any, url: str, width: int, height: int) -> dict[str, Any]:
    """What ``_TV_WHY_UNDER_NOTICES`` measures on the TV at ``url`` once its eight cards are up."""
    _open_tv_with_every_notice(browser, url, width, height)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 9)
    seen: dict[str, Any] = browser.execute_script(_TV_WHY_UNDER_NOTICES)
    return seen


def test_the_tv_says_why_under_eight_cards_and_a_head_full_of_notices(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Eight cards of the last trick under a head full of notices: in Spanish, Italian and
    Danish the line on why its winner won found no room and was left out (Italian, 720p and
    1080p), and the questions ran off the bottom of the screen (127 px at 1080p in Italian,
    91 px at 720p), the board being one that cannot scroll. The line shows, whole, in all four
    languages at 720p and 1080p, and every row and question stays on the screen."""
    base, store = server
    gid = _eight_under_a_head_full_of_notices(store)
    # A pirate, the Skull King and a mermaid: a why of two lines at 720p.
    cards = ["yellow-2", "yellow-3", "pirate-harry", "yellow-5", "skull-king", "yellow-7"]
    _last_trick_of_eight(store, gid, [*cards, "mermaid-sirena", "yellow-9"])
    for lang in ("en", "es", "it", "da"):
        for width, height in ((1280, 720), (1920, 1080)):
            url = f"{base}/game/{gid}/tv?lang={lang}"
            seen = _tv_why_under_notices(browser, url, width, height)
            where = (lang, height, seen)
            assert seen["shown"] and seen["in_column"] and not seen["title"], where
            assert seen["font"] >= 0.032 * height - 0.1, where
            assert seen["rows"] <= seen["scores"] and seen["questions"] <= seen["side"], where
            assert seen["page"] <= height, where
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_tv_cuts_a_long_why_to_one_line_rather_than_leave_it_out(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """Where neither the score table nor the cards leave room for the whole line on why (the
    White Whale's tie, three lines in Italian, under eight cards and a head full of notices),
    it was left out: it is one line under the score table now, cut with "…", the whole in its
    title, and every row and question stays on the screen."""
    base, store = server
    gid = _eight_under_a_head_full_of_notices(store, {"kraken_and_white_whale": True})
    cards = ["yellow-12", "white-whale", "skull-king", "black-12", "mermaid", "pirate-harry"]
    _last_trick_of_eight(store, gid, [*cards, "green-3", "escape"])
    for width, height in ((1280, 720), (1920, 1080)):
        seen = _tv_why_under_notices(browser, f"{base}/game/{gid}/tv?lang=it", width, height)
        where = (height, seen)
        assert seen["shown"] and seen["in_column"] and seen["lines"] < 1.5, where
        assert seen["title"] == seen["text"] and "Balena Bianca" in seen["title"], where
        assert seen["rows"] <= seen["scores"] and seen["questions"] <= seen["side"], where
        assert seen["page"] <= height, where
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_TV_PAST_THE_SCREEN = """
const box = (el) => el.getBoundingClientRect();
const room = Math.min(box(document.querySelector('.tv-scores')).right,
                      document.documentElement.clientWidth);
return {cells: [...document.querySelectorAll('#tv-table th, #tv-table td')]
          .filter((cell) => box(cell).right > room + 0.5)
          .map((cell) => cell.textContent + ' ' + Math.round(box(cell).right - room) + ' px'),
        names: [...document.querySelectorAll('#tv-table td.name')]
          .filter((td) => Math.max(...[...td.children].map((c) => box(c).right)) > box(td).right)
          .map((td) => td.textContent),
        page: document.documentElement.scrollWidth};
"""


_TV_OUT_OF_REACH = """
const box = (el) => el.getBoundingClientRect();
const shown = (el) => el.getClientRects().length > 0;
document.scrollingElement.scrollTop = document.scrollingElement.scrollHeight;  // to the foot
const scrolls = (a) => ['auto', 'scroll'].includes(getComputedStyle(a).overflowY);
const hides = (a) => getComputedStyle(a).overflowY !== 'visible' && !scrolls(a);
const clipped = (el) => {
  for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    if (hides(a) && box(el).bottom > box(a).bottom + 0.5) return true;
  }
  return false;
};
const parts = [...document.querySelectorAll(
  '.tv-head > *, #tv-table tr, #tv-live-cards li, #tv-why, #tv-prompts > *, .tv-chart > *')];
const cut = (el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
return {out: parts.filter((el) => shown(el) && (box(el).bottom > innerHeight + 0.5 || clipped(el)))
          .map((el) => (el.id || el.className || el.tagName) + ' '
               + el.textContent.slice(0, 24) + ' ' + Math.round(box(el).bottom - innerHeight)),
        cut: [...document.querySelectorAll('.tv-head > *, #tv-why, #tv-prompts > *')]
          .filter((el) => shown(el) && cut(el)).map((el) => el.id),
        chart: [...document.querySelectorAll('.tv-chart > *')].every(shown)};
"""


@pytest.mark.parametrize(
    "size",
    [(360, 640), (640, 360), (740, 360), (844, 390)],
    ids=["upright", "sideways-640", "sideways-740", "sideways-844"],
)
def test_the_tv_on_a_phone_keeps_the_total_column_in_view(
    server: tuple[str, GameStore], browser: Any, size: tuple[int, int]
) -> None:
    """The TV page on a phone, eight players under a head full of notices with the eight
    cards of the last trick. Upright (360 x 640) the score table was wider than the screen,
    and the Total column was cut off, its heading "Tota" and each total a lone "−" in Spanish
    (31 px past the screen's edge; 9 px in Italian). Held sideways (640 x 360) the board,
    which cannot scroll, kept text sizes made for a 540 px tall screen: its rows ran 133 px
    past its foot, the questions 196 px, and the Total column 21-108 px past the right edge,
    all out of reach. The names give way (they take what the numbers leave, cut with "…"),
    every cell is on the screen's width in all four languages, and the page scrolls to
    everything else, nothing cut: every row, card, question, notice and the chart."""
    base, store = server
    width, height = size
    gid = _eight_under_a_head_full_of_notices(store)
    _last_trick_of_eight(store, gid, [f"yellow-{i + 2}" for i in range(8)])
    for lang in ("en", "es", "it", "da"):
        _open_on_a_screen(browser, f"{base}/game/{gid}/tv?lang={lang}", width, height, mobile=True)
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 9
        )
        wait(browser).until(lambda d: d.find_element(By.ID, "tv-warnings").is_displayed())
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-prompts *")) >= 2)
        seen = browser.execute_script(_TV_PAST_THE_SCREEN)
        assert seen == {"cells": [], "names": [], "page": width}, (lang, seen)
        seen = browser.execute_script(_TV_OUT_OF_REACH)
        assert seen == {"out": [], "cut": [], "chart": True}, (lang, seen)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_TV_CARDS_CUT = """
const cut = (el) => el.scrollWidth > el.clientWidth;
return [...document.querySelectorAll('#tv-live-cards li:not(.caption)')].map((li) =>
  [li.querySelector('.who').textContent, cut(li.querySelector('.who')),
   li.querySelector('.what').textContent, cut(li.querySelector('.what'))]);
"""


def test_the_tvs_cards_on_the_table_stay_whole_beside_a_long_name(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """At 1280 x 720 the row of a long name cut the card it played as well as the name:
    "Anne-Sophie Vandenberg… Treasure…" for Treasure Map 8, "Parr…" for Parrot 2 (84 px of
    its 101; a game-night journey, in English). The card is what the room reads the row for:
    the name gives way."""
    base, store = server
    long = "Anne-Sophie Vandenberghe-Kristiansen"
    gid = store.create_game(["José", long, "Søren", "Ben"], 2, {"rounds": 3})
    store.set_bids(gid, 1, [1, 0, 1, 0])
    cards = {3: "black-3", 0: "black-8", 1: "yellow-13", 2: "purple-13"}
    store.record_trick(gid, 1, 0, [{"player": p, "card": c} for p, c in cards.items()])
    for lang in ("en", "es", "it", "da"):
        _open_on_a_screen(browser, f"{base}/game/{gid}/tv?lang={lang}", 1280, 720)
        wait(browser).until(ec.text_to_be_present_in_element((By.ID, "tv-live-cards"), "13"))
        rows = browser.execute_script(_TV_CARDS_CUT)
        assert len(rows) == 4, rows
        assert not any(card_cut for _, _, _, card_cut in rows), (lang, rows)
        # The long name is what gave way, and only it.
        assert [name for name, name_cut, _, _ in rows if name_cut] == [long], (lang, rows)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_TV_ROWS_CUT = """
const whole = (el) => {
  const text = document.createRange();
  text.selectNodeContents(el);
  return el.scrollWidth <= el.clientWidth
    && text.getBoundingClientRect().width <= el.getBoundingClientRect().width + 0.5;
};
return [...document.querySelectorAll('#tv-live-cards li:not(.caption)')].map((li) => {
  const who = li.querySelector('.who'), what = li.querySelector('.what');
  return [who.textContent, whole(who), who.title, what.textContent, whole(what)];
});
"""


@pytest.mark.parametrize(
    "size", [(640, 360), (740, 360), (800, 400)], ids=["640x360", "740x360", "800x400"]
)
def test_the_tv_held_sideways_shows_the_last_tricks_names_whole(
    server: tuple[str, GameStore], browser: Any, size: tuple[int, int]
) -> None:
    """The TV on a phone held sideways (740 x 360): the last trick's winner, in bold, read
    "Christoph…" beside "Treasure Chest 13" and its star. A row with no room for its name and
    card on one line takes two, so every name and card is whole in all four languages; only
    a name longer than the row is cut, with the whole name in its title."""
    base, store = server
    width, height = size
    long = "Anne-Sophie Vandenberghe-Kristiansen"
    names = ["Maximiliano", "Christopher", "Jean-Baptiste", "Bartholomew"]
    names += [long, "Guðmundur", "Wilhelmina", "Konstantin"]
    gid = store.create_game(names, 0, {"rounds": 2})
    store.set_bids(gid, 1, [0] * 8)
    leader = store.state(gid)["leader"]
    others = iter(f"yellow-{r}" for r in (10, 11, 12, 2, 3, 4, 5))
    plays = [
        {"player": p, "card": "yellow-13" if p == 1 else next(others)}  # Christopher wins
        for p in ((leader + i) % 8 for i in range(8))
    ]
    store.record_trick(gid, 1, 0, plays)
    for lang in ("en", "es", "it", "da"):
        _open_on_a_screen(browser, f"{base}/game/{gid}/tv?lang={lang}", width, height, mobile=True)
        wait(browser).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 9
        )
        rows = browser.execute_script(_TV_ROWS_CUT)
        assert not [r for r in rows if not r[4]], (lang, rows)  # every card whole
        assert [r[0] for r in rows if not r[1]] in ([], [long]), (lang, rows)
        assert all(title == name for name, _, title, _, _ in rows), (lang, rows)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_FITS_THE_SCREEN = """
const board = document.querySelector('.tv-board').getBoundingClientRect();
const chart = document.querySelector('#tv-chart svg').getBoundingClientRect();
return {scrolls: document.documentElement.scrollHeight > innerHeight,
        board: board.bottom, chart: chart.bottom, height: innerHeight,
        font: parseFloat(getComputedStyle(document.body).fontSize)};
"""


def test_the_tv_in_a_short_desktop_window_keeps_the_tvs_layout(
    server: tuple[str, GameStore], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A desktop window 1280 x 480 (or a small screen with a mouse) took the layout of a phone
    held sideways: the board scrolled, a scroll bar beside it, and the chart was cut off at
    the screen's foot. A short screen takes the phone's layout only without a mouse (or
    700 px wide or less, where the TV's columns cut the Total column off); with one, it
    keeps the TV's, which fits it whole."""
    from browser_support import MOUSE, start_chromium

    base, store = server
    names = ["Maximiliano", "Christopher", "Jean-Baptiste", "Bartholomew"]
    names += ["Ana", "Guðmundur", "Wilhelmina", "Konstantin"]
    gid = store.create_game(names, 0, {"rounds": 3})
    store.set_bids(gid, 1, [0] * 8)
    leader = store.state(gid)["leader"]
    others = iter(f"yellow-{r}" for r in (10, 11, 12, 2, 3, 4, 5))
    plays = [
        {"player": p, "card": "yellow-13" if p == 1 else next(others)}
        for p in ((leader + i) % 8 for i in range(8))
    ]
    store.record_trick(gid, 1, 0, plays)
    store.set_bids(gid, 2, [1, 0, 0, 1, 0, 0, 1, 0])
    desktop = start_chromium(tmp_path_factory.mktemp("chromium"), "en-US", MOUSE)
    try:
        for width, height in [(1280, 480), (800, 480)]:
            with _screen(desktop, width, height):
                desktop.get(f"{base}/game/{gid}/tv")
                wait(desktop).until(
                    lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-live-cards li")) == 9
                )
                fits = desktop.execute_script(_FITS_THE_SCREEN)
                assert not fits["scrolls"], (width, height, fits)
                assert fits["chart"] <= height and fits["board"] <= height, (width, height, fits)
    finally:
        desktop.quit()


_CHART_TEXT = """
const svg = document.querySelector('#tv-chart svg');
const box = svg.getBoundingClientRect();
const texts = [...svg.querySelectorAll('text')].map((el) => {
  const b = el.getBoundingClientRect();
  return {text: el.textContent, cls: el.getAttribute('class'), x1: b.left, x2: b.right,
          y1: b.top, y2: b.bottom,
          px: parseFloat(getComputedStyle(el).fontSize) * svg.getScreenCTM().a};
});
return {shown: svg.getClientRects().length > 0, height: box.height, texts,
        // A text's box has the font's whole ascent and descent: digits keep well inside it.
        out: texts.filter((t) => t.x1 < box.left - 0.5 || t.x2 > box.right + 0.5
                                 || t.y1 < box.top - 0.3 * t.px || t.y2 > box.bottom + 0.3 * t.px),
        heading: parseFloat(getComputedStyle(document.querySelector('.tv-chart h2')).fontSize)};
"""


def test_the_charts_axis_labels_read_from_the_sofa_on_a_small_chart(
    server: tuple[str, GameStore], browser: Any
) -> None:
    """A game of eight at 1280 x 720 with the eight cards of the last trick and a question
    open: the chart had the room left under them, and its round numbers and totals, sized
    for an 800-unit-wide chart, were 11-12 px high, too small to read from across the room.
    They are the chart's heading's size at 720p and 1080p (3.2% of the screen's height),
    inside the chart, and the round numbers never touch (a ten-round game)."""
    base, store = server
    names = ["Maximiliano", "Christopher", "Jean-Baptiste", "Bartholomew"]
    names += ["Anne-Sophie", "Guðmundur", "Wilhelmina", "Konstantin"]
    gid = store.create_game(names, 0, {"rounds": 10})
    for rnd in (1, 2):
        store.set_bids(gid, rnd, [0] * 8)
        for trick, suit in enumerate(["green", "yellow"][:rnd]):
            leader = store.state(gid)["leader"]
            store.record_trick(
                gid,
                rnd,
                trick,
                [{"player": (leader + i) % 8, "card": f"{suit}-{i + 2 + rnd}"} for i in range(8)],
            )
    store.create_prompt(gid, "flagged", 2, 0)
    for width, height in ((1280, 720), (1920, 1080)):
        with _screen(browser, width, height):
            browser.get(f"{base}/game/{gid}/tv")
            wait(browser).until(
                lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tv-chart circle")) == 8
            )
            wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tv-prompts .prompt"))
            seen = browser.execute_script(_CHART_TEXT)
        assert seen["shown"] and seen["out"] == [], (height, seen["out"])
        axis = [t for t in seen["texts"] if t["cls"] == "axis"]
        want = min(seen["heading"], 0.032 * height) - 0.1
        small = [(t["text"], round(t["px"], 1)) for t in axis if t["px"] < want]
        small += [(t["text"], round(t["px"], 1)) for t in seen["texts"] if t["px"] < 14]
        assert axis and small == [], (height, seen["height"], small)
        foot = max(t["y1"] for t in axis)
        rounds = sorted((t for t in axis if t["y1"] > foot - 1), key=lambda t: t["x1"])
        touching = [
            (a["text"], b["text"]) for a, b in itertools.pairwise(rounds) if a["x2"] > b["x1"]
        ]
        assert touching == [], (height, touching)
