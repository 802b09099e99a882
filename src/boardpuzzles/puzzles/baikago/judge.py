"""Judging a position read from a text picture, the seed article's way: every stone is tried as
the centre of every cross, by plain arithmetic (no tables), so this judge is independent of the
cross tables that the game and the kernels use, and tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardpuzzles.errors import ParseError, excerpt
from boardpuzzles.grid import Grid
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


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def read_points(text: str, size: int | None = None) -> tuple[int, list[int]]:
    """The board side and point colours (row-major, top row first) of a picture.

    Pictures: the seed's ``board.txt`` (``X``, ``O``, spaces; lines may be short or missing at
    the bottom), plain rows with ``.`` for empty, or spaced rows (``X . O``) as the judge prints
    them. The side is ``size`` if given, else the larger of the line count and the widest line."""
    text = text.removeprefix("\ufeff")  # a byte-order mark that an editor put at the start
    if not text.strip():
        raise ParseError("the picture is empty: no stones and no rows")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    # Spaced rows only when dots show empties: a seed file with stones two apart is plain.
    # Trailing spaces are empty points (the seed's rows are 15 wide with them), so the widest
    # raw line gives the width.
    stripped = lines
    spaced = "." in text and all(
        all(ch == " " for ch in row.rstrip()[1::2]) and all(ch != " " for ch in row.rstrip()[::2]) for row in lines
    )
    if spaced:
        stripped = [row.rstrip()[::2] for row in lines]
    for r, row in enumerate(stripped):  # unknown characters first: the most useful message
        for c, ch in enumerate(row):
            if ch not in STONE_READ and ch not in EMPTY_READ:
                raise ParseError(f"line {r + 1}, column {c + 1}: unexpected {ch!r} (expected X, O, '.' or space)")
    height = len(stripped)
    width = max(len(row) for row in stripped)
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= MAX_SIZE):
        raise ParseError(f"size must be between 3 and {MAX_SIZE}, got {excerpt(size)}")
    n = size if size is not None else max(height, width)
    if n > MAX_SIZE:
        raise ParseError(f"the picture is {_lines(height)} by {width} points: larger than {MAX_SIZE}x{MAX_SIZE}")
    if height > n:
        raise ParseError(f"{_lines(height)}: too many for a {n}x{n} board")
    if width > n:
        longest = next(i for i, row in enumerate(stripped) if len(row) == width)
        raise ParseError(f"line {longest + 1}: {width} points, too long for a {n}x{n} board")
    if n < 3:
        raise ParseError(f"a {n}x{n} picture is too small: a cross needs a 3x3 board")
    points = [EMPTY_POINT] * (n * n)
    for r, row in enumerate(stripped):
        for c, ch in enumerate(row):
            points[r * n + c] = STONE_READ.get(ch, EMPTY_POINT)
    return n, points


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

    def to_json(self) -> dict:
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
