"""The default plays: how a puzzle is played by hand when its record names no play of its own,
chosen by the shape of its answers (:mod:`boardpuzzles.answers`), and :func:`play_of`, the play a
page uses for a puzzle.

Glossary
--------
default play  the play an answer type brings (its ``play``, a
              :data:`~boardpuzzles.protocol.PlayFactory`): boards of pieces
              (:mod:`.boards`), paths and orders of cells (:mod:`.paths`), cell pairs
              (:mod:`.pairs`). Each reads the record alone: its sizes, its checker as faults,
              its search for hints and the solution (:mod:`.setup`).
own play      a record's ``play``: a factory of a :class:`~boardpuzzles.play.Play` written for
              the puzzle (givens, a generator, moves of its own); it wins over the default.

A play is made once per record, when first asked for, and kept.
"""

from __future__ import annotations

import threading
from typing import Any

from boardpuzzles.play import Play
from boardpuzzles.protocol import Puzzle

_made: dict[int, tuple[Puzzle[Any, Any], Play[Any, Any] | None]] = {}
_lock = threading.Lock()


def play_of(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
    """The record's own play, else its answer type's default play, else None (a game, such as
    Baikago, has pages of its own and no play)."""
    if not isinstance(puzzle, Puzzle):
        return None
    with _lock:
        if id(puzzle) in _made and _made[id(puzzle)][0] is puzzle:
            return _made[id(puzzle)][1]
    factory = puzzle.play or (puzzle.answer_type.play if puzzle.answer_type is not None else None)
    play = factory(puzzle) if factory is not None else None
    with _lock:
        _made[id(puzzle)] = (puzzle, play)
    return play
