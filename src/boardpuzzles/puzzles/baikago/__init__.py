"""Baikago (梅花碁, plum-blossom go): black and white stones, five in a cross wins.

The seed article (the fifth of the series this project started from) judges a position read
from ``board.txt``; this package judges any position and plays the game (library, terminal,
browser, Gomocup engine). It is registered as a game (``GAME``): no solve / count / check, but
commands of its own (judge, play, engine, serve).

Glossary
--------
point       an intersection of the board: a grid cell (``row * size + col``, row 0 at the top),
            named like ``h8`` (column letters from the left, row numbers from the bottom).
colour      ``BLACK`` (1, ``X``, moves first) or ``WHITE`` (2, ``O``); 0 is an empty point.
cross       a centre and four arms at distance ``d``: ``+`` orientation (left, right, up, down)
            or ``x`` (the four diagonal points). Five stones of one colour on a cross win.
rules       board side (default 15), the largest ``d`` (``max_d``, default any) and which
            orientations count (``"+x"``).
cross table every cross of a rule set (five points each) and, per point, the crosses through it;
            computed once per rule set (:func:`cross_table`).
count       per cross and colour, the stones on it; a cross holding both colours is *dead*.
four        a cross with four stones of one colour and its fifth point empty: a threat to win
            that the opponent must answer on that point.
position    the board, the side to move and the move stack (``make``/``unmake``); only the
            crosses through the last stone are examined for a win.
outcome     a cross (the winner is whoever played last), a full board, or an early draw when
            every cross is dead, or a resignation.
judgement   the full-board verdict on a picture: every cross per colour, and whether alternate
            play could have produced it (``inconsistent`` otherwise).

Roads not taken: bitboards (a 15x15 board needs 225 bits; the per-cross counts are what the
search reads anyway) and gomoku line patterns (a cross is not a line; counts replace them).
"""

from boardpuzzles.protocol import Example, Game, Param
from boardpuzzles.puzzles.baikago.game import (
    IllegalMoveError,
    InconsistentPositionError,
    Move,
    Outcome,
    Position,
    Record,
)
from boardpuzzles.puzzles.baikago.judge import Judgement, crosses_of, judge, judge_text, read_points
from boardpuzzles.puzzles.baikago.rules import (
    BLACK,
    COLOUR_NAMES,
    DEFAULT_SIZE,
    EMPTY_POINT,
    MAX_SIZE,
    WHITE,
    Colour,
    Cross,
    CrossTable,
    Rules,
    cross_table,
    other,
)


def _rules(size: int = 15, max_d: int | None = None, orientations: str = "+x") -> Rules:
    return Rules(size, max_d, orientations)


def _demo() -> str:
    """Black completes a + cross on e5 (distance 1) on a 9x9 board: the moves, the board as
    `baikago judge` draws it (the cross's stones in lower case), and who won."""
    from boardpuzzles.puzzles.baikago.terminal import board_picture

    moves = ["e5", "a1", "d5", "a9", "f5", "i1", "e6", "i9", "e4"]
    position = Position(Rules(size=9))
    for name in moves:
        position.make_named(name)
    outcome = position.outcome()
    verdict = outcome.describe(position.grid) if outcome else "the game goes on"
    marked = [p for cross in (outcome.crosses if outcome else ()) for p in cross.points]
    picture = board_picture(list(position.array()), 9, marked)
    return f"A game on 9x9, black first: {' '.join(moves)}\n{picture}\n{verdict}"


def _warm_play() -> None:
    from boardpuzzles.puzzles.baikago.ai import ComputerPlayer

    game = Position(Rules(size=7))
    game.make_named("d4")
    ComputerPlayer(game.rules, strength=2).choose_for(game)  # 2: the continuous-fours kernels too


def _warm_solve() -> None:
    """`baikago solve`'s kernels: the df-pn search, its threats, the pairings and the proof's walk."""
    from boardpuzzles.puzzles.baikago.solve import solve

    solve(Rules(size=4), pairings=False)
    solve(Rules(size=4))


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time).
_warmup = (_warm_play, _warm_solve)


GAME = Game(
    name="baikago",
    display_name="Baikago",
    title="plum-blossom go: five stones in a cross win (judge, play, engine, serve)",
    description="Baikago (plum-blossom go): black (X) and white (O) take turns, black first; five stones "
    "of one colour in a cross win: a centre and four stones at the same distance d from it, "
    "left-right-up-down (+) or on the four diagonals (x).",
    params=(
        Param("size", "int", "Board side.", DEFAULT_SIZE, short="-n", metavar="N", minimum=3, maximum=MAX_SIZE),
        Param(
            "max_d",
            "int",
            "Only crosses with arms at distance D or less win (default: any).",
            None,
            metavar="D",
            minimum=1,
            maximum=MAX_SIZE,
        ),
        Param(
            "orientations", "choice", "Which crosses win: + and x, or one kind only.", "+x", choices=("+x", "+", "x")
        ),
    ),
    problem=_rules,
    examples=(Example("judge tests/data/baikago/seed_board.txt"),),
    warmup=_warmup,
    demo=_demo,
)

__all__ = [
    "GAME",
    "BLACK",
    "COLOUR_NAMES",
    "EMPTY_POINT",
    "WHITE",
    "Colour",
    "Cross",
    "CrossTable",
    "IllegalMoveError",
    "InconsistentPositionError",
    "Judgement",
    "Move",
    "Outcome",
    "Position",
    "Record",
    "Rules",
    "cross_table",
    "crosses_of",
    "judge",
    "judge_text",
    "other",
    "read_points",
]
