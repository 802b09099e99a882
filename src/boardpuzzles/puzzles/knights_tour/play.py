"""The knight's tour played by hand: the player clicks the squares in the order the knight
visits them.

Glossary
--------
problem     a :class:`TourProblem`: the board's side, open or closed tours, and in puzzle mode
            the given move numbers and the one tour through them (:func:`~.givens.make`).
mode        the difficulty names it: ``open`` and ``closed`` are free play on a blank board (any
            tour, closed ones ending a knight's move from their start); ``easy``, ``medium`` and
            ``hard`` are puzzles: some move numbers given, exactly one open tour through them.
state       the path so far: the squares visited, in order (step 1 first). A puzzle that gives
            step 1 starts with it on the path.
click       the one tool, ``step``: the first click is the start (unless the puzzle gives it),
            each later click a knight's move to an unvisited square; a click on the last square
            played takes it back. A square that is no knight's move from the last, a visited
            square, a square that shows another given number, or skipping a given number is
            refused with the reason.
legal next  the squares the next click may take, marked on the board.
fault       what makes the path unable to finish, found at once: a dead end (no legal next
            square while squares are left), squares no path can reach any more, a closed tour
            whose start has no unvisited square beside it, a given number out of the knight's
            reach, a start the theorems rule out, and a full path that does not close.
hint        Warnsdorff's rule (the legal next square with the fewest onward moves, ties towards
            the edge as :func:`~.finding.find` breaks them), checked by the exact search that
            counts tours (from the path, within the hint's limits): when no tour finishes from
            the path it says so; in puzzle mode, the next square of the one tour.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, check_seed, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Click, Hint, IllegalMove, Play, Tool
from boardpuzzles.puzzles.knights_tour.formats import to_scene
from boardpuzzles.puzzles.knights_tour.rules import (
    Problem,
    Tour,
    board,
    knight_moves,
    no_tour_reason,
    reach_masks,
    violations,
)
from boardpuzzles.scene import Scene

#: Free play (open or closed tours on a blank board), then the puzzles' levels.
FREE_MODES = ("open", "closed")
PUZZLE_LEVELS = ("easy", "medium", "hard")
DIFFICULTIES = FREE_MODES + PUZZLE_LEVELS
#: The board's side, the default first.
SIZES = (6, 5, 7, 8)
STEP = "step"
TOOLS = (Tool(STEP, "Step", "s"),)
#: The seconds a new puzzle may take to make.
MAKE_SECONDS = 60.0
#: The colours of the legal next squares and of the given numbers' squares.
LEGAL_COLOUR = "#a5d6a7"
GIVEN_COLOUR = "#ffe082"


@dataclass(frozen=True)
class TourProblem:
    """A board to tour: its ``side``, ``closed`` or open tours, and in puzzle mode the given
    numbers as ``(cell, move)`` pairs in move order and the one tour through them."""

    side: int
    closed: bool = False
    givens: tuple[tuple[int, int], ...] = ()
    solution: Tour = ()

    @property
    def rules(self) -> Problem:
        return Problem(self.side, self.side, closed=self.closed)

    @property
    def grid(self) -> Grid:
        return board(self.side)

    @property
    def squares(self) -> int:
        return self.side * self.side

    @functools.cached_property
    def move_on(self) -> dict[int, int]:
        """The given number on each given square."""
        return dict(self.givens)

    @functools.cached_property
    def square_of(self) -> dict[int, int]:
        """The square each given number is on."""
        return {move: cell for cell, move in self.givens}

    def name(self, cell: int) -> str:
        return self.grid.name(cell)

    def start(self) -> Tour:
        """The path a game starts with: the given first square, if any."""
        return (self.square_of[1],) if 1 in self.square_of else ()


@functools.cache
def _moves(side: int) -> tuple[frozenset[int], ...]:
    """Each square's knight moves (the rules' table)."""
    targets, counts = knight_moves(side, side)
    return tuple(frozenset(int(x) for x in targets[v, : counts[v]]) for v in range(side * side))


# ---------------------------------------------------------------- a new game and a click
def new(size: int, difficulty: str, seed: int) -> tuple[TourProblem, Tour]:
    """A blank board (``open``, ``closed``) or a puzzle of the level (see the glossary)."""
    check_seed(seed)
    if size not in SIZES:
        raise BoardPuzzlesError(f"a knight's tour is played on {', '.join(f'{n}x{n}' for n in sorted(SIZES))}")
    if difficulty in PUZZLE_LEVELS:
        from boardpuzzles.puzzles.knights_tour.givens import make

        limits = Limits(MAKE_SECONDS)
        try:
            made = make(size, difficulty, seed, limits)
        except TimeLimitReached:
            raise BoardPuzzlesError(
                f"no {size}x{size} puzzle was made in {MAKE_SECONDS:g} s: try another seed or a smaller board"
            ) from None
        finally:
            limits.close()
        problem = TourProblem(size, made.problem.closed, _pairs(made.givens), tuple(made.solution))
        return problem, problem.start()
    if difficulty not in FREE_MODES:
        raise BoardPuzzlesError(f"difficulty is one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")
    closed = difficulty == "closed"
    reason = no_tour_reason(size, size, closed)
    if reason:
        raise BoardPuzzlesError(f"no {difficulty} tour: {reason}")
    return TourProblem(size, closed), ()


def _pairs(givens: Any) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(((int(c), int(m)) for c, m in givens.items()), key=lambda pair: pair[1]))


def click(problem: TourProblem, path: Tour, cell: int, tool: str) -> Tour:
    """The path after a click on ``cell`` (see the glossary), or :class:`IllegalMove`."""
    if tool != STEP:
        raise IllegalMove(f"no tool {excerpt(tool)}; the knight's tour has one: {STEP}")
    if type(cell) is not int or not 0 <= cell < problem.squares:
        raise IllegalMove(f"cell {excerpt(cell)} is off the {problem.side}x{problem.side} board")
    if path and cell == path[-1]:
        if len(path) == 1 and problem.move_on.get(cell) == 1:
            raise IllegalMove(f"{problem.name(cell)} is the given start (step 1)")
        return path[:-1]
    return _extend(problem, path, cell)


def _extend(problem: TourProblem, path: Tour, cell: int) -> Tour:
    """The path with ``cell`` as its next step, or :class:`IllegalMove` with the reason."""
    name, step = problem.name, len(path) + 1
    if cell in path:
        raise IllegalMove(f"{name(cell)} is already visited (step {path.index(cell) + 1})")
    if path and cell not in _moves(problem.side)[path[-1]]:
        raise IllegalMove(f"{name(cell)} is not a knight's move from {name(path[-1])}")
    given = problem.move_on.get(cell)
    if given is not None and given != step:
        raise IllegalMove(f"{name(cell)} shows {given}: it is step {given}, not step {step}")
    owner = problem.square_of.get(step)
    if owner is not None and owner != cell:
        raise IllegalMove(f"step {step} is given on {name(owner)}: it cannot be skipped")
    return path + (cell,)


def legal_next(problem: TourProblem, path: Tour) -> list[int]:
    """The squares the next click may take (none before the start is chosen)."""
    if not path or len(path) == problem.squares:
        return []
    step, visited = len(path) + 1, set(path)
    owner = problem.square_of.get(step)
    return [
        x
        for x in sorted(_moves(problem.side)[path[-1]])
        if x not in visited and (owner == x if owner is not None else x not in problem.move_on)
    ]


# ---------------------------------------------------------------- what is wrong, solved
def faults(problem: TourProblem, path: Tour) -> list[Fault]:
    """What keeps the path from finishing a tour (see the glossary), each with its squares."""
    if not path:
        return []
    name, squares = problem.name, problem.squares
    if len(path) == squares:
        return violations(problem.rules, path)
    found = [unfinished(f"{_squares(squares - len(path))} left to visit")]
    reason = no_tour_reason(problem.side, problem.side, problem.closed, path[0])
    if reason:
        found.append(Fault(f"no tour starts on {name(path[0])}: {reason}", (path[0],), kind="aid"))
    head, left = path[-1], squares - len(path)
    if not legal_next(problem, path):
        found.append(Fault(f"dead end: no legal next square from {name(head)}, and {_squares(left)} left", (head,)))
    cut_off = _cut_off(problem, path)
    if cut_off:
        names = ", ".join(name(c) for c in cut_off)
        message = f"{names} can no longer be reached: every square a knight's move away is visited"
        found.append(Fault(message, cut_off, kind="aid"))
    moves, visited = _moves(problem.side), set(path)
    if problem.closed and len(path) > 1 and not moves[path[0]] - visited:
        found.append(
            Fault(
                f"the tour can no longer close: every square a knight's move from the start, "
                f"{name(path[0])}, is visited",
                (path[0],),
                kind="aid",
            )
        )
    late = _given_out_of_reach(problem, path)
    if late is not None:
        found.append(late)
    return found


def _squares(n: int) -> str:
    return f"{n} square{'s' if n != 1 else ''}"


def _cut_off(problem: TourProblem, path: Tour) -> tuple[int, ...]:
    """The unvisited squares that no knight's move from an unvisited square or the last one reaches."""
    moves, visited = _moves(problem.side), set(path)
    open_ = [c for c in range(problem.squares) if c not in visited]
    if len(open_) == 1:
        return () if open_[0] in moves[path[-1]] else tuple(open_)
    return tuple(c for c in open_ if path[-1] not in moves[c] and not moves[c] - visited)


def _given_out_of_reach(problem: TourProblem, path: Tour) -> Fault | None:
    """The next given number when the knight cannot be on its square at its step: too far through
    the unvisited squares, or the wrong colour (a knight changes colour every move)."""
    step = len(path)
    ahead = [(move, cell) for cell, move in problem.givens if move > step]
    if not ahead:
        return None
    move, target = min(ahead)
    left = move - step
    distance = _distance(problem, path, target)
    name = problem.name
    if distance is None or distance > left:
        how = "cannot reach it" if distance is None else f"needs {distance} moves"
        return Fault(
            f"step {move} is given on {name(target)}: from {name(path[-1])} the knight {how} through "
            f"the unvisited squares, and {left} {'is' if left == 1 else 'are'} left",
            (path[-1], target),
            kind="aid",
        )
    if (left - distance) % 2:
        parity = "odd" if (step + distance) % 2 else "even"
        return Fault(
            f"step {move} is given on {name(target)}, but a knight changes colour every move: from "
            f"{name(path[-1])} at step {step} it stands on that colour only at {parity} steps",
            (path[-1], target),
            kind="aid",
        )
    return None


def _distance(problem: TourProblem, path: Tour, target: int) -> int | None:
    """Knight's moves from the last square to ``target`` through unvisited squares, or None."""
    moves, seen = _moves(problem.side), set(path)
    level, far = [path[-1]], 0
    while level:
        if target in level:
            return far
        far += 1
        reached = []
        for v in level:
            for x in moves[v]:
                if x not in seen:
                    seen.add(x)
                    reached.append(x)
        level = reached
    return None


def solved(problem: TourProblem, path: Tour) -> bool:
    """A tour of every square (closed when asked), by the rules' checker, through the givens."""
    return (
        len(path) == problem.squares
        and not violations(problem.rules, path)
        and all(path[move - 1] == cell for cell, move in problem.givens)
    )


# ---------------------------------------------------------------- hint and solution
def warnsdorff(problem: TourProblem, path: Tour) -> tuple[int, int] | None:
    """Warnsdorff's choice among the legal next squares and its number of onward moves: the
    fewest, ties towards the edge (farthest from the centre) and then the first square."""
    legal = legal_next(problem, path)
    if not legal:
        return None
    moves, visited, centre = _moves(problem.side), set(path), (problem.side - 1) / 2

    def onward(x: int) -> int:
        return len(moves[x] - visited)

    def key(x: int) -> tuple[int, float, int]:
        r, c = divmod(x, problem.side)
        return onward(x), -((r - centre) ** 2 + (c - centre) ** 2), x

    best = min(legal, key=key)
    return best, onward(best)


def hint(problem: TourProblem, path: Tour, limits: Limits) -> Hint:
    """The next square (see the glossary), or why no tour finishes from here."""
    if solved(problem, path):
        return Hint("solved: nothing left to do")
    wrong = [fault for fault in faults(problem, path) if fault.kind != "unfinished"]
    if wrong:
        return Hint(f"no tour finishes from here: {wrong[0].message}; take back (undo)", wrong[0].cells)
    if problem.solution:
        return _puzzle_hint(problem, path)
    if not path:
        corner = (problem.side - 1) * problem.side
        return Hint(
            f"start anywhere: Warnsdorff's rule starts where the fewest moves lead, "
            f"a corner such as {problem.name(corner)}",
            (corner,),
        )
    choice = warnsdorff(problem, path)
    assert choice is not None  # a legal next square exists, or faults said dead end
    best, onward = choice
    rule = f"Warnsdorff's rule: {problem.name(best)} ({onward} onward move{'s' if onward != 1 else ''}, the fewest)"
    try:
        if _completion(problem, path + (best,), limits) is not None:
            return Hint(f"{rule}; a tour finishes from there", (best,))
        other = _completion(problem, path, limits)
    except TimeLimitReached:
        return Hint(f"{rule}; the search could not tell in time whether a tour finishes from here", (best,))
    if other is None:
        return Hint("no tour finishes from here (the search tried every way on): take back (undo)", (path[-1],))
    nxt = other[len(path)]
    return Hint(
        f"{problem.name(nxt)}: a tour finishes from there (Warnsdorff's choice, {problem.name(best)}, leads to none)",
        (nxt,),
    )


def _puzzle_hint(problem: TourProblem, path: Tour) -> Hint:
    """The next square of the one tour through the givens, or where the path left it."""
    tour, name = problem.solution, problem.name
    same = _common(path, tour)
    if same < len(path):
        return Hint(
            f"no tour through the given numbers finishes from here: take back to step {same} "
            f"(the one tour goes to {name(tour[same])} at step {same + 1})",
            (path[same],),
        )
    nxt = tour[len(path)]
    choice = warnsdorff(problem, path)
    why = " (Warnsdorff's rule: the fewest onward moves)" if choice is not None and choice[0] == nxt else ""
    return Hint(f"step {len(path) + 1}: {name(nxt)}{why}", (nxt,))


def _common(path: Tour, tour: Tour) -> int:
    same = 0
    while same < len(path) and path[same] == tour[same]:
        same += 1
    return same


def _completion(problem: TourProblem, path: Tour, limits: Limits) -> Tour | None:
    """A tour that starts with ``path`` (closed when asked), or None when there is none:
    Warnsdorff's walk, then the exact search that lists and counts tours (``path_search``),
    stopped by the limits."""
    from boardpuzzles._kernels import STOPPED
    from boardpuzzles._kernels.knights_tour import path_search

    squares = problem.squares
    if len(path) == squares:
        return path if not violations(problem.rules, path) else None
    walked = _walk(problem, path)
    if walked is not None:
        return walked
    moves = _moves(problem.side)
    ends = [x for x in sorted(moves[path[0]]) if x not in path] if problem.closed else [-1]
    reach = reach_masks(problem.side, problem.side)
    prefix = np.array(path, np.int32)
    out = np.empty((1, squares), np.int32)
    for end in ends:
        found = int(path_search(reach, prefix, end, out, 1, limits.flag))
        if found == STOPPED:
            limits.raise_stop()
        if found:
            return tuple(int(x) for x in out[0])
    return None


def _walk(problem: TourProblem, path: Tour) -> Tour | None:
    """The tour that Warnsdorff's rule walks from ``path``, if it walks one (it finds most tours
    at once; the exact search is for the rest)."""
    while len(path) < problem.squares:
        choice = warnsdorff(problem, path)
        if choice is None:
            return None
        path += (choice[0],)
    return path if not violations(problem.rules, path) else None


def solution(problem: TourProblem, path: Tour, limits: Limits) -> list[Click]:
    """Clicks from ``path`` to a tour: the path taken back as far as needed, then the rest of a
    tour through it (the puzzle's one tour; in free play a completion of the path, or a tour
    that :func:`~.finding.find` gives from its start or from nowhere)."""
    if problem.solution:
        tour = problem.solution
        keep = _common(path, tour)
    else:
        keep, tour = _free_tour(problem, path, limits)
    back = [(cell, STEP) for cell in reversed(path[keep:])]
    return back + [(cell, STEP) for cell in tour[keep:]]


def _free_tour(problem: TourProblem, path: Tour, limits: Limits) -> tuple[int, Tour]:
    """How much of ``path`` a tour keeps, and that tour."""
    from boardpuzzles.puzzles.knights_tour.finding import find

    if path and all(fault.kind == "unfinished" for fault in faults(problem, path)):
        try:
            tour = _completion(problem, path, limits)
        except TimeLimitReached:
            tour = None
        if tour is not None:
            return len(path), tour
    for start in dict.fromkeys((path[:1], ())):
        found = find(problem.side, closed=problem.closed, start=start[0] if start else None, limits=limits)
        if found.tour is not None:
            return len(start), tuple(found.tour)
    raise BoardPuzzlesError(f"no tour of the {problem.side}x{problem.side} board found in time")


# ---------------------------------------------------------------- picture and JSON
def scene(problem: TourProblem, path: Tour) -> Scene:
    """The tour's picture (:func:`~.formats.to_scene`: step numbers, the path, its start and
    end), the given numbers on their squares (marked), and the legal next squares marked."""
    complete = len(path) == problem.squares
    picture: Scene = to_scene(Problem(problem.side, problem.side, closed=problem.closed and complete), path)
    name = problem.name
    for cell, move in problem.givens:
        picture.labels.setdefault(cell, str(move))
        picture.marks[cell] = GIVEN_COLOUR
        picture.tooltips[cell] = f"{name(cell)}: move {move} (given)"
    legal = legal_next(problem, path)
    for cell in legal:
        picture.marks[cell] = LEGAL_COLOUR
    if problem.givens:
        picture.mark_meanings[GIVEN_COLOUR] = "a given number"
    if legal:
        picture.mark_meanings[LEGAL_COLOUR] = "a legal next square"
    return picture


def problem_to_json(problem: TourProblem) -> Any:
    name = problem.name
    return {
        "size": problem.side,
        "closed": problem.closed,
        "givens": {name(cell): move for cell, move in problem.givens},
        "solution": [name(cell) for cell in problem.solution],
    }


def problem_from_json(document: Any) -> TourProblem:
    """A problem that :func:`problem_to_json` wrote, checked: its size, its givens (square names,
    move numbers each once) and the tour through them (a tour by the rules' checker)."""
    if not isinstance(document, dict) or set(document) != {"size", "closed", "givens", "solution"}:
        raise BoardPuzzlesError("a knight's tour problem is an object with size, closed, givens and solution")
    side, closed, givens, tour = (document[k] for k in ("size", "closed", "givens", "solution"))
    if type(side) is not int or side not in SIZES or not isinstance(closed, bool):
        raise BoardPuzzlesError(f"a knight's tour problem has a size of {', '.join(map(str, sorted(SIZES)))}")
    reason = no_tour_reason(side, side, closed)
    if reason:
        raise BoardPuzzlesError(reason)
    if not isinstance(givens, dict) or not isinstance(tour, list):
        raise BoardPuzzlesError("givens are an object of square names and move numbers; the solution a list")
    grid, squares = board(side), side * side
    pairs = []
    for cell_name, move in givens.items():
        if type(move) is not int or not 1 <= move <= squares:
            raise BoardPuzzlesError(f"a given move number is 1 to {squares}, got {excerpt(move)}")
        pairs.append((grid.cell_named(str(cell_name)), move))
    if len({m for _, m in pairs}) < len(pairs) or len({c for c, _ in pairs}) < len(pairs):
        raise BoardPuzzlesError("a given square or move number appears twice")
    solution_ = tuple(grid.cell_named(str(n)) for n in tour)
    problem = TourProblem(side, closed, tuple(sorted(pairs, key=lambda p: p[1])), solution_)
    if pairs and not solved(problem, solution_):
        raise BoardPuzzlesError("the problem's solution is not a tour through its given numbers")
    if not pairs and solution_:
        raise BoardPuzzlesError("a blank board has no stored solution")
    return problem


def state_to_json(problem: TourProblem, path: Tour) -> Any:
    return [problem.name(cell) for cell in path]


def state_from_json(problem: TourProblem, document: Any) -> Tour:
    """A path that :func:`state_to_json` wrote, each step checked as a click would be."""
    if not isinstance(document, list) or len(document) > problem.squares:
        raise BoardPuzzlesError(f"a path is a list of at most {problem.squares} square names")
    grid = board(problem.side)
    path: Tour = ()
    for cell_name in document:
        cell = grid.cell_named(str(cell_name))
        try:
            path = _extend(problem, path, cell)
        except IllegalMove as err:
            raise BoardPuzzlesError(f"not a path of this board: {err}") from None
    start = problem.start()
    if start and path[:1] != start:
        raise BoardPuzzlesError(f"the path must start on the given start, {problem.name(start[0])}")
    return path


PLAY: Play[TourProblem, Tour] = Play(
    tools=TOOLS,
    sizes=SIZES,
    difficulties=DIFFICULTIES,
    new=new,
    click=click,
    faults=faults,
    solved=solved,
    hint=hint,
    scene=scene,
    state_to_json=state_to_json,
    state_from_json=state_from_json,
    problem_to_json=problem_to_json,
    problem_from_json=problem_from_json,
    rules="Click the squares in the order a knight visits them, each exactly once.",
    solution=solution,
)
