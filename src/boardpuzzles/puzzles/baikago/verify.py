"""An independent checker of Baikago proof files (``boardpuzzles baikago verify``).

It shares no code with the solver: it imports nothing from the rest of the package but the
error class, and knows the game, the point names and the symmetries of the square only through
its own plain code below, written from the published format (``docs/reference/baikago-proof.md``).
A proof it accepts holds whatever the search did; one it refuses is refused with the first fault
found, in one line.

Glossary
--------
picture     a position as a string of ``size * size`` characters, row-major, top row first:
            ``.`` empty, ``X`` black, ``O`` white.
canonical   of the 8 images of a position under the symmetries of the square, the one whose
picture     picture is smallest (byte order: ``.`` < ``O`` < ``X``); strategies are keyed by it,
            and their moves and pairings name points of that image.
owner       the side whose strategy a proof is: the winner of a claim "C wins", the other side
            of a claim "C cannot win" (the *defender*).
replay      from the start position, follow every move of the owner's opponent and the owner's
            move from the strategy, until each line ends (see :class:`Replayer`).
pairing     disjoint pairs of empty points with a pair inside every cross that holds no stone of
            the owner: answering a stone on one point of a pair with the other keeps the
            opponent from ever filling a cross.
four        a cross with four stones of one colour and its fifth point empty.
"""

from __future__ import annotations

import json
import operator
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError

FORMAT = "baikago-proof/1"
EMPTY, BLACK, WHITE = ord("."), ord("X"), ord("O")
COLOURS = {"black": BLACK, "white": WHITE}
NAMES = {BLACK: "black", WHITE: "white"}
#: The largest board a proof may describe (column names stay one letter, ``a`` to ``z``).
MAX_SIZE = 26
#: The most bytes a proof's JSON may take once decompressed (a bigger document would not fit in memory).
MAX_DOCUMENT_BYTES = 2 << 30
#: A replay reports its progress every this many positions (see ``progress``).
PROGRESS_EVERY = 100_000


class ProofError(BoardPuzzlesError):
    """The file is not a proof, or the proof does not hold; the message says where, in one line."""


# -------------------------------------------------------------------- the game, from scratch
class Geometry:
    """One rule set: the crosses as bit masks over the points, per point the crosses through it,
    the point names and the 8 symmetries of the square."""

    def __init__(self, size: int, max_d: int | None, orientations: str) -> None:
        self.size = size
        self.points = size * size
        arms = {"+": ((0, 1), (0, -1), (1, 0), (-1, 0)), "x": ((1, 1), (1, -1), (-1, 1), (-1, -1))}
        crosses: list[tuple[int, ...]] = []
        for row in range(size):
            for col in range(size):
                reach = min(row, col, size - 1 - row, size - 1 - col)
                if max_d is not None:
                    reach = min(reach, max_d)
                for d in range(1, reach + 1):
                    for kind in orientations:
                        arm_points = [(row + dr * d) * size + (col + dc * d) for dr, dc in arms[kind]]
                        crosses.append((row * size + col, *arm_points))
        self.crosses = [sum(1 << p for p in cross) for cross in crosses]
        self.cross_points = crosses
        self.through: list[list[int]] = [[] for _ in range(self.points)]
        for mask, cross in zip(self.crosses, crosses, strict=True):
            for p in cross:
                self.through[p].append(mask)
        self.names = [_column(col) + str(size - row) for row in range(size) for col in range(size)]
        self.point_of = {name: p for p, name in enumerate(self.names)}
        # per symmetry: ``source[q]``, the point of the board seen at point q of the image
        self.sources = [_source(size, flip, turns) for flip in (False, True) for turns in range(4)]
        self.gathers = [operator.itemgetter(*source) for source in self.sources]

    def canonical(self, board: bytearray) -> tuple[bytes, list[int]]:
        """The smallest of the 8 pictures of ``board`` and the source map of an image that gives it."""
        best = b""
        best_source = self.sources[0]
        for gather, source in zip(self.gathers, self.sources, strict=True):
            image = bytes(gather(board))
            if not best or image < best:
                best, best_source = image, source
        return best, best_source

    def point(self, name: object, source: list[int], where: str) -> int:
        """The board point that ``name`` (a point of the canonical image) stands for."""
        if not isinstance(name, str) or name not in self.point_of:
            raise ProofError(f"{where}: {_short(name)} is not a point of the {self.size}x{self.size} board")
        return source[self.point_of[name]]


def board_words(rules: dict[str, Any]) -> str:
    """The rules in words: "7x7, + and x crosses, any d"."""
    size, max_d, kinds = rules["size"], rules["max_d"], rules["orientations"]
    reach = "any d" if max_d is None else f"d <= {max_d}"
    kinds = {"+x": "+ and x crosses", "x+": "+ and x crosses", "+": "+ crosses only", "x": "x crosses only"}[kinds]
    return f"{size}x{size}, {kinds}, {reach}"


def stones_in_words(picture: str, size: int) -> str:
    """A start position in words (", with black on d4 and white on c3"), or "" when it is empty."""
    stones = []
    for mark, colour in (("X", "black"), ("O", "white")):
        names = [_column(p % size) + str(size - p // size) for p, c in enumerate(picture) if c == mark]
        if names:
            stones.append(f"{colour} on " + " ".join(names))
    return ", with " + " and ".join(stones) if stones else ""


def _column(col: int) -> str:
    return chr(ord("a") + col)


def _source(size: int, flip: bool, turns: int) -> list[int]:
    """The symmetry (a mirror when ``flip``, then ``turns`` quarter turns) as a source map."""
    source = [0] * (size * size)
    for p in range(size * size):
        row, col = divmod(p, size)
        if flip:
            col = size - 1 - col
        for _ in range(turns):
            row, col = col, size - 1 - row
        source[row * size + col] = p
    return source


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


# -------------------------------------------------------------------- what a replay found
@dataclass
class Replay:
    """One claim, checked: what its replay met. ``positions`` counts the distinct positions
    (symmetry classes) replayed, all but those where the owner is to move on a four: those end
    their line at once and are counted per line (``immediate_wins``), not kept; every line ended
    in one of the other counts' kinds."""

    claim: str
    player: str
    positions: int = 0
    moves: int = 0  #: positions where the strategy's move was played
    pairing_leaves: int = 0  #: positions ended by a pairing (or the file's pairing of the start)
    immediate_wins: int = 0  #: lines ending with the owner to move on a four (the omitted move fills it)
    crosses_filled: int = 0  #: lines that ended with the owner filling a cross
    no_cross_left: int = 0  #: every cross holds a stone of the owner
    full_boards: int = 0
    unused_entries: int = 0  #: strategy entries the replay never needed

    def describe(self) -> str:
        owner = self.player
        parts = [f"{_count(self.positions, 'position')} replayed", f"{self.moves:,} with {owner}'s move"]
        for count, what in (
            (self.pairing_leaves, "ending in a pairing"),
            (self.immediate_wins, f"lines ending with {owner} to move on a four"),
            (self.crosses_filled, f"ending in {owner}'s cross"),
            (self.no_cross_left, f"ending with a stone of {owner} on every cross"),
            (self.full_boards, "ending on a full board"),
        ):
            if count:
                parts.append(f"{count:,} {what}")
        return f"{self.claim}: {owner}'s strategy, " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Verdict:
    """A proof file that holds: the value it establishes and each claim's replay."""

    value: str
    rules: dict[str, Any]
    start: str
    replays: list[Replay] = field(default_factory=list)

    def summary(self) -> str:
        board = board_words(self.rules)
        where = stones_in_words(self.start, self.rules["size"])
        value = {
            "draw": "draw",
            "black": "black wins",
            "white": "white wins",
            "unknown": "",
        }[self.value]
        if not value:  # one side's claim: what it proves, and that the value needs the other's
            said = "; ".join(replay.claim for replay in self.replays)
            value = f"{said} (the value needs the other side's claim too)"
        return f"{value}: {board}{where} (the proof holds)"

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "rules": self.rules,
            "start": self.start,
            "claims": [replay.to_json() for replay in self.replays],
        }


# -------------------------------------------------------------------- reading a file
def read_document(data: bytes) -> dict[str, Any]:
    """The JSON document of a proof file's bytes (gzip-compressed or not); a damaged file is refused."""
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data)
    elif len(data) > MAX_DOCUMENT_BYTES:
        raise ProofError(f"the file is larger than {MAX_DOCUMENT_BYTES:,} bytes")
    try:
        document = json.loads(data.decode("utf-8"), object_pairs_hook=_no_repeated_keys)
    except UnicodeDecodeError:
        raise ProofError("the file is neither JSON nor gzip-compressed JSON") from None
    except json.JSONDecodeError as err:
        raise ProofError(f"the file is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    if not isinstance(document, dict):
        raise ProofError("the file's JSON is not an object")
    return document


def _gunzip(data: bytes) -> bytes:
    """The decompressed bytes of a gzip file (all its members), at most ``MAX_DOCUMENT_BYTES``."""
    damaged = "the file is not a complete gzip stream (damaged or cut short)"
    parts: list[bytes] = []
    total = 0
    while data:
        stream = zlib.decompressobj(wbits=31)
        try:
            while data:
                part = stream.decompress(data, MAX_DOCUMENT_BYTES + 1 - total)
                total += len(part)
                parts.append(part)
                if total > MAX_DOCUMENT_BYTES:
                    raise ProofError(f"the file holds more than {MAX_DOCUMENT_BYTES:,} bytes of JSON")
                data = stream.unconsumed_tail
                if stream.eof:
                    break
                if not part:
                    raise ProofError(damaged)
        except zlib.error:
            raise ProofError(damaged) from None
        if not stream.eof:
            raise ProofError(damaged)
        data = stream.unused_data
    return b"".join(parts)


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise ProofError(f"the key {_short(twice)} appears twice in one object")
    return found


def verify_file(path: str, progress: Callable[[str], None] | None = None) -> Verdict:
    """Read and check a proof file (see :func:`verify_document`)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise BoardPuzzlesError(f"cannot read {path}: {err.strerror or err}") from None
    return verify_document(read_document(data), progress)


# -------------------------------------------------------------------- checking a document
def verify_document(document: dict[str, Any], progress: Callable[[str], None] | None = None) -> Verdict:
    """Check every claim of a proof document by replaying it; the value it establishes.
    ``progress(line)`` hears how a long replay goes. Raises :class:`ProofError` at the first fault."""
    if document.get("format") != FORMAT or document.get("game") != "baikago":
        raise ProofError(f'not a Baikago proof: "format" must be "{FORMAT}" and "game" "baikago"')
    geometry, rules = _rules(document.get("rules"))
    start = _start(document.get("start"), geometry)
    proofs = document.get("proofs")
    if not isinstance(proofs, list) or not proofs:
        raise ProofError('"proofs" must be a non-empty list')
    verdict = Verdict(_value(document.get("value")), rules, start.decode("ascii"))
    established: dict[int, bool] = {}
    for number, proof in enumerate(proofs, 1):
        colour, wins, replay = _claim(proof, number)
        if colour in established:
            raise ProofError(f"proof {number}: a second claim about {NAMES[colour]}")
        owner = COLOURS[replay.player]
        if "pairing" in proof:
            if wins or "strategy" in proof:
                raise ProofError(f'proof {number}: a pairing proves only "cannot win", and stands alone')
            check_pairing(geometry, bytearray(start), proof["pairing"], geometry.sources[0], owner, f"proof {number}")
            replay.positions = replay.pairing_leaves = 1
        else:
            strategy = proof.get("strategy")
            if not isinstance(strategy, dict):
                raise ProofError(f'proof {number}: neither "pairing" nor "strategy" (an object)')
            Replayer(geometry, strategy, start, owner, wins, replay, progress).run()
        established[colour] = wins
        verdict.replays.append(replay)
    _check_value(verdict.value, established)
    return verdict


def _rules(rules: object) -> tuple[Geometry, dict[str, Any]]:
    if not isinstance(rules, dict) or set(rules) != {"size", "max_d", "orientations"}:
        raise ProofError('"rules" must be an object with "size", "max_d" and "orientations"')
    size, max_d, kinds = rules["size"], rules["max_d"], rules["orientations"]
    if type(size) is not int or not 3 <= size <= MAX_SIZE:
        raise ProofError(f'"rules": "size" must be a whole number from 3 to {MAX_SIZE}, got {_short(size)}')
    if max_d is not None and (type(max_d) is not int or max_d < 1):
        raise ProofError(f'"rules": "max_d" must be null or a whole number >= 1, got {_short(max_d)}')
    if kinds not in ("+x", "x+", "+", "x"):
        raise ProofError(f'"rules": "orientations" must be "+x", "+" or "x", got {_short(kinds)}')
    return Geometry(size, max_d, kinds), {"size": size, "max_d": max_d, "orientations": kinds}


def _start(text: object, geometry: Geometry) -> bytes:
    if not isinstance(text, str) or len(text) != geometry.points or set(text) - set(".XO"):
        raise ProofError(f'"start" must be a picture of {geometry.points} characters ".", "X" and "O"')
    start = text.encode("ascii")
    blacks, whites = start.count(BLACK), start.count(WHITE)
    if blacks not in (whites, whites + 1):
        raise ProofError(f'"start": {blacks} black and {whites} white stones cannot come from alternate play')
    for cross in geometry.cross_points:
        stones = {start[p] for p in cross}
        if len(stones) == 1 and EMPTY not in stones:
            raise ProofError('"start": the game is already over (a cross is filled)')
    return start


def _value(value: object) -> str:
    if value not in ("black", "white", "draw", "unknown"):
        raise ProofError(f'"value" must be "black", "white", "draw" or "unknown", got {_short(value)}')
    return str(value)


def _claim(proof: object, number: int) -> tuple[int, bool, Replay]:
    """The claim's colour, whether it says that colour wins, and an empty replay for it."""
    if not isinstance(proof, dict):
        raise ProofError(f"proof {number} is not an object")
    claim, player = proof.get("claim"), proof.get("player")
    words = claim.split(" ", 1) if isinstance(claim, str) else []
    if len(words) != 2 or words[0] not in COLOURS or words[1] not in ("wins", "cannot win"):
        raise ProofError(f'proof {number}: "claim" must be "black wins", "white cannot win", ...; got {_short(claim)}')
    colour, wins = COLOURS[words[0]], words[1] == "wins"
    owner = colour if wins else BLACK + WHITE - colour
    if player != NAMES[owner]:
        raise ProofError(
            f'proof {number}: "{claim}" is proved by {NAMES[owner]}\'s strategy, but "player" is {_short(player)}'
        )
    return colour, wins, Replay(str(claim), NAMES[owner])


def _check_value(value: str, established: dict[int, bool]) -> None:
    """The document's value must follow from the claims it proved."""
    winners = [NAMES[c] for c, wins in established.items() if wins]
    if winners:
        follows = value == winners[0]
    elif value == "draw":
        follows = established == {BLACK: False, WHITE: False}
    else:
        follows = value == "unknown" and len(established) == 1
    if not follows:
        proved = ", ".join(f"{NAMES[c]} {'wins' if w else 'cannot win'}" for c, w in established.items())
        raise ProofError(f'"value" is {value!r}, but the proofs show only: {proved}')


# -------------------------------------------------------------------- pairings
def check_pairing(
    geometry: Geometry, board: bytearray, pairs: object, source: list[int], owner: int, where: str
) -> None:
    """``pairs`` (point names of the image that ``source`` maps) must be disjoint pairs of
    empty points with a pair inside every cross that holds no stone of ``owner``."""
    if not isinstance(pairs, list):
        raise ProofError(f"{where}: a pairing must be a list of pairs of points")
    partner = [0] * geometry.points  # the bit of each paired point's partner
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ProofError(f"{where}: {_short(pair)} is not a pair of points")
        a, b = (geometry.point(name, source, where) for name in pair)
        if a == b or partner[a] or partner[b]:
            raise ProofError(f"{where}: the pairing uses a point twice")
        if board[a] != EMPTY or board[b] != EMPTY:
            raise ProofError(f"{where}: a pair of the pairing holds a stone")
        partner[a], partner[b] = 1 << b, 1 << a
    mine = _mask(board, owner)
    for mask, cross in zip(geometry.crosses, geometry.cross_points, strict=True):
        if mask & mine == 0 and not any(partner[p] & mask for p in cross):
            names = " ".join(geometry.names[p] for p in cross)
            raise ProofError(f"{where}: the pairing leaves the cross {names} without a pair")


def _mask(board: bytes | bytearray, colour: int) -> int:
    return sum(1 << p for p, v in enumerate(board) if v == colour)


# -------------------------------------------------------------------- replaying a strategy
class Replayer:
    """One strategy's replay (``run``). At each position, in this order:

    1. the last move filled a cross: the owner's ends the line, the opponent's refutes the proof;
    2. a full board ends the line (a claim "wins" is refuted);
    3. "cannot win" claims: a stone of the owner on every cross ends the line;
    4. the owner to move with a four ends the line (it fills the cross: the move is omitted);
       before the next step, so that these positions, most of a win's replay, are not kept;
    5. a position met before (by its canonical picture) is not replayed again;
    6. an entry that is a pairing ("cannot win" claims only) is checked and ends the line;
       the owner to move: the entry must be an empty point, and the owner plays it;
    7. the opponent to move: every empty point is played in turn."""

    def __init__(
        self,
        geometry: Geometry,
        strategy: dict[str, Any],
        start: bytes,
        owner: int,
        wins: bool,
        replay: Replay,
        progress: Callable[[str], None] | None,
    ) -> None:
        self.geometry = geometry
        self.strategy = strategy
        self.owner = owner
        self.opponent = BLACK + WHITE - owner
        self.wins = wins
        self.replay = replay
        self.progress = progress
        self.board = bytearray(start)
        self.stones = {BLACK: _mask(start, BLACK), WHITE: _mask(start, WHITE)}
        self.empty = start.count(EMPTY)
        self.seen: set[bytes] = set()
        self.trail: list[int] = []  #: the points played since the start, in order

    def run(self) -> None:
        """Follow every line from the start; fills the replay's counts, or raises
        :class:`ProofError` at the first line that fails."""
        start = bytes(self.board)
        self.visit(BLACK if start.count(BLACK) == start.count(WHITE) else WHITE, -1)
        self.replay.positions = len(self.seen)
        self.replay.unused_entries = sum(1 for key in self.strategy if key.encode("ascii", "replace") not in self.seen)

    def play(self, point: int, colour: int) -> None:
        """Play ``colour`` on ``point``, replay what follows, take the stone back."""
        self.board[point] = colour
        self.stones[colour] |= 1 << point
        self.empty -= 1
        self.trail.append(point)
        self.visit(BLACK + WHITE - colour, point)
        self.trail.pop()
        self.empty += 1
        self.stones[colour] ^= 1 << point
        self.board[point] = EMPTY

    def visit(self, me: int, last: int) -> None:
        """Replay the position with ``me`` to move (``last``: the point just played, or -1)."""
        geometry, replay, owner = self.geometry, self.replay, self.owner
        if last >= 0:
            colour = self.board[last]
            if any(self.stones[colour] & mask == mask for mask in geometry.through[last]):
                if colour != owner:
                    raise ProofError(f"{NAMES[colour]} fills a cross in {self.board.decode()}: {replay.claim!r} fails")
                replay.crosses_filled += 1
                return
        if self.empty == 0:
            if self.wins:
                raise ProofError(f"the board fills up without {NAMES[owner]}'s cross: {self.board.decode()}")
            replay.full_boards += 1
            return
        mine = self.stones[owner]
        if not self.wins and all(mask & mine for mask in geometry.crosses):
            replay.no_cross_left += 1
            return
        if me == owner and self.has_four(mine):
            replay.immediate_wins += 1
            return
        picture, source = geometry.canonical(self.board)
        if picture in self.seen:
            return
        self.seen.add(picture)
        if self.progress is not None and len(self.seen) % PROGRESS_EVERY == 0:
            self.progress(f"{replay.claim}: {len(self.seen):,} positions replayed")
        entry = self.strategy.get(picture.decode("ascii"))
        if isinstance(entry, list):
            if self.wins:
                raise ProofError(f"a pairing at {picture.decode()} cannot prove a win")
            check_pairing(geometry, self.board, entry, source, owner, f"the pairing at {picture.decode()}")
            replay.pairing_leaves += 1
        elif me == owner:
            self.owner_moves(picture, source, entry)
        else:
            for point in [p for p, v in enumerate(self.board) if v == EMPTY]:
                self.play(point, self.opponent)

    def has_four(self, mine: int) -> bool:
        """Whether a cross holds four stones of the owner and none of the opponent's. The crosses
        through the owner's last stone first: a four there is the usual one (a four made earlier
        would have been filled at once), and they are a few of the board's hundreds."""
        theirs = self.stones[self.opponent]
        if len(self.trail) >= 2:
            for mask in self.geometry.through[self.trail[-2]]:
                if (mask & mine).bit_count() == 4 and mask & theirs == 0:
                    return True
        return any((mask & mine).bit_count() == 4 and mask & theirs == 0 for mask in self.geometry.crosses)

    def owner_moves(self, picture: bytes, source: list[int], entry: object) -> None:
        """Play the strategy's move."""
        where = picture.decode("ascii")
        if entry is None:
            raise ProofError(f"no move of {NAMES[self.owner]}'s at {where} (the proof is incomplete)")
        move = self.geometry.point(entry, source, f"the move at {where}")
        if self.board[move] != EMPTY:
            raise ProofError(f"the move {entry} at {where} is on a stone")
        self.replay.moves += 1
        self.play(move, self.owner)
