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
    about positions one move from it (its *children*), beside any about it itself (whose claims
    add up with what the children give): then the side to move there cannot win
    when every one of its moves (up to the symmetries of the square) leads to a child where it
    cannot, and wins when one does; the other side wins when every move leads to its win, and
    cannot win when one move leads where it cannot; a move of the side to move that fills a cross
    wins at once (``fills``). ``missing``: for a claim every move must carry, the moves (one point
    of each class of the positions they make) that no file covers."""

    rules: dict[str, Any]
    start: str
    children: bool  #: whether the files are about the position's children
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
        how = "joined, from the positions one move on" if self.children else "joined"
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
            "from": "children" if self.children else "the same position",
            "claims": self.claims(),
            "missing": self.missing,
            "fills": self.fills,
        }


def join_verdicts(verdicts: list[Verdict]) -> Joined:
    """What several files that hold establish together (see :class:`Joined`); a set of files
    that are neither about one position (in any of its 8 frames) nor about the children of one
    (in its own frame) is refused."""
    if not verdicts:
        raise ProofError("no files to join")
    rules = _same_rules(verdicts)
    geometry = Geometry(rules["size"], rules["max_d"], rules["orientations"])
    keys = {geometry.canonical(bytearray(v.start.encode("ascii")))[0] for v in verdicts}
    if len(keys) == 1:
        joined = Joined(rules, verdicts[0].start, children=False)
        for verdict in verdicts:
            for replay in verdict.replays:
                _establish(joined, *_claim_words(replay.claim))
        return joined
    parent = _parent(sorted({v.start for v in verdicts}), geometry.points)
    mover = BLACK if parent.count(BLACK) == parent.count(WHITE) else WHITE
    proved: dict[tuple[int, bool], set[bytes]] = {}
    here = [verdict for verdict in verdicts if verdict.start.encode("ascii") == parent]  # about the position itself
    for verdict in verdicts:
        if verdict.start.encode("ascii") != parent:
            key = geometry.canonical(bytearray(verdict.start.encode("ascii")))[0]
            for replay in verdict.replays:
                proved.setdefault(_claim_words(replay.claim), set()).add(key)
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
    joined = Joined(rules, parent.decode("ascii"), children=True, fills=fills)
    for verdict in here:
        for replay in verdict.replays:
            _establish(joined, *_claim_words(replay.claim))
    if fills:
        _establish(joined, mover, True)
    for colour in (BLACK, WHITE):
        for wins in (True, False):
            covered = proved.get((colour, wins), set())
            if not covered:
                continue
            claim = f"{NAMES[colour]} {'wins' if wins else 'cannot win'}"
            # the side to move needs one move to win, or to keep the other side from winning
            if (colour == mover) == wins:
                _establish(joined, colour, wins)
            elif not fills:  # (where the mover fills a cross, it wins: this claim does not hold)
                left = [p for key, p in classes.items() if key not in covered]
                if left:
                    joined.missing[claim] = [geometry.names[p] for p in sorted(left)]
                else:
                    _establish(joined, colour, wins)
    return joined


def _same_rules(verdicts: list[Verdict]) -> dict[str, Any]:
    """The rules every file is about (orientations "+x" and "x+" alike), or a refusal."""

    def plain(rules: dict[str, Any]) -> tuple[Any, ...]:
        return rules["size"], rules["max_d"], "".join(sorted(rules["orientations"]))

    if len({plain(v.rules) for v in verdicts}) != 1:
        raise ProofError("the files are proofs for different rules (board size, d or orientations)")
    return verdicts[0].rules


def _establish(joined: Joined, colour: int, wins: bool) -> None:
    """Record a claim that follows; two that contradict each other mean a checker is wrong."""
    if joined.established.get(colour, wins) != wins:
        raise ProofError(f"the files contradict each other about {NAMES[colour]}")
    joined.established[colour] = wins


def _claim_words(claim: str) -> tuple[int, bool]:
    colour, verb = claim.split(" ", 1)
    return COLOURS[colour], verb == "wins"


def _parent(starts: list[str], points: int) -> bytes:
    """The position each of ``starts`` is, or is one stone more than (the same colour's: the
    side to move there), or a refusal."""
    parent = bytearray(
        starts[0][p].encode("ascii")[0] if all(s[p] == starts[0][p] for s in starts) else EMPTY for p in range(points)
    )
    mover = BLACK if parent.count(BLACK) == parent.count(WHITE) else WHITE
    for start in starts:
        added = [p for p in range(points) if start[p] != chr(parent[p])]
        if not added:  # a file about the position itself
            continue
        if len(added) != 1 or parent[added[0]] != EMPTY or start[added[0]] != chr(mover):
            raise ProofError(
                "the files are neither about one position nor about the positions one move from one "
                "(each with one more stone of the side to move there) and that one itself"
            )
    return bytes(parent)
