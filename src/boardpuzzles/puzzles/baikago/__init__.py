"""Baikago (梅花碁, plum-blossom go): black and white stones, five in a cross wins.

The seed article (``../shared/seeds/004``) judges a position read from ``board.txt``; this
package judges any position and plays the game (library, terminal, browser, Gomocup engine).

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
    EMPTY_POINT,
    WHITE,
    Colour,
    Cross,
    CrossTable,
    Rules,
    cross_table,
    other,
)

__all__ = [
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
