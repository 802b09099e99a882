"""Goishi Hiroi's place in the puzzle protocol: files and answers in, JSON out, ``PUZZLE``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from boardpuzzles import protocol
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.grid import Cell
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.goishi import files
from boardpuzzles.puzzles.goishi.pictures import PickUpOrder, answer_text, to_scene
from boardpuzzles.puzzles.goishi.rules import NAME, Order, Puzzle, parse_order, violations
from boardpuzzles.puzzles.goishi.search import count, count_at_most, is_unique, solutions


# ---------------------------------------------------------------- the protocol
def read_order(puzzle: Puzzle, text: str) -> Order:
    """An order as people give it: square names or (row,col) pairs, an ``order:`` line, or a
    board of pick-up numbers (plain or pzprv3) of the same puzzle, such as ``solve`` prints it
    (the board and its ``order:`` line must agree), or a JSON document of one answer."""
    stripped = text.strip()
    if stripped.startswith(files.ORDER_LINE) and "\n" not in stripped:
        return parse_order(puzzle, stripped[len(files.ORDER_LINE) :])
    if "\n" in stripped or stripped.startswith(("pzprv3", '"', "{")):
        document = files.read(text)
        if document.puzzle != puzzle:
            raise BoardPuzzlesError("the answer shows a different board from the puzzle's")
        if document.order is None:
            raise BoardPuzzlesError("the answer holds no pick-up order")
        if document.more_orders:
            raise BoardPuzzlesError(f"the answer holds {len(document.orders)} orders: give one")
        return document.order
    return parse_order(puzzle, text)


def answer_to_json(puzzle: Puzzle, order: Sequence[Cell]) -> list[str]:
    """The order as square names."""
    return [puzzle.name(c) for c in order]


def answer_from_json(puzzle: Puzzle, document: Any) -> PickUpOrder:
    if not isinstance(document, list):
        raise BoardPuzzlesError('an order is a list of square names: ["e3", "d3", ...]')
    return PickUpOrder(puzzle, tuple(puzzle.grid.cell_written(str(name)) for name in document))


def pick_up_orders(puzzle: Puzzle, limits: Limits | None = None) -> Iterator[PickUpOrder]:
    """Every pick-up order of the puzzle, lazily, as answer values (the search's own are tuples)."""
    for order in solutions(puzzle, limits):
        yield PickUpOrder(puzzle, order)


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Puzzle, PickUpOrder]:
    """The puzzle and the order that ``check`` judges (see :func:`_read_answer`)."""
    puzzle, order = _read_answer(values, text)
    return puzzle, PickUpOrder(puzzle, tuple(order))


def _read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Puzzle, Order]:
    """The puzzle from the FILE parameter (its text), and the order from ``text`` or, without
    one, the pick-up numbers the puzzle's own file holds. Where that file holds several orders
    (``solve``'s listing of two answers, a JSON document of several), every one is judged: the
    first that is not a solution is returned, so that ``check`` passes the file only when all
    of them are solutions."""
    document = files.read(values["file"], values.get("format"))
    if text is not None:
        return document.puzzle, read_order(document.puzzle, text)
    if document.order is None:
        raise BoardPuzzlesError(
            "no order to check: give ANSWER (square names such as 'e3 d3 ...'), or a FILE with pick-up numbers"
        )
    for order in document.orders:
        if violations(document.puzzle, order):
            return document.puzzle, order  # check names what is wrong with it, and fails
    return document.puzzle, document.order


def describe(puzzle: Puzzle) -> str:
    return f"pick-up orders of {puzzle.describe()}"


def _problem(file: str, format: str | None = None) -> Puzzle:
    return files.read(file, format).puzzle


def looks_like_url(text: str) -> bool:
    """Whether a FILE argument is a puzz.link URL itself (decided on its shape, not by looking
    for a file: a mistyped path is reported as a missing file)."""
    text = text.strip()
    return "://" in text or text.startswith(("goishi/", "pzprv3", "?goishi/", "p?goishi/"))


def _solve_small() -> None:
    small = Puzzle.parse("OOOO\n.OOO\n..OO\n...O")
    is_unique(small)
    next(solutions(small, prefix=small.stones[:1]))  # from a given start: the kernel, however small
    count(small)


def _make_small() -> None:
    """The generator's and the layout count's kernels (`goishi generate`, `goishi layouts`)."""
    from boardpuzzles.puzzles.goishi.generator import generate
    from boardpuzzles.puzzles.goishi.search import unique_layout_counts

    generate(5, 5, 8, seed=1)
    unique_layout_counts(3)


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time).
_warmup = (_solve_small, _make_small)


#: A dense board: every point of 7x7 holds a stone (the slow case the time-limit tests use).
DENSE_7 = "goishi/7/7/" + "0" * 10

PUZZLE: protocol.Puzzle[Puzzle, PickUpOrder] = protocol.Puzzle(
    name=NAME,
    display_name="Goishi Hiroi",
    title="Goishi Hiroi: pick up every stone in one walk",
    description="Goishi Hiroi: pick up every stone in one walk. Start at any stone; move along a row or a "
    "column and pick up the first stone still on the board in that direction; at each stone go "
    "straight on or turn 90 degrees, never back. The answer is the pick-up order. FILE may be a file, "
    "`-` for standard input, or a puzz.link URL itself (formats: quoted, rows, numbers, url, pzprv3, and the "
    "documents that --json prints).",
    params=(
        protocol.Param(
            "file",
            "file",
            "the puzzle: a file, - for standard input, or a puzz.link URL",
            positional=True,
            metavar="FILE",
            literal=looks_like_url,
        ),
        protocol.Param(
            "format",
            "choice",
            "The input's format (default: detected).",
            None,
            short="-f",
            choices=("quoted", "rows", "numbers", "url", "pzprv3"),
        ),
    ),
    problem=_problem,
    solutions=pick_up_orders,
    count=count,
    count_at_most=count_at_most,
    violations=violations,
    to_scene=to_scene,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    answer_text=answer_text,
    describe=describe,
    check_params=("file", "format"),
    answer_optional=True,
    literal_answers=True,
    default_limit=2,
    # goishi2_80Q1 (umeya/puzzle_alogorithm_python, from Otsuki's book): 4 orders.
    small="goishi/4/4/1370",
    small_count=4,
    small_source="umeya/puzzle_alogorithm_python goishi2_80Q1",
    slow=DENSE_7,
    examples=(
        protocol.Example("solve goishi/6/7/vsten1tvo"),
        # gridpuzzle.com hiroimono 16n76 (tests/data/goishi/published_instances.md): solved, proven unique.
        protocol.Example("solve goishi/15/15/etufvvurv7fvpruvvvtvvvvufvv1vvvsfvvvvvvvbuvrn"),
        protocol.Example("generate 10x10 --stones 20 --seed 1"),
        protocol.Example("count goishi/4/4/1370", 4, "umeya/puzzle_alogorithm_python goishi2_80Q1"),
    ),
    warmup=_warmup,
    play=protocol.play_in("boardpuzzles.puzzles.goishi.play"),
)
