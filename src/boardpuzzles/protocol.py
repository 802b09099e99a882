"""The puzzle protocol: what every puzzle offers, described once, read by everything else.

Glossary
--------
problem     one instance, validated once when it is made: ``Problem(n=8)`` for the queens, a
            stone layout for Goishi Hiroi. It holds everything that changes the answer (what is
            counted included: ``--unique``, ``--closed``), so its canonical JSON is the identity
            that checkpoints are bound to.
answer      one solution in the puzzle's own type (a board of pieces, a tour, a pick-up order).
param       one parameter of a problem as a person types it: its name, kind, default and help.
            The CLI builds its options from them; the library builds problems from the same names.
puzzle      a :class:`Puzzle`: the functions that make, solve, count, check, draw and serialise
            problems and answers. Every module of :mod:`boardpuzzles.puzzles` that defines one as
            ``PUZZLE`` is registered, and the command line, ``demo``, ``warmup`` and the
            conformance test all read the registry (:func:`boardpuzzles.puzzles.registry`).
game        a :class:`Game` (Baikago): registered beside the puzzles, with commands of its own
            instead of solve / count / check.

A record never names the command line: a puzzle's commands of its own (``find``,
``generate``...) are registered by the CLI (:mod:`boardpuzzles.cli.commands`), so the library
loads no CLI code.

Why a frozen dataclass of callables rather than a ``typing.Protocol`` class: our puzzles are
plain module-level functions (searches written as generators, checkers as pure functions), as
in Norvig's pytudes. A record that points at them keeps each function importable and testable
alone, needs no class per puzzle, and is checked when its module loads, so a missing piece fails
at import and in the conformance test, not in a user's hands. It is generic in the problem and
answer types, so mypy follows each puzzle's own types through it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast

# The converters of board answers live with the other answer types; puzzles import them from here too.
from boardpuzzles.answers import pieces_from_json as pieces_from_json
from boardpuzzles.answers import pieces_to_json as pieces_to_json
from boardpuzzles.errors import BoardPuzzlesError, SizeError, shorten
from boardpuzzles.limits import Limits

if TYPE_CHECKING:
    from boardpuzzles.answers import AnswerType
    from boardpuzzles.faults import Fault
    from boardpuzzles.play import Play

P = TypeVar("P")
A = TypeVar("A")
#: What ``json.dumps`` accepts.
Json = Any

#: How a record names its play (:mod:`boardpuzzles.play`): a function of the record that makes
#: it, called once, when a page first needs it (so the record and its play never import each
#: other, and the command line loads no play). A play is typed with its own problem and state
#: (a problem with its givens, a path so far), which need not be the record's.
PlayFactory = Callable[["Puzzle[Any, Any]"], "Play[Any, Any] | None"]

#: What compiles a puzzle's kernels: one function, or a tuple of independent ones.
Warmup = Callable[[], object] | tuple[Callable[[], object], ...]
ParamKind = Literal["size", "side", "int", "flag", "choice", "text", "file"]
#: The most digits a number typed by a person may have: sizes and counts are far smaller, and a
#: bound keeps a 5,000-digit "number" from costing anything (Python refuses > 4,300 anyway).
MAX_DIGITS = 12


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Param:
    """One parameter of a problem, as a person gives it.

    kinds: ``size`` a board size ``N`` or ``RxC`` (value ``(rows, cols)``); ``side`` a square
    board's side ``N`` (value ``int``); ``int`` a whole number between ``minimum`` and
    ``maximum``; ``flag`` on or off; ``choice`` one of ``choices``; ``text`` any text (a square
    name, a URL); ``file`` the text of a file (``-`` for standard input), or the argument itself
    when ``literal`` says it may be one (a puzz.link URL). ``commands`` names the commands that
    take it, where it means something to some only (``("count",)``); empty: every command that
    takes the problem."""

    name: str
    kind: ParamKind
    help: str
    default: Any = REQUIRED
    positional: bool = False
    short: str | None = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    metavar: str | None = None
    literal: Callable[[str], bool] | None = None
    commands: tuple[str, ...] = ()

    def taken_by(self, command: str) -> bool:
        """Whether ``command`` (``solve``, ``count``, ...) takes this parameter."""
        return not self.commands or command in self.commands

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def label(self) -> str:
        """How messages name it: ``N``, ``SIZE`` or ``--max-in-line``."""
        if self.positional:
            return self.metavar or self.name.upper()
        return self.option

    def parse(self, text: str) -> Any:
        """The value of ``text`` (what a person typed); a one-line error when it is not one."""
        if self.kind == "size":
            return parse_size(text)
        if self.kind in ("side", "int"):
            low = 1 if self.kind == "side" and self.minimum is None else self.minimum
            return parse_int(text, self.label, low, self.maximum)
        if self.kind == "choice":
            if text not in self.choices:
                raise BoardPuzzlesError(f"{self.label} must be one of {', '.join(self.choices)}; got {shorten(text)!r}")
            return text
        if self.kind == "flag":
            raise BoardPuzzlesError(f"{self.label} is a flag: it takes no value")
        return text


def parse_int(text: str, what: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """A whole number typed by a person: ASCII digits, an optional sign, at most ``MAX_DIGITS``
    digits, within the bounds."""
    cleaned = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", cleaned):
        raise BoardPuzzlesError(f"{what} must be a whole number, got {shorten(str(text))!r}")
    digits = cleaned.lstrip("+-").lstrip("0") or "0"  # int() counts leading zeros against its 4300
    if len(digits) > MAX_DIGITS:
        raise SizeError(f"{what} is too large: {shorten(cleaned)}")
    value = -int(digits) if cleaned.startswith("-") else int(digits)
    if minimum is not None and value < minimum:
        raise SizeError(f"{what} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise SizeError(f"{what} must be at most {maximum}, got {value}")
    return value


def parse_size(text: str) -> tuple[int, int]:
    """A board size: ``"6"`` -> (6, 6); ``"3x8"`` (or ``3X8``, ``3*8``) -> (3, 8), rows by columns."""
    from boardpuzzles.grid import parse_size as grid_parse_size

    return grid_parse_size(text)


@dataclass(frozen=True)
class Example:
    """A command of the puzzle that the demo shows and the tests run: the words after the
    puzzle's name, and for a count the published value it must print, with its source."""

    command: str
    expect: int | None = None
    source: str = ""


def _from_answer_type(*args: Any) -> Any:
    """The default of the converters that a puzzle's ``answer_type`` gives."""
    raise NotImplementedError("the puzzle gives neither this converter nor an answer_type")


@dataclass(frozen=True, kw_only=True)
class Puzzle(Generic[P, A]):
    """Everything the rest of boardpuzzles needs to know about one puzzle (see the module
    glossary). The functions are the puzzle module's own; defaults cover the common cases."""

    #: The command name: lower-case words joined by '-'.
    name: str
    #: One line: what the puzzle is (``boardpuzzles --help`` lists it).
    title: str
    #: The puzzle's name in words, as pages name it ("Knight's tour"); by default the command name.
    display_name: str = ""
    #: A paragraph for ``boardpuzzles NAME --help``: the rules, where the puzzle comes from.
    description: str
    #: The rules in a sentence or two for a player (the play page); by default the title.
    rules: str = ""
    params: tuple[Param, ...]
    #: ``problem(**values)``: a validated problem from parameter values (names as in ``params``).
    problem: Callable[..., P]
    #: Every solution, lazily: stop iterating and the search stops. Long searches obey ``limits``.
    solutions: Callable[[P, Limits], Iterator[A]]
    #: What is wrong with a proposed answer, as :class:`~boardpuzzles.faults.Fault` data (empty:
    #: a solution). Plain code that shares nothing with the searches: every answer the tool
    #: prints has passed it.
    violations: Callable[[P, A], list[Fault]]
    #: What kind of answer it is (:mod:`boardpuzzles.answers`: a board, a path, cell pairs, an
    #: order of cells): it gives the four converters below unless the puzzle gives its own (a
    #: problem then has a ``grid``, which JSON is read on).
    answer_type: AnswerType[A] | None = None
    #: The picture of an answer (text and SVG are drawn from it).
    to_scene: Callable[[P, A], Any] = _from_answer_type
    answer_to_json: Callable[[P, A], Json] = _from_answer_type
    answer_from_json: Callable[[P, Json], A] = _from_answer_type
    #: ``read_answer(values, text)``: the problem and the answer that a text holds (a picture as
    #: ``solve`` prints it), ``values`` being the parameters ``check`` was given (``check_params``).
    #: ``text`` is None when ``answer_optional`` and no answer was given: the problem's own input
    #: then holds it.
    read_answer: Callable[[Mapping[str, Any], str | None], tuple[P, A]]
    #: The number of solutions; by default the solutions are counted one by one.
    count: Callable[[P, Limits], int] | None = None
    #: ``count_at_most(problem, k, limits)``: the count, or k when there are at least k (one
    #: cheap search: ``k = 2`` answers "is it unique?"). By default the solutions are listed up to k.
    count_at_most: Callable[[P, int, Limits], int] | None = None
    #: Refuses (raises a one-line error) a count that cannot be made, before any work or note.
    validate_count: Callable[[P], None] | None = None
    #: A short reading of a problem for messages: "7 queens on the 7x7 torus".
    describe: Callable[[P], str] = str
    #: The problem as canonical JSON, every field that changes the answer (checkpoints are bound
    #: to it). By default the fields of a dataclass problem.
    identity: Callable[[P], Json] | None = None
    #: Why a problem has no solution when a theorem says so (printed with the answer 0).
    no_solution_reason: Callable[[P], str | None] | None = None
    #: The text of one answer as ``solve`` prints it; by default the scene's text picture.
    answer_text: Callable[[P, A], str] | None = None
    #: The parameters ``check`` takes; the rest come from the answer's picture.
    check_params: tuple[str, ...] = ()
    #: ``check``'s answer may be left out (the problem's file holds it), or typed literally.
    answer_optional: bool = False
    literal_answers: bool = False
    #: The most bytes an answer file may hold (a picture is small; a big board's tour is not).
    answer_bytes: int = 1 << 20
    #: ``solve`` prints at most this many answers unless ``--limit`` says otherwise.
    default_limit: int | None = None
    #: A small problem (the words of its parameters) whose every solution the conformance test
    #: lists, its number of solutions, and where that number is published.
    small: str = ""
    small_count: int = 0
    small_source: str = ""
    #: A problem whose count takes minutes: the tests stop it by time limit and by Ctrl-C.
    slow: str = ""
    examples: tuple[Example, ...] = ()
    #: Compiles the puzzle's kernels (``boardpuzzles warmup``); by default: solve ``small``. A
    #: tuple holds independent parts, which ``warmup`` compiles at the same time on several cores.
    warmup: Warmup | None = None
    #: How a person plays it: a :data:`PlayFactory`; None: the default play of its answer type
    #: (:func:`boardpuzzles.play.play_of`).
    play: PlayFactory | None = None

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z]+(-[a-z]+)*", self.name):
            raise ValueError(f"puzzle name {self.name!r}: lower-case words joined by '-'")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"puzzle {self.name}: parameter names repeat")
        unknown = set(self.check_params) - set(names)
        if unknown:
            raise ValueError(f"puzzle {self.name}: check_params {sorted(unknown)} are not parameters")
        if self.play is not None and not callable(self.play):
            raise ValueError(f"puzzle {self.name}: play is a factory of the play (play_in(module)), not a play")
        if self.answer_type is not None:
            _take_converters(self, self.answer_type)
        if _from_answer_type in (self.to_scene, self.answer_to_json, self.answer_from_json):
            raise ValueError(f"puzzle {self.name}: give an answer_type or to_scene and the JSON converters")

    def make(self, **values: Any) -> P:
        """A problem from parameter values; missing optional ones take their defaults."""
        known = {p.name: p for p in self.params}
        for name in values:
            if name not in known:
                raise BoardPuzzlesError(f"{self.name} has no parameter {name!r}")
        full = {}
        for p in self.params:
            if p.name in values:
                full[p.name] = values[p.name]
            elif p.required:
                raise BoardPuzzlesError(f"{self.name} needs {p.label}")
            else:
                full[p.name] = p.default
        return self.problem(**full)

    def parse(self, words: str | Sequence[str]) -> P:
        """A problem from the words a person types after ``solve`` (``"8"``, ``"6 --colours 1"``)."""
        return self.make(**self.parse_values(words))

    def parse_values(self, words: str | Sequence[str]) -> dict[str, Any]:
        """The parameter values that typed words give (options by name, the rest in order)."""
        return parse_words(self.name, self.params, words)

    def problem_identity(self, problem: P) -> Json:
        """The identity checkpoints are bound to: the puzzle's name and the problem's JSON."""
        body = self.identity(problem) if self.identity is not None else dataclass_json(problem)
        return {"puzzle": self.name, "problem": body}

    def messages(self, problem: P, answer: A) -> list[str]:
        """What is wrong with an answer, in words (the messages of :attr:`violations`)."""
        return [fault.message for fault in self.violations(problem, answer)]

    def count_of(self, problem: P, limits: Limits | None = None) -> int:
        """The number of solutions (the puzzle's count, or the solutions counted one by one)."""
        limits = limits if limits is not None else Limits()
        if self.count is not None:
            return self.count(problem, limits)
        found = 0
        for _ in self.solutions(problem, limits):
            found += 1
        return found

    def count_up_to(self, problem: P, cap: int, limits: Limits | None = None) -> int:
        """The number of solutions, or ``cap`` when there are at least that many."""
        limits = limits if limits is not None else Limits()
        if self.count_at_most is not None:
            return self.count_at_most(problem, cap, limits)
        found = 0
        for _ in self.solutions(problem, limits):
            found += 1
            if found >= cap:
                break
        return found

    def text_of(self, problem: P, answer: A) -> str:
        if self.answer_text is not None:
            return self.answer_text(problem, answer)
        from boardpuzzles.scene import scene_text

        return scene_text(self.to_scene(problem, answer))

    def answer_entry(self, problem: P, answer: A) -> dict[str, Json]:
        """One answer of a JSON document's ``"solutions"``: the answer as JSON and its picture's
        rows (what ``check`` reads back from a document)."""
        return {"answer": self.answer_to_json(problem, answer), "board": self.text_of(problem, answer).split("\n")}

    def warm(self) -> None:
        """Compile the kernels this puzzle uses (they are cached on disk afterwards)."""
        for part in self.warm_parts():
            part()

    def warm_parts(self) -> tuple[Callable[[], object], ...]:
        """The independent parts of :meth:`warm` (each may run in a process of its own)."""
        if self.warmup is not None:
            return _parts(self.warmup)
        return (self._warm_small,) if self.small else ()

    def _warm_small(self) -> None:
        problem = self.parse(self.small)
        next(self.solutions(problem, Limits()), None)
        self.count_of(problem)


@dataclass(frozen=True)
class Game:
    """A two-player game registered beside the puzzles (Baikago): no solve / count / check,
    but commands of its own (registered by the CLI) and pictures of positions."""

    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    problem: Callable[..., Any]
    examples: tuple[Example, ...] = ()
    warmup: Warmup | None = None
    #: ``demo()``: the text the demo shows for this game.
    demo: Callable[[], str] | None = None
    #: The game's name in words, as pages name it; by default the command name.
    display_name: str = ""

    def warm(self) -> None:
        for part in self.warm_parts():
            part()

    def warm_parts(self) -> tuple[Callable[[], object], ...]:
        return () if self.warmup is None else _parts(self.warmup)


Entry = Puzzle[Any, Any] | Game


def display_name(entry: Entry) -> str:
    """How pages name a puzzle or game: its ``display_name``, else its command name in words."""
    return entry.display_name or entry.name.replace("-", " ").capitalize()


def _take_converters(puzzle: Puzzle[Any, Any], kind: AnswerType[Any]) -> None:
    """Fill in the converters a puzzle left to its answer type."""
    given = {
        "to_scene": lambda problem, answer: kind.scene(answer),
        "answer_to_json": lambda problem, answer: kind.to_json(answer),
        "answer_from_json": lambda problem, document: kind.from_json(problem.grid, document),
    }
    for field, converter in given.items():
        if getattr(puzzle, field) is _from_answer_type:
            object.__setattr__(puzzle, field, converter)
    if puzzle.answer_text is None:
        object.__setattr__(puzzle, "answer_text", lambda problem, answer: kind.text(answer))


def play_in(module: str, attribute: str = "PLAY") -> PlayFactory:
    """The :data:`PlayFactory` of a play that ``module`` defines as ``attribute``, imported when
    first asked for (so that loading the record loads no play)."""

    def factory(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
        import importlib

        return cast("Play[Any, Any] | None", getattr(importlib.import_module(module), attribute))

    return factory


def _parts(warmup: Warmup) -> tuple[Callable[[], object], ...]:
    return tuple(warmup) if isinstance(warmup, tuple) else (warmup,)


# ---------------------------------------------------------------- answers that are boards of pieces
def board_scene(problem: Any, board: Any) -> Any:
    """The picture of a board of pieces."""
    from boardpuzzles.scene import Scene

    return Scene.of_board(board)


def dataclass_json(problem: Any) -> Json:
    """The fields of a dataclass problem as JSON (tuples as lists)."""
    if not dataclasses.is_dataclass(problem) or isinstance(problem, type):
        raise TypeError(f"{type(problem).__name__} is not a dataclass: give the puzzle an identity function")
    return {f.name: _plain(getattr(problem, f.name)) for f in dataclasses.fields(problem) if f.compare}


def _plain(value: Any) -> Json:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclass_json(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def parse_words(name: str, params: Sequence[Param], words: str | Sequence[str]) -> dict[str, Any]:
    """Parameter values from typed words: ``--option value`` (or the short form, or a bare flag)
    by name, the other words for the positional parameters in order."""
    import shlex

    tokens = shlex.split(words) if isinstance(words, str) else list(words)
    values: dict[str, Any] = {}
    positional = [p for p in params if p.positional]
    by_option = {p.option: p for p in params if not p.positional}
    by_option.update({p.short: p for p in params if p.short and not p.positional})
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in by_option:
            p = by_option[token]
            if p.kind == "flag":
                values[p.name] = True
            else:
                if i + 1 >= len(tokens):
                    raise BoardPuzzlesError(f"{token} needs a value")
                values[p.name] = p.parse(tokens[i + 1])
                i += 1
        elif positional:
            p = positional.pop(0)
            values[p.name] = _read_file(token) if p.kind == "file" and not _is_literal(p, token) else p.parse(token)
        else:
            raise BoardPuzzlesError(f"unexpected {shorten(token)!r} for {name}")
        i += 1
    return values


def _is_literal(param: Param, text: str) -> bool:
    return param.literal is not None and param.literal(text)


def _read_file(path: str) -> str:
    from boardpuzzles.inputs import read_text

    return read_text(path)
