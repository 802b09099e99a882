"""``boardpuzzles serve`` over real sockets: the puzzles' JSON API (new, click, undo, redo, hint),
errors as JSON, Host and Origin checks, games kept across a restart, Baikago beside them."""

from __future__ import annotations

import dataclasses
import http.client
import json
import re
import sqlite3
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from boardpuzzles.limits import Limits
from boardpuzzles.play import Attempt
from boardpuzzles.play_generic import play_of
from boardpuzzles.puzzles import get, registry
from boardpuzzles.render.shapes import PATH_COLOUR, START_COLOUR
from boardpuzzles.web.app import PlayServer, make_app
from boardpuzzles.web.play_game import FAULT_COLOUR, HINT_COLOUR, check_of
from tests import reference
from tests.threads import serve_in_background

COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
#: A resource fetched from another site (a script, a style sheet, a font, an image).
OFFSITE = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|@import|url\(\s*["']?(?:https?:)?//""")


def start(**kwargs: Any) -> PlayServer:
    server = make_app(0, warm=False, **kwargs)
    serve_in_background(server)
    return server


def stop(server: PlayServer) -> None:
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def server() -> Iterator[PlayServer]:
    srv = start()
    yield srv
    stop(srv)


def call(
    server: PlayServer, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """One request; (status, the JSON document or the page's text)."""
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    fields = {"Host": f"127.0.0.1:{port}"}
    payload = None
    if body is not None:
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        fields["Content-Type"] = "application/json"
    fields.update(headers or {})
    connection.request(method, path, payload, fields)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    if response.getheader("Content-Type", "").startswith("application/json"):
        return response.status, json.loads(data)
    return response.status, data.decode()


def new_kings(server: PlayServer, size: int = 4, seed: int = 1) -> dict[str, Any]:
    status, state = call(server, "POST", "/api/kings/new", {"size": size, "seed": seed})
    assert status == 200, state
    return state


def click(server: PlayServer, game: str, cell: int, tool: str = "king") -> tuple[int, Any]:
    return call(server, "POST", f"/api/games/{game}/click", {"cell": cell, "tool": tool})


def wrong(state: dict[str, Any]) -> list[Any]:
    """The state's faults that break the rules (it lists what is left to do too, as unfinished ones)."""
    return [fault for fault in state["faults"] if fault["kind"] == "wrong"]


def test_a_new_game_is_a_blank_board_with_its_picture_and_where_its_cells_lie(server: PlayServer) -> None:
    state = new_kings(server, 4, 7)
    assert state["puzzle"] == "kings" and state["size"] == 4 and state["seed"] == 7
    assert state["state"] == "." * 16 and not state["solved"] and wrong(state) == []
    assert state["svg"].startswith("<svg") and state["link"] == "/play/kings?size=4"
    g = state["geometry"]
    assert (g["rows"], g["cols"]) == (4, 4) and g["cell"] > 0
    assert 0 < g["left"] < g["left"] + 4 * g["cell"] <= g["width"]
    assert 0 < g["top"] < g["top"] + 4 * g["cell"] <= g["height"]
    assert state["names"][0] == "a4" and state["contents"][0] == "empty"


def test_click_undo_redo_and_a_fault_drawn_in_red(server: PlayServer) -> None:
    game = new_kings(server)["game"]
    status, state = click(server, game, 0)
    assert status == 200 and state["state"][0] == "K" and state["can_undo"] and not state["can_redo"]
    status, state = click(server, game, 1)
    assert wrong(state) == [{"message": "a4 and b4 touch", "cells": [0, 1], "lines": [], "kind": "wrong"}]
    assert "#e53935" in state["svg"]  # the fault's colour
    status, state = call(server, "POST", f"/api/games/{game}/undo", {})
    assert status == 200 and state["state"][:2] == "K." and wrong(state) == [] and state["can_redo"]
    status, state = call(server, "POST", f"/api/games/{game}/redo", {})
    assert state["state"][:2] == "KK" and state["moves"] == 2
    status, got = call(server, "GET", f"/api/games/{game}")
    assert status == 200 and got["state"] == state["state"]


def test_a_game_solved_by_clicks_says_so_with_its_time(server: PlayServer) -> None:
    state = new_kings(server, 6, 3)
    play = play_of(get("kings"))  # type: ignore[arg-type]
    assert play is not None and play.solution is not None
    problem, start = play.new(6, "", 3)
    for cell, tool in play.solution(problem, start, Limits(30)):
        status, state = click(server, state["game"], cell, tool)
        assert status == 200, state
    assert state["solved"] and state["faults"] == [] and state["seconds"] >= 0


def test_a_hint_names_a_square_and_marks_it(server: PlayServer) -> None:
    game = new_kings(server)["game"]
    status, state = call(server, "POST", f"/api/games/{game}/hint", {})
    assert status == 200 and state["hint"]["message"].startswith("a king on ") and len(state["hint"]["cells"]) == 1
    assert HINT_COLOUR in state["svg"]
    status, state = click(server, game, 15)
    assert state["hint"] is None  # a change clears it


def test_a_hint_that_names_a_wrong_piece_is_drawn_over_its_fault(server: PlayServer) -> None:
    # Kings on b5 and c5 of 5x5 touch (both red); the hint names b5, which no solution holds
    # (nine kings fit only on the odd squares): its violet showed under the red, unseen.
    state = new_kings(server, 5, 1)
    game, cell = state["game"], {name: i for i, name in enumerate(state["names"])}
    click(server, game, cell["b5"])
    wrong_only = click(server, game, cell["c5"])[1]
    hinted = call(server, "POST", f"/api/games/{game}/hint", {})[1]
    assert hinted["hint"]["cells"] == [cell["b5"]]
    assert HINT_COLOUR in hinted["svg"] and red_cells(hinted["svg"], None) < red_cells(wrong_only["svg"], None)
    assert {"the hint", "what is wrong"} <= {entry["text"] for entry in hinted["legend"]}


def test_a_given_piece_in_a_mistake_keeps_its_given_look(server: PlayServer) -> None:
    # A queen placed on a given queen's row painted the given one red: it then looked like the
    # player's own. The given square keeps its colour, framed in red.
    from boardpuzzles.puzzles.queens.play import GIVEN_COLOUR

    state = call(server, "POST", "/api/queens/new", {"size": 8, "difficulty": "easy", "seed": 1})[1]
    game = state["game"]
    given = next(c for c, words in enumerate(state["contents"]) if "given" in words)
    same_row = next(c for c in range(given - given % 8, given - given % 8 + 8) if c != given)
    after = click(server, game, same_row, "queen")[1]
    assert {given, same_row} <= {c for f in wrong(after) for c in f["cells"]}
    assert after["svg"].count(GIVEN_COLOUR) == state["svg"].count(GIVEN_COLOUR)  # still green
    framed = re.findall(rf'<rect [^>]*fill="none" stroke="{FAULT_COLOUR}"', after["svg"])
    assert len(framed) >= 2  # the given queen and the placed one (on the play's shading of its row)


def test_the_state_says_whether_the_hint_or_the_check_was_asked_for_last(server: PlayServer) -> None:
    game = new_kings(server, 4, 8)["game"]
    assert call(server, "GET", f"/api/games/{game}")[1]["asked"] is None
    click(server, game, 0)
    click(server, game, 1)  # a mistake, which the status line shows until the player asks
    assert call(server, "POST", f"/api/games/{game}/hint", {})[1]["asked"] == "hint"
    state = call(server, "POST", f"/api/games/{game}/check", {})[1]
    assert state["asked"] == "check" and state["hint"] is not None  # both stay; the check came last
    assert call(server, "POST", f"/api/games/{game}/hint", {})[1]["asked"] == "hint"
    assert call(server, "POST", f"/api/games/{game}/aids", {"on": True})[1]["asked"] == "hint"  # a setting
    assert click(server, game, 15)[1]["asked"] is None  # a move clears both


def test_a_check_says_a_dead_end_that_breaks_no_rule_yet(server: PlayServer) -> None:
    # Nine kings fit on 5x5 only on the squares of odd file and rank (a1, c1, ..., e5): a king on
    # b5 breaks no rule, but no solution holds it. The check said "No mistakes so far" while the
    # hint said there was no way on.
    state = new_kings(server, 5, 1)
    game, cell = state["game"], {name: i for i, name in enumerate(state["names"])}
    click(server, game, cell["b5"])
    checked = call(server, "POST", f"/api/games/{game}/check", {})[1]
    assert wrong(checked) == [] and checked["hints"] == 0
    assert checked["check"]["message"] == "No rule broken, but no solution holds the king on b5: take it off"
    assert checked["check"]["cells"] == [cell["b5"]] and checked["check"]["mistake"]
    call(server, "POST", f"/api/games/{game}/undo", {})
    click(server, game, cell["c3"])
    checked = call(server, "POST", f"/api/games/{game}/check", {})[1]
    assert checked["check"]["message"].startswith("No mistakes so far: 1 king")


def test_a_check_whose_search_finds_no_answer_in_time_claims_no_more_than_the_rules() -> None:
    from boardpuzzles.play import NO_HINT_IN_TIME, Fault, Hint, Verdict

    left = Verdict([Fault("1 king; the problem asks for 9", kind="unfinished")], False, 1.0)
    assert check_of(left, NO_HINT_IN_TIME)["message"] == "No rule broken so far: 1 king; the problem asks for 9"
    assert check_of(left, Hint("a king on a1", (0,)))["message"].startswith("No mistakes so far")
    assert check_of(left, Hint("none", (3,), outcome="dead end")) == {
        "solved": False,
        "mistake": True,
        "message": "No rule broken, but none",
        "cells": [3],
    }


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("POST", "/api/kings/new", {"size": 99}, 400, "size is one of"),
        ("POST", "/api/kings/new", {"seed": -1}, 400, "seed is a whole number"),
        ("POST", "/api/kings/new", {"difficulty": "hard"}, 400, "difficulty"),
        ("POST", "/api/nothing/new", {}, 404, "no playable puzzle"),
        ("POST", "/api/baikago/new", {}, 404, "no playable puzzle"),
        ("POST", "/api/games/0123abcd/click", {"cell": 0, "tool": "king"}, 404, "no game"),
        ("GET", "/api/kings/new", None, 405, "answers POST"),
        ("POST", "/play/kings", {}, 405, "answers GET"),
        ("GET", "/play/nothing", None, 404, "no playable puzzle"),
        ("GET", "/api/games/0123abcd", None, 404, "no game"),
        ("GET", "/nowhere", None, 404, "no page"),
        ("POST", "/api/kings/new", b"{not json", 400, "bad JSON"),
        ("POST", "/api/kings/new", b"[1]", 400, "JSON object"),
        ("POST", "/api/kings/new", b" " * (65 * 1024), 413, "over 64 KiB"),
    ],
)
def test_bad_requests_are_answered_with_json_errors(
    server: PlayServer, method: str, path: str, body: Any, status: int, words: str
) -> None:
    got, document = call(server, method, path, body)
    assert got == status and words in document["error"]


@pytest.mark.parametrize("path", ["/play/goishi-hiroi", "/nowhere", "/play/kings/extra"])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_browser_asking_for_a_page_that_is_not_there_gets_a_page_that_says_so(
    server: PlayServer, method: str, path: str
) -> None:
    accept = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    status, page = call(server, method, path, headers=accept)
    assert status == 404 and isinstance(page, str)
    if method == "GET":
        assert "<h1>Page not found</h1>" in page and '<a class="home" href="/">All puzzles</a>' in page
        assert 'href="/play/goishi"' in page and 'href="/baikago"' in page and OFFSITE.search(page) is None
        assert "error" not in page
    # The API, and whoever does not ask for HTML, still get JSON.
    status, document = call(server, "GET", path)
    assert status == 404 and "error" in document
    status, document = call(server, "GET", "/api/games/0123abcd", headers=accept)
    assert status == 404 and "no game" in document["error"]


def test_refused_clicks_are_422_with_the_reason_and_change_nothing(server: PlayServer) -> None:
    game = new_kings(server)["game"]
    status, document = click(server, game, 99)
    assert status == 422 and "off the board" in document["error"]
    status, document = click(server, game, 0, "rook")
    assert status == 400 and "no tool" in document["error"]
    status, document = call(server, "POST", f"/api/games/{game}/click", {"cell": "a4", "tool": "king"})
    assert status == 400 and "cell index" in document["error"]
    status, document = call(server, "POST", f"/api/games/{game}/undo", {})
    assert status == 422 and "nothing to undo" in document["error"]
    assert call(server, "GET", f"/api/games/{game}")[1]["moves"] == 0


def test_a_refusal_asked_for_as_state_is_200_with_the_reason_and_the_state_unchanged(server: PlayServer) -> None:
    game = new_kings(server)["game"]
    assert click(server, game, 0)[0] == 200
    before = call(server, "GET", f"/api/games/{game}")[1]
    as_state = {"refusal": "state"}
    for action, body, reason in (
        ("click", {"cell": 99, "tool": "king"}, "off the board"),
        ("redo", {}, "nothing to redo"),
    ):
        status, document = call(server, "POST", f"/api/games/{game}/{action}", {**body, **as_state})
        assert status == 200 and reason in document["refused"]
        assert {k: v for k, v in document.items() if k not in ("refused", "seconds")} == {
            k: v for k, v in before.items() if k != "seconds"
        }
        # The default is unchanged: a 422, as scripts expect.
        status, document = call(server, "POST", f"/api/games/{game}/{action}", {**body, "refusal": "status"})
        assert status == 422 and reason in document["error"] and "refused" not in document
    # A move that is played has no "refused"; malformed requests and unknown games keep their codes.
    status, document = call(server, "POST", f"/api/games/{game}/undo", as_state)
    assert status == 200 and "refused" not in document and document["moves"] == 0
    status, document = call(server, "POST", f"/api/games/{game}/click", {"cell": "a4", "tool": "king", **as_state})
    assert status == 400 and "cell index" in document["error"]
    assert call(server, "POST", "/api/games/0123abcd/undo", as_state)[0] == 404
    for bad in ("State", "", None, True, ["state"]):
        status, document = call(server, "POST", f"/api/games/{game}/redo", {"refusal": bad})
        assert status == 400 and '"state"' in document["error"]


def test_other_hosts_and_other_pages_are_refused(server: PlayServer) -> None:
    status, document = call(server, "GET", "/", headers={"Host": "evil.example:80"})
    assert status == 403 and "127.0.0.1" in document["error"]
    status, document = call(server, "POST", "/api/kings/new", {}, {"Origin": "http://evil.example"})
    assert status == 403 and "other web pages" in document["error"]
    port = server.server_address[1]
    assert call(server, "POST", "/api/kings/new", {}, {"Origin": f"http://localhost:{port}"})[0] == 200


def test_the_front_page_has_a_card_per_registered_puzzle_and_links_the_playable_ones(server: PlayServer) -> None:
    status, page = call(server, "GET", "/")
    assert status == 200
    for name in registry():
        assert f'data-puzzle="{name}"' in page, name
    assert 'href="/play/kings"' in page and 'href="/baikago"' in page and "<svg" in page
    assert OFFSITE.search(page) is None  # nothing fetched from elsewhere


def test_the_front_pages_pictures_are_boards_without_legends(server: PlayServer) -> None:
    page = call(server, "GET", "/")[1]
    assert page.count("<svg") >= len(server.plays)
    for words in ("ring:", "square:", "disc:", "grey:", "dashed border", "path coloured by"):
        assert words not in page, words  # a legend would be too small to read on a card


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("queens", "aids shade the squares that can no longer be used"),
        ("goishi", "aids point out dead ends"),
        ("dominoes", "aids point out dead ends"),
        ("knights-tour", "aids point out dead ends"),
    ],
)
def test_the_assistance_note_says_what_the_puzzles_aids_are(server: PlayServer, name: str, words: str) -> None:
    page = call(server, "GET", f"/play/{name}")[1]
    assert words in page and "attacked squares" not in page


def test_the_play_page_and_the_baikago_page_are_served_whole(server: PlayServer) -> None:
    status, page = call(server, "GET", "/play/kings")
    assert status == 200 and '"name": "kings"' in page and "<script>" in page and OFFSITE.search(page) is None
    status, page = call(server, "GET", "/baikago")
    assert status == 200 and "Baikago" in page
    assert page.count('<a class="home" href="/">all puzzles</a>') == 1  # the way back to the others
    status, state = call(server, "POST", "/api/new", {"human": "black", "strength": 1, "size": 7})
    assert status == 200 and state["size"] == 7  # its API as baikago serve has it
    assert call(server, "GET", f"/api/state?game={state['game']}")[0] == 200


def test_a_restart_with_the_same_game_file_keeps_every_game(tmp_path) -> None:
    path = tmp_path / "games.sqlite"
    first = start(games=path)
    try:
        game = new_kings(first, 5, 11)["game"]
        click(first, game, 0)
        click(first, game, 2)
        seen = call(first, "POST", f"/api/games/{game}/undo", {})[1]["history"]
        baikago = call(first, "POST", "/api/new", {"human": "black", "strength": 1, "size": 7})[1]
        baikago = call(first, "POST", "/api/move", {"game": baikago["game"], "point": "d4"})[1]
    finally:
        stop(first)
    second = start(games=path)
    try:
        status, state = call(second, "GET", f"/api/games/{game}")
        assert status == 200 and state["state"][:3] == "K.." and state["seed"] == 11 and state["can_redo"]
        assert state["history"] == seen  # a page open across the restart goes on without a refusal
        assert call(second, "POST", f"/api/games/{game}/redo", {"history": seen})[1]["state"][:3] == "K.K"
        status, state = call(second, "GET", f"/api/state?game={baikago['game']}")
        assert status == 200 and state["history"] == baikago["history"]
    finally:
        stop(second)


def test_a_stored_game_that_no_longer_replays_is_dropped_with_a_line(tmp_path, capsys) -> None:
    path = tmp_path / "games.sqlite"
    first = start(games=path)
    try:
        game = new_kings(first)["game"]
    finally:
        stop(first)
    db = sqlite3.connect(path)
    db.execute("UPDATE puzzle_games SET body = '{\"attempt\": {}}' WHERE id = ?", (game,))
    db.commit()
    db.close()
    second = start(games=path)
    try:
        assert call(second, "GET", f"/api/games/{game}")[0] == 404
        assert "dropped" in capsys.readouterr().err
    finally:
        stop(second)


def test_a_full_server_makes_room_with_a_left_game_first() -> None:
    srv = start(max_games=8)  # 2 games a client
    try:
        one = new_kings(srv)["game"]
        two = new_kings(srv)["game"]
        call(srv, "GET", f"/api/games/{one}")  # the more recently used of the two now
        status, state = call(srv, "POST", "/api/kings/new", {"size": 4, "replaces": two})
        assert status == 200
        assert call(srv, "GET", f"/api/games/{two}")[0] == 404  # the left one made room
        assert call(srv, "GET", f"/api/games/{one}")[0] == 200  # the third is now the less recently used
        assert call(srv, "POST", "/api/kings/new", {"size": 4})[0] == 200  # never refused:
        assert call(srv, "GET", f"/api/games/{state['game']}")[0] == 404  # the least recently used made room
        assert call(srv, "GET", f"/api/games/{one}")[0] == 200
    finally:
        stop(srv)


def test_serve_refuses_a_file_that_is_not_a_game_file(tmp_path) -> None:
    from click.testing import CliRunner

    from boardpuzzles.cli import cli

    path = tmp_path / "notes.txt"
    path.write_text("not a database, " * 100)
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--games", str(path)])
    assert result.exit_code != 0 and "not a game file" in str(result.output) + str(result.exception)


def test_a_hint_that_finds_every_searcher_busy_says_so(server: PlayServer, monkeypatch) -> None:
    from boardpuzzles.web import play_game

    monkeypatch.setattr(play_game, "HINT_SECONDS", 0.2)
    monkeypatch.setattr(server.puzzles, "searchers", threading.BoundedSemaphore(1))
    server.puzzles.searchers.acquire()  # one search under way, and one core
    game = new_kings(server)["game"]
    status, state = call(server, "POST", f"/api/games/{game}/hint", {})
    assert status == 200 and "busy" in state["hint"]["message"]
    server.puzzles.searchers.release()
    status, state = call(server, "POST", f"/api/games/{game}/hint", {})
    assert status == 200 and state["hint"]["message"].startswith("a king on ")


#: robx/pzprjs, test/script/goishi.js: a 7x6 Goishi Hiroi with one order.
GOISHI_URL = "https://puzz.link/p?goishi/6/7/vsten1tvo"


def test_a_puzzle_imported_from_its_url_is_played_solved_and_shared(server: PlayServer) -> None:
    status, state = call(server, "POST", "/api/goishi/new", {"url": " " + GOISHI_URL})
    assert status == 200, state
    assert state["url"] == GOISHI_URL and state["imported"] and state["state"] == [] and state["moves"] == 0
    assert state["link"] == "/play/goishi?url=https%3A%2F%2Fpuzz.link%2Fp%3Fgoishi%2F6%2F7%2Fvsten1tvo"
    assert (state["geometry"]["rows"], state["geometry"]["cols"]) == (7, 6)
    game = server.get_puzzle_game(state["game"])
    assert game is not None
    attempt = game.attempt
    for cell, tool in attempt.play.solution(attempt.problem, attempt.state, Limits(30)):
        status, state = click(server, state["game"], cell, tool)
        assert status == 200, state
    assert state["solved"]
    made = call(server, "POST", "/api/goishi/new", {"size": 5, "seed": 2})[1]
    assert made["url"].startswith("https://puzz.link/p?goishi/5/5/") and not made["imported"]
    assert made["link"] == "/play/goishi?size=5&seed=2&difficulty=easy"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"url": "https://puzz.link/p?nurikabe/4/4/1370"}, "not a Goishi one"),
        ({"url": "goishi/4/4/13"}, "truncated"),
        ({"url": ""}, "non-empty"),
        ({"url": ["goishi/4/4/1370"]}, "string"),
    ],
)
def test_a_bad_url_is_refused_with_one_line(server: PlayServer, body: Any, words: str) -> None:
    status, document = call(server, "POST", "/api/goishi/new", body)
    assert status == 400 and words in document["error"] and "\n" not in document["error"], document


def test_a_url_that_holds_no_puzzle_is_refused_as_data_when_asked(server: PlayServer) -> None:
    """As a click the rules refuse: with "refusal": "state" a URL the play cannot read is 200 and
    ``refused`` (no game was made, so no state); the default stays 400 for scripts, and a
    malformed request is a 400 either way."""
    kept = new_kings(server)["game"]
    for url, words in (("https://puzz.link/p?nurikabe/4/4/1370", "not a Goishi one"), ("https://example.com/x", "")):
        body = {"url": url, "replaces": kept, "refusal": "state"}
        status, document = call(server, "POST", "/api/goishi/new", body)
        assert status == 200 and list(document) == ["refused"], document
        assert document["refused"].startswith("cannot import the URL") and words in document["refused"]
        assert call(server, "POST", "/api/goishi/new", {"url": url})[0] == 400
    game = server.get_puzzle_game(kept)
    assert game is not None and not game.left  # the game the page would leave is not left
    for body in ({"url": ""}, {"url": ["goishi/4/4/1370"]}, {"size": 999}):
        assert call(server, "POST", "/api/goishi/new", {**body, "refusal": "state"})[0] == 400
    assert call(server, "POST", "/api/kings/new", {"url": GOISHI_URL, "refusal": "state"})[0] == 400
    status, document = call(server, "POST", "/api/goishi/new", {"url": GOISHI_URL, "refusal": "state"})
    assert status == 200 and "refused" not in document and document["imported"]


def test_a_play_that_takes_no_urls_refuses_one_and_its_page_offers_none(server: PlayServer) -> None:
    status, document = call(server, "POST", "/api/kings/new", {"url": GOISHI_URL})
    assert status == 400 and document["error"] == "kings imports no URLs"
    assert call(server, "POST", "/api/kings/new", {})[1]["url"] is None
    assert '"imports": false' in call(server, "GET", "/play/kings")[1]
    assert '"imports": true' in call(server, "GET", "/play/goishi")[1]


def page_config(server: PlayServer, name: str) -> Any:
    """The CONFIG a play page's script reads."""
    page = call(server, "GET", f"/play/{name}")[1]
    found = re.search(r"const CONFIG = (\{.*\});", page)
    assert found is not None
    return json.loads(found.group(1))


def test_a_new_game_that_names_no_size_has_the_plays_default(server: PlayServer) -> None:
    config = page_config(server, "queens")
    assert config["sizes"] == [5, 6, 7, 8, 9, 10] and config["default_size"] == 8  # ascending, 8 the default
    status, state = call(server, "POST", "/api/queens/new", {"seed": 1})
    assert status == 200 and state["size"] == 8 and state["link"].startswith("/play/queens?size=8&")
    assert call(server, "POST", "/api/goishi/new", {"seed": 1})[1]["size"] == 7


def test_the_page_knows_the_sizes_each_difficulty_offers(server: PlayServer) -> None:
    """A closed knight's tour needs an even side (Play.sizes_for): the page's menus offer no
    other, and the server refuses one all the same."""
    assert page_config(server, "knights-tour")["sizes_by_difficulty"] == {"closed": [6, 8]}
    assert page_config(server, "queens")["sizes_by_difficulty"] == {}
    status, document = call(server, "POST", "/api/knights-tour/new", {"size": 5, "difficulty": "closed"})
    assert status == 400 and "6, 8" in document["error"]


@pytest.mark.parametrize(
    ("name", "difficulty", "seeded"),
    [
        ("kings", None, False),
        ("dominoes", None, False),
        ("queens", "easy", True),
        ("queens", "blank", False),
        ("hyperqueen", "blank", False),
        ("knights-tour", "open", False),
        ("knights-tour", "closed", False),
        ("knights-tour", "easy", True),
        ("goishi", "easy", True),
    ],
)
def test_the_state_says_whether_its_seed_chose_the_puzzle(
    server: PlayServer, name: str, difficulty: str | None, seeded: bool
) -> None:
    body: dict[str, Any] = {"seed": 5} if difficulty is None else {"seed": 5, "difficulty": difficulty}
    state = call(server, "POST", f"/api/{name}/new", body)[1]
    assert state["seeded"] is seeded and state["seed"] == 5
    assert ("seed=5" in state["link"]) is seeded  # a link names a seed only where it chose the puzzle
    assert ((difficulty or "") in page_config(server, name)["seedless"]) is not seeded  # the page's list agrees


def test_the_page_names_the_difficulties_every_seed_makes_the_same(server: PlayServer) -> None:
    assert page_config(server, "kings")["seedless"] == [""]  # no difficulties: every seed the same board
    assert page_config(server, "queens")["seedless"] == ["blank"]
    assert page_config(server, "knights-tour")["seedless"] == ["open", "closed"]
    assert page_config(server, "goishi")["seedless"] == []
    assert call(server, "POST", "/api/goishi/new", {"url": GOISHI_URL})[1]["seeded"] is False  # imported


def test_the_state_captions_the_picture_instead_of_titling_it(server: PlayServer) -> None:
    state = new_kings(server, 4, 1)
    assert state["caption"] == "0 kings; the problem asks for 4" and "the problem asks" not in state["svg"]


@pytest.mark.parametrize("command", [["serve"], ["baikago", "serve"]])
def test_a_port_in_use_is_one_line_and_exit_2(tmp_path, command) -> None:
    # The server's store was set after binding, so a refused bind ended in an internal error (70).
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "boardpuzzles",
                *command,
                "--port",
                str(port),
                "--games",
                str(tmp_path / "g.sqlite"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"boardpuzzles: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


# -------------------------------------------------------------------- restart, solve, check, aids
def test_restart_is_a_move_that_undo_takes_back(server: PlayServer) -> None:
    game = new_kings(server, 4, 5)["game"]
    assert not call(server, "GET", f"/api/games/{game}")[1]["can_restart"]
    assert call(server, "POST", f"/api/games/{game}/restart", {})[0] == 422  # at its start already
    click(server, game, 0)
    status, state = call(server, "POST", f"/api/games/{game}/restart", {})
    assert status == 200 and state["state"] == "." * 16 and state["can_undo"] and not state["can_restart"]
    status, state = call(server, "POST", f"/api/games/{game}/undo", {})
    assert state["state"][0] == "K" and state["can_restart"]


def test_a_change_from_a_tab_the_game_moved_on_from_is_refused_with_the_game_as_it_stands(server: PlayServer) -> None:
    """Tab B undoes, clicks elsewhere and undoes again: the game has as many moves as tab A
    shows, other moves to redo. A's changes, sent with the history token it shows, do nothing:
    409, or as data 200 with the game as it stands and ``"moved_on"``. Without the token they act
    as before; hints, checks and the aids change no move and are not refused."""
    game = new_kings(server, 4, 8)["game"]
    click(server, game, 0)
    click(server, game, 10)
    tab_a = call(server, "POST", f"/api/games/{game}/undo", {})[1]
    assert tab_a["moves"] == 1 and tab_a["can_redo"]
    click(server, game, 15)  # tab B
    tab_b = call(server, "POST", f"/api/games/{game}/undo", {})[1]
    assert (tab_b["moves"], tab_b["state"], tab_b["can_redo"]) == (tab_a["moves"], tab_a["state"], True)
    assert tab_b["history"] != tab_a["history"]  # a king on d1 to redo, not on c2
    seen = {"history": tab_a["history"]}
    changes = (("redo", {}), ("undo", {}), ("click", {"cell": 5, "tool": "king"}), ("restart", {}), ("solve", {}))
    for action, body in changes:
        status, document = call(server, "POST", f"/api/games/{game}/{action}", {**body, **seen})
        assert status == 409 and "changed elsewhere" in document["error"], (action, document)
        status, document = call(server, "POST", f"/api/games/{game}/{action}", {**body, **seen, "refusal": "state"})
        assert status == 200 and document["moved_on"] and "changed elsewhere" in document["refused"]
        assert (document["state"], document["history"]) == (tab_b["state"], tab_b["history"])  # untouched
    for action, body in (("hint", {}), ("check", {}), ("aids", {"on": False})):
        status, document = call(server, "POST", f"/api/games/{game}/{action}", {**body, **seen})
        assert status == 200 and document["history"] == tab_b["history"], action
    status, state = call(server, "POST", f"/api/games/{game}/redo", {"history": tab_b["history"]})
    assert status == 200 and state["state"][15] == "K" and state["history"] not in (tab_a["history"], tab_b["history"])
    for bad in (5, ["x"], True):
        assert call(server, "POST", f"/api/games/{game}/undo", {"history": bad})[0] == 400


def test_solve_shows_the_solution_marked_revealed(server: PlayServer) -> None:
    game = new_kings(server, 4, 6)["game"]
    status, state = call(server, "POST", f"/api/games/{game}/solve", {})
    assert status == 200 and state["solved"] and state["revealed"] and state["faults"] == [] and state["can_undo"]
    status, document = call(server, "POST", f"/api/games/{game}/solve", {})
    assert status == 422 and "solved already" in document["error"]


def test_dominoes_no_tiling_keeps_are_answered_and_solved_from_the_start(server: PlayServer) -> None:
    """a7-b7 and b8-c8 leave a8 alone in its corner: the hint says so, as the check does, and
    marks a8; the solution shown starts again from the start."""
    status, state = call(server, "POST", "/api/dominoes/new", {"size": 8, "seed": 1})
    assert status == 200, state
    game, cell = state["game"], {name: i for i, name in enumerate(state["names"])}
    for name in ("a7", "b7", "b8", "c8"):
        status, state = click(server, game, cell[name], "pair")
        assert status == 200, state
    status, state = call(server, "POST", f"/api/games/{game}/hint", {})
    assert status == 200 and state["hint"]["message"] == "a8 can no longer be covered: take a pair beside it off (undo)"
    assert state["hint"]["outcome"] == "dead end" and state["hint"]["cells"] == [cell["a8"]]
    checked = call(server, "POST", f"/api/games/{game}/check", {})[1]["check"]
    assert checked["message"] == state["hint"]["message"] and checked["cells"] == [cell["a8"]]
    status, state = call(server, "POST", f"/api/games/{game}/solve", {})
    assert status == 200 and state["solved"] and state["revealed"], state
    pairs = [tuple(pair) for pair in state["state"]["pairs"]]
    placed = {(cell["a7"], cell["b7"]), (cell["b8"], cell["c8"])}
    assert reference.dominoes_tile(8, 8, pairs) and not placed <= set(pairs)  # from the start


@pytest.mark.parametrize("size", [8, 10])
def test_kings_hint_and_solution_on_a_large_blank_board(server: PlayServer, size: int) -> None:
    game = new_kings(server, size, 1)["game"]
    status, state = call(server, "POST", f"/api/games/{game}/hint", {})
    assert status == 200 and state["hint"]["message"].startswith("a king on "), state["hint"]
    status, state = call(server, "POST", f"/api/games/{game}/solve", {})
    assert status == 200 and state["solved"], state
    kings = [c for c, piece in enumerate(state["state"]) if piece == "K"]
    assert reference.kings_apart(size, size, ((size + 1) // 2) ** 2, kings)


def test_check_says_the_first_mistake_until_the_next_change(server: PlayServer) -> None:
    game = new_kings(server, 4, 8)["game"]
    assert new_kings(server)["check"] is None
    click(server, game, 0)
    click(server, game, 1)
    status, state = call(server, "POST", f"/api/games/{game}/check", {})
    assert status == 200 and state["check"] == {
        "solved": False,
        "mistake": True,
        "message": "a4 and b4 touch",
        "cells": [0, 1],
    }
    assert call(server, "GET", f"/api/games/{game}")[1]["check"] == state["check"]  # shown until a change
    assert click(server, game, 15)[1]["check"] is None
    state = call(server, "POST", f"/api/games/{game}/solve", {})[1]
    assert call(server, "POST", f"/api/games/{game}/check", {})[1]["check"] == {
        "solved": True,
        "mistake": False,
        "message": "Solved!",
        "cells": [],
    }


def test_aids_are_a_setting_kept_with_the_game(tmp_path) -> None:
    path = tmp_path / "games.sqlite"
    first = start(games=path)
    try:
        game = new_kings(first)["game"]
        assert call(first, "GET", f"/api/games/{game}")[1]["aids"] is False
        status, state = call(first, "POST", f"/api/games/{game}/aids", {"on": True})
        assert status == 200 and state["aids"] is True and state["moves"] == 0  # a setting, not a move
        status, document = call(first, "POST", f"/api/games/{game}/aids", {"on": "yes"})
        assert status == 400 and "true" in document["error"]
    finally:
        stop(first)
    second = start(games=path)
    try:
        assert call(second, "GET", f"/api/games/{game}")[1]["aids"] is True
    finally:
        stop(second)


def test_the_state_says_what_the_page_shows(server: PlayServer) -> None:
    state = new_kings(server, 4, 7)
    assert state["share"] == {"link": "/play/kings?size=4", "reach": "this computer only"}
    assert len(state["contents"]) == 16 and all(isinstance(words, str) and words for words in state["contents"])
    assert state["can_restart"] is False and state["revealed"] is False and state["aids"] is False
    click(server, state["game"], 0)
    faults = click(server, state["game"], 1)[1]["faults"]
    assert all(set(f) == {"message", "cells", "lines", "kind"} for f in faults) and len(wrong({"faults": faults})) == 1


def kinds_of_faults(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A game of kings whose play reports one fault of each kind, on cells 0, 1 and 2."""
    from boardpuzzles.play import Attempt, Fault
    from boardpuzzles.web.play_game import PuzzleGame

    kings = get("kings")
    play = play_of(kings)  # type: ignore[arg-type]
    assert play is not None
    faults = [Fault("wrong", (0,)), Fault("aid", (1,), kind="aid"), Fault("left", (2,), kind="unfinished")]
    shown = dataclasses.replace(play, faults=lambda problem, state: faults)
    return PuzzleGame(kings, shown, Attempt.new(shown, 4, "", 1))  # type: ignore[arg-type]


def red_cells(svg: str, game: Any) -> int:
    """How many cells the picture marks in the fault colour."""
    return svg.count("#e53935")


def test_the_picture_draws_wrong_faults_always_aids_with_aids_on_or_while_checked(monkeypatch) -> None:
    game = kinds_of_faults(monkeypatch)
    plain = red_cells(game.state()["svg"], game)
    assert len(game.state()["faults"]) == 3  # every fault is listed, each with its kind
    game.set_aids(True)
    with_aids = red_cells(game.state()["svg"], game)
    game.ask_check()
    checked = game.state()
    assert 0 < plain < with_aids == red_cells(checked["svg"], game)  # what is left to do is never red
    assert checked["check"] == {"solved": False, "mistake": True, "message": "wrong", "cells": [0]}
    game.set_aids(False)
    assert red_cells(game.state()["svg"], game) == red_cells(checked["svg"], game)  # the check still shows all
    game.click(15, "king")
    assert game.state()["check"] is None and red_cells(game.state()["svg"], game) == plain


def test_the_legend_says_each_marks_meaning_without_naming_the_mark(server: PlayServer) -> None:
    state = call(server, "POST", "/api/goishi/new", {"seed": 3})[1]
    for _ in range(2):  # two stones picked up: the first, the last, and the grey of picked stones
        hinted = call(server, "POST", f"/api/games/{state['game']}/hint", {})[1]["hint"]
        state = click(server, state["game"], hinted["cells"][0], "pick")[1]
    texts = {entry["kind"]: entry["text"] for entry in state["legend"]}
    assert texts["start"] == "the first stone picked up" and texts["faded"] == "picked up"
    assert texts["mark-ring"] == "the last stone picked up"
    assert all(isinstance(entry["filled"], bool) for entry in state["legend"])
    torus = call(server, "POST", "/api/hyperqueen/new", {"seed": 1})[1]["legend"]
    assert any(entry["kind"] == "torus" and entry["text"].startswith("the board wraps") for entry in torus)


def hue(colour: str) -> float | None:
    """The hue of ``#rrggbb`` in degrees, None for a grey (too little colour to tell)."""
    import colorsys

    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    h, lightness, saturation = colorsys.rgb_to_hls(r, g, b)
    return 360 * h if saturation * min(lightness, 1 - lightness) * 2 >= 0.2 else None


def reddish(colour: str) -> bool:
    """Whether a colour reads as red (the colour of mistakes): a clear hue within 20 degrees of red."""
    h = hue(colour)
    return h is not None and (h <= 20 or h >= 340)


def test_red_marks_only_mistakes_and_the_hint_has_a_colour_of_its_own(server: PlayServer) -> None:
    assert reddish(FAULT_COLOUR) and not reddish(HINT_COLOUR)
    state = call(server, "POST", "/api/goishi/new", {"seed": 3})[1]
    for _ in range(3):  # a correct walk: arrows and the rings of its first and last stones
        hinted = call(server, "POST", f"/api/games/{state['game']}/hint", {})[1]["hint"]
        state = click(server, state["game"], hinted["cells"][0], "pick")[1]
    assert wrong(state) == [] and FAULT_COLOUR not in state["svg"]
    assert PATH_COLOUR in state["svg"] and not reddish(PATH_COLOUR) and not reddish(START_COLOUR)  # the arrows
    assert [c for c in set(COLOUR.findall(state["svg"])) if reddish(c)] == []  # the last stone's ring too
    # No play marks anything in a hue near the hint's (the Knight's tour's chosen number is light blue).
    hint = hue(HINT_COLOUR)
    assert hint is not None
    for name, (_, play) in server.plays.items():
        module = sys.modules[play.scene.__module__]
        for value in vars(module).values():
            if isinstance(value, str) and COLOUR.fullmatch(value) and (other := hue(value)) is not None:
                assert min(abs(hint - other), 360 - abs(hint - other)) >= 40, (name, value)


def test_the_knights_tour_shows_no_red_without_a_mistake(server: PlayServer) -> None:
    """Red is the colour of mistakes: neither the start of a puzzle (its 1 was ringed, tinted and
    squared in red as the path's end) nor a solved board (the path coloured up to red) shows it,
    and a solved board marks no number as the one the next follows."""
    state = call(server, "POST", "/api/knights-tour/new", {"size": 5, "difficulty": "easy", "seed": 1})[1]
    assert wrong(state) == [] and [c for c in set(COLOUR.findall(state["svg"])) if reddish(c)] == []
    assert {"start", "end"}.isdisjoint(entry["kind"] for entry in state["legend"])
    solved = call(server, "POST", f"/api/games/{state['game']}/solve", {})[1]
    assert solved["solved"] and wrong(solved) == []
    assert [c for c in set(COLOUR.findall(solved["svg"])) if reddish(c)] == []
    assert all("follows" not in entry["text"] for entry in solved["legend"])


def test_the_warm_up_makes_checks_and_solves_a_puzzle_of_every_difficulty_without_a_note(monkeypatch) -> None:
    server = start()
    try:
        made: list[tuple[str, int, str]] = []
        notes: list[str] = []
        real_new = Attempt.new

        def new(play: Any, size: int, difficulty: str, seed: int, **kwargs: Any) -> Any:
            made.append((play.rules, size, difficulty))
            return real_new(play, size, difficulty, seed, **kwargs)

        monkeypatch.setattr(Attempt, "new", new)
        monkeypatch.setattr(server, "note", notes.append)
        server.puzzles.warm_up()
        plays = [play for _, play in server.puzzles.plays.values()]
        assert len(made) == sum(len(play.difficulties or ("",)) for play in plays) and notes == []
    finally:
        stop(server)
