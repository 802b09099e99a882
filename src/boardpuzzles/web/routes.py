"""What a client of the web server registers: its routes, and what each answers.

Glossary
--------
route       a path (a regular expression the whole path must match: its groups are handed on),
            the methods it answers (a ``GET`` route answers ``HEAD`` too) and its ``action``.
request     what an action sees (:class:`Request`): the method, path, query, the path's groups,
            the JSON body of a POST (checked already: size, type, origin), the client's address,
            and where a link to this server works.
answer      what an action returns: a JSON object (status 200) or a :class:`Page`; a refusal is
            raised (:class:`RequestError`, or a :class:`~boardpuzzles.errors.BoardPuzzlesError`
            for 400).
refusal     a move the game's rules refuse (a cell they forbid, nothing to redo), or a URL to
            import that holds no puzzle the play reads. By default it is answered with an error
            status, as every refusal is; a request whose body has ``"refusal": "state"`` gets it
            as data instead: 200, the game's state (unchanged; none for a new game not made)
            and ``"refused": the reason`` (:func:`refusal_as_state`). The pages ask for that:
            a browser logs every fetch answered 4xx as an error in its console, and a click
            the rules refuse is no error of the page. Malformed requests, unknown games and a
            store that cannot save keep their statuses.
history     a token of a game's moves and the moves it could redo (:func:`history_token`),
            carried by its state. A page sends back the one it shows with a change (a move or
            click, an undo, a redo; on the play pages a restart and a solve too); a game that
            differs (another tab changed it) does nothing and answers 409, or as data 200 with
            the game as it stands, ``"refused"`` and ``"moved_on": true`` (:func:`moved_on`).
            The number of moves alone misses another tab undoing, playing and undoing again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError

#: The body field that says how a refusal is answered: "status" (the default) or "state".
REFUSAL = "refusal"
REFUSAL_CHOICES = ("status", "state")
#: Hex digits of a history token: two histories of one game share one by chance once in 2^64.
HISTORY_DIGITS = 16


class GameMovedOn(BoardPuzzlesError):
    """A change asked for from a game the game has left (another tab changed it): 409."""


class RequestError(Exception):
    """A request this server refuses: the HTTP status and a one-line reason for ``{"error": ...}``."""

    def __init__(self, status: HTTPStatus, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


@dataclass(frozen=True)
class Page:
    """A page (or any body that is not JSON) and its content type."""

    body: bytes
    kind: str = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    groups: tuple[str, ...]
    body: dict[str, Any]
    #: The address of the client (its IP address).
    client: str
    #: Where a link to this server works: None, on this computer only (a relative link does);
    #: else the origin others open it at, ``http://192.168.1.5:8016``.
    shared_at: str | None = None

    def param(self, name: str) -> str:
        """The query parameter ``name`` (its first value), or ""."""
        return self.query.get(name, [""])[0]


Answer = dict[str, Any] | Page
Action = Callable[[Request], Answer]


@dataclass(frozen=True)
class Route:
    path: str
    methods: tuple[str, ...]
    action: Action
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile(self.path))
        if "GET" in self.methods and "HEAD" not in self.methods:
            object.__setattr__(self, "methods", (*self.methods, "HEAD"))


class Routes:
    """The routes of every client of one server, in the order they were added."""

    def __init__(self) -> None:
        self._routes: list[Route] = []

    def add(self, *routes: Route) -> None:
        for route in routes:
            if any(r.path == route.path for r in self._routes):
                raise ValueError(f"two clients claim the route {route.path}")
            self._routes.append(route)

    def find(self, path: str) -> tuple[Route, tuple[str, ...]] | None:
        """The first route whose path matches the whole of ``path``, and its groups."""
        for route in self._routes:
            found = route.pattern.fullmatch(path)
            if found:
                return route, tuple(group or "" for group in found.groups())
        return None


def refuse_methods(path: str, methods: tuple[str, ...], method: str) -> RequestError:
    """405 for ``method`` on a path that answers ``methods``."""
    return RequestError(
        HTTPStatus.METHOD_NOT_ALLOWED,
        f"{path[:80]} answers {' and '.join(methods)}, not {method}",
        {"Allow": ", ".join(methods)},
    )


def aids_of(body: dict[str, Any]) -> bool:
    """The aids asked for (both games' ``/aids``): ``{"on": true}`` or ``{"on": false}``."""
    on = body.get("on")
    if not isinstance(on, bool):
        raise BoardPuzzlesError('aids are {"on": true} or {"on": false}')
    return on


def refusal_as_state(body: dict[str, Any]) -> bool:
    """Whether the request's ``body`` asks that a refusal by the rules be answered 200 with the
    game's state and ``"refused"`` (see the glossary); a value other than "state" or "status" is
    a 400, before anything is played."""
    choice = body.get(REFUSAL, "status")
    if not isinstance(choice, str) or choice not in REFUSAL_CHOICES:
        raise BoardPuzzlesError(
            'refusal is "state" (a move the rules refuse is answered 200 with the state and "refused") '
            'or "status" (answered with an error status, the default)'
        )
    return choice == "state"


def history_token(*history: Any) -> str:
    """The token of a game's history (its moves and the moves it could redo, as JSON values)."""
    return hashlib.sha256(json.dumps(history).encode()).hexdigest()[:HISTORY_DIGITS]


def history_of(body: dict[str, Any]) -> str | None:
    """The ``history`` token a change's body gives (the state's, as the page showed it), or None."""
    history = body.get("history")
    if history is not None and not isinstance(history, str):
        raise BoardPuzzlesError("history is the token of the game's state the page showed, a string")
    return history


def check_history(seen: str | None, now: str) -> None:
    """:class:`GameMovedOn` when the page's token ``seen``, given, is not the game's (``now``)."""
    if seen is not None and seen != now:
        raise GameMovedOn("the game's moves are not those the page showed: it changed elsewhere")


def moved_on(state: dict[str, Any], err: GameMovedOn, in_state: bool) -> dict[str, Any]:
    """A change asked for from a game that has moved on: ``state`` (the game as it stands now)
    with ``"refused"`` and ``"moved_on": true`` when the request asked for refusals as data,
    else a 409."""
    if not in_state:
        raise RequestError(HTTPStatus.CONFLICT, str(err)) from None
    return {**state, "refused": str(err), "moved_on": True}
