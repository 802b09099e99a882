"""Goishi Hiroi puzzles as text: read any of five formats (detected automatically), write any.

Glossary
--------
quoted      the seed's files: one row per line between double quotes, ``O`` a stone, space an
            empty point (the quotes make the row width visible)::

                "      "
                "  OO  "
rows        plain rows: ``O`` a stone, ``.`` (or space) an empty point.
numbers     a board of pick-up numbers, as ``boardpuzzles goishi solve`` prints it: tokens
            separated by spaces, ``.`` empty, ``k`` the k-th stone picked, ``0`` (or ``O``) a stone
            not picked. It carries an order. A board may be followed by an ``order:`` line of
            square names (``solve`` prints one); it must name the stones the numbers number, in
            the same order. Several answers (``solve`` separates them by an empty line, each
            with its ``order:`` line) are read as one puzzle with several orders.
url         a puzz.link / pzprjs URL, ``https://puzz.link/p?goishi/COLS/ROWS/BODY`` or just
            ``goishi/COLS/ROWS/BODY``: cols first, then rows; each base-32 digit of the body
            covers 5 points in row-major order, most significant bit first, and a 1 bit means
            *no* stone. ``?pzprv3/...`` URLs embedding a whole pzprv3 file are read too.
pzprv3      the pzprjs file: ``pzprv3``, ``goishi``, rows, cols (rows first!), then one line per
            row of tokens each followed by a space: ``.`` empty, ``0`` a stone, ``k`` the k-th
            stone picked. Lines may also be joined with ``/``. It carries an order when numbered.
json        (read only) a document that a goishi command printed with ``--json``: the puzzle from
            its ``problem`` (rows, cols, stones), the orders from its ``solutions`` (or
            ``order``); a document with only a ``text`` (``convert --json``) is read from it.

Every format holds the full board (empty border rows and columns included), so reading what was
written gives back the same puzzle, and the same order where the format carries one. Source of
the URL and pzprv3 details: ``robx/pzprjs`` (``src/variety/goishi.js``, ``src/pzpr/parser.js``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, excerpt, is_decimal, whole_number
from boardpuzzles.puzzles.goishi.rules import MAX_SIDE, NAME, Order, Puzzle, parse_order

FORMATS: dict[str, str] = {
    "quoted": 'the seed\'s quoted rows ("  O  O  ")',
    "rows": "plain rows: O a stone, . an empty point",
    "numbers": "a board of pick-up numbers (as `solve` prints it); carries an order",
    "url": "a puzz.link URL (https://puzz.link/p?goishi/COLS/ROWS/BODY)",
    "pzprv3": "a pzprv3 file (pzprjs, puzz.link); carries an order when numbered",
}
#: The formats that can hold a pick-up order.
CARRY_ORDER = ("numbers", "pzprv3")
#: What ``read`` also takes, besides FORMATS: the documents that ``--json`` prints.
READ_ONLY = {"json": "(read only) a document that a goishi command printed with --json"}
#: What ends a board of pick-up numbers as ``solve`` prints it: the order as square names.
ORDER_LINE = "order:"

URL_PREFIX = "https://puzz.link/p?"
BASE32 = "0123456789abcdefghijklmnopqrstuv"
#: Lines that end the board of a pzprv3 file (undo history, metadata, an old-style URL).
META = ("history:", "info:", "http://")


@dataclass(frozen=True)
class Document:
    """What a text holds: a puzzle, maybe an order (complete or a first part), and its format.
    A listing of several answers (``solve`` shows two when a puzzle is not unique) holds the
    first order as ``order`` and the others as ``more_orders``."""

    puzzle: Puzzle
    order: Order | None
    format: str
    more_orders: tuple[Order, ...] = ()

    @property
    def orders(self) -> tuple[Order, ...]:
        """Every order the text holds, in the text's order (none, one, or a listing's several)."""
        return () if self.order is None else (self.order, *self.more_orders)


# ---------------------------------------------------------------- detecting
DECIMAL = "0123456789"
BOM = "\ufeff"  # a byte-order mark that an editor put at the start: not part of the puzzle


def detect(text: str) -> str:
    """The format of ``text`` (see the glossary); a ParseError for an empty text."""
    text = text.removeprefix(BOM)
    lines = [line.strip() for line in text.replace("\r", "").split("\n") if line.strip()]
    if not lines:
        raise ParseError("the input is empty: no board")
    first = lines[0]
    if first.startswith(("{", "[")):
        return "json"
    if first.startswith('"'):
        return "quoted"
    if re.match(r"pzprv3(\.[0-9]+)?(/|$)", first) or (
        first.startswith("v:") and len(lines) > 1 and lines[1].startswith("pzprv3")
    ):
        return "pzprv3"
    # A word and '/' is a URL without its address (goishi/6/7/...), even with nothing after it.
    if len(lines) == 1 and re.match(r"(https?://|[\w.-]*\?|v:|[A-Za-z][\w-]*/)", first):
        return "url"
    if any(ch in DECIMAL for line in lines for ch in line):
        return "numbers"
    return "rows"


def read(text: str, fmt: str | None = None) -> Document:
    """Read a puzzle (and order) from ``text`` in ``fmt``, or in the format it looks like."""
    text = text.removeprefix(BOM)
    fmt = fmt or detect(text)
    readers = {
        "quoted": _read_quoted,
        "rows": _read_rows,
        "numbers": _read_numbers,
        "url": _read_url,
        "pzprv3": _read_pzprv3,
        "json": _read_json,
    }
    if fmt not in readers:
        raise ParseError(f"unknown format {excerpt(fmt)}: one of {', '.join([*FORMATS, *READ_ONLY])}")
    return readers[fmt](text)


def write(puzzle: Puzzle, fmt: str, order: Sequence[int] | None = None) -> str:
    """The text of ``puzzle`` in ``fmt`` (no final newline); ``order`` is written where the
    format carries one (numbers, pzprv3) and must be None elsewhere."""
    if fmt not in FORMATS:
        raise ParseError(f"unknown format {excerpt(fmt)}: one of {', '.join(FORMATS)}")
    if order is not None and fmt not in CARRY_ORDER:
        raise ParseError(f"the {fmt} format cannot hold a pick-up order (numbers and pzprv3 can)")
    if fmt == "quoted":
        return "\n".join(f'"{row.replace(".", " ")}"' for row in puzzle.to_rows())
    if fmt == "rows":
        return "\n".join(puzzle.to_rows())
    if fmt == "url":
        return URL_PREFIX + encode_url_body(puzzle)
    grid = _number_grid(puzzle, order or ())
    if fmt == "numbers":
        width = max(2, len(str(len(order or ()))))
        return "\n".join(" ".join(("." if v is None else str(v)).rjust(width) for v in row) for row in grid)
    body = ["pzprv3", "goishi", str(puzzle.rows), str(puzzle.cols)]
    body += ["".join(f"{'.' if v is None else v} " for v in row) for row in grid]
    return "\n".join(body)


def _number_grid(puzzle: Puzzle, order: Sequence[int]) -> list[list[int | None]]:
    grid: list[list[int | None]] = [[None] * puzzle.cols for _ in range(puzzle.rows)]
    for cell in puzzle.stones:
        r, c = divmod(cell, puzzle.cols)
        grid[r][c] = 0
    for k, cell in enumerate(order, start=1):
        r, c = divmod(cell, puzzle.cols)
        if grid[r][c] != 0:
            raise ParseError(f"the order picks up {puzzle.name(cell)} twice or where there is no stone")
        grid[r][c] = k
    return grid


# ---------------------------------------------------------------- quoted and plain rows
def _lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines with blank lines before and after the board removed."""
    lines = text.split("\n")
    filled = [i for i, line in enumerate(lines) if line.strip()]  # no pop(0): 1 MB of blank lines is quick
    if not filled:
        raise ParseError("the input is empty: no board")
    if filled[-1] - filled[0] >= MAX_SIDE:
        raise SizeError(
            f"the board has {filled[-1] - filled[0] + 1:,} rows; at most {MAX_SIDE}x{MAX_SIDE} points are supported"
        )
    return [(i + 1, lines[i].rstrip("\r")) for i in range(filled[0], filled[-1] + 1)]


def _board(rows: list[tuple[int, str]], empty: str, what: str) -> Puzzle:
    width = len(rows[0][1])
    if width == 0:
        raise ParseError(f"line {rows[0][0]}: an empty row")
    _check_size(len(rows), width)
    stones = []
    for r, (number, row) in enumerate(rows):
        if len(row) != width:
            raise ParseError(
                f"line {number}: {len(row)} points where line {rows[0][0]} has {width} "
                f"(every row must be as wide{'; write . for an empty point' if what == 'rows' else ''})"
            )
        for c, ch in enumerate(row):
            if ch in "Oo":
                stones.append(r * width + c)
            elif ch not in empty:
                shown = " or ".join(repr(e) for e in empty)
                raise ParseError(f"line {number}, column {c + 1}: unexpected {ch!r} (expected 'O' or {shown})")
    if not stones:
        raise ParseError("the board has no stones")
    return Puzzle(len(rows), width, tuple(stones))


def _read_quoted(text: str) -> Document:
    rows = []
    for number, line in _lines(text):
        body = line.strip()
        if not body:
            raise ParseError(f"line {number}: a blank line inside the board")
        if len(body) < 2 or not body.startswith('"') or not body.endswith('"'):
            raise ParseError(f"line {number}: a quoted row must start and end with '\"'")
        rows.append((number, body[1:-1]))
    return Document(_board(rows, " .", "quoted"), None, "quoted")


def _read_rows(text: str) -> Document:
    rows = []
    for number, line in _lines(text):
        if not line.strip():
            raise ParseError(f"line {number}: a blank line inside the board")
        rows.append((number, line))
    return Document(_board(rows, " .", "rows"), None, "rows")  # '.' or a space: no stone


# ---------------------------------------------------------------- numbered boards
def _numbered(rows: list[tuple[int, list[str]]], what: str) -> tuple[Puzzle, Order | None]:
    """A puzzle and its order from rows of tokens ('.', '0'/'O' a stone, k the k-th picked)."""
    width = len(rows[0][1])
    _check_size(len(rows), width)
    stones: list[int] = []
    picked: dict[int, int] = {}
    for r, (number, tokens) in enumerate(rows):
        if len(tokens) != width:
            raise ParseError(f"line {number}: {len(tokens)} points where the first row has {width}")
        for c, token in enumerate(tokens):
            cell = r * width + c
            if token == ".":
                continue
            if token in ("O", "o"):
                stones.append(cell)
            elif is_decimal(token):
                significant = token.lstrip("0") or "0"  # int() counts leading zeros against its limit
                k = int(significant) if len(significant) <= 9 else len(rows) * width + 1
                if k > len(rows) * width:
                    raise ParseError(
                        f"line {number}, column {c + 1}: pick-up number {excerpt(token)} is larger than "
                        f"the {len(rows) * width} points of the board"
                    )
                stones.append(cell)
                if k:
                    if k in picked:
                        raise ParseError(f"line {number}, column {c + 1}: pick-up number {k} appears twice")
                    picked[k] = cell
            else:
                raise ParseError(
                    f"line {number}, column {c + 1}: unexpected {excerpt(token)} in a {what} "
                    f"(expected '.', '0' or a pick-up number)"
                )
    if not stones:
        raise ParseError("the board has no stones")
    if picked:
        missing = next((k for k in range(1, len(picked) + 1) if k not in picked), None)
        if missing is not None:
            raise ParseError(
                f"pick-up numbers must run 1, 2, 3, ...: {missing} is missing (the highest is {max(picked)})"
            )
    order = tuple(picked[k] for k in range(1, len(picked) + 1)) if picked else None
    return Puzzle(len(rows), width, tuple(stones)), order


def _read_numbers(text: str) -> Document:
    """One board of pick-up numbers, or what ``solve`` prints: boards each followed by an
    ``order:`` line, an empty line between two answers. The lines are read one by one and only
    the orders are kept, so a long listing costs little more than its text."""
    first: tuple[int, Puzzle] | None = None  # the first answer's first line and puzzle
    orders: list[Order] = []
    board: list[tuple[int, list[str]]] = []
    blank: int | None = None  # a blank line after rows of the board: only an order line may follow
    for index, line in enumerate(text.split("\n")):
        number, body = index + 1, line.strip()
        if not body:
            if board and blank is None:
                blank = number
        elif body.startswith(ORDER_LINE):
            if not board:
                raise ParseError(f"line {number}: an order line without a board of pick-up numbers above it")
            puzzle, order = _with_order_line(board, number, body)
            if first is None:
                first = (board[0][0], puzzle)
            elif puzzle != first[1]:
                raise ParseError(
                    f"line {board[0][0]}: this answer shows a different board from the one on line {first[0]} "
                    "(a listing holds the answers of one puzzle)"
                )
            orders.append(order)
            board, blank = [], None
        else:
            if blank is not None:
                raise ParseError(f"line {blank}: a blank line inside the board")
            board.append((number, body.split()))
            if len(board) > MAX_SIDE:
                raise SizeError(f"the board has more than {MAX_SIDE} rows; at most {MAX_SIDE}x{MAX_SIDE} points")
    if first is None:
        if not board:
            raise ParseError("the input is empty: no board")
        puzzle, numbered = _numbered(board, "board of pick-up numbers")
        return Document(puzzle, numbered, "numbers")
    if board:
        raise ParseError(f"line {board[0][0]}: this board has no order line, where the answers before it have one")
    return Document(first[1], orders[0], "numbers", tuple(orders[1:]))


def _with_order_line(board: list[tuple[int, list[str]]], number: int, line: str) -> tuple[Puzzle, Order]:
    """The puzzle and order of a board followed by its ``order:`` line (line ``number``): the
    line must name the stones that the numbers number, in the same order."""
    puzzle, numbered = _numbered(board, "board of pick-up numbers")
    try:
        listed = parse_order(puzzle, line[len(ORDER_LINE) :])
    except ParseError as err:
        raise ParseError(f"line {number}: the order line: {err}") from None
    numbered = numbered or ()
    if listed != numbered:
        if len(listed) != len(numbered):
            why = f"it names {len(listed)} stones where the numbers give {len(numbered)}"
        else:
            k = next(k for k, (a, b) in enumerate(zip(listed, numbered, strict=True)) if a != b)
            why = f"pick-up {k + 1} is {puzzle.name(listed[k])} there, {puzzle.name(numbered[k])} by the numbers"
        raise ParseError(f"line {number}: the order line contradicts the pick-up numbers above it ({why})")
    return puzzle, listed


# ---------------------------------------------------------------- puzz.link URLs
def encode_url_body(puzzle: Puzzle) -> str:
    """``goishi/COLS/ROWS/BODY``: 5 points per base-32 digit, a 1 bit where there is no stone."""
    stones = set(puzzle.stones)
    cells = puzzle.rows * puzzle.cols
    digits = []
    for start in range(0, cells, 5):
        value = 0
        for k in range(5):
            cell = start + k
            if cell < cells and cell not in stones:
                value |= 16 >> k
        digits.append(BASE32[value])
    return f"goishi/{puzzle.cols}/{puzzle.rows}/{''.join(digits)}"


def _read_url(text: str) -> Document:
    url = text.strip()
    if "://" in url and "?" not in url:  # an address, but of no puzzle
        raise ParseError("URL: no puzzle after a '?' (a Goishi link reads https://puzz.link/p?goishi/COLS/ROWS/BODY)")
    query = url.split("?", 1)[1] if "?" in url else url
    # Optional key=value& pairs (type=editor&) come before the genre: one match, not a loop of
    # slices, so that a long run of them stays linear.
    prefix = re.match(r"(?:[A-Za-z_]++=[^&/]*+&)*+", query)  # always matches (maybe nothing)
    query = query[prefix.end() if prefix else 0 :]
    tokens = query.split("/")
    if tokens and tokens[0].startswith("v:"):
        tokens.pop(0)
    genre = re.sub(r"_(edit|play)$", "", tokens[0] if tokens else "")
    if re.fullmatch(r"pzprv3(\.[0-9]+)?", genre):
        document = _read_pzprv3("\n".join(unquote(t) for t in tokens))
        return Document(document.puzzle, document.order, "url")
    if genre != "goishi":
        raise ParseError(
            f"URL: this is a {excerpt(genre)} puzzle, not a Goishi one" if genre else "URL: no puzzle type after '?'"
        )
    rest = tokens[1:]
    while rest and rest[-1] == "":
        rest.pop()  # pzprjs may end a URL with '/'
    if rest and rest[0].startswith("v:"):
        rest.pop(0)
    if len(rest) > 3 and not is_decimal(rest[0]):
        rest.pop(0)  # a pflag token (goishi defines none)
    if not rest:
        raise ParseError("URL: nothing after 'goishi/': expected goishi/COLS/ROWS/BODY")
    if len(rest) < 3:
        missing = "ROWS and BODY are" if len(rest) == 1 else "BODY (the stones) is"
        raise ParseError(f"URL: expected goishi/COLS/ROWS/BODY: {missing} missing")
    if len(rest) > 3:
        raise ParseError(f"URL: unexpected {excerpt('/' + '/'.join(rest[3:]))} after goishi/COLS/ROWS/BODY")
    cols = _url_number(rest[0], "COLS")
    rows = _url_number(rest[1], "ROWS")
    body = rest[2]
    need = math.ceil(rows * cols / 5)
    if len(body) < need:
        raise ParseError(
            f"URL: BODY has {len(body)} character{'s' if len(body) != 1 else ''}; "
            f"a {cols}x{rows} (cols x rows) board needs {need}: the URL is truncated"
        )
    stones = []
    for i, ch in enumerate(body[:need]):
        value = BASE32.find(ch.lower())
        if value < 0:
            raise ParseError(f"URL: BODY character {i + 1} is {ch!r}, not a base-32 digit (0-9, a-v)")
        for k in range(5):
            cell = i * 5 + k
            if cell < rows * cols and not value & (16 >> k):
                stones.append(cell)
    if len(body) > need:  # the encoder writes exactly `need`: more is a typo or a pasted tail
        raise ParseError(
            f"URL: unexpected {excerpt(body[need:])} after BODY: a {cols}x{rows} (cols x rows) board "
            f"needs exactly {need} characters"
        )
    if not stones:
        raise ParseError("URL: the board has no stones")
    return Document(Puzzle(rows, cols, tuple(stones)), None, "url")


def _url_number(token: str, field: str) -> int:
    value = whole_number(token, f"URL: {field}")
    if not 1 <= value <= MAX_SIDE:
        what = "columns" if field == "COLS" else "rows"
        raise SizeError(f"URL: {field} is {value}; a board has 1 to {MAX_SIDE} {what}")
    return value


# ---------------------------------------------------------------- pzprv3 files
def _read_pzprv3(text: str) -> Document:
    lines = text.replace("\r", "").split("\n")  # line pos + 1 is lines[pos]
    nonblank = [line for line in lines if line.strip()]
    if len(nonblank) == 1 and "/" in nonblank[0]:
        lines = nonblank[0].strip().split("/")  # the URL / test-script spelling
    pos = 0

    def next_line(what: str) -> tuple[int, str]:
        nonlocal pos
        while pos < len(lines) and not lines[pos].strip():
            pos += 1  # blank lines between header fields are harmless
        if pos >= len(lines):
            raise ParseError(f"pzprv3: the file ends where {what} should be (line {len(lines) + 1})")
        pos += 1
        return pos, lines[pos - 1].strip()

    number, line = next_line("'pzprv3'")
    if line.startswith("v:"):
        number, line = next_line("'pzprv3'")
    if not re.fullmatch(r"pzprv3(\.[0-9]+)?", line):
        raise ParseError(f"line {number}: expected 'pzprv3', got {excerpt(line, 30)}")
    number, genre = next_line("the puzzle type")
    if genre != "goishi":
        raise ParseError(f"line {number}: this pzprv3 file is for {excerpt(genre)}, not goishi")
    rows = _header_number(*next_line("the number of rows"), "rows")
    cols = _header_number(*next_line("the number of columns"), "columns")
    grid = []
    for r in range(rows):
        if pos >= len(lines) or not lines[pos].strip() or lines[pos].strip().startswith(META):
            raise ParseError(f"line {pos + 1}: the pzprv3 board ends after {r} of its {rows} rows")
        number, line = pos + 1, lines[pos]
        pos += 1
        tokens = line.split(None, cols)  # at most one more than the header says: a long line stays cheap
        if len(tokens) != cols:
            more = "more than " if len(tokens) > cols else ""
            raise ParseError(
                f"line {number}: {more}{len(tokens) - bool(more)} points where the header says {cols} columns"
            )
        grid.append((number, tokens))
    # Anything after the rows (history:{...}, info:{...}, an old URL) is metadata, not the puzzle.
    puzzle, order = _numbered(grid, "pzprv3 file")
    return Document(puzzle, order, "pzprv3")


def _header_number(number: int, line: str, what: str) -> int:
    value = whole_number(line, f"line {number}: the number of {what}")
    if not 1 <= value <= MAX_SIDE:
        raise SizeError(f"line {number}: {value} {what}; a board has 1 to {MAX_SIDE}")
    return value


def _check_size(rows: int, cols: int) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise SizeError(f"the board is {rows}x{cols}; at most {MAX_SIDE}x{MAX_SIDE} points are supported")


# ---------------------------------------------------------------- JSON documents (read only)
def _read_json(text: str) -> Document:
    """A document that a goishi command printed with ``--json``: the puzzle from ``problem``,
    the orders from ``solutions`` (each entry's ``answer`` and ``board`` must agree) or from
    ``order`` (animate); ``convert --json``'s document, which has only a ``text``, from that."""
    try:
        document = json.loads(text)
    except RecursionError:  # the parser recurses once per level: no document of ours nests deeply
        raise ParseError("JSON: nested too deeply to be a goishi document") from None
    except ValueError as err:
        raise ParseError(f"JSON: not valid JSON: {err}") from None
    if not isinstance(document, dict):
        raise ParseError('JSON: expected a document as the goishi commands print it: {"puzzle": "goishi", ...}')
    named = document.get("puzzle", NAME)
    if named != NAME:
        raise ParseError(f"JSON: this is a document of {excerpt(named)}, not goishi")
    problem = document.get("problem")
    if problem is None:
        inner = document.get("text")
        if isinstance(inner, str) and detect(inner) != "json":
            held = read(inner)
            return Document(held.puzzle, held.order, "json", held.more_orders)
        if document.get("found") is False:
            raise ParseError("JSON: the document holds no puzzle: nothing was generated ('found' is false)")
        raise ParseError("JSON: the document holds no puzzle (no 'problem'): give what solve or generate --json prints")
    puzzle = _json_puzzle(problem)
    orders: list[Order] = []
    if "solutions" in document:
        entries = document["solutions"]
        if not isinstance(entries, list):
            raise ParseError("JSON: 'solutions' should be a list of answers")
        for k, entry in enumerate(entries, start=1):
            orders.append(_json_answer(puzzle, entry, f"JSON: solution {k}"))
    elif "order" in document:
        orders.append(_json_names(puzzle, document["order"], "JSON: 'order'"))
    return Document(puzzle, orders[0] if orders else None, "json", tuple(orders[1:]))


def _json_puzzle(problem: object) -> Puzzle:
    """The puzzle of a document's ``problem``: ``{"rows": R, "cols": C, "stones": [cells]}``."""
    if not isinstance(problem, dict):
        raise ParseError('JSON: \'problem\' should be {"rows": R, "cols": C, "stones": [cells]}')
    for field in ("rows", "cols"):
        value = problem.get(field)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParseError(f"JSON: the problem's {field!r} should be a whole number, got {excerpt(value)}")
        if not 1 <= value <= MAX_SIDE:
            raise SizeError(f"JSON: the problem's {field!r} is {excerpt(value)}; a board has 1 to {MAX_SIDE}")
    stones = problem.get("stones")
    if not isinstance(stones, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in stones):
        raise ParseError("JSON: the problem's 'stones' should be a list of points (whole numbers, row-major)")
    if len(set(stones)) != len(stones):
        raise ParseError("JSON: the problem's 'stones' name a point twice")
    try:
        return Puzzle(problem["rows"], problem["cols"], tuple(stones))
    except BoardPuzzlesError as err:  # no stones, or one off the board
        raise ParseError(f"JSON: the problem: {err}") from None


def _json_names(puzzle: Puzzle, names: object, where: str) -> Order:
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ParseError(f'{where} should be a list of square names: ["e3", "d3", ...]')
    try:
        return tuple(puzzle.grid.cell_written(name) for name in names)
    except BoardPuzzlesError as err:
        raise ParseError(f"{where}: {err}") from None


def _json_answer(puzzle: Puzzle, entry: object, where: str) -> Order:
    """The order of one entry of ``solutions``: its ``answer`` (square names) and its ``board``
    (the picture ``solve`` prints), which must agree where both are given."""
    if not isinstance(entry, dict) or not ("answer" in entry or "board" in entry):
        raise ParseError(f"{where} should hold its 'answer' (square names) or 'board', as solve --json prints it")
    named = _json_names(puzzle, entry["answer"], f"{where}'s 'answer'") if "answer" in entry else None
    if "board" not in entry:
        return named or ()
    board = entry["board"]
    if not isinstance(board, list) or not board or not all(isinstance(row, str) for row in board):
        raise ParseError(f"{where}'s 'board' should be a list of rows, as solve --json prints it")
    try:
        pictured = _read_numbers("\n".join(board))
    except BoardPuzzlesError as err:
        raise ParseError(f"{where}'s 'board': {err}") from None
    if pictured.puzzle != puzzle:
        raise ParseError(f"{where}'s 'board' shows a different board from the document's 'problem'")
    if pictured.more_orders:
        raise ParseError(f"{where}'s 'board' holds several answers, where one is expected")
    shown = pictured.order or ()
    if named is not None and named != shown:
        raise ParseError(f"{where}: 'answer' and 'board' hold different orders: correct one of them or remove one")
    return shown
