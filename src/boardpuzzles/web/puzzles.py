"""The puzzles' play pages and their JSON API: one client of the web server (:class:`PuzzleClient`).

Pages:

- ``GET /play/NAME``: the play page of a puzzle (``?size=..&difficulty=..&seed=..`` opens a new
  puzzle of them, a random seed where none is given: the same seed makes the same one; without
  them, the game played last in that browser).

The API; each answer is the game's state (:meth:`PuzzleGame.state`), a refusal ``{"error": ...}``:

- ``POST /api/NAME/new`` ``{"size", "difficulty", "seed", "replaces"}`` (each optional), or
  ``{"url", "replaces"}``: the puzzle a URL holds, for a play that imports URLs (a URL it cannot
  read is answered 400 with the reason; with ``"refusal": "state"`` 200 instead, ``{"refused":
  the reason}`` and no game, as no game was made);
- ``POST /api/games/ID/click`` ``{"cell": index, "tool": name}``; ``/undo``, ``/redo``,
  ``/restart`` (a move undo takes back), ``/solve`` (shows the solution), ``/check`` (the check
  shown until the next change), ``/hint`` (``{}``), ``/aids`` ``{"on": true|false}``. What the
  rules or the engine refuse (a click off the board, nothing to undo) is answered 422 with the
  reason; with ``"refusal": "state"`` in the body it is answered 200 instead, with the game's
  state, unchanged, and ``"refused": the reason`` (the page asks for that: a browser logs every
  4xx answer as an error; see :mod:`boardpuzzles.web.routes`); any other value than "state" or
  "status" (the default) is a 400. A change (a click, undo, redo, restart, solve) may carry
  ``"history"``, the state's token of the game the page shows: when the game has moved on
  (another tab changed it), nothing is done and the answer is 409, or with ``"refusal":
  "state"`` 200 with the game as it stands, ``"refused"`` and ``"moved_on": true``;
- ``GET /api/games/ID``.

At most ``max_games`` games are kept (:mod:`boardpuzzles.web.keeper`): a new one always gets a
place. They are stored in the ``puzzle_games`` table of the server's store as their clicks
(:meth:`boardpuzzles.play.Attempt.to_json`), so a restart loses none; a change the store cannot
take is answered 503 and not played. Hints and solutions are searched one every two cores at a
time, each for a few seconds at most; a hint that finds every searcher busy that long says so, a
solution is answered 503.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Attempt, IllegalMove, Play, play_of
from boardpuzzles.protocol import Puzzle, display_name
from boardpuzzles.puzzles import registry
from boardpuzzles.web.keeper import GameKeeper
from boardpuzzles.web.play_game import SCHEMA, TABLE, PuzzleGame, SearchersBusy, load_rows
from boardpuzzles.web.routes import (
    GameMovedOn,
    Page,
    Request,
    RequestError,
    Route,
    aids_of,
    history_of,
    moved_on,
    refusal_as_state,
)
from boardpuzzles.web.server import MAX_GAMES, WebServer

#: Seeds of new puzzles: 0 .. 2**32 - 1.
MAX_SEED = 2**32 - 1
#: Seconds the warm-up's hint and solution of each puzzle may search (the kernels load first).
WARM_UP_SECONDS = 10.0
NAME = r"([a-z]+(?:-[a-z]+)*)"
GAME = r"([0-9a-f]{1,64})"


def aids_note(play: Play[Any, Any]) -> str:
    """The Assistance panel's note: what the play's aids show. A play that draws aids on its
    board (``scene_with_aids``) shades squares, which its legend names once they show; the
    others' aids are dead ends found by search (faults of kind ``aid``)."""
    if play.scene_with_aids is not None:
        what = "shade the squares that can no longer be used (the legend names them)"
    else:
        what = "point out dead ends (no solution can be finished from there)"
    return f"Mistakes are always marked; aids {what}, and can give the answer away."


def click_of(body: dict[str, Any]) -> tuple[int, str]:
    cell, tool = body.get("cell"), body.get("tool")
    if type(cell) is not int or not isinstance(tool, str):
        raise BoardPuzzlesError('a click is {"cell": a cell index, "tool": a tool name}')
    return cell, tool


class UnreadableURL(BoardPuzzlesError):
    """A URL a play cannot import (another puzzle's, truncated, not a puzzle's at all): a 400, or
    with ``"refusal": "state"`` a refusal answered as data."""


class PuzzleClient:
    """Every registered puzzle that has a play, on a :class:`~boardpuzzles.web.server.WebServer`
    (see the module docstring)."""

    def __init__(self, server: WebServer, max_games: int = MAX_GAMES) -> None:
        self.server = server
        self.plays: dict[str, tuple[Puzzle[Any, Any], Play[Any, Any]]] = {}
        for name, entry in registry().items():
            if isinstance(entry, Puzzle):
                play = play_of(entry)
                if play is not None:
                    self.plays[name] = (entry, play)
        #: Hints and solutions searched at once (one every two cores): a search holds a core (and,
        #: in Python, much of the interpreter) for up to its time limit, and the clicks of every
        #: game need the rest.
        self.searchers = threading.BoundedSemaphore(max(1, (os.cpu_count() or 1) // 2))
        self._pages: dict[str, bytes] = {}
        self.pages_lock = threading.Lock()
        server.store.ensure(SCHEMA)
        self.games: GameKeeper[PuzzleGame] = GameKeeper(server.store, TABLE, max_games)
        self._load()

    def _load(self) -> None:
        games = []
        for game_id, name, record, touched in load_rows(self.server.store):
            try:
                if name not in self.plays:
                    raise BoardPuzzlesError(f"no playable puzzle {name!r}")
                puzzle, play = self.plays[name]
                game = PuzzleGame(puzzle, play, Attempt.from_json(play, record["attempt"]), game_id)
            except (BoardPuzzlesError, KeyError, TypeError) as err:
                self.server.note(f"stored game {game_id[:20]} dropped: {err}")
                self.games.forget(game_id)
                continue
            game.touched, game.left = touched, bool(record.get("left"))
            games.append(game)
        self.games.load(games)

    def warm_up(self) -> None:
        """Make one puzzle of each kind and difficulty (on its smallest board), check it, and ask
        for a hint and the solution, so that the kernels its generator, checks and solver use are
        loaded before a visitor waits for them (a first knight's tour puzzle took 2 s, a first
        Goishi solution 1.4 s)."""
        for name, (_, play) in self.plays.items():
            try:
                for difficulty in play.difficulties or ("",):
                    attempt = Attempt.new(play, play.sizes_for(difficulty)[0], difficulty, 0)
                    attempt.verdict()
                    limits = Limits(WARM_UP_SECONDS)
                    try:
                        attempt.copy().hint(limits)
                        if play.solution is not None:
                            play.solution(attempt.problem, attempt.state, limits)
                    except TimeLimitReached:
                        pass  # the kernels are loaded by then
                    finally:
                        limits.close()
            except Exception as err:  # a warm-up that fails leaves the work to the first visitor
                self.server.note(f"warming up {name} failed: {type(err).__name__}: {err}")

    def routes(self) -> list[Route]:
        return [
            Route(f"/play/{NAME}", ("GET",), self.page),
            Route(f"/api/{NAME}/new", ("POST",), self.new),
            Route(f"/api/games/{GAME}", ("GET",), self.state),
            Route(f"/api/games/{GAME}/({'|'.join(ACTIONS)})", ("POST",), self.act),
        ]

    def play_named(self, name: str) -> tuple[Puzzle[Any, Any], Play[Any, Any]]:
        if name not in self.plays:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no playable puzzle {name[:40]!r}")
        return self.plays[name]

    # ---------------------------------------------------------------- the routes' actions
    def page(self, request: Request) -> Page:
        from boardpuzzles.web.play_page import render_play_page

        name = request.groups[0]
        puzzle, play = self.play_named(name)
        with self.pages_lock:
            if name not in self._pages:
                config = {
                    "name": name,
                    "title": display_name(puzzle),
                    "rules": play.rules or puzzle.title[:1].upper() + puzzle.title[1:],
                    "tools": [{"name": t.name, "label": t.label, "key": t.key} for t in play.tools],
                    "sizes": list(play.sizes),
                    "default_size": play.default_size,
                    "difficulties": list(play.difficulties),
                    "sizes_by_difficulty": {d: list(sizes) for d, sizes in play.sizes_by_difficulty.items()},
                    "seedless": list(play.seedless),
                    "exports": play.problem_to_url is not None,
                    "imports": play.problem_from_url is not None,
                    "drag": play.drag,
                    "aids": play.has_aids,
                    "aids_note": aids_note(play),
                    "solves": play.solution is not None,
                }
                self._pages[name] = render_play_page(config).encode("utf-8")
            return Page(self._pages[name])

    def new(self, request: Request) -> dict[str, Any]:
        name, body = request.groups[0], request.body
        puzzle, play = self.play_named(name)
        replaces = body.get("replaces")
        if replaces is not None and not isinstance(replaces, str):
            raise BoardPuzzlesError("replaces is the id of the game the page leaves, a string")
        in_state = refusal_as_state(body)
        try:
            attempt = self._attempt(name, play, body)
        except UnreadableURL as err:
            if in_state:  # a URL the page was given to try, not a malformed request
                return {"refused": str(err)}
            raise
        game = PuzzleGame(puzzle, play, attempt, client=request.client)
        left = self.games.get(replaces) if replaces else None
        if left is not None:
            left.leave()
        self.games.add(game)
        return game.state(request.shared_at)

    def _attempt(self, name: str, play: Play[Any, Any], body: dict[str, Any]) -> Attempt[Any, Any]:
        """The attempt a new game's body asks for: the puzzle of a URL, or of a size, difficulty and seed."""
        if "url" in body:
            url = body["url"]
            if play.problem_from_url is None:
                raise BoardPuzzlesError(f"{name} imports no URLs")
            if not isinstance(url, str) or not url.strip():
                raise BoardPuzzlesError("a puzzle URL is a non-empty string")
            try:
                return Attempt.from_url(play, url)
            except BoardPuzzlesError as err:  # the request is well formed: its URL holds no puzzle of ours
                raise UnreadableURL(str(err)) from None
        size = body.get("size", play.default_size)
        difficulty = body.get("difficulty", play.difficulties[0] if play.difficulties else "")
        seed = body.get("seed")
        if type(size) is not int or size not in play.sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, play.sizes))}")
        if not isinstance(difficulty, str) or difficulty not in (play.difficulties or ("",)):
            raise BoardPuzzlesError(f"difficulty is one of {', '.join(play.difficulties) or 'none (leave it out)'}")
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise BoardPuzzlesError(f"seed is a whole number from 0 to {MAX_SEED}")
        return Attempt.new(play, size, difficulty, seed)

    def state(self, request: Request) -> dict[str, Any]:
        return self.game(request.groups[0]).state(request.shared_at)

    def act(self, request: Request) -> dict[str, Any]:
        game_id, action = request.groups
        game = self.game(game_id)
        in_state = refusal_as_state(request.body)
        try:
            ACTIONS[action](self, game, request.body)
        except IllegalMove as err:
            if in_state:  # a change is kept only once made whole: the state is as it was
                return {**game.state(request.shared_at), "refused": str(err)}
            raise RequestError(HTTPStatus.UNPROCESSABLE_ENTITY, str(err)) from None
        except GameMovedOn as err:
            return moved_on(game.state(request.shared_at), err, in_state)
        except SearchersBusy as err:
            raise RequestError(HTTPStatus.SERVICE_UNAVAILABLE, str(err), {"Retry-After": "1"}) from None
        return game.state(request.shared_at)

    def game(self, game_id: str) -> PuzzleGame:
        game = self.games.get(game_id)
        if game is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no game {game_id[:40]!r}: start a new one")
        return game


#: What each action does to a game (``client`` is the puzzle client, for its searchers).
ACTIONS: dict[str, Callable[[PuzzleClient, PuzzleGame, dict[str, Any]], None]] = {
    "click": lambda client, game, body: game.click(*click_of(body), seen=history_of(body)),
    "undo": lambda client, game, body: game.undo(history_of(body)),
    "redo": lambda client, game, body: game.redo(history_of(body)),
    "restart": lambda client, game, body: game.restart(history_of(body)),
    "solve": lambda client, game, body: game.solve(client.searchers, history_of(body)),
    "check": lambda client, game, body: game.ask_check(client.searchers),
    "hint": lambda client, game, body: game.ask_hint(client.searchers),
    "aids": lambda client, game, body: game.set_aids(aids_of(body)),
}
