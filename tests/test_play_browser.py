"""The generic play page in a real browser (system Chromium, headless, as test_web_baikago.py
launches it): keyboard, reload, hints, the phone layout, imports; on kings and Goishi. Then the
conventions of puzzle sites: the second tool by right-click, Shift or a long press, drags, New
that asks first and leaves a way back, the seed, the Generating veil, the box of a stopped
server, cells a finger wide on a phone, names for screen readers; Check, Restart, Show
solution, the aids switch and where the link works. That every registered puzzle is solved by
clicks in its page is tests/test_play_conformance.py.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from boardpuzzles.limits import Limits
from boardpuzzles.play import Click
from boardpuzzles.puzzles import puzzles
from boardpuzzles.web.app import PlayServer, make_app
from tests.threads import serve_in_background

CHROMIUM = next((path for path in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if path), None)
#: The system Chromium, headless, quiet: it must not reach for the network or an update.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 375, "height": 667}


@dataclass(frozen=True)
class Case:
    """A page to open: the puzzle, the new puzzle's size (None: the play's default), difficulty
    and seed."""

    puzzle: str
    size: int | None = None
    difficulty: str | None = None
    seed: int = 1

    def __str__(self) -> str:
        return self.puzzle


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("needs Chromium: `make browser` (or apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright: pip install -e '.[test]'")
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[PlayServer, str]]:
    server = make_app(0, warm=False)
    serve_in_background(server)
    yield server, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: Any) -> Callable[[Any, str], None]:
    """save(page, name): a PNG under pytest's temporary folder, and into $BOARDPUZZLES_SCREENSHOTS
    when that is set (to look at what a person sees)."""
    folders = [tmp_path_factory.mktemp("screenshots")]
    if os.environ.get("BOARDPUZZLES_SCREENSHOTS"):
        folders.append(Path(os.environ["BOARDPUZZLES_SCREENSHOTS"]))
        folders[-1].mkdir(parents=True, exist_ok=True)

    def save(page: Any, name: str) -> None:
        picture = page.screenshot(full_page=True)
        for folder in folders:
            (folder / f"{name}.png").write_bytes(picture)

    return save


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """open_page(url, viewport) -> a page whose JavaScript errors fail the test."""
    pages, errors = [], []

    def opener(url: str, viewport: dict[str, int] = DESKTOP) -> Any:
        page = browser.new_page(viewport=viewport)
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(url)
        ready(page)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        page.close()
    assert errors == []


def ready(page: Any, moves: int | None = None, timeout: float = 60_000) -> None:
    """Wait until the page has a game (with ``moves`` clicks played) and nothing on its way."""
    played = "" if moves is None else f"[data-moves='{moves}']"
    page.wait_for_selector(f"body[data-busy='0'][data-game]{played} #cells button", timeout=timeout)


def link(site: tuple[PlayServer, str], case: Case) -> str:
    server, url = site
    play = server.plays[case.puzzle][1]
    query = f"size={case.size or play.default_size}&seed={case.seed}"
    if play.difficulties:
        query += f"&difficulty={case.difficulty or play.difficulties[0]}"
    return f"{url}/play/{case.puzzle}?{query}"


def attempt_of(site: tuple[PlayServer, str], page: Any) -> Any:
    game = site[0].get_puzzle_game(page.get_attribute("body", "data-game"))
    assert game is not None
    return game.attempt


def play_clicks(page: Any, clicks: list[Click]) -> None:
    """Each click as a person makes it: the tool's button, then the cell (a mouse click)."""
    for cell, tool in clicks:
        moves = int(page.get_attribute("body", "data-moves"))
        page.click(f"button.tool[data-tool='{tool}']")
        page.click(f"#cells button[data-cell='{cell}']")
        page.wait_for_function(
            f"document.body.dataset.busy === '0' && (document.body.dataset.moves !== '{moves}' || "
            "document.getElementById('status').className === 'refused')"
        )


def status(page: Any) -> str:
    return str(page.inner_text("#status-text"))


# -------------------------------------------------------------------- the generic page, on kings
def test_the_keyboard_plays_and_screen_readers_hear_the_cells(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=6, seed=5)))
    assert page.get_attribute("#cells button[data-cell='0']", "aria-label") == "a6, empty"
    assert page.get_attribute("#status", "aria-live") == "polite"
    page.focus("#cells button[data-cell='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # b5
    ready(page, moves=1)
    assert page.get_attribute("#cells button[data-cell='7']", "aria-label") == "b5, king"  # words, not the letter
    page.keyboard.press("x")  # the erase tool
    assert page.get_attribute("button.tool[data-tool='erase']", "aria-pressed") == "true"
    page.keyboard.press("Space")
    ready(page, moves=2)
    page.keyboard.press("Control+z")
    ready(page, moves=1)
    page.keyboard.press("Control+y")
    ready(page, moves=2)
    assert page.get_attribute("#cells button[data-cell='7']", "aria-label") == "b5, empty"


def test_the_first_arrow_key_moves_the_cursor_as_the_next_ones_do(site, open_page) -> None:
    """With the focus elsewhere (the page just opened, a panel's button pressed), the first arrow
    moves the cursor from where it is and brings the focus to the board; none is swallowed."""
    page = open_page(link(site, Case("kings", size=6, seed=5)))
    page.keyboard.press("ArrowRight")  # from a6, the cursor's start
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.name") == "b5"
    page.keyboard.press("Enter")
    ready(page, moves=1)
    assert page.get_attribute("#cells button[data-cell='7']", "aria-label") == "b5, king"
    page.click("#undo")  # the focus on a panel's button; the cursor stays on b5
    ready(page, moves=0)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.name") == "c5"


def console_errors(page: Any) -> list[str]:
    """The errors the browser's console will show for ``page`` (a fetch answered 4xx is one)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


def test_a_refused_click_says_why_and_leaves_the_console_free_of_errors(site, browser) -> None:
    """The page asks for refusals as data ("refusal": "state"), not as a 422 that the browser
    would log as an error: the status line says why, as it did for the 422."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        errors = console_errors(page)
        page.goto(link(site, Case("knights-tour", size=5, difficulty="open")))
        ready(page)
        page.keyboard.press("Control+z")  # nothing to undo
        page.wait_for_function("document.getElementById('status').className === 'refused'")
        assert status(page) == "Not allowed: nothing to undo"
        page.click("#cells button[data-cell='0']")  # 1 on a5
        ready(page, moves=1)
        page.click("#cells button[data-cell='1']")  # b5: no knight's move from a5
        page.wait_for_function("document.getElementById('status').className === 'refused'")
        assert status(page) == "Not allowed: b5 is not a knight's move from a5, which shows 1"
        assert page.get_attribute("body", "data-moves") == "1"
        assert errors == []
    finally:
        page.close()


@contextlib.contextmanager
def kings_with_a_king_on_a5(site: Any, browser: Any, seed: int) -> Iterator[tuple[Any, Any, list[str]]]:
    """A page of 5x5 Kings with a king played on a5, the server's game (another tab's way in)
    and the console's errors."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        errors = console_errors(page)
        page.goto(link(site, Case("kings", size=5, seed=seed)))
        ready(page)
        page.click("#cells button[data-cell='0']")
        ready(page, moves=1)
        game = site[0].get_puzzle_game(page.get_attribute("body", "data-game"))
        assert game is not None
        yield page, game, errors
    finally:
        page.close()


def test_a_change_after_another_tab_changed_the_game_shows_it_as_it_stands(site, browser) -> None:
    """Another tab undid, played and undid again: as many moves as this page shows, other moves
    to redo. This page's Redo must not play them unseen: it shows the game as it stands and says
    why nothing was redone, with no error in the console; its next Redo plays them, shown first."""
    with kings_with_a_king_on_a5(site, browser, seed=4) as (page, game, errors):
        page.click("#cells button[data-cell='12']")
        ready(page, moves=2)
        page.click("#undo")
        ready(page, moves=1)
        game.click(24, "king")  # the other tab
        game.undo()
        page.click("#redo")
        page.wait_for_function("document.getElementById('status-text').textContent.startsWith('Nothing was redone')")
        assert status(page) == "Nothing was redone: the game changed in another tab."
        assert page.get_attribute("body", "data-moves") == "1" and attempt_of(site, page).state[12] == "."
        page.click("#redo")
        ready(page, moves=2)
        assert attempt_of(site, page).state[24] != "." and attempt_of(site, page).state[12] == "."
        assert errors == []


def test_changes_queued_behind_one_refused_as_moved_on_are_dropped_not_played(site, browser) -> None:
    """Two Undos in a row (or a drag's cells) are sent one after the other: when the first is
    refused because another tab changed the game, the second was meant for the game the page
    showed before, so it is dropped, not played on the other tab's game, and the status line
    keeps saying why."""
    with kings_with_a_king_on_a5(site, browser, seed=5) as (page, game, errors):
        game.click(24, "king")  # the other tab
        answers = page.evaluate("Promise.all([act('undo'), act('undo')]).then(es => es.map(e => e && e.message))")
        assert answers[0].startswith("the game's moves are not those") and answers[1].startswith("dropped")
        ready(page, moves=2)
        assert status(page) == "Nothing was undone: the game changed in another tab."
        state = attempt_of(site, page).state
        assert state[0] != "." and state[24] != "."  # neither king taken back
        assert errors == []


def test_a_reload_finds_the_game_and_the_link_reopens_the_same_puzzle(site, open_page, browser) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=9)))
    game = page.get_attribute("body", "data-game")
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)
    assert f"#game={game}" in page.url and "size=5" in page.url and "seed=" not in page.url  # every seed makes it
    page.reload()
    ready(page, moves=1)
    assert page.get_attribute("body", "data-game") == game
    shared = page.get_attribute("#share-link", "href")
    assert shared.endswith("/play/kings?size=5")
    other = open_page(shared)
    assert other.get_attribute("body", "data-game") != game and other.get_attribute("body", "data-moves") == "0"
    assert attempt_of(site, other).problem == attempt_of(site, page).problem  # the same board, whatever the seed


def test_hint_new_and_the_solved_time(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=4, seed=2)))
    page.click("#hint")
    page.wait_for_function("document.getElementById('status-text').textContent.startsWith('Hint: a king on ')")
    game = page.get_attribute("body", "data-game")
    page.select_option("#size", "7")
    page.click("#new")
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
    assert page.locator("#cells button").count() == 49 and "size=7" in page.url


#: Counts the times the board starts to flash (the class "flash" put on #cells), in window.flashes.
COUNT_FLASHES = """() => { window.flashes = 0; new MutationObserver(() => {
  const now = document.getElementById('cells').classList.contains('flash');
  if (now && !window.flashing) window.flashes += 1; window.flashing = now;
}).observe(document.getElementById('cells'), {attributes: true, attributeFilter: ['class']}); }"""


def test_the_board_flashes_when_the_player_solves_it_and_only_then(site, open_page, browser) -> None:
    page = open_page(link(site, Case("kings", size=4, seed=2)))
    page.evaluate(COUNT_FLASHES)
    attempt = attempt_of(site, page)
    clicks = attempt.play.solution(attempt.problem, attempt.state, Limits(60))
    play_clicks(page, clicks[:-1])
    assert page.evaluate("window.flashes") == 0  # moves that do not solve it
    play_clicks(page, clicks[-1:])
    page.wait_for_selector("body[data-solved='1']")
    assert page.evaluate("window.flashes") == 1 and status(page).startswith("Solved in ")
    assert page.locator("#cells").evaluate("e => getComputedStyle(e).animationName") == "solved-flash"
    page.wait_for_function("!document.getElementById('cells').classList.contains('flash')")  # a short one
    page.reload()  # a solved game opened again: no flash
    ready(page)
    page.evaluate(COUNT_FLASHES)
    page.wait_for_timeout(300)
    assert page.evaluate("window.flashes") == 0 and page.get_attribute("#cells", "class") in (None, "")
    page = open_page(link(site, Case("kings", size=4, seed=3)))  # the solution shown: no flash
    page.evaluate(COUNT_FLASHES)
    page.click("#solve")
    page.click("#ask-yes")
    page.wait_for_selector("body[data-solved='1']")
    page.wait_for_timeout(100)
    assert page.evaluate("window.flashes") == 0
    # Reduced motion: no animation, the board framed in green for a moment.
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        calm = context.new_page()
        calm.goto(link(site, Case("kings", size=4, seed=4)))
        ready(calm)
        calm.evaluate(COUNT_FLASHES)
        attempt = attempt_of(site, calm)
        play_clicks(calm, attempt.play.solution(attempt.problem, attempt.state, Limits(60)))
        calm.wait_for_selector("body[data-solved='1']")
        style = calm.locator("#cells").evaluate(
            "e => [getComputedStyle(e).animationName, getComputedStyle(e).outlineStyle]"
        )
        assert calm.evaluate("window.flashes") == 1 and style == ["none", "solid"]
    finally:
        context.close()


def test_a_hints_detail_is_a_quieter_line_under_it_in_the_list(site, open_page) -> None:
    """Goishi's hint names the start; why the other starts fail is its detail, listed, not on the status line."""
    page = open_page(link(site, Case("goishi", size=5, difficulty="easy", seed=3)))
    page.click("#hint")
    status_is(page, "hint")
    hint = site[0].get_puzzle_game(page.get_attribute("body", "data-game")).hint  # the one the page shows
    assert hint is not None and hint.detail and status(page) == f"Hint: {hint.message}"
    item = page.locator("#faults li.hint")
    assert item.locator(".detail").inner_text() == hint.detail[0].upper() + hint.detail[1:]
    assert item.inner_text().splitlines() == [f"Hint: {hint.message}", item.locator(".detail").inner_text()]
    colour = "e => getComputedStyle(e).color"
    assert item.evaluate(colour) != item.locator(".detail").evaluate(colour)  # quieter: the muted ink
    page = open_page(link(site, Case("kings", size=4, seed=2)))  # a hint without detail: one line
    page.click("#hint")
    status_is(page, "hint")
    assert page.locator("#faults li.hint .detail").count() == 0


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_page_fits_and_the_board_does_not_jump(site, open_page, screenshots, viewport) -> None:
    page = open_page(link(site, Case("kings", size=6, seed=4)), viewport)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide"
    box = page.locator("#board-box").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.inner_text("#caption") == "0 kings; the problem asks for 9"
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)
    assert page.inner_text("#caption") == "1 king; the problem asks for 9"  # a shorter caption
    assert page.locator("#board-box").bounding_box() == box
    page.click("#cells button[data-cell='1']")  # two kings touching: a fault line appears
    ready(page, moves=2)
    assert page.get_attribute("#status", "class") == "fault"
    assert page.locator("#board-box").bounding_box() == box  # neither moved nor resized
    screenshots(page, f"kings-fault-{viewport['width']}x{viewport['height']}")


def test_the_list_of_mistakes_is_in_view_beside_the_board_on_a_desktop(site, open_page, screenshots) -> None:
    """At 1200x900 the list is in the side column, under the Moves panel: a second mistake is seen
    without scrolling, and the board keeps its size. On a phone it follows the board's legend."""
    page = open_page(link(site, Case("kings", size=6, seed=4)))
    board = page.locator("#board-box").bounding_box()
    for cell in (0, 1, 2):
        page.click(f"#cells button[data-cell='{cell}']")
        ready(page, moves=cell + 1)
    assert page.locator("#faults li").count() == 2
    faults, moves = page.locator("#faults").bounding_box(), page.locator("#undo").bounding_box()
    assert faults["y"] + faults["height"] <= DESKTOP["height"] and faults["x"] > board["x"] + board["width"]
    assert faults["y"] > moves["y"] and page.locator("#board-box").bounding_box() == board
    assert board["width"] >= 600  # as large as before the list moved
    screenshots(page, "kings-faults-1200x900")
    phone = open_page(link(site, Case("kings", size=6, seed=4)), PHONE)
    for cell in (0, 1):
        phone.click(f"#cells button[data-cell='{cell}']")
        ready(phone, moves=cell + 1)
    legend, faults = phone.locator("#legend").bounding_box(), phone.locator("#faults").bounding_box()
    assert legend["y"] + legend["height"] <= faults["y"] < phone.locator("#tools").bounding_box()["y"]
    screenshots(phone, "kings-faults-390x844")


def test_the_panel_this_puzzle_keeps_its_layout(site, open_page) -> None:
    """Its buttons lie where they lie whatever the seed's length and whatever they say."""
    boxes = "() => ['copy-seed', 'copy-link'].map(id => document.getElementById(id).getBoundingClientRect().toJSON())"
    shown = []
    for seed in (1, 4294967295):
        page = open_page(link(site, Case("queens", size=8, difficulty="easy", seed=seed)))
        shown.append(page.evaluate(boxes))
    assert shown[0] == shown[1]
    for label in ("Copied", "Not copied"):
        page.evaluate(f"document.getElementById('copy-seed').textContent = '{label}'")
        page.evaluate(f"document.getElementById('copy-link').textContent = '{label}'")
        assert page.evaluate(boxes) == shown[0], label


def test_a_puzzle_imported_from_its_url_is_solved_and_exported(site, open_page) -> None:
    """The Goishi Hiroi of robx/pzprjs's tests (test/script/goishi.js), imported, solved by clicks."""
    url = "https://puzz.link/p?goishi/6/7/vsten1tvo"
    page = open_page(link(site, Case("goishi", size=5, difficulty="easy")))
    assert page.is_visible("#import-url") and page.inner_text("#export") == "puzz.link"
    game = page.get_attribute("body", "data-game")
    page.fill("#import-url", "goishi/4/4/13")  # truncated
    page.click("#import")
    page.wait_for_function("document.getElementById('status').className === 'refused'")
    assert "truncated" in status(page) and page.get_attribute("body", "data-game") == game
    page.fill("#import-url", url)
    page.click("#import")
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
    assert page.locator("#cells button").count() == 42 and page.get_attribute("#export", "href") == url
    assert "url=" in page.url and page.inner_text("#caption") == "0 of 11 stones picked up"
    attempt = attempt_of(site, page)
    play_clicks(page, attempt.play.solution(attempt.problem, attempt.state, Limits(60)))
    page.wait_for_selector("body[data-solved='1']")
    shared = open_page(page.get_attribute("#share-link", "href"))  # the link opens the same puzzle
    assert attempt_of(site, shared).problem == attempt.problem and shared.get_attribute("body", "data-moves") == "0"


def test_a_url_that_holds_no_puzzle_is_refused_on_the_status_line_and_not_in_the_console(site, browser) -> None:
    """The page asks New for such a refusal as data ("refusal": "state"), as it asks for a click's:
    the status line says why, and the browser logs no 400 as an error."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        errors = console_errors(page)
        page.goto(f"{site[1]}/play/goishi?url=https://example.com/x")  # a link: the default puzzle instead
        ready(page)
        assert status(page).startswith("Left out of the link: the puzzle's URL (cannot import the URL")
        game = page.get_attribute("body", "data-game")
        for url in ("https://puzz.link/p?nurikabe/4/4/1370", "https://example.com/x"):
            page.fill("#import-url", url)
            page.click("#import")
            page.wait_for_function("document.getElementById('status').className === 'refused'")
            assert status(page).startswith("cannot import the URL") and page.get_attribute("body", "data-game") == game
            page.click("#hint")  # the next thing done takes the line
            status_is(page, "hint")
        assert errors == []
    finally:
        page.close()


def test_a_page_whose_play_takes_no_urls_offers_no_import(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5)))
    assert not page.is_visible("#import-url") and not page.is_visible("#export")


# -------------------------------------------------------------------- the conventions of puzzle sites
def long_press(page: Any, selector: str, seconds: float = 0.8) -> None:
    """A finger held still on an element, through the browser's own touch input (CDP)."""
    box = page.locator(selector).bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(seconds * 1000)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_right_click_shift_or_long_press_plays_the_second_tool(site, open_page, browser) -> None:
    page = open_page(link(site, Case("kings", size=6, seed=3)))
    assert "right-click" in status(page) and "erase" in page.inner_text("#second-note")
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)
    page.click("#cells button[data-cell='0']", button="right")  # erase, the second tool
    ready(page, moves=2)
    assert page.get_attribute("#cells button[data-cell='0']", "aria-label") == "a6, empty"
    assert page.get_attribute("button.tool[data-tool='king']", "aria-pressed") == "true"  # the tool stays
    page.click("button.tool[data-tool='erase']")
    page.click("#cells button[data-cell='14']", modifiers=["Shift"])  # the other tool: now the king
    ready(page, moves=3)
    assert page.get_attribute("#cells button[data-cell='14']", "aria-label") != "c4, empty"
    # A phone: a tap plays the tool, a finger held still plays the second one.
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(link(site, Case("kings", size=6, seed=3)).replace("seed=3", "seed=4"))
        ready(phone)
        assert status(phone).startswith("Tap a cell") and "long press" in status(phone)
        phone.tap("#cells button[data-cell='7']")
        ready(phone, moves=1)
        long_press(phone, "#cells button[data-cell='7']")
        ready(phone, moves=2)
        assert phone.get_attribute("#cells button[data-cell='7']", "aria-label") == "b5, empty"
        phone.wait_for_timeout(300)
        assert phone.get_attribute("body", "data-moves") == "2"  # the press played once
    finally:
        context.close()


def test_a_click_that_changes_nothing_or_moves_the_pick_says_so(site, open_page) -> None:
    """The rules take these clicks without a word (the server's rules are unchanged); the page
    says why the board did not change, on the status line, until the next move."""
    page = open_page(link(site, Case("kings", size=6, seed=3)))
    page.click("#cells button[data-cell='14']", button="right")  # erase, on an empty c4
    status_is(page, "note")
    assert status(page) == "Nothing to erase on c4." and page.get_attribute("body", "data-moves") == "0"
    page.click("#cells button[data-cell='14']")
    ready(page, moves=1)
    assert page.get_attribute("#status", "class") == ""  # the next move takes the line
    page = open_page(link(site, Case("dominoes", size=6, seed=2)))
    page.click("#cells button[data-cell='0']")  # a6 picked
    ready(page, moves=1)
    page.click("#cells button[data-cell='14']")  # c4: not beside a6, so the pick moves there
    status_is(page, "note")
    assert status(page) == "c4 is not beside a6: c4 is picked instead."
    page.click("#cells button[data-cell='20']")  # c3, beside c4: a domino, and no word
    page.wait_for_function(
        "document.body.dataset.busy === '0' && document.getElementById('status').className !== 'note'"
    )
    assert attempt_of(site, page).state[0] == ((14, 20),)


def first_move(site: tuple[PlayServer, str], page: Any) -> Click:
    """The first click of the solution of the page's game (a click the rules take)."""
    attempt = attempt_of(site, page)
    return attempt.play.solution(attempt.problem, attempt.state, Limits(60))[0]  # type: ignore[no-any-return]


def test_new_asks_before_leaving_a_puzzle_under_way_and_leaves_a_way_back(site, open_page) -> None:
    page = open_page(link(site, Case("queens", size=6, difficulty="easy", seed=11)))
    first = page.get_attribute("body", "data-game")
    page.click("#new")  # nothing played yet: no question
    page.wait_for_function(f"document.body.dataset.game !== '{first}' && document.body.dataset.busy === '0'")
    second = page.get_attribute("body", "data-game")
    assert not page.is_visible("#ask") and not page.is_visible("#previous")
    play_clicks(page, [first_move(site, page)])
    seed = attempt_of(site, page).seed
    page.click("#new")
    assert page.is_visible("#ask") and "under way" in page.inner_text("#ask-text")
    page.click("#ask-no")
    assert not page.is_visible("#ask") and page.get_attribute("body", "data-game") == second
    page.fill("#seed", "77")
    page.click("#new")
    page.click("#ask-yes")
    page.wait_for_function(f"document.body.dataset.game !== '{second}' && document.body.dataset.busy === '0'")
    assert attempt_of(site, page).seed == 77 and page.inner_text("#seed-shown") == "77"
    assert page.inner_text("#previous-link") == f"Back to the previous puzzle (6\u00d76 easy, seed {seed})"
    page.click("#previous-link")
    ready(page, moves=1)
    assert page.get_attribute("body", "data-game") == second and not page.is_visible("#previous")
    page.fill("#seed", "seven")
    page.click("#new")
    assert page.get_attribute("#status", "class") == "refused" and "whole number" in status(page)


def test_the_seed_and_the_link_are_shown_and_copied(site, open_page) -> None:
    page = open_page(link(site, Case("queens", size=5, difficulty="easy", seed=123456)))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    assert (
        page.inner_text("#puzzle-info") == "5\u00d75 easy, seed 123456" and page.inner_text("#seed-shown") == "123456"
    )
    page.click("#copy-seed")
    page.wait_for_function("document.getElementById('copy-seed').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == "123456"
    page.click("#copy-link")
    page.wait_for_function("document.getElementById('copy-link').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()").endswith("/play/queens?size=5&seed=123456&difficulty=easy")


def test_a_puzzle_every_seed_makes_alike_shows_and_asks_no_seed(site, open_page) -> None:
    """Kings have no difficulties and one board a size; queens' blank board is the same for every seed."""
    page = open_page(link(site, Case("kings", size=5, seed=9)))
    assert page.inner_text("#puzzle-info") == "5\u00d75" and page.locator("#seed-shown").count() == 0
    assert not page.is_visible("#copy-seed") and not page.is_visible("#seed") and page.is_visible("#new")
    assert page.url.split("#")[0].endswith("?size=5")  # no seed: every seed makes this board
    play_clicks(page, [(0, "king")])
    game = page.get_attribute("body", "data-game")
    page.select_option("#size", "7")
    page.click("#new")  # New still changes the size
    page.click("#ask-yes")
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
    assert page.inner_text("#puzzle-info") == "7\u00d77" and page.locator("#cells button").count() == 49
    assert page.inner_text("#previous-link") == "Back to the previous puzzle (5\u00d75)"
    page = open_page(link(site, Case("queens", size=6, difficulty="easy", seed=4)))
    assert page.is_visible("#seed") and page.is_visible("#copy-seed")
    page.fill("#seed", "seven")
    page.select_option("#difficulty", "blank")  # the Seed field goes as the difficulty is chosen
    assert not page.is_visible("#seed")
    game = page.get_attribute("body", "data-game")
    page.click("#new")
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
    assert page.inner_text("#puzzle-info") == "6\u00d76 blank" and not page.is_visible(
        "#copy-seed"
    )  # no word on "seven"
    assert attempt_of(site, page).difficulty == "blank" and not page.is_visible("#seed")
    page.select_option("#difficulty", "easy")
    assert page.is_visible("#seed")


def test_a_page_opened_without_settings_starts_at_the_default_size(site, open_page) -> None:
    _, url = site
    page = open_page(f"{url}/play/queens")
    assert attempt_of(site, page).size == 8 and page.locator("#cells button").count() == 64
    options = page.eval_on_selector_all("#size option", "os => os.map(o => o.value)")
    assert options == ["5", "6", "7", "8", "9", "10"] and page.input_value("#size") == "8"
    assert "size=8" in page.url


def test_a_puzzle_being_generated_says_so(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=2)))
    held = []
    page.route("**/api/kings/new", lambda route: held.append(route))
    page.select_option("#size", "9")
    page.click("#new")
    page.wait_for_selector("#veil:not([hidden])")
    assert "Generating a new 9\u00d79 puzzle" in page.inner_text("#veil") and "Generating" in status(page)
    page.click("#cells button[data-cell='0']", force=True)  # the board under the veil takes no click
    page.wait_for_timeout(100)
    assert held and page.get_attribute("body", "data-moves") == "0"
    held[0].continue_()
    page.unroute("**/api/kings/new")
    page.wait_for_selector("#veil[hidden]", state="attached")
    ready(page)
    assert page.locator("#cells button").count() == 81 and page.get_attribute("body", "data-moves") == "0"


def test_a_stopped_server_gets_a_friendly_box(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=6)))
    page.route("**/api/games/**", lambda route: route.abort())
    page.click("#cells button[data-cell='0']")
    page.wait_for_selector("#gone:not([hidden])")
    text = page.inner_text("#gone")
    assert "The puzzle server has stopped" in text and "boardpuzzles serve" in text
    assert "Failed to fetch" not in page.inner_text("body")
    page.click("#gone-retry")  # still stopped: the box stays
    page.wait_for_timeout(200)
    assert page.is_visible("#gone")
    page.unroute("**/api/games/**")
    page.click("#gone-retry")
    page.wait_for_selector("#gone", state="hidden")
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)


@pytest.mark.parametrize("name", sorted(puzzles()))
def test_a_phones_cells_are_a_finger_wide(site, open_page, name: str) -> None:
    """At least 32 px a cell on a 390 px phone, at each play's default size."""
    page = open_page(link(site, Case(name)), PHONE)
    sizes = page.eval_on_selector_all(
        "#cells button", "bs => bs.map(b => b.getBoundingClientRect()).map(r => Math.min(r.width, r.height))"
    )
    assert min(sizes) >= 32, min(sizes)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    buttons = page.eval_on_selector_all(
        "aside button", "bs => bs.filter(b => b.offsetParent !== null).map(b => b.getBoundingClientRect().height)"
    )
    assert min(buttons) >= 32, buttons


def test_a_board_too_big_for_a_phone_scrolls_sideways_or_fits(site, open_page) -> None:
    """HyperQueen 13x13: cells a finger wide in a frame that scrolls, or the whole board at once."""
    page = open_page(link(site, Case("hyperqueen", size=13, difficulty="blank")), PHONE)
    cell = page.locator("#cells button[data-cell='0']").bounding_box()
    assert cell["width"] >= 32 and page.is_visible("#zoom-box") and "sideways" in page.inner_text("#zoom-box")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the frame scrolls, not the page
    assert page.evaluate("(f => f.scrollWidth > f.clientWidth)(document.getElementById('frame'))")
    page.click("#zoom")
    cell = page.locator("#cells button[data-cell='0']").bounding_box()
    assert cell["width"] < 32 and page.evaluate(
        "(f => f.scrollWidth <= f.clientWidth)(document.getElementById('frame'))"
    )
    page.reload()  # the choice is kept
    ready(page)
    assert page.locator("#cells button[data-cell='0']").bounding_box()["width"] < 32


def test_after_new_on_a_phone_the_board_is_in_view(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=6, seed=8)), SMALL_PHONE)
    game = page.get_attribute("body", "data-game")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # down to the panels
    assert page.locator("#stage").bounding_box()["y"] < 0  # scrolled past the board
    page.click("#new")
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
    page.wait_for_function(
        "(() => { const r = document.getElementById('stage').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; })()"
    )


def test_every_control_has_a_name_for_screen_readers(site, open_page) -> None:
    page = open_page(link(site, Case("less-than-three", size=6, difficulty="easy")))
    nameless = page.eval_on_selector_all(
        "button:not([hidden]), input, select",
        "es => es.filter(e => e.offsetParent !== null && !(e.getAttribute('aria-label') || e.labels && e.labels.length"
        " || e.textContent.trim() || e.title)).map(e => e.outerHTML)",
    )
    assert nameless == []
    labels = page.eval_on_selector_all("#cells button", "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert all(label.split(", ")[1] for label in labels)  # a word for every cell
    assert page.get_attribute("#cells", "role") == "group" and page.get_attribute("#tools", "role") == "toolbar"


# -------------------------------------------------------------------- the buttons of the midend
def test_check_restart_and_show_the_solution(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=12)))
    assert page.is_visible("#check") and page.is_visible("#restart") and page.is_visible("#solve")
    assert page.is_disabled("#restart")  # at the start already
    page.click("#check")
    page.wait_for_function("document.getElementById('status').className === 'checked'")
    assert status(page).startswith("No mistakes so far")
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)
    assert page.get_attribute("#status", "class") == ""  # a move clears the check
    page.click("#cells button[data-cell='1']")  # two kings touching
    ready(page, moves=2)
    page.click("#check")
    page.wait_for_function("document.getElementById('status').className === 'fault'")
    assert "touch" in status(page)
    page.click("#restart")  # a move of its own: undo takes it back
    ready(page, moves=3)
    assert page.locator("#cells button[aria-label$=', empty']").count() == 25 and page.is_disabled("#restart")
    page.click("#undo")
    ready(page, moves=2)
    assert page.get_attribute("#cells button[data-cell='1']", "aria-label") != "b5, empty"
    page.click("#solve")
    assert page.is_visible("#ask") and "no longer counts" in page.inner_text("#ask-text")
    page.click("#ask-no")
    assert page.get_attribute("body", "data-solved") == "0"
    page.click("#solve")
    page.click("#ask-yes")
    page.wait_for_selector("body[data-solved='1']")
    assert page.get_attribute("#status", "class") == "revealed" and "does not count" in status(page)
    assert page.is_disabled("#solve") and page.is_disabled("#check") and page.is_disabled("#hint")
    clock = page.inner_text("#clock")
    page.wait_for_timeout(1200)
    assert page.inner_text("#clock") == clock  # the clock stopped
    game = page.get_attribute("body", "data-game")
    page.click("#new")  # a shown solution is not a puzzle under way: no question
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")


def status_is(page: Any, kind: str) -> None:
    page.wait_for_function(
        f"document.body.dataset.busy === '0' && document.getElementById('status').className === '{kind}'"
    )


def test_the_status_line_answers_the_hint_or_the_check_just_asked_for(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=12)))
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)
    page.click("#cells button[data-cell='1']")  # two kings touching: the mistake shows at once
    ready(page, moves=2)
    assert page.get_attribute("#status", "class") == "fault" and "touch" in status(page)
    page.click("#hint")
    status_is(page, "hint")
    assert status(page).startswith("Hint: ")
    page.click("#check")
    status_is(page, "fault")
    assert "touch" in status(page)
    page.keyboard.press("?")
    status_is(page, "hint")
    page.click("#undo")  # a move: the mistake is gone, and so are the hint and the check
    ready(page, moves=1)
    assert page.get_attribute("#status", "class") == "" and "Hint" not in status(page)


@pytest.mark.parametrize(
    ("puzzle", "query", "words"),
    [
        ("queens", "size=999", ["size=999 (the sizes are "]),
        ("kings", "difficulty=hard", ["difficulty=hard (this puzzle has no difficulties)"]),
        ("queens", "size=abc&seed=abc", ["size=abc (the sizes are ", "seed=abc (a seed is a whole number"]),
        (
            "queens",
            "seed=99999999999&difficulty=extreme",
            ["seed=99999999999", "difficulty=extreme (the difficulties are "],
        ),
        ("kings", "url=x&sizes=8", ["url=x (this puzzle imports no URLs)", "sizes=8 (not a setting of this page)"]),
        ("goishi", "url=goishi/4/4/13", ["the puzzle's URL (", "truncated"]),
    ],
)
def test_a_link_with_a_bad_parameter_opens_a_puzzle_and_says_what_was_left_out(
    site, open_page, puzzle: str, query: str, words: list[str]
) -> None:
    _, url = site
    page = open_page(f"{url}/play/{puzzle}?{query}")
    assert page.locator("#cells button").count() > 0 and page.get_attribute("body", "data-moves") == "0"
    assert page.get_attribute("#status", "class") == "refused" and status(page).startswith("Left out of the link: ")
    for word in words:
        assert word in status(page)
    assert page.is_disabled("#undo") and page.is_enabled("#hint")
    page.click("#hint")  # the puzzle plays; what the player does next takes the line
    status_is(page, "hint")


def test_the_menus_offer_only_the_sizes_a_difficulty_makes(site, browser) -> None:
    """A closed knight's tour needs an even side (Play.sizes_for): with closed chosen, 5x5 and
    7x7 are greyed and the 5x5 chosen before becomes 6x6, so New makes a puzzle, with no
    refusal and no error in the console."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        errors = console_errors(page)
        page.goto(link(site, Case("knights-tour", size=5, difficulty="open")))
        ready(page)
        greyed = "os => os.filter(o => o.disabled).map(o => o.value)"
        assert page.eval_on_selector_all("#size option", greyed) == [] and not page.is_visible("#sizes-note")
        page.select_option("#difficulty", "closed")
        assert page.eval_on_selector_all("#size option", greyed) == ["5", "7"] and page.input_value("#size") == "6"
        assert page.inner_text("#sizes-note") == "Closed: 6\u00d76 and 8\u00d78 only."
        game = page.get_attribute("body", "data-game")
        page.click("#new")
        page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
        attempt = attempt_of(site, page)
        assert (attempt.size, attempt.difficulty) == (6, "closed") and page.get_attribute("#status", "class") == ""
        page.select_option("#difficulty", "easy")  # every size again
        assert page.eval_on_selector_all("#size option", greyed) == [] and not page.is_visible("#sizes-note")
        assert errors == []
    finally:
        page.close()


def test_a_long_status_line_is_shown_whole_on_a_phone(site, open_page) -> None:
    """Wrapped, not cut off by an ellipsis (a tooltip is no help on a phone)."""
    _, url = site
    page = open_page(f"{url}/play/queens?size=abc&seed=abc&difficulty=extreme&colour=red", PHONE)
    assert status(page).startswith("Left out of the link: ") and len(status(page)) > 200
    whole = (
        "e => e.scrollHeight <= e.clientHeight + 1"
        " && e.getBoundingClientRect().bottom <= e.parentElement.getBoundingClientRect().bottom"
    )
    assert page.eval_on_selector("#status-text", whole)


def test_a_link_that_names_a_size_or_a_difficulty_opens_a_new_puzzle_of_them(site, browser) -> None:
    """In one browser (its storage kept): a plain link reopens the game played last; a link that
    names a size or a difficulty, with a seed or without (then a random one), opens a new puzzle
    of them and leaves a way back to the game under way; a bad seed is left out, and only it."""
    _, url = site
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        errors = console_errors(page)

        def opened(path: str) -> Any:
            page.goto(f"{url}{path}")
            ready(page)
            return attempt_of(site, page)

        first = opened("/play/queens")
        stored = page.get_attribute("body", "data-game")
        play_clicks(page, [first_move(site, page)])
        assert opened("/play/queens").size == first.size and page.get_attribute("body", "data-game") == stored
        hard = opened("/play/queens?size=10&difficulty=hard")
        assert (hard.size, hard.difficulty) == (10, "hard") and page.get_attribute("body", "data-game") != stored
        assert page.get_attribute("#status", "class") == "" and page.is_visible("#previous-link")  # nothing left out
        assert opened("/play/kings?size=4").size == 4 and opened("/play/kings?size=10").size == 10
        six = opened("/play/queens?size=6&seed=abc")
        assert (six.size, six.difficulty) == (6, "easy") and status(page) == (
            "Left out of the link: seed=abc (a seed is a whole number from 0 to 4294967295)."
        )
        last = page.get_attribute("body", "data-game")
        opened("/play/queens")  # the game played last here
        assert page.get_attribute("body", "data-game") == last
        closed = opened("/play/knights-tour?size=5&difficulty=closed")
        assert (closed.size, closed.difficulty) == (6, "closed")
        assert status(page) == "Left out of the link: size=5 (closed is offered on 6\u00d76 and 8\u00d78)."
        assert errors == []
    finally:
        context.close()


def test_the_aids_switch_and_the_links_reach(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=13)))
    assert not page.is_visible("#aids-box")  # kings have no aids: no switch that does nothing
    page = open_page(link(site, Case("queens", size=6, seed=13)))
    assert page.is_visible("#aids-box") and not page.is_checked("#aids")
    assert page.get_attribute("#aids", "role") == "switch"
    page.check("#aids")
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert attempt_of(site, page).aids and page.is_checked("#aids")
    page.reload()  # the setting belongs to the game
    ready(page)
    assert page.is_checked("#aids")
    page.uncheck("#aids")
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert not attempt_of(site, page).aids
    assert "this computer only" in page.inner_text("#reach")


def centre(page: Any, cell: int) -> dict[str, float]:
    box = page.locator(f"#cells button[data-cell='{cell}']").bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def test_a_drag_plays_each_cell_it_enters(site, open_page, browser) -> None:
    """Dominoes take drags: a stroke across two squares lays a domino, with a mouse or a finger."""
    assert site[0].plays["dominoes"][1].drag
    page = open_page(link(site, Case("dominoes", size=6, seed=2)))
    start, end = centre(page, 0), centre(page, 1)
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    page.mouse.move(end["x"], end["y"], steps=6)
    page.mouse.up()
    ready(page, moves=1)  # a domino: one move
    assert attempt_of(site, page).state[0] == ((0, 1),)
    page.click("#cells button[data-cell='14']")  # a click still picks one square
    ready(page, moves=2)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(link(site, Case("dominoes", size=6, seed=3)))
        ready(phone)
        cdp = context.new_cdp_session(phone)
        points = [centre(phone, 6), centre(phone, 12)]  # a5 down to a4
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [points[0]]})
        for i in range(1, 6):
            x = points[0]["x"] + (points[1]["x"] - points[0]["x"]) * i / 5
            y = points[0]["y"] + (points[1]["y"] - points[0]["y"]) * i / 5
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        ready(phone, moves=1)  # a domino: one move
        assert attempt_of(site, phone).state[0] == ((6, 12),)
        assert phone.evaluate("window.scrollY") == 0  # the finger drew; the page did not scroll
    finally:
        context.close()
