"""Goishi Hiroi played by hand: pick the stones up one click at a time.

Glossary
--------
problem     a :class:`~.rules.Puzzle` (the stones on their grid); as JSON its puzz.link URL
            (:func:`problem_to_url`, :func:`problem_from_url`: the page's export and import).
state       the stones picked so far, in pick-up order (an :data:`~.rules.Order`, a legal start
            of an order); the start state is empty. As JSON, their square names.
pick        the main tool: the first pick takes any stone; each later one must take the first
            stone met going straight from the last stone picked, in any direction but straight
            back. The rules' own checker (:func:`~.rules.first_problem`) judges each pick, and a
            refused one raises :class:`~boardpuzzles.play.IllegalMove` with its reason.
put back    the second tool: a click on a picked stone puts it back, and every later one.
new         a puzzle with exactly one order from the generator (:func:`~.generator.generate`),
            its number of stones set by the size and the difficulty (:data:`STONES`); of
            :data:`CANDIDATES` puzzles made from the seed, the rating (:func:`~.hints.rate`)
            picks the easiest for ``easy``, the middle one for ``medium``, the hardest for
            ``hard``.
fault       the stones left (unfinished); a walk stuck with stones left (wrong); and a position
            from which no order finishes, found by the counter (:class:`~.search.Counter`, cap
            1) within :data:`FAULT_SECONDS`: an aid (it gives the way away), the pick that first
            led nowhere highlighted.
hint        the next stone of an order that finishes (:func:`~.hints.hint`): "start at e2", its
            detail why the other legal picks fail (or which others lead on too); or "no order
            finishes from here: undo".
"""

from __future__ import annotations

import hashlib
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError, SizeError, check_seed, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, Click, Hint, IllegalMove, Play, Tool
from boardpuzzles.puzzles.goishi import files
from boardpuzzles.puzzles.goishi.generator import GenerationTimeout, generate
from boardpuzzles.puzzles.goishi.hints import LOOKAHEAD_CAP, Rating, hint_parts, rate
from boardpuzzles.puzzles.goishi.hints import hint as forced_hint
from boardpuzzles.puzzles.goishi.pictures import frame
from boardpuzzles.puzzles.goishi.rules import MAX_STONES, Order, Puzzle, check, first_problem, legal_moves
from boardpuzzles.puzzles.goishi.search import Counter, solutions
from boardpuzzles.scene import Scene

PICK = "pick"
#: The second tool: a click on a picked stone puts it back, with every stone picked after it.
PUT_BACK = "put-back"
TOOLS = (Tool(PICK, "Pick up", "p"), Tool(PUT_BACK, "Put back", "b"))
DIFFICULTIES = ("easy", "medium", "hard")
#: Stones on an n x n board for each difficulty: fewer stones leave fewer steps with a real
#: choice (the rating's ``choices``: 3 to 5 at the easy counts, 5 to 9 at the medium ones, 7 to
#: 14 at the hard ones). Each entry makes its puzzle in well under a second: at most about 0.6 s
#: of CPU over seeds 0 to 19, the three candidates and their ratings included.
STONES: dict[int, tuple[int, int, int]] = {
    5: (8, 12, 14),
    6: (10, 14, 17),
    7: (12, 16, 20),
    8: (14, 19, 24),
    9: (18, 22, 26),
    10: (20, 25, 30),
}
SIZES = tuple(STONES)
#: The size of a new game that names none.
DEFAULT_SIZE = 7
#: Puzzles made from one seed, of which the rating picks one (see the glossary).
CANDIDATES = 3
#: A safety net only: every entry of STONES generates far faster (a machine so loaded that it
#: is reached gets an error, not a different puzzle for the same seed).
GENERATE_SECONDS = 30.0
#: How long the counter may look for an order that finishes before a position is left unjudged.
FAULT_SECONDS = 1.0
#: The picks that lead on a hint names at most (then "and N more").
SHOWN = 6


# ---------------------------------------------------------------- new puzzles
def new(size: int, difficulty: str, seed: int) -> tuple[Puzzle, Order]:
    """A size x size puzzle with exactly one order, of the difficulty asked (see the glossary);
    the same three arguments make the same puzzle."""
    if size not in STONES:
        raise SizeError(f"the size is one of {', '.join(map(str, sorted(SIZES)))}, got {excerpt(size)}")
    if difficulty not in DIFFICULTIES:
        raise BoardPuzzlesError(f"the difficulty is one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")
    check_seed(seed)
    level = DIFFICULTIES.index(difficulty)
    stones = STONES[size][level]
    made: list[tuple[tuple[int, int, int], int, Puzzle]] = []
    for k in range(CANDIDATES):
        limits = Limits(GENERATE_SECONDS)
        try:
            puzzle = generate(size, size, stones, seed=candidate_seed(seed, k), limits=limits).puzzle
        except GenerationTimeout as err:
            raise BoardPuzzlesError(f"{err}") from None
        finally:
            limits.close()
        made.append((difficulty_score(rate(puzzle)), k, puzzle))
    made.sort()
    chosen = made[round(level * (len(made) - 1) / (len(DIFFICULTIES) - 1))][2]
    return chosen, ()


def candidate_seed(seed: int, k: int) -> int:
    """The generator's seed of the ``k``-th candidate made from ``seed`` (below 2**56)."""
    digest = hashlib.sha256(f"goishi-play {seed} {k}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def difficulty_score(rating: Rating) -> tuple[int, int, int]:
    """How hard a rated puzzle is, to compare candidates: the steps with a real choice, then the
    deepest look-ahead (beyond the cap counts as one more), then the look-aheads added up."""
    cap = LOOKAHEAD_CAP + 1
    depth = cap if rating.depth is None else rating.depth
    return rating.choices, depth, sum(cap if d is None else d for d in rating.steps)


# ---------------------------------------------------------------- clicks
def click(puzzle: Puzzle, state: Order, cell: int, tool: str) -> Order:
    """The stones picked after picking up ``cell``, or :class:`IllegalMove` with the rules' reason."""
    if tool not in (PICK, PUT_BACK):
        raise IllegalMove(f"no tool {excerpt(tool)}; the tools are {PICK} and {PUT_BACK}")
    if type(cell) is not int or not 0 <= cell < puzzle.rows * puzzle.cols:
        raise IllegalMove(f"cell {excerpt(cell)} is off the {puzzle.rows}×{puzzle.cols} board")
    if tool == PUT_BACK:
        if cell not in state:
            raise IllegalMove(f"{puzzle.name(cell)} is not picked up: nothing to put back")
        return state[: state.index(cell)]
    if len(state) == puzzle.size:
        raise IllegalMove("every stone is picked up already")
    after = (*state, cell)
    problem = first_problem(puzzle, after)
    if problem is not None and problem.step:
        raise IllegalMove(in_words(problem.reason))
    return after


def in_words(reason: str) -> str:
    """A reason of the rules' checker as a page says it: a step in words ("the step from e2 to a7
    is not along a row or a column"), where ``check`` writes "e2 -> a7 is not ...")."""
    start, arrow, rest = reason.partition(" -> ")
    if not arrow or " " in start:
        return reason
    end, _, tail = rest.partition(" ")
    return f"the step from {start} to {end} {tail}"


# ---------------------------------------------------------------- faults, verdict, hints
def solved(puzzle: Puzzle, state: Order) -> bool:
    """Every stone picked up, legally (the record's checker)."""
    return check(puzzle, state)


def faults(puzzle: Puzzle, state: Order) -> list[Fault]:
    """The stones left (unfinished); a walk that is stuck, no stone in line from its last one
    (wrong: anyone sees it); and, as an aid, ``no order finishes from here`` when the counter
    proves it within FAULT_SECONDS (nothing when it cannot tell in time), with the pick that
    first led nowhere highlighted: it gives the way away, so a page shows it only when asked."""
    left = puzzle.size - len(state)
    if not left:
        return []
    found = [unfinished(f"{left} of {puzzle.size} stones left to pick up")]
    if state and not legal_moves(puzzle, state):
        found.append(
            Fault(f"stuck: no stone is in line from {puzzle.name(state[-1])}, and {left} are left", state[-1:])
        )
        return found
    limits = Limits(FAULT_SECONDS)
    try:
        counter = Counter(puzzle, 1, limits)
        if counter(state):
            return found
        if not counter(()):
            return [*found, Fault("no order picks up every stone of this puzzle", kind="aid")]
        wrong = next(k for k in range(1, len(state) + 1) if not counter(state[:k]))
    except TimeLimitReached:
        return found
    finally:
        limits.close()
    culprit = state[wrong - 1]
    message = f"no order finishes from here: picking up {puzzle.name(culprit)} (pick {wrong}) leads nowhere"
    return [*found, Fault(message, (culprit,), kind="aid")]


def hint(puzzle: Puzzle, state: Order, limits: Limits) -> Hint:
    """The next stone of an order that finishes (see the glossary)."""
    if solved(puzzle, state):
        return Hint("solved: every stone is picked up", outcome="solved")
    try:
        found = forced_hint(puzzle, state, limits)
    except TimeLimitReached:
        return NO_HINT_IN_TIME
    if not found.right:
        if not state:
            return Hint("no order picks up every stone of this puzzle", outcome="dead end")
        return Hint("no order finishes from here: undo", (state[-1],), outcome="dead end")
    if found.forced:
        headline, why = hint_parts(puzzle, found)
        return Hint(headline, found.right[:1], why)
    verb = "start at" if not state else "pick up"
    others = " ".join(puzzle.name(c) for c in found.right[1:SHOWN])
    if len(found.right) > SHOWN:
        others += f" and {len(found.right) - SHOWN} more"
    return Hint(f"{verb} {puzzle.name(found.right[0])}", found.right[:1], f"other picks that lead on: {others}")


def solution(puzzle: Puzzle, state: Order, limits: Limits) -> list[Click]:
    """The picks that finish an order from ``state`` (none when no order finishes)."""
    order = next(solutions(puzzle, limits, prefix=state), None)
    return [] if order is None else [(cell, PICK) for cell in order[len(state) :]]


def scene(puzzle: Puzzle, state: Order) -> Scene:
    """The stones still on the board, the picked ones faded with their pick numbers, the walk so
    far; the legend names the stone just picked up once there is one."""
    title = f"{len(state)} of {puzzle.size} stones picked up"
    picture = frame(puzzle, state, len(state), title)
    if not state:
        picture.mark_meanings = {}
    return picture


def describe(puzzle: Puzzle, state: Order) -> list[str]:
    """Words for each point: "stone", "picked up 3" ("..., the last one"), "empty"."""
    words = ["empty"] * (puzzle.rows * puzzle.cols)
    for cell in puzzle.stones:
        words[cell] = "stone"
    for k, cell in enumerate(state, start=1):
        words[cell] = f"picked up {k}" + (", the last one" if k == len(state) else "")
    return words


# ---------------------------------------------------------------- URLs and JSON
def problem_to_url(puzzle: Puzzle) -> str:
    """The puzzle's puzz.link URL (https://puzz.link/p?goishi/COLS/ROWS/BODY)."""
    return files.write(puzzle, "url")


def problem_from_url(url: str) -> Puzzle:
    """The puzzle a puzz.link URL holds (``goishi/COLS/ROWS/BODY``, with or without the
    address; a pzprv3 URL too); a :class:`BoardPuzzlesError` saying what is wrong otherwise."""
    if not isinstance(url, str):
        raise BoardPuzzlesError(f"a puzzle URL is text, got {excerpt(url)}")
    puzzle = files.read(url.strip(), "url").puzzle
    if puzzle.size > MAX_STONES:
        raise SizeError(f"the board has {puzzle.size} stones; the solver handles at most {MAX_STONES}")
    return puzzle


def state_to_json(puzzle: Puzzle, state: Order) -> Any:
    return [puzzle.name(cell) for cell in state]


def state_from_json(puzzle: Puzzle, document: Any) -> Order:
    """The picks a JSON list of square names holds, checked: stones of the puzzle, legally picked."""
    if not isinstance(document, list) or not all(isinstance(name, str) for name in document):
        raise BoardPuzzlesError('the stones picked are a list of square names: ["c3", "c5", ...]')
    state = tuple(puzzle.grid.cell_named(name) for name in document)
    problem = first_problem(puzzle, state) if state else None
    if problem is not None and problem.step:
        raise BoardPuzzlesError(f"the stones picked are not a legal start of an order: {problem}")
    return state


PLAY: Play[Puzzle, Order] = Play(
    has_aids=True,
    tools=TOOLS,
    sizes=SIZES,
    default_size=DEFAULT_SIZE,
    difficulties=DIFFICULTIES,
    new=new,
    click=click,
    faults=faults,
    solved=solved,
    hint=hint,
    scene=scene,
    state_to_json=state_to_json,
    state_from_json=state_from_json,
    problem_to_json=problem_to_url,
    problem_from_json=problem_from_url,
    rules="Pick up every stone in one walk: start at any stone, then take the first stone met going "
    "straight along a row or column, turning only at stones and never straight back.",
    solution=solution,
    problem_to_url=problem_to_url,
    problem_from_url=problem_from_url,
    start=lambda puzzle: (),
    describe=describe,
)
