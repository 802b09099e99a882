"""The Baikago page in a browser, as a player sees it beside the puzzles' play pages: the board's
wood under every stone, the value of the position as an aid (off unless asked for), rules in
plain words, the clock, the link and the keys, and a click the game refuses said on the status
line. The server and the browser are :mod:`tests.test_web_baikago`'s."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests import test_web_baikago as base
from tests.test_web_baikago import DESKTOP, PHONE, game_page, ready, request, seeded_game, status, stones

# The browser, the server (15x15 by default, every size offered) and the pages of test_web_baikago.
browser, site, open_page, screenshots = base.browser, base.site, base.open_page, base.screenshots

#: Stones on the outer lines (every corner and a point of each side), after the review's 9x9 game.
EDGES = {9: ["e5", "g9", "i7", "a1", "i3", "a9", "d4", "i9", "c3", "a5"], 15: ["h8", "o15", "a1", "o1", "a15", "h1"]}


def placed(site: Any, size: int, moves: list[str], **settings: Any) -> str:
    """A new game with ``moves`` played on the server's own game (no computer asked)."""
    game_id = seeded_game(site, size=size, **settings)
    game = site[0].baikago.games.get(game_id)
    for name in moves:
        game.position.make_named(name)
    return game_id


@pytest.mark.parametrize("size", sorted(EDGES))
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_stone_lies_on_the_wood_and_on_its_point(site, open_page, screenshots, size, viewport) -> None:
    """The wood runs past the outer lines further than a stone's radius, as on a real board."""
    _, url = site
    page = open_page(f"{url}/#game={placed(site, size, EDGES[size])}", viewport)
    wood = page.locator("#board .wood").bounding_box()
    circles = page.eval_on_selector_all(
        "#board circle.stone",
        "cs => cs.map(c => [c.dataset.point, ...['x', 'y', 'width', 'height'].map(k => c.getBoundingClientRect()[k])])",
    )
    assert len(circles) == len(EDGES[size])
    for point, x, y, w, h in circles:
        margin = min(
            x - wood["x"], y - wood["y"], wood["x"] + wood["width"] - x - w, wood["y"] + wood["height"] - y - h
        )
        assert margin >= w / 10, (point, margin)  # a rim of wood beyond the edge stones
        button = page.locator(f".pt[data-point={point}]").bounding_box()
        assert abs(button["x"] + button["width"] / 2 - (x + w / 2)) < 1
        assert abs(button["y"] + button["height"] / 2 - (y + h / 2)) < 1
    labels = page.eval_on_selector_all(
        "#board text", "ts => ts.map(t => t.getBoundingClientRect()).map(r => [r.x, r.y, r.right, r.bottom])"
    )
    assert all(
        wood["x"] <= a and wood["y"] <= b and c <= wood["x"] + wood["width"] and d <= wood["y"] + wood["height"]
        for a, b, c, d in labels
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshots(page, f"edges-{size}-{viewport['width']}x{viewport['height']}")


def test_a_click_that_plays_nothing_says_why_and_leaves_the_console_free_of_errors(site, browser) -> None:
    url = site[1]
    with game_page(site, browser, placed(site, 9, ["e5", "d4"])) as (page, errors):
        page.click(".pt[data-point=d4]", force=True)  # aria-disabled, yet a click lands
        assert status(page) == "Not allowed: d4 is taken. The computer played d4. Your move (black)."
        assert stones(page) == {"e5": "X", "d4": "O"}
        page.click(".pt[data-point=c3]")  # a move: the refusal is said until the next change
        ready(page)
        assert not status(page).startswith("Not allowed") and len(stones(page)) == 4
        # A finished game: the result box says it, in place of how the game was won.
        won = placed(site, 9, ["e5", "a1", "e4", "a2", "e6", "a3", "d5", "a4", "f5"])  # black's + cross on e5
        page.goto(f"{url}/#game={won}")
        ready(page)
        assert page.is_visible("#result")
        page.click(".pt:not(.taken)", force=True)
        assert page.inner_text("#result-detail") == "Not allowed: the game is over: start a new one."
        assert "the game is over" in status(page)  # for screen readers too
        assert errors == []


def test_the_rules_and_the_result_are_in_plain_words(site, open_page) -> None:
    _, url = site
    page = open_page(f"{url}/#game={placed(site, 9, ['e5', 'a1', 'e4', 'a2', 'e6', 'a3', 'd5', 'a4', 'f5'])}")
    rule = page.inner_text("#rule")
    assert rule.startswith("Make a cross of five of your stones first: a centre and four stones")
    assert rule.endswith("in a + (along the lines) or in an \u00d7 (on the diagonals).")
    assert page.inner_text("#game-info") == "You play black (first) against computer strength 1, on a 9\u00d79 board."
    assert page.inner_text("#result-detail") == "Black wins with a + centred on e5 (d5, f5, e6 and e4)."
    text = page.inner_text("body")
    assert "9x9" not in text and "any d" not in text and "x crosses" not in text
    other = page.evaluate("rulesText({size: 9, max_d: 2, orientations: 'x'})")
    assert other.endswith("at the same distance from it, at most 2 points away, in an \u00d7 (on the diagonals).")


def test_the_clock_counts_the_time_played_and_stops_at_the_end(site, open_page) -> None:
    _, url = site
    game_id = placed(site, 9, ["e5", "a1"])
    game = site[0].baikago.games.get(game_id)
    game.started = time.time() - 125  # begun two minutes ago
    page = open_page(f"{url}/#game={game_id}")
    assert page.inner_text("#clock") in ("2:05", "2:06", "2:07") and page.get_attribute("#clock", "aria-label")
    port = site[0].server_address[1]
    won = placed(site, 9, ["e5", "a1", "e4", "a2", "e6", "a3", "d5", "a4"])
    request(port, "POST", "/api/move", {"game": won, "point": "f5"})  # the winning move stops the clock
    record = site[0].baikago.games.get(won).record()
    assert record.ended is not None and record.started is not None and record.ended >= record.started
    page.goto(f"{url}/#game={won}")
    ready(page)
    shown = page.inner_text("#result-time")
    assert shown.startswith("0:0")
    page.wait_for_timeout(1100)
    assert page.inner_text("#result-time") == shown
    # A game the page starts itself is answered at 0.0 s played: the clock counts from then (it
    # counted from 1970 when the answer said the same time as the clock's start).
    page.goto(f"{url}/?size=7")
    ready(page)
    assert page.inner_text("#clock").startswith("0:0"), page.inner_text("#clock")


def test_copy_link_opens_a_new_game_with_the_settings_and_the_keys_are_listed(site, open_page) -> None:
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=9, human='white', strength=3)}")
    first = page.get_attribute("body", "data-game")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#copy-link")
    page.wait_for_function("document.getElementById('copy-link').textContent === 'Copied'")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{url}/?human=white&strength=3&size=9" == page.get_attribute("#share-link", "href")
    assert page.evaluate("location.search") == "?human=white&strength=3&size=9"  # the address bar's link too
    page.goto(link)
    ready(page)
    assert page.get_attribute("body", "data-game") != first and page.locator(".pt").count() == 81
    assert page.input_value("#human") == "white" and page.input_value("#strength") == "3"
    page.reload()  # the game now in the hash, not another new one
    ready(page)
    assert page.evaluate("location.hash") == "#game=" + page.get_attribute("body", "data-game")
    page.goto(f"{url}/?size=5&colour=red&strength=3")
    ready(page)
    assert page.locator(".pt").count() in (81, 121, 225) and page.input_value("#strength") == "3"
    said = status(page)
    assert (
        said.startswith("Left out of the link: size=5 (the boards are 7\u00d77, ")
        and "colour=red (not a setting" in said
    )
    page.click("#keys-box summary")
    keys = page.inner_text("#keys")
    assert all(k in keys for k in ("Enter", "Space", "Ctrl+Z", "Ctrl+Y", "Ctrl+Shift+Z", "Home", "End"))
    phone = open_page(f"{url}/#game={page.get_attribute('body', 'data-game')}", PHONE)
    assert not phone.is_visible("#keys-box")  # no keyboard on a phone


def test_a_move_on_a_game_that_moved_on_shows_it_as_it_stands_without_a_console_error(site, browser) -> None:
    # Another tab played on: the move is refused as data, with the game as it stands (a 409 before).
    game_id = placed(site, 9, ["e5", "d4"])
    with game_page(site, browser, game_id) as (page, errors):
        game = site[0].baikago.games.get(game_id)
        game.position.make_named("c3")  # black plays in another tab
        game.position.make_named("g7")  # and the computer answers there
        page.click(".pt[data-point=f6]")
        page.wait_for_function("document.getElementById('status-text').textContent.startsWith('Not played')")
        assert stones(page) == {"e5": "X", "d4": "O", "c3": "X", "g7": "O"}
        said = "Not played: the game changed in another tab. The computer played g7. Your move (black)."
        assert status(page) == said
        assert errors == []


def test_undo_redo_aids_and_a_move_on_a_game_that_moved_on_leave_no_error_and_show_it_as_it_stands(
    site, browser
) -> None:
    """Another tab played, undid or redid: this page's undo, redo, aids and move each say what
    happened and show the game as it stands; none is answered 4xx (a 409 before, or an undo of
    moves this page never showed), and the computer moves where the game stands on its turn."""
    game_id = placed(site, 9, ["e5", "d4"])
    game = site[0].baikago.games.get(game_id)
    said = "the game changed in another tab."

    def changed_elsewhere(page: Any, undone: str) -> str:
        """The status line once it says that ``undone`` was not done, and why."""
        words = f"{undone}: {said}" if undone else said[0].upper() + said[1:]
        page.wait_for_function("s => document.getElementById('status-text').textContent.startsWith(s)", arg=words)
        ready(page)
        return status(page)

    with game_page(site, browser, game_id) as (page, errors):
        refused = []
        page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        game.position.make_named("c3")  # black plays in another tab
        game.position.make_named("g7")  # and the computer answers there
        page.click("#undo")
        changed_elsewhere(page, "Nothing was undone")
        line = {"e5": "X", "d4": "O", "c3": "X", "g7": "O"}
        assert stones(page) == line and page.is_disabled("#redo")
        game.undo()  # the other tab undoes c3 and g7
        page.click("#undo")
        changed_elsewhere(page, "Nothing was undone")
        assert stones(page) == {"e5": "X", "d4": "O"} and page.is_enabled("#redo")
        game.redo()  # and redoes them
        page.click("#redo")
        changed_elsewhere(page, "Nothing was redone")
        assert stones(page) == line and page.is_disabled("#redo")
        game.position.make_named("b2")
        game.position.make_named("h8")
        page.check("#aids")
        changed_elsewhere(page, "")
        assert stones(page) == {**line, "b2": "X", "h8": "O"}
        game.position.make_named("a1")  # black again; the computer's answer has not come yet
        page.click(".pt[data-point=f6]")
        page.wait_for_function("document.querySelectorAll('.pt.taken').length === 8", timeout=15_000)
        text = changed_elsewhere(page, "Not played")
        taken = stones(page)  # the computer moved, asked by this page
        assert sorted(p for p, stone in taken.items() if stone == "X") == ["a1", "b2", "c3", "e5"]  # no f6 of ours
        assert list(taken.values()).count("O") == 4
        assert "The computer played" in text and text.endswith("Your move (black).")
        assert errors == [] and refused == []


def test_a_redo_after_another_tab_undid_played_and_undid_again_is_refused_not_played(site, browser) -> None:
    """The other tab leaves as many moves as this page shows, and other moves to redo: the page's
    redo must not play them (the number of moves alone could not tell), and its move is not
    played either."""
    game_id = placed(site, 9, ["e5", "d4", "c3", "g7"])
    game = site[0].baikago.games.get(game_id)
    game.undo()
    with game_page(site, browser, game_id) as (page, errors):
        assert stones(page) == {"e5": "X", "d4": "O"} and page.is_enabled("#redo")
        game.move("a1")  # the other tab: a new move, answered, then undone
        game.position.make_named("h8")
        game.undo()
        page.click("#redo")
        page.wait_for_function("document.getElementById('status-text').textContent.startsWith('Nothing was redone')")
        ready(page)
        assert status(page).startswith("Nothing was redone: the game changed in another tab.")
        assert stones(page) == {"e5": "X", "d4": "O"} and page.is_enabled("#redo")
        page.click("#redo")  # now from the game as it stands: the other tab's moves, shown first
        page.wait_for_function("document.querySelectorAll('.pt.taken').length === 4")
        assert stones(page) == {"e5": "X", "d4": "O", "a1": "X", "h8": "O"}
        assert errors == []


def test_a_game_another_tab_finished_shows_its_result_and_says_why_the_move_was_not_played(site, browser) -> None:
    """The result box hides the status line: it says the move was not played, and why, before
    how the game was won."""
    game_id = placed(site, 9, ["e5", "a1", "e4", "a2", "e6", "a3", "d5", "a4"])
    with game_page(site, browser, game_id) as (page, errors):
        site[0].baikago.games.get(game_id).move("f5")  # the other tab completes black's cross
        page.click(".pt[data-point=h8]")
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#result-detail") == (
            "Not played: the game changed in another tab. Black wins with a + centred on e5 (d5, f5, e6 and e4)."
        )
        assert errors == []


def test_a_settings_link_or_new_game_keeps_the_game_under_way_with_a_way_back(site, open_page) -> None:
    """A link that names settings starts a new game; the game under way before it is kept (the
    server may let it make room first, as a game left), and a link returns to it, as on the play
    pages. A game with no move of the player's leaves no such link."""
    url = site[1]
    page = open_page(f"{url}/#game={seeded_game(site, size=9)}")
    first = page.get_attribute("body", "data-game")
    assert not page.is_visible("#previous")
    page.click(".pt[data-point=e5]")
    ready(page)
    line = stones(page)
    assert len(line) == 2
    page.goto(f"{url}/?size=7&strength=3")
    ready(page)
    second = page.get_attribute("body", "data-game")
    assert second != first and page.locator(".pt").count() == 49 and stones(page) == {}
    assert page.inner_text("#previous") == (
        "Back to the previous game (you play black, computer strength 1, 9\u00d79, 2 moves)"
    )
    assert site[0].baikago.games.get(first).left  # the page left it for the link's game
    page.click("#previous-link")
    ready(page)
    assert page.get_attribute("body", "data-game") == first and stones(page) == line
    assert page.locator(".pt").count() == 81 and not page.is_visible("#previous")
    # New game from a game under way keeps it too; the link then leads back to it.
    page.click("#new")
    ready(page)
    assert page.get_attribute("body", "data-game") not in (first, second) and stones(page) == {}
    assert page.inner_text("#previous").endswith("9\u00d79, 2 moves)")
    page.click("#previous-link")  # the same path and query: only the hash changes
    ready(page)
    assert page.get_attribute("body", "data-game") == first and stones(page) == line
    # A game the player had not moved in yet: nothing to go back to.
    fresh = open_page(f"{url}/#game={seeded_game(site, size=9)}")
    fresh.goto(f"{url}/?size=7")
    ready(fresh)
    assert not fresh.is_visible("#previous")
