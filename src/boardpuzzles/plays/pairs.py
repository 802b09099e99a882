"""The default play of cell pairs (:data:`~boardpuzzles.answers.CELL_PAIRS`: dominoes).

Glossary
--------
state     the pairs placed, in the order they were placed (each ``(smaller, larger)``; a pair
          moved is placed last), and the square picked for the next pair (``-1``: none). JSON
          ``{"pairs": [[a, b], ...], "picked": cell or null}``, the pairs in the same order.
tools     ``pair``: a click on a square picks it, a click beside the picked square places the
          pair (dragging from one square to the next does the same), a click on a placed pair
          takes it off and picks that square (so a drag from a placed pair moves it); the
          clicks that pick and the one that places are one move, which one undo takes back;
          ``erase`` (the second tool): a click takes off the pair there.
fault     the record's ``violations`` of the pairs placed, every kind (a square not covered yet
          is unfinished), and, as an aid, a dead end when the record's search, given
          ``CHECK_SECONDS``, finds no answer through them: the squares no pair can cover any
          more, else the pairs that no answer holds even alone (with the others taken off),
          else the pairs whose removal alone lets an answer hold the rest (the last placed
          named first), else the pairs together (see :meth:`_PairRules.dead_end`).
hint      a pair of an answer that holds every pair placed (the one through the picked square
          when there is one): found by the record's search, each answer compared with the pairs
          placed, or by a search that starts from them (:data:`PairsHolding`) when the record's
          play passes one (each of its answers judged by the record's checker); in a dead end,
          what the dead-end fault says.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from boardpuzzles.answers import CellPairs
from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.grid import ORTHOGONAL, Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, SOLVED_HINT, Click, Hint, IllegalMove, Json, Play, Tool
from boardpuzzles.plays.setup import CHECK_SECONDS, RecordProblem, Setup, cell_index, each_found, rules_of
from boardpuzzles.plays.words import listed, take_one_off
from boardpuzzles.protocol import Puzzle

Pair = tuple[int, int]
PairsState = tuple[tuple[Pair, ...], int]
#: ``holding(problem, pairs, limits)``: the record's answers to its ``problem`` that hold the
#: ``pairs`` placed, found by a search that starts from them.
PairsHolding = Callable[[Any, tuple[Pair, ...], Limits], Iterator[CellPairs]]
TOOL = Tool("pair", "Pair", "p")
ERASE = Tool("erase", "Take off", "x")
PICKED_COLOUR = "#ffd54f"
#: The sizes offered: from the small example's side, this many (those with an answer).
PAIR_SIZES = 5
#: Positions whose completion is remembered (see ``_PairRules.holds``).
KEPT = 1024
_KEPT: dict[tuple[str, tuple[Pair, ...]], bool] = {}
_KEPT_LOCK = threading.Lock()


def pairs_play(puzzle: Puzzle[Any, Any], holding: PairsHolding | None = None) -> Play[RecordProblem, PairsState] | None:
    """The default play of a record whose answers are :class:`~boardpuzzles.answers.CellPairs`,
    its hints, solution and dead ends from ``holding`` when given."""
    setup = Setup.of(puzzle, PAIR_SIZES)
    if setup is None:
        return None
    rules = _PairRules(setup, holding)
    return Play(
        has_aids=True,
        tools=(TOOL, ERASE),
        sizes=setup.sizes,
        default_size=setup.default_size,
        seedless=("",),  # a blank board of each size
        new=lambda size, difficulty, seed: (setup.new(size), ((), -1)),
        click=rules.click,
        faults=rules.faults,
        solved=lambda problem, state: setup.solved(problem, _answer(problem, state)),
        hint=rules.hint,
        scene=rules.scene,
        state_to_json=lambda problem, state: {"pairs": [list(p) for p in state[0]], "picked": _or_none(state[1])},
        state_from_json=_state_from_json,
        problem_to_json=lambda problem: problem.values,
        problem_from_json=setup.make,
        rules=rules_of(puzzle, "Click a square, then one beside it."),
        solution=rules.solution,
        drag=True,
        settled=lambda problem, state: state[0],  # the pairs: a square picked is no move of its own
        describe=_describe,
    )


def _name(grid: Grid, pair: Pair) -> str:
    return f"{grid.name(pair[0])}-{grid.name(pair[1])}"


def _without(pairs: tuple[Pair, ...], pair: Pair) -> tuple[Pair, ...]:
    return tuple(p for p in pairs if p != pair)


def _or_none(picked: int) -> int | None:
    return None if picked < 0 else picked


def _answer(problem: RecordProblem, state: PairsState) -> CellPairs:
    return CellPairs(problem.grid, state[0])


@dataclass(frozen=True)
class _PairRules:
    setup: Setup
    holding: PairsHolding | None = None

    def click(self, problem: RecordProblem, state: PairsState, cell: int, tool: str) -> PairsState:
        grid = problem.grid
        cell = cell_index(grid, cell)
        if tool not in (TOOL.name, ERASE.name):
            raise IllegalMove(f"no tool {excerpt(tool)}")
        pairs, picked = state
        placed = next((p for p in pairs if cell in p), None)
        if placed is not None:  # take it off; with the pair tool, this square is picked (a drag moves it)
            return tuple(p for p in pairs if p != placed), -1 if tool == ERASE.name else cell
        if tool == ERASE.name:
            return state
        if picked < 0 or picked == cell:
            return pairs, -1 if picked == cell else cell
        if cell not in grid.neighbours(picked, ORTHOGONAL):
            return pairs, cell  # a new first square
        return (*pairs, (min(picked, cell), max(picked, cell))), -1

    def faults(self, problem: RecordProblem, state: PairsState) -> list[Fault]:
        found = self.setup.faults(problem, _answer(problem, state))
        left = [f for f in found if f.kind == "unfinished"]
        if len(left) > 1 and all(len(f.cells) == 1 for f in left):  # one per square: say them as one
            cells = tuple(c for f in left for c in f.cells)
            found = [f for f in found if f.kind != "unfinished"] + [
                unfinished(f"{len(cells)} squares left to cover", cells)
            ]
        if not any(f.kind == "wrong" for f in found) and state[0] and not self.completes(problem, state[0]):
            found.append(self.dead_end(problem, state, [c for f in left for c in f.cells]))
        return found

    def dead_end(self, problem: RecordProblem, state: PairsState, to_cover: list[int]) -> Fault:
        """Why no solution holds the pairs placed (:meth:`why_stuck`), as a fault of the aids."""
        message, cells = self.why_stuck(problem, state[0], to_cover)
        return Fault(message, cells or tuple(c for pair in state[0] for c in pair), kind="aid")

    def why_stuck(
        self, problem: RecordProblem, pairs: tuple[Pair, ...], to_cover: list[int]
    ) -> tuple[str, tuple[int, ...] | None]:
        """Why no solution holds ``pairs`` and the squares to take back around: the squares left to
        cover that no free square is beside any more (a4 cut off in its corner); else the pairs
        that no solution holds even alone (:meth:`culprits`); else the pairs whose removal alone
        lets a solution hold the rest (:func:`~.setup.each_found`, the last placed first); else
        None, every pair, and what the searches could tell in time: that no one of them taken off
        is enough, or that each alone is held. The searches share ``CHECK_SECONDS``."""
        grid = problem.grid
        taken = {c for pair in pairs for c in pair}
        alone = [c for c in to_cover if all(n in taken for n in grid.neighbours(c, ORTHOGONAL))]
        if alone:
            names = listed([grid.name(c) for c in alone])
            them = "it" if len(alone) == 1 else "them"
            return f"{names} can no longer be covered: take a pair beside {them} off (undo)", tuple(alone)
        limits = Limits(CHECK_SECONDS)
        try:
            culprits = self.culprits(problem, pairs, limits)
            if culprits or culprits is None or len(pairs) < 2:
                spoilers = None
            else:  # each alone is held: is one of them all that spoils the rest? (the last placed first)
                spoilers = each_found(pairs[::-1], lambda pair: self.holds(problem, _without(pairs, pair), limits))
        finally:
            limits.close()

        if culprits:
            names = listed([_name(grid, pair) for pair in culprits])
            what, it = ("the pair", "it") if len(culprits) == 1 else ("the pairs", "them")
            return f"no solution holds {what} {names}, even alone: take {it} off", tuple(c for p in culprits for c in p)
        if spoilers is not None:  # [] when no one of them taken off is enough: every pair is marked then
            cells = tuple(c for p in spoilers for c in p)
            return take_one_off("pairs", [_name(grid, pair) for pair in spoilers]), cells or None
        if culprits is not None and len(pairs) > 1:  # each alone is held
            return "no solution holds these pairs together, though each alone fits one: take one off (undo)", None
        return "no solution holds these pairs: take one off (undo)", None

    def culprits(self, problem: RecordProblem, pairs: tuple[Pair, ...], limits: Limits) -> list[Pair] | None:
        """The pairs that no solution holds even alone, the others taken off (a domino on d1-e1
        of a 1x8 strip leaves three squares on each side), as the board play finds the pieces that
        no solution holds alone; [] when each alone is held; None when the searches, within
        ``limits``, run out of time, or more pairs are placed than are tried and none of those
        tried is one."""

        def held_alone_never(pair: Pair) -> bool | None:
            held = self.holds(problem, (pair,), limits)
            return None if held is None else not held

        return each_found(pairs, held_alone_never)

    def completes(self, problem: RecordProblem, pairs: tuple[Pair, ...]) -> bool:
        """Whether some answer holds ``pairs`` (True when the search runs out of time to say)."""
        return self.holds(problem, pairs) is not False

    def holds(self, problem: RecordProblem, pairs: tuple[Pair, ...], limits: Limits | None = None) -> bool | None:
        """Whether some answer holds ``pairs``, searched for within ``limits`` (default: its own
        ``CHECK_SECONDS``); None when the search runs out of time to say. The last ``KEPT``
        answers are kept, as a position is drawn again after each request. The record's kernels
        are compiled before the clock starts (a first search would spend its time compiling),
        and "cannot tell in time" is not kept: the next request asks again."""
        key = (json.dumps(problem.values, sort_keys=True), tuple(sorted(pairs)))
        with _KEPT_LOCK:
            if key in _KEPT:
                return _KEPT[key]
        self.setup.warm()
        own = limits is None
        search = Limits(CHECK_SECONDS) if limits is None else limits
        try:
            answer = next(self.through(problem, (pairs, -1), search), None) is not None
        except TimeLimitReached:
            return None
        finally:
            if own:
                search.close()
        with _KEPT_LOCK:
            _KEPT[key] = answer
            while len(_KEPT) > KEPT:
                del _KEPT[next(iter(_KEPT))]
        return answer

    def through(self, problem: RecordProblem, state: PairsState, limits: Limits) -> Iterator[CellPairs]:
        if self.holding is not None:  # the checker judges each answer
            return (a for a in self.holding(problem.problem, state[0], limits) if self.setup.solved(problem, a))
        placed = set(state[0])
        return self.setup.answers(problem, lambda answer: placed <= set(answer.pairs), limits)

    def missing(self, problem: RecordProblem, state: PairsState, limits: Limits) -> list[Pair] | None:
        answer = next(self.through(problem, state, limits), None)
        if answer is None:
            return None
        placed, picked = set(state[0]), state[1]
        rest = [p for p in answer.pairs if p not in placed]
        return sorted(rest, key=lambda p: picked not in p)

    def hint(self, problem: RecordProblem, state: PairsState, limits: Limits) -> Hint:
        if self.setup.solved(problem, _answer(problem, state)):
            return SOLVED_HINT
        try:
            rest = self.missing(problem, state, limits)
        except TimeLimitReached:
            return NO_HINT_IN_TIME
        if rest is None:
            return self.dead_end_hint(problem, state)
        a, b = rest[0]
        return Hint(f"a pair on {problem.grid.name(a)} and {problem.grid.name(b)}", (a, b))

    def dead_end_hint(self, problem: RecordProblem, state: PairsState) -> Hint:
        """What the dead-end fault says (:meth:`why_stuck`), with the squares it names marked
        (none when it speaks of every pair); where the rules are broken (a square covered twice),
        the mistake says it already, and the hint says only that no solution holds the pairs."""
        pairs = state[0]
        if not pairs or any(f.kind == "wrong" for f in self.setup.faults(problem, _answer(problem, state))):
            return Hint("no solution holds every pair placed: take one off (undo)", outcome="dead end")
        taken = {c for pair in pairs for c in pair}
        message, cells = self.why_stuck(problem, pairs, [c for c in problem.grid.cells() if c not in taken])
        return Hint(message, cells or (), outcome="dead end")

    def solution(self, problem: RecordProblem, state: PairsState, limits: Limits) -> list[Click]:
        rest = self.missing(problem, state, limits) or []  # out of time: the attempt says so
        clicks = [(state[1], TOOL.name)] if state[1] >= 0 and rest and state[1] not in rest[0] else []
        if rest and state[1] in rest[0]:  # the picked square's pair: one click finishes it
            a, b = rest.pop(0)
            clicks.append((b if a == state[1] else a, TOOL.name))
        return clicks + [(c, TOOL.name) for pair in rest for c in pair]

    def scene(self, problem: RecordProblem, state: PairsState) -> Any:
        scene = self.setup.scene(problem, _answer(problem, state))
        if state[1] >= 0:
            scene.marks[state[1]] = PICKED_COLOUR
            scene.mark_meanings[PICKED_COLOUR] = "picked for the next pair"
        return scene


def _describe(problem: RecordProblem, state: PairsState) -> list[str]:
    grid, words = problem.grid, ["empty"] * problem.grid.size
    for a, b in state[0]:
        words[a], words[b] = f"paired with {grid.name(b)}", f"paired with {grid.name(a)}"
    if state[1] >= 0:
        words[state[1]] = "picked for the next pair"
    return words


def _state_from_json(problem: RecordProblem, document: Json) -> PairsState:
    try:
        pairs = tuple((min(int(a), int(b)), max(int(a), int(b))) for a, b in document["pairs"])
        picked = document["picked"]
        picked = -1 if picked is None else int(picked)
    except (KeyError, TypeError, ValueError):
        raise BoardPuzzlesError('a pairs state is {"pairs": [[a, b], ...], "picked": cell or null}') from None
    size = problem.grid.size
    if not all(0 <= c < size for pair in pairs for c in pair) or not -1 <= picked < size:
        raise BoardPuzzlesError("a pairs state names cells off the board")
    return pairs, picked
