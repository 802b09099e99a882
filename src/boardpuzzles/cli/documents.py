"""The JSON documents that ``check`` reads: what ``solve --json`` (and ``find``, ``generate``)
print, ``{"puzzle", "problem", "solutions": [{"answer", "board"}, ...]}``.

Glossary
--------
document    the JSON text an ANSWER argument holds; its answers are judged by their ``board``.
problem     the document's ``"problem"``: the problem its answers claim to solve, as the
            puzzle's ``problem_identity`` writes it. It is read as strictly as the command line's
            parameters (same limits, same messages: a field named like a parameter is parsed by
            that parameter), and must agree with the problem the answers are judged against, so
            that a document never passes ``check`` for a problem it does not hold.
listing     a field that chooses which solutions a listing or count shows (one per symmetry
            class, each path once), not what a solution is: validated, not compared.
"""

from __future__ import annotations

import itertools
import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import click

from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.protocol import Param, Puzzle

#: Fields of a problem's JSON that choose which solutions are listed or counted, not what a
#: solution is (``solve --unique --json`` writes them; ``check`` judges any solution).
LISTING_FIELDS = frozenset({"unique", "group", "undirected", "swap_colours"})
#: Text that is JSON but no picture: a document, or a JSON value (``null`` was read as a 1x4 board).
JSON_WORDS = ("null", "true", "false")


def is_document(text: str) -> bool:
    """Whether an answer's text is JSON to be read as a document (an object, a list, or one of the
    words ``null``, ``true``, ``false``), rather than a picture."""
    stripped = text.strip()
    return stripped[:1] in ("{", "[") or stripped in JSON_WORDS


@dataclass
class Document:
    """What a document gives ``check``: the problem values (the command line's, completed from
    the document's problem), each answer's picture and its ``"answer"`` entry (or None), and the
    document's problem (None when it has none) with the fields the command line set."""

    values: dict[str, Any]
    pictures: list[str | None]
    listed: list[Any]
    problem: dict[str, Any] | None = None
    fixed: frozenset[str] = field(default_factory=frozenset)

    def agree(self, puzzle: Puzzle[Any, Any], judged: Any) -> None:
        """Refuse (exit 2) a document whose problem is not the problem ``judged`` that its answers
        are judged against: a field missing, or one that differs (``n`` 7 on 8x8 boards). The
        listing fields, and those the command line set (it wins), are not compared."""
        if self.problem is None:
            return
        identity = puzzle.problem_identity(judged)["problem"]
        known = {p.name for p in puzzle.params} | (LISTING_FIELDS & set(identity))
        board = _board_param(puzzle)
        for name, given in self.problem.items():
            if name not in identity and name not in known:
                fields = ", ".join(identity)
                raise click.UsageError(
                    f"ANSWER's problem has no field {excerpt(name)}: a {puzzle.name} problem has {fields}"
                )
            if name not in known and board is not None and _is_whole(identity.get(name)) and _is_whole(given):
                _parse(board, given)  # a side of the board (size, rows, cols): the command line's limits
        for name, value in identity.items():
            if name in LISTING_FIELDS or name in self.fixed:
                continue
            if name not in self.problem:
                raise click.UsageError(
                    f"ANSWER's problem lacks {name!r}: give the problem as `{puzzle.name} solve --json` prints it"
                )
            if _canonical(self.problem[name]) != _canonical(value):
                raise click.UsageError(
                    f"ANSWER's problem does not fit its answers: {name} is {_shown(self.problem[name])} "
                    f"in the problem but {_shown(value)} for the answers"
                )


def read_document(puzzle: Puzzle[Any, Any], params: Sequence[Param], values: dict[str, Any], text: str) -> Document:
    """The :class:`Document` of ``text``. An option given on the command line wins; the other
    parameters of ``check`` (``params``) are taken from the document's problem. Every failure is
    a one-line usage error."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise click.UsageError(f"ANSWER is not valid JSON: {error}") from None
    except RecursionError:  # the parser recurses once per level: no document of ours nests deeply
        raise click.UsageError("ANSWER is JSON nested too deeply to be a document of answers") from None
    if not isinstance(document, dict):
        raise click.UsageError(
            f"ANSWER is JSON but not a document of answers (an object with 'solutions'), got {_kind(document)}"
        )
    named = document.get("puzzle", puzzle.name)
    if not isinstance(named, str):
        raise click.UsageError(f"ANSWER's 'puzzle' should be a puzzle's name, got {_shown(named)}")
    if named != puzzle.name:
        raise click.UsageError(f"ANSWER holds {excerpt(named)} answers, not {puzzle.name!r} ones")
    items = document.get("solutions", [document] if "board" in document else None)
    if not isinstance(items, list):
        raise click.UsageError("ANSWER is JSON without 'solutions': give what solve --json prints")
    if not items:
        raise click.UsageError("ANSWER's document holds no answer (its 'solutions' list is empty)")
    pictures: list[str | None] = []
    listed: list[Any] = []
    for item in items:
        board = item.get("board") if isinstance(item, dict) else None
        if not isinstance(board, list) or not all(isinstance(row, str) for row in board):
            raise click.UsageError("ANSWER's answers need their 'board' (a list of rows), as solve --json prints them")
        pictures.append("\n".join(board))
        listed.append(item.get("answer"))
    if "problem" not in document:  # the boards alone, as a picture is checked
        return Document(dict(values), pictures, listed)
    given = document["problem"]
    if not isinstance(given, dict):
        raise click.UsageError(f"ANSWER's problem should be an object as solve --json prints it, got {_kind(given)}")
    parsed = _parsed_fields(puzzle, given)
    context = click.get_current_context()
    fixed = frozenset(
        p.name for p in params if context.get_parameter_source(p.name) == click.core.ParameterSource.COMMANDLINE
    )
    values = dict(values)
    for p in params:
        if p.name in parsed and p.name not in fixed:
            values[p.name] = parsed[p.name]
    return Document(values, pictures, listed, given, fixed)


def _parsed_fields(puzzle: Puzzle[Any, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The document problem's fields that are parameters, each parsed as the command line parses
    that parameter; the listing fields that are not parameters checked for their type. (The
    other fields are the board's sides and such, compared with the answers' problem by
    :meth:`Document.agree`.)"""
    by_name = {p.name: p for p in puzzle.params}
    parsed: dict[str, Any] = {}
    for name, raw in given.items():
        param = by_name.get(name)
        if param is not None:
            parsed[name] = _parse(param, raw)
        elif name in LISTING_FIELDS:
            written = _listing_values(puzzle).get(name)
            if written is not None and _canonical(raw) not in map(_canonical, written):
                wanted = " or ".join(_shown(value) for value in written)
                raise click.UsageError(f"ANSWER's problem: {name} must be {wanted}, got {_shown(raw)}")
    return parsed


def _listing_values(puzzle: Puzzle[Any, Any]) -> dict[str, list[Any]]:
    """What ``solve --json`` writes in each listing field of the puzzle's problems that is not a
    parameter (the queens' ``group``, set by ``--unique``): the values it takes in the puzzle's
    small problem under every choice of the listing options. Another value is no problem of ours."""
    options = [p for p in puzzle.params if p.name in LISTING_FIELDS and p.kind in ("flag", "choice")]
    settings: list[list[list[str]]] = [
        [[]] + ([[p.option]] if p.kind == "flag" else [[p.option, c] for c in p.choices]) for p in options
    ]
    written: dict[str, list[Any]] = {}
    for chosen in itertools.product(*settings):
        words = shlex.split(puzzle.small) + [word for setting in chosen for word in setting]
        try:
            identity = puzzle.problem_identity(puzzle.parse(words))["problem"]
        except BoardPuzzlesError:  # a choice that needs another (--group without --unique)
            continue
        for name in LISTING_FIELDS & set(identity) - {p.name for p in puzzle.params}:
            values = written.setdefault(name, [])
            if identity[name] not in values:
                values.append(identity[name])
    return written


def _board_param(puzzle: Puzzle[Any, Any]) -> Param | None:
    """The parameter that gives the board's size (``N``, ``SIZE``), if the puzzle has one."""
    return next((p for p in puzzle.params if p.positional and p.kind in ("side", "size")), None)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse(param: Param, raw: Any) -> Any:
    """A JSON value as the command line reads ``param``: the same types, limits and messages."""
    optional = param.default is None
    if raw is None and optional:
        return None
    if param.kind == "flag":
        if not isinstance(raw, bool):
            raise click.UsageError(f"ANSWER's problem: {param.label} is a flag: true or false, got {_shown(raw)}")
        return raw
    if param.kind in ("side", "int", "size") and not _is_whole(raw):
        if not (param.kind == "size" and isinstance(raw, str)):
            raise click.UsageError(f"ANSWER's problem: {param.label} must be a whole number, got {_shown(raw)}")
    if param.kind in ("choice", "text", "file") and not isinstance(raw, str):
        raise click.UsageError(f"ANSWER's problem: {param.label} must be text, got {_shown(raw)}")
    try:
        return param.parse(str(raw))
    except BoardPuzzlesError as error:
        raise click.UsageError(f"ANSWER's problem: {error}") from None


def _canonical(value: Any) -> str:
    """JSON text that tells ``8`` from ``"8"`` and ``0`` from ``false`` (Python's ``==`` does not)."""
    return json.dumps(value, sort_keys=True)


def _shown(value: Any) -> str:
    """A JSON value as a message shows it: as JSON, long ones cut."""
    if isinstance(value, int) and not isinstance(value, bool):
        return excerpt(value)
    text = json.dumps(value)
    return text if len(text) <= 40 else f"{text[:40]}... ({len(text):,} characters)"


def _kind(value: Any) -> str:
    """What a JSON value is, for a message: 'null', 'a list', 'a number'."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    kinds: dict[type, str] = {list: "a list", str: "text", dict: "an object"}
    return kinds.get(type(value), "a number")
