"""Several Baikago proof files joined (``boardpuzzles baikago verify FILE...``): what files that
the independent checker (:mod:`boardpuzzles.puzzles.baikago.verify`) accepted establish together,
about one position or about the position their starts come from. Like the checker, it shares no
code with the solver: it imports the checker and the error class only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardpuzzles.puzzles.baikago.verify import (
    BLACK,
    COLOURS,
    EMPTY,
    NAMES,
    WHITE,
    Geometry,
    ProofError,
    Verdict,
    board_words,
    stones_in_words,
)


@dataclass
class Joined:
    """What proof files that hold establish together about one position (``start``): either
    they are all about it (their claims add up, as one side's file and the other's), or they are
    about positions further on from it (``depth``: the most moves from it to a file's start),
    beside any about it itself. Claims are carried back one move at a time: at each position,
    the side to move cannot win when every one of its moves (up to the symmetries of the square)
    leads to a position where it cannot, and wins when one does; the other side wins when every
    move leads to its win, and cannot win when one move leads where it cannot; a move of the side
    to move that fills a cross wins at once (``fills``). ``missing``: for a claim every move from
    ``start`` must carry, the moves (one point of each class of the positions they make) that
    no file, and nothing carried back, covers."""

    rules: dict[str, Any]
    start: str
    depth: int  #: 0: the files are all about the position; 1: about its children (and it); more: further on
    established: dict[int, bool] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)
    #: The points where the side to move fills a cross (it wins there, with no file needed).
    fills: list[str] = field(default_factory=list)

    @property
    def value(self) -> str:
        winners = [NAMES[c] for c, wins in self.established.items() if wins]
        if winners:
            return winners[0]
        return "draw" if self.established == {BLACK: False, WHITE: False} else "unknown"

    def claims(self) -> list[str]:
        return [f"{NAMES[c]} {'wins' if w else 'cannot win'}" for c, w in sorted(self.established.items())]

    def summary(self) -> str:
        where = stones_in_words(self.start, self.rules["size"]) or ", on the empty board"
        how = {0: "joined", 1: "joined, from the positions one move on"}.get(
            self.depth, f"joined, from the positions up to {self.depth} moves on"
        )
        said = {"black": "black wins", "white": "white wins", "draw": "draw"}.get(self.value)
        if said is None:
            said = "; ".join(self.claims()) or "nothing follows"
        return f"{how}: {said}: {board_words(self.rules)}{where}"

    def gaps(self) -> list[str]:
        """A line per claim that lacks a file for some moves."""
        lines = [f"{claim} would need files for {', '.join(moves)} too" for claim, moves in self.missing.items()]
        if self.fills:
            mover = "black" if self.start.count("X") == self.start.count("O") else "white"
            lines.insert(0, f"{mover} fills a cross at {' '.join(self.fills)}")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "rules": self.rules,
            "start": self.start,
            "from": ["the same position", "children"][self.depth] if self.depth < 2 else "positions further on",
            "depth": self.depth,
            "claims": self.claims(),
            "missing": self.missing,
            "fills": self.fills,
        }


def join_verdicts(verdicts: list[Verdict]) -> Joined:
    """What several files that hold establish together (see :class:`Joined`): about the one
    position they are all about (in any of its 8 frames), or else about the position every
    file's start holds (the stones all starts share, in their own frame, less the stones of one
    colour where those could not come from alternate play), carried back to it one move at a
    time from the deepest starts."""
    if not verdicts:
        raise ProofError("no files to join")
    rules = _same_rules(verdicts)
    geometry = Geometry(rules["size"], rules["max_d"], rules["orientations"])
    known: dict[bytes, dict[int, bool]] = {}  # each position's claims, by its canonical picture
    reached: dict[int, dict[bytes, bytes]] = {}  # per number of stones: the positions with claims
    for verdict in verdicts:
        start = verdict.start.encode("ascii")
        key = geometry.canonical(bytearray(start))[0]
        reached.setdefault(_stones(start), {})[key] = start
        for replay in verdict.replays:
            _establish(known.setdefault(key, {}), *_claim_words(replay.claim))
    if sum(len(boards) for boards in reached.values()) == 1:  # one position (in any frame)
        return Joined(rules, verdicts[0].start, 0, dict(*known.values()))
    root = _common_position([v.start.encode("ascii") for v in verdicts])
    root_key = geometry.canonical(bytearray(root))[0]
    deepest = max(reached)
    for level in range(deepest, _stones(root), -1):  # one move back at a time
        parents = reached.setdefault(level - 1, {})
        for board in reached.get(level, {}).values():
            for parent in _parents(geometry, board, root):
                parents.setdefault(geometry.canonical(bytearray(parent))[0], parent)
        for key, parent in parents.items():
            if key != root_key:
                for colour, wins in _carry(geometry, parent, known).established.items():
                    _establish(known.setdefault(key, {}), colour, wins)
        reached[level - 1] = {key: board for key, board in parents.items() if known.get(key)}
    joined = _carry(geometry, root, known)
    joined.rules, joined.start, joined.depth = rules, root.decode("ascii"), deepest - _stones(root)
    for colour, wins in known.get(root_key, {}).items():
        _establish(joined.established, colour, wins)
    # a claim about a side that the files settle either way needs nothing more
    settled = {NAMES[colour] for colour in joined.established}
    joined.missing = {claim: moves for claim, moves in joined.missing.items() if claim.split()[0] not in settled}
    return joined


def _carry(geometry: Geometry, parent: bytes, known: dict[bytes, dict[int, bool]]) -> Joined:
    """What the claims known about ``parent``'s children establish about it (see :class:`Joined`;
    its rules, start and depth left for the caller)."""
    mover = BLACK if parent.count(BLACK) == parent.count(WHITE) else WHITE
    classes: dict[bytes, int] = {}  # each class of the mover's moves (by the position it makes): its lowest point
    fills = []  # the mover's moves that fill a cross: no file is about them, and the mover wins with them
    for point in range(geometry.points):
        if parent[point] == EMPTY:
            child = bytearray(parent)
            child[point] = mover
            if any(all(child[q] == mover for q in cross) for cross in geometry.cross_points if point in cross):
                fills.append(geometry.names[point])
            else:
                classes.setdefault(geometry.canonical(child)[0], point)
    carried = Joined({}, "", 1, fills=fills)
    if fills:
        carried.established[mover] = True
    for colour in (BLACK, WHITE):
        for wins in (True, False):
            covered = {key for key in classes if known.get(key, {}).get(colour) == wins}
            if not covered:
                continue
            # the side to move needs one move to win, or to keep the other side from winning
            if (colour == mover) == wins:
                _establish(carried.established, colour, wins)
            elif not fills:  # (where the mover fills a cross, it wins: this claim does not hold)
                left = [p for key, p in classes.items() if key not in covered]
                if left:
                    claim = f"{NAMES[colour]} {'wins' if wins else 'cannot win'}"
                    carried.missing[claim] = [geometry.names[p] for p in sorted(left)]
                else:
                    _establish(carried.established, colour, wins)
    return carried


def _stones(board: bytes) -> int:
    return len(board) - board.count(EMPTY)


def _parents(geometry: Geometry, board: bytes, root: bytes) -> list[bytes]:
    """The positions one move before ``board`` (in any of its 8 frames) that hold ``root``: a
    stone of the side that moved last taken away. Every frame counts: two lines of play can
    reach one position in two frames, and each comes from its own parent."""
    last = BLACK if board.count(BLACK) > board.count(WHITE) else WHITE
    stones = [p for p in range(geometry.points) if root[p] != EMPTY]
    parents = []
    for gather in geometry.gathers:
        image = bytes(gather(board))
        if all(image[p] == root[p] for p in stones):
            for point, stone in enumerate(image):
                if stone == last and root[point] == EMPTY:
                    parents.append(image[:point] + bytes([EMPTY]) + image[point + 1 :])
    return parents


def _common_position(starts: list[bytes]) -> bytes:
    """The stones every start holds: a position every start can be reached from. White stones
    alone are left out (as after black's different first moves, each answered on one point);
    any other set of stones that alternate play cannot leave is refused, since more than one
    position could be meant."""
    common = bytes(
        start_point if all(s[p] == start_point for s in starts) else EMPTY for p, start_point in enumerate(starts[0])
    )
    blacks, whites = common.count(BLACK), common.count(WHITE)
    if blacks in (whites, whites + 1):
        return common
    if blacks == 0:
        return bytes([EMPTY]) * len(common)
    raise ProofError(
        f"the stones all the files' starts share ({blacks} black, {whites} white) are no position that "
        "play reaches, and more than one could be meant: join the files of each position apart"
    )


def _same_rules(verdicts: list[Verdict]) -> dict[str, Any]:
    """The rules every file is about (orientations "+x" and "x+" alike), or a refusal."""

    def plain(rules: dict[str, Any]) -> tuple[Any, ...]:
        return rules["size"], rules["max_d"], "".join(sorted(rules["orientations"]))

    if len({plain(v.rules) for v in verdicts}) != 1:
        raise ProofError("the files are proofs for different rules (board size, d or orientations)")
    return verdicts[0].rules


def _establish(established: dict[int, bool], colour: int, wins: bool) -> None:
    """Record a claim that follows; two that contradict each other mean a checker is wrong."""
    if established.get(colour, wins) != wins:
        raise ProofError(f"the files contradict each other about {NAMES[colour]}")
    established[colour] = wins


def _claim_words(claim: str) -> tuple[int, bool]:
    colour, verb = claim.split(" ", 1)
    return COLOURS[colour], verb == "wins"
