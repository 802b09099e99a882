"""The generic play page in a real browser (system Chromium, headless, as test_web_baikago.py
launches it): keyboard, reload, hints, the phone layout, imports; on kings and Goishi. That every
registered puzzle is solved by clicks in its page is tests/test_play_conformance.py.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from boardpuzzles.limits import Limits
from boardpuzzles.play import Click
from boardpuzzles.web.app import PlayServer, make_app

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
    threading.Thread(target=server.serve_forever, daemon=True).start()
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
    query = f"size={case.size or play.sizes[0]}&seed={case.seed}"
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
    assert page.get_attribute("#cells button[data-cell='7']", "aria-label") == "b5, K"
    page.keyboard.press("x")  # the erase tool
    assert page.get_attribute("button.tool[data-tool='erase']", "aria-pressed") == "true"
    page.keyboard.press("Space")
    ready(page, moves=2)
    page.keyboard.press("Control+z")
    ready(page, moves=1)
    page.keyboard.press("Control+y")
    ready(page, moves=2)
    assert page.get_attribute("#cells button[data-cell='7']", "aria-label") == "b5, empty"


def test_a_reload_finds_the_game_and_the_link_reopens_the_same_puzzle(site, open_page, browser) -> None:
    page = open_page(link(site, Case("kings", size=5, seed=9)))
    game = page.get_attribute("body", "data-game")
    page.click("#cells button[data-cell='0']")
    ready(page, moves=1)
    assert f"#game={game}" in page.url and "seed=9" in page.url
    page.reload()
    ready(page, moves=1)
    assert page.get_attribute("body", "data-game") == game
    shared = page.get_attribute("#link", "href")
    assert shared.endswith("/play/kings?size=5&seed=9")
    other = open_page(shared)
    assert other.get_attribute("body", "data-game") != game and other.get_attribute("body", "data-moves") == "0"
    assert attempt_of(site, other).seed == 9


def test_hint_new_and_the_solved_time(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=4, seed=2)))
    page.click("#hint")
    page.wait_for_function("document.getElementById('status-text').textContent.startsWith('Hint: a king on ')")
    game = page.get_attribute("body", "data-game")
    page.select_option("#size", "7")
    page.click("#new")
    page.wait_for_function(f"document.body.dataset.game !== '{game}' && document.body.dataset.busy === '0'")
    assert page.locator("#cells button").count() == 49 and "size=7" in page.url


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
    shared = open_page(page.get_attribute("#link", "href"))  # the link opens the same puzzle
    assert attempt_of(site, shared).problem == attempt.problem and shared.get_attribute("body", "data-moves") == "0"


def test_a_page_whose_play_takes_no_urls_offers_no_import(site, open_page) -> None:
    page = open_page(link(site, Case("kings", size=5)))
    assert not page.is_visible("#import-url") and not page.is_visible("#export")
