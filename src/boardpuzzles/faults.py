"""Faults: what a checker finds wrong with an answer, as data rather than sentences.

Glossary
--------
fault       one thing wrong with an answer or a position: a message for people, the cells it
            concerns, the segments between cell centres that show it (two queens attacking,
            three stones in a line) and its kind.
kind        ``wrong``: the rules are broken (a page shows it at once); ``unfinished``: only
            something is left to do (a piece short, a square not covered: shown when the player
            asks for a check); ``aid``: found by a search, not by reading the rules (a dead end
            several moves ahead): it spoils the puzzle, so a page shows it only when asked.
count       an ``unfinished`` fault that names no cells says how much is left as a whole
            ("5 kings; the problem asks for 9"): a page may show it as the picture's caption.

Every puzzle's checker (``Puzzle.violations``) returns faults, the plays add their own, and
nothing reads a message back: whoever needs the cells takes them from the fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from boardpuzzles.grid import Grid

#: The kinds of fault (see the glossary).
FaultKind = Literal["wrong", "unfinished", "aid"]
FAULT_KINDS: tuple[FaultKind, ...] = ("wrong", "unfinished", "aid")
Json = Any


@dataclass(frozen=True)
class Fault:
    """One thing wrong (see the glossary); its ``str`` is its message."""

    message: str
    cells: tuple[int, ...] = ()
    lines: tuple[tuple[int, int], ...] = ()
    kind: FaultKind = "wrong"

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"a fault's kind is one of {', '.join(FAULT_KINDS)}, not {self.kind!r}")

    def __str__(self) -> str:
        return self.message

    @property
    def is_count(self) -> bool:
        """Whether it says how much is left as a whole (see the glossary)."""
        return self.kind == "unfinished" and not self.cells

    def to_json(self) -> Json:
        """The fault as a play page reads it: cells by index."""
        return {
            "message": self.message,
            "cells": list(self.cells),
            "lines": [list(line) for line in self.lines],
            "kind": self.kind,
        }

    def named(self, grid: Grid) -> Json:
        """The fault as ``check --json`` prints it: squares by name."""
        return {
            "message": self.message,
            "squares": [grid.name(cell) for cell in self.cells],
            "lines": [[grid.name(a), grid.name(b)] for a, b in self.lines],
            "kind": self.kind,
        }


def unfinished(message: str, cells: tuple[int, ...] = ()) -> Fault:
    """A fault that only says what is left to do."""
    return Fault(message, cells, kind="unfinished")


def messages(faults: Iterable[Fault]) -> list[str]:
    """The faults' messages, in order."""
    return [fault.message for fault in faults]


def blocking(faults: Iterable[Fault]) -> list[Fault]:
    """The faults that keep an answer from being a solution by the rules (not the aids)."""
    return [fault for fault in faults if fault.kind != "aid"]
