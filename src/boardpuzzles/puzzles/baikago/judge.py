"""Judging a position read from a text picture, the seed article's way: every stone is tried as
the centre of every cross, by plain arithmetic (no tables), so this judge is independent of the
cross tables that the game and the kernels use, and tests compare the two.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from boardpuzzles.errors import ParseError, excerpt
from boardpuzzles.grid import Grid, file_letters
from boardpuzzles.puzzles.baikago.rules import (
    ARMS,
    BLACK,
    COLOUR_NAMES,
    EMPTY_POINT,
    MAX_SIZE,
    WHITE,
    Colour,
    Cross,
    Rules,
)

#: What a picture may hold: stones (upper case; lower case marks a highlighted stone, as the
#: judge prints them when piped) and empty points.
STONE_READ = {"X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE}
EMPTY_READ = {".", " "}
#: The lines the judge prints around its board that are no rows, skipped when its output is read
#: back: the verdict (how each of ``Judgement.summary``'s lines begins) and the note on stderr.
VERDICT_OPENINGS = ("Black wins: ", "White wins: ", "no cross: ", "inconsistent position: ")
LOWER_CASE_NOTE = "(the stones of the crosses are in lower case)"
#: The terminal colour codes (ANSI SGR) of ``judge --colour``: they paint stones, they are none.
_COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*+m")
#: A row of the judge's board begins with its rank number (right-aligned) and a space.
_RANK = re.compile(r" *+([0-9]++) ")


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _is_message(line: str) -> bool:
    line = line.rstrip()
    return line.startswith(VERDICT_OPENINGS) or line == LOWER_CASE_NOTE


def read_points(text: str, size: int | None = None) -> tuple[int, list[int]]:
    """The board side and point colours (row-major, top row first) of a picture.

    Pictures: the seed's ``board.txt`` (``X``, ``O``, spaces; lines may be short or missing at
    the bottom), plain rows with ``.`` for empty, spaced rows (``X . O``), or what the judge
    prints: its verdict, spaced rows with rank numbers, and the file letters below (its colour
    codes too). The side is ``size`` if given, else the larger of the line count and the widest
    line (a picture with coordinates gives its own)."""
    rows, numbers = _board_lines(text)
    stripped, numbers, labelled = _point_rows(rows, numbers)
    for number, row in zip(numbers, stripped, strict=True):  # unknown characters first: the most useful message
        for c, ch in enumerate(row):
            if ch not in STONE_READ and ch not in EMPTY_READ:
                raise ParseError(f"line {number}, column {c + 1}: unexpected {ch!r} (expected X, O, '.' or space)")
    n = _board_side(stripped, numbers, labelled, size)
    points = [EMPTY_POINT] * (n * n)
    for r, row in enumerate(stripped):
        for c, ch in enumerate(row):
            points[r * n + c] = STONE_READ.get(ch, EMPTY_POINT)
    return n, points


def _board_lines(text: str) -> tuple[list[str], range]:
    """The lines of a picture that hold the board (the judge's verdict and note left out), and
    each one's line number in the text."""
    text = text.removeprefix("\ufeff")  # a byte-order mark that an editor put at the start
    text = _COLOUR_CODE.sub("", text)
    if not text.strip():
        raise ParseError("the picture is empty: no stones and no rows")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    # The judge's verdict above its board and its note below it are not rows (no row holds
    # their letters, so nothing else is skipped).
    first, end = 0, len(lines)
    while first < end and _is_message(lines[first]):
        first += 1
    while end > first and (_is_message(lines[end - 1]) or not lines[end - 1].strip()):
        end -= 1
    if first == end:
        raise ParseError("the picture holds the judge's verdict but no board")
    return lines[first:end], range(first + 1, end + 1)


def _point_rows(rows: list[str], numbers: range) -> tuple[list[str], range, bool]:
    """One character per point for each row (coordinates and the spaces between points taken
    away), the rows' line numbers, and whether the picture had coordinates."""
    labelled = rows[-1].split()[:1] == ["a"] or any(_RANK.match(row) for row in rows)
    if labelled:
        # Blank lines above numbered rows are no empty rows: the numbers say which row is which.
        blank = next(i for i, row in enumerate(rows) if row.strip())
        rows, numbers = rows[blank:], numbers[blank:]
        stripped = _without_coordinates(rows, numbers)
        return stripped, numbers[:-1], True  # the file letters' line is no row
    # Spaced rows only when dots show empties: a seed file with stones two apart is plain.
    # Trailing spaces are empty points (the seed's rows are 15 wide with them), so the
    # widest raw line gives the width.
    spaced = any("." in row for row in rows) and all(
        all(ch == " " for ch in row.rstrip()[1::2]) and all(ch != " " for ch in row.rstrip()[::2]) for row in rows
    )
    if spaced:
        return [row.rstrip()[::2] for row in rows], numbers, False
    return rows, numbers, False


def _board_side(stripped: list[str], numbers: range, labelled: bool, size: int | None) -> int:
    """The board's side: ``size`` if given, else the larger of the row count and the widest row."""
    height = len(stripped)
    width = max(len(row) for row in stripped)
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= MAX_SIZE):
        raise ParseError(f"size must be between 3 and {MAX_SIZE}, got {excerpt(size)}")
    if labelled and size is not None and size != height:
        # Rank numbers count from the bottom: a larger board would move every stone.
        raise ParseError(f"the picture's coordinates are those of a {height}x{height} board, not {size}x{size}")
    n = size if size is not None else max(height, width)
    if n > MAX_SIZE:
        raise ParseError(f"the picture is {_lines(height)} by {width} points: larger than {MAX_SIZE}x{MAX_SIZE}")
    if height > n:
        raise ParseError(f"{_lines(height)}: too many for a {n}x{n} board")
    if width > n:
        longest = next(i for i, row in enumerate(stripped) if len(row) == width)
        raise ParseError(f"line {numbers[longest]}: {width} points, too long for a {n}x{n} board")
    if n < 3:
        raise ParseError(f"a {n}x{n} picture is too small: a cross needs a 3x3 board")
    return n


def _without_coordinates(rows: list[str], numbers: range) -> list[str]:
    """The points of a board printed with coordinates, as the judge prints it: rows numbered from
    the top row's N down to 1, each ``N X . O ...`` (points one space apart), and below them the
    file letters ``a b c ...``, one per column. Anything else is refused, naming its line."""
    *board, files = rows
    if _RANK.match(files):
        raise ParseError(
            f"line {numbers[-1]}: a board with rank numbers needs its file letters (a b c ...) on the line below"
        )
    if not board:
        raise ParseError(f"line {numbers[-1]}: file letters with no board above them")
    top = _RANK.match(board[0])
    if top is None:
        raise ParseError(f"line {numbers[0]}: expected the top row's rank number at the start of the line")
    # The top row's rank is the board's side (ranks count up from 1 at the bottom).
    side = int(top.group(1)) if len(top.group(1)) <= 3 else MAX_SIZE + 1
    if not 3 <= side <= MAX_SIZE:
        raise ParseError(f"line {numbers[0]}: rank {excerpt(top.group(1))}: a board has 3 to {MAX_SIZE} rows")
    letters = [file_letters(c) for c in range(side)]
    points = []
    for k, (number, row) in enumerate(zip(numbers[:-1], board, strict=True)):
        if k == side:  # past rank 1: the file letters, and then nothing, should be here
            if row.split() == letters:
                raise ParseError(f"line {number + 1}: unexpected {excerpt(rows[k + 1].strip())} below the file letters")
            raise ParseError(f"line {number}: expected the file letters (a b c ...) below the row of rank 1")
        rank = _RANK.match(row)
        if rank is None or rank.group(1) != str(side - k):
            got = excerpt(rank.group(1)) if rank else "none"
            raise ParseError(f"line {number}: expected rank number {side - k} at the start of the row, got {got}")
        spaced = row[rank.end() :].rstrip()
        for i, ch in enumerate(spaced):  # a point, a space, a point, ...
            if (ch == " ") != (i % 2 == 1):
                expected = "a space between two points" if i % 2 else "a point (X, O or '.')"
                raise ParseError(f"line {number}, column {rank.end() + i + 1}: expected {expected}, got {ch!r}")
        if len(spaced[::2]) != side:
            raise ParseError(f"line {number}: {len(spaced[::2])} points in a row of a {side}x{side} board")
        points.append(spaced[::2])
    if len(board) < side:
        raise ParseError(f"line {numbers[-1]}: expected the row of rank {side - len(board)} before the file letters")
    if files.split() != letters:
        last = f" to {file_letters(side - 1)}" if side > 1 else ""
        raise ParseError(
            f"line {numbers[-1]}: expected the file letters a{last} of a {side}x{side} board, "
            f"got {excerpt(files.strip())}"
        )
    return points


def crosses_of(points: list[int], n: int, colour: Colour, rules: Rules) -> list[Cross]:
    """Every cross of ``colour``, centre by centre, as the seed's IsWinPattern does."""
    found = []
    for cell, here in enumerate(points):
        if here != colour:
            continue
        row, col = divmod(cell, n)
        for d in range(1, rules.largest_d + 1):
            for orientation in rules.orientations:
                arms = [(row + dr * d, col + dc * d) for dr, dc in ARMS[orientation]]
                if all(0 <= r < n and 0 <= c < n and points[r * n + c] == colour for r, c in arms):
                    found.append(Cross(cell, d, orientation, (cell, *(r * n + c for r, c in arms))))
    return found


@dataclass
class Judgement:
    """What the judge found: every cross per colour, the stone counts, the verdict (``black``,
    ``white``, ``none`` or ``inconsistent``) and, when inconsistent, why."""

    rules: Rules
    points: list[int]
    crosses: dict[Colour, list[Cross]]
    stones: dict[Colour, int]
    problems: list[str] = field(default_factory=list)

    @property
    def grid(self) -> Grid:
        return self.rules.grid

    @property
    def verdict(self) -> str:
        if self.problems:
            return "inconsistent"
        for colour in (BLACK, WHITE):
            if self.crosses[colour]:
                return COLOUR_NAMES[colour]
        return "none"

    @property
    def highlighted(self) -> set[int]:
        """The points of every cross found (both colours, even in an inconsistent position)."""
        return {p for colour in (BLACK, WHITE) for cross in self.crosses[colour] for p in cross.points}

    def summary(self) -> str:
        grid = self.grid
        if self.problems:
            return "inconsistent position: " + "; ".join(self.problems)
        if self.verdict == "none":
            to_move = "black" if self.stones[BLACK] == self.stones[WHITE] else "white"
            return f"no cross: nobody has won yet ({to_move} to move)"
        colour = BLACK if self.verdict == "black" else WHITE
        crosses = self.crosses[colour]
        more = f" (and {len(crosses) - 1} more)" if len(crosses) > 1 else ""
        return f"{self.verdict.capitalize()} wins: {crosses[0].describe(grid)}{more}"

    def to_json(self) -> dict[str, Any]:
        grid = self.grid
        return {
            "puzzle": "baikago",
            "rules": self.rules.to_json(),
            "verdict": self.verdict,
            "problems": self.problems,
            "stones": {COLOUR_NAMES[c]: self.stones[c] for c in (BLACK, WHITE)},
            "crosses": {COLOUR_NAMES[c]: [x.to_json(grid) for x in self.crosses[c]] for c in (BLACK, WHITE)},
        }


def judge(points: list[int], rules: Rules) -> Judgement:
    """Judge a position: every cross of each colour, and whether alternate play (black first,
    the game stopping at the first cross) could have produced it."""
    n = rules.size
    if len(points) != n * n:
        raise ParseError(f"{len(points)} points for a {n}x{n} board")
    crosses = {colour: crosses_of(points, n, colour, rules) for colour in (BLACK, WHITE)}
    stones = {colour: sum(1 for p in points if p == colour) for colour in (BLACK, WHITE)}
    problems = []
    black, white = stones[BLACK], stones[WHITE]
    if black - white not in (0, 1):
        problems.append(
            f"{black} black and {white} white stones: with black moving first, black has as many "
            f"stones as white or one more"
        )
    if crosses[BLACK] and crosses[WHITE]:
        problems.append("both colours have a cross: the game ends at the first one")
    for colour, last_count in ((BLACK, white + 1), (WHITE, black)):
        if not crosses[colour] or problems:
            continue
        name = COLOUR_NAMES[colour]
        if stones[colour] != last_count:
            problems.append(
                f"{name} has a cross, so {name} played last, but the stone counts "
                f"({black} black, {white} white) say {'white' if colour == BLACK else 'black'} did"
            )
        shared = set.intersection(*(set(c.points) for c in crosses[colour]))
        if not shared:
            problems.append(f"{name}'s crosses share no stone: the game would have ended at an earlier one")
    return Judgement(rules, list(points), crosses, stones, problems)


def judge_text(text: str, size: int | None = None, max_d: int | None = None, orientations: str = "+x") -> Judgement:
    n, points = read_points(text, size)
    return judge(points, Rules(n, max_d, orientations))
