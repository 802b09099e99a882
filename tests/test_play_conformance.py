"""Every registered puzzle plays in the browser, with no test code of its own (the play
counterpart of test_conformance.py): the registry is the only list, so a new puzzle is covered
as soon as it is registered.

For each puzzle: its play (its own, or its answer type's default) exists and keeps the engine's
promises; its page is served; its JSON API answers (new, the game, a click, undo, redo, a click
the rules refuse, and a wrong move flagged as data); and a real browser (the system Chromium,
headless) solves a freshly made puzzle by clicks only: the tool's button, then the square's, as
the play's ``solution`` (the solver's answer) says. With $BOARDPUZZLES_SCREENSHOTS set, each play
page is saved there as a phone (390x844) and a desktop (1200x900) screenshot, halfway and solved.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from boardpuzzles.limits import Limits
from boardpuzzles.play import Attempt, Click, IllegalMove, Play, play_of
from boardpuzzles.puzzles import puzzles
from boardpuzzles.web.app import PlayServer
from tests import test_play_browser as pages
from tests.test_play_web import call as request

NAMES = sorted(puzzles())
SEED = 1
DESKTOP, PHONE = pages.DESKTOP, pages.PHONE
#: The page tests' fixtures: the system Chromium, the server, the screenshots ($BOARDPUZZLES_SCREENSHOTS).
browser, site, screenshots = pages.browser, pages.site, pages.screenshots


def play(name: str) -> Play[Any, Any]:
    made = play_of(puzzles()[name])
    assert made is not None, f"{name} has no play: give its record an answer_type with a default play, or a play"
    return made


def fresh(name: str) -> dict[str, Any]:
    """The parameters of a new puzzle: the play's default size and difficulty, a fixed seed."""
    chosen = play(name)
    return {
        "size": chosen.default_size,
        "difficulty": chosen.difficulties[0] if chosen.difficulties else "",
        "seed": SEED,
    }


def attempt(name: str) -> Attempt[Any, Any]:
    """The same puzzle as the page's (a play makes the same puzzle of the same size, difficulty and seed)."""
    return Attempt.new(play(name), **fresh(name))


def solution(game: Attempt[Any, Any]) -> list[Click]:
    assert game.play.solution is not None, "a play gives its solution: the page's Show solution and this test need it"
    clicks = game.play.solution(game.problem, game.state, Limits(60))
    assert clicks, "the solver found no way to finish"
    return clicks


# ---------------------------------------------------------------- the engine's promises
@pytest.mark.parametrize("name", NAMES)
def test_every_puzzle_has_a_play_whose_solution_solves_it_and_survives_json(name: str) -> None:
    chosen = play(name)
    assert chosen.rules and chosen.sizes and chosen.tools
    game = attempt(name)
    words = game.describe_cells()
    assert len(words) == game.scene().grid.size and all(w and len(w) > 1 for w in words)  # words, not letters
    assert not game.verdict().solved and any(f.kind == "unfinished" for f in game.verdict().faults)
    assert chosen.hint(game.problem, game.state, Limits(60)).outcome == "step"  # a fresh puzzle can be solved
    for cell, tool in solution(game):
        game.click(cell, tool)
    verdict = game.verdict()
    assert verdict.solved and verdict.faults == []
    assert chosen.hint(game.problem, game.state, Limits(60)).outcome == "solved"
    again = Attempt.from_json(chosen, json.loads(json.dumps(game.to_json())))
    assert again.state == game.state and again.verdict().solved
    assert chosen.state_from_json(game.problem, json.loads(json.dumps(chosen.state_to_json(game.problem, game.state))))


def wrong_move(game: Attempt[Any, Any]) -> Click | None:
    """A first click the rules refuse or flag as wrong, found by trying the clicks from the
    start (None when every first click is fine, as a domino's is)."""
    for tool in game.play.tools:
        for cell in range(game.scene().grid.size):
            try:
                after = game.play.click(game.problem, game.state, cell, tool.name)
            except IllegalMove:
                return cell, tool.name
            if any(f.kind == "wrong" for f in game.play.faults(game.problem, after)):
                return cell, tool.name
    return None


# ---------------------------------------------------------------- the page and the JSON API
def call(site: tuple[PlayServer, str], method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One request to the server; (status, the JSON document or the page's text)."""
    return request(site[0], method, path, body)


@pytest.mark.parametrize("name", NAMES)
def test_every_puzzle_has_a_page_and_its_json_api_answers(site: tuple[PlayServer, str], name: str) -> None:
    status, page = call(site, "GET", f"/play/{name}")
    assert status == 200 and "<html" in page.lower()
    status, state = call(site, "POST", f"/api/{name}/new", fresh(name))
    assert status == 200, state
    game = attempt(name)
    assert state["state"] == game.play.state_to_json(game.problem, game.state)  # the same puzzle
    assert not state["solved"] and state["svg"].startswith("<svg") and state["geometry"]["cell"] > 0
    assert state["caption"], "the line above the board says what is left to do"
    path = f"/api/games/{state['game']}"
    first = solution(game)[0]
    status, after = call(site, "POST", f"{path}/click", {"cell": first[0], "tool": first[1]})
    assert status == 200 and after["moves"] == 1, after
    assert call(site, "POST", f"{path}/undo", {})[1]["moves"] == 0
    assert call(site, "POST", f"{path}/redo", {})[1]["moves"] == 1
    assert call(site, "GET", path)[1]["state"] == after["state"]
    status, refused = call(site, "POST", f"{path}/click", {"cell": -1, "tool": first[1]})
    assert status == 422 and set(refused) == {"error"} and "\n" not in refused["error"]
    wrong = wrong_move(game)
    if wrong is not None:
        status, state = call(site, "POST", f"/api/{name}/new", {**fresh(name), "replaces": state["game"]})
        status, flagged = call(site, "POST", f"/api/games/{state['game']}/click", {"cell": wrong[0], "tool": wrong[1]})
        assert status == 422 or any(f["kind"] == "wrong" and f["message"] for f in flagged["faults"]), flagged


# ---------------------------------------------------------------- a real browser
def game_of(site: tuple[PlayServer, str], page: Any) -> dict[str, Any]:
    """The page's game, as the JSON API has it."""
    status, state = call(site, "GET", f"/api/games/{page.get_attribute('body', 'data-game')}")
    assert status == 200, state
    return state  # type: ignore[no-any-return]


def open_page(browser: Any, site: tuple[PlayServer, str], name: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    query = "&".join(f"{key}={value}" for key, value in fresh(name).items() if value != "")
    page.goto(f"{site[1]}/play/{name}?{query}")
    page.wait_for_selector("body[data-game] #cells button", timeout=60_000)
    page.errors = errors
    return page


def click_as_a_person(site: tuple[PlayServer, str], page: Any, cell: int, tool: str) -> None:
    """The tool's button, then the square's; then wait until the server has the click (it
    changes the position; the move count stays when it completes a move with the clicks before)."""
    before = game_of(site, page)["state"]
    page.click(f"[data-tool='{tool}']")
    page.click(f"#cells button[data-cell='{cell}']")
    deadline = time.monotonic() + 30
    while game_of(site, page)["state"] == before:
        assert time.monotonic() < deadline, f"the click on {cell} with {tool} was not played"
        time.sleep(0.02)


@pytest.mark.parametrize("name", NAMES)
def test_a_browser_solves_a_fresh_puzzle_solved_by_clicks(
    site: tuple[PlayServer, str], browser: Any, screenshots: Callable[[Any, str], None], name: str
) -> None:
    phone = open_page(browser, site, name, PHONE)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshots(phone, f"{name}-{PHONE['width']}x{PHONE['height']}")
    phone.close()
    page = open_page(browser, site, name, DESKTOP)
    game = attempt(name)
    assert game_of(site, page)["state"] == game.play.state_to_json(game.problem, game.state)
    clicks = solution(game)
    for at, (cell, tool) in enumerate(clicks):
        if at == len(clicks) // 2:  # halfway: the picture of a game under way (docs/pictures.py)
            screenshots(page, f"{name}-midway-{DESKTOP['width']}x{DESKTOP['height']}")
        click_as_a_person(site, page, cell, tool)
    assert game_of(site, page)["solved"]
    page.wait_for_selector("body[data-solved='1']")
    screenshots(page, f"{name}-solved-{DESKTOP['width']}x{DESKTOP['height']}")
    assert page.errors == []
    page.close()
