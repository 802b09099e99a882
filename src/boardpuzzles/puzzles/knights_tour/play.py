"""The knight's tour played by hand: the player writes the move numbers on the squares, in any
order (the position and the clicks are :mod:`.play_position`).

Glossary
--------
fault       every kind (see :mod:`boardpuzzles.play`). Wrong, as anyone sees: a dead end (a number
            whose neighbour number is missing and no empty square is a knight's move away),
            neighbouring numbers not a knight's move apart, and on a full board what the rules'
            checker finds (a closed tour that does not close). Unfinished: the squares left to
            number. Aids, found by reasoning ahead: squares no number can reach any more, two
            numbers too far apart (or on the wrong colour) for the moves between them, a closed
            tour whose start is boxed in, a start the theorems rule out.
hint        on a blank board with a path from 1, Warnsdorff's rule (the legal next square with
            the fewest onward moves, ties towards the edge as :func:`~.finding.find` breaks them),
            checked by the exact search that counts tours; in a puzzle, a number of the one tour
            next to one on the board (one a click on its square writes, whatever is selected,
            where there is one), or which written number to erase; else the first number the
            solution writes, or erases. A number's cells are the square it counts from, then
            its own; where a click there would not write it, the message says what to select.
solution    the clicks from the position to a tour: the numbers a tour does not hold erased, those
            before the lowest number written backwards from it (with ``before``), then the
            missing ones written, each after selecting the square before it.
"""

from __future__ import annotations

from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, SOLVED_HINT, Click, Hint, IllegalMove, Play
from boardpuzzles.puzzles.knights_tour.formats import to_scene
from boardpuzzles.puzzles.knights_tour.play_position import (
    BEFORE,
    DEFAULT_SIZE,
    DIFFICULTIES,
    ERASE,
    FREE_MODES,
    SIZES,
    STEP,
    TOOLS,
    Numbers,
    TourProblem,
    as_path,
    chain,
    click,
    legal_next,
    moves_of,
    new,
    numbers_of,
    squares_of,
    state_from_json,
    state_to_json,
)
from boardpuzzles.puzzles.knights_tour.rules import Problem, Tour, board, no_tour_reason, reach_masks, violations
from boardpuzzles.scene import Scene

__all__ = ["BEFORE", "ERASE", "PLAY", "STEP", "Numbers", "TourProblem", "faults", "hint", "solution", "solved"]

#: The colours of the legal next squares, the given numbers' squares and the selected square.
LEGAL_COLOUR = "#a5d6a7"
GIVEN_COLOUR = "#ffe082"
SELECTED_COLOUR = "#90caf9"
#: The segments between neighbouring numbers away from the path from 1.
CHAIN_COLOUR = "#8d6e63"


# ---------------------------------------------------------------- what is wrong, solved
def faults(problem: TourProblem, state: Numbers) -> list[Fault]:
    """Every fault of the numbers (see the glossary), each with its squares."""
    at, by_move, squares = numbers_of(problem, state), squares_of(problem, state), problem.squares
    if len(at) == squares:
        return violations(problem.rules, tuple(by_move[k] for k in range(1, squares + 1)))
    found = [unfinished(f"{_squares(squares - len(at))} left to number")]
    found += _apart(problem, by_move) + _dead_ends(problem, at, by_move)
    if 1 in by_move:
        reason = no_tour_reason(problem.side, problem.side, problem.closed, by_move[1])
        if reason:
            found.append(Fault(f"no tour starts on {problem.name(by_move[1])}: {reason}", (by_move[1],), kind="aid"))
    known = sorted(by_move)
    for a, b in zip(known, known[1:], strict=False):
        if b - a > 1:
            found += _gap(problem, at, (a, by_move[a]), (b, by_move[b]))
    cut_off = _cut_off(problem, at, by_move)
    if cut_off:
        names = ", ".join(problem.name(c) for c in cut_off)
        found.append(Fault(f"{names} can no longer get a number: no knight's move leads there", cut_off, kind="aid"))
    first = by_move.get(1)
    if problem.closed and first is not None and squares not in by_move and not moves_of(problem.side)[first] - set(at):
        message = (
            f"the tour can no longer close: every square a knight's move from the start, "
            f"{problem.name(first)}, is numbered"
        )
        found.append(Fault(message, (first,), kind="aid"))
    return found


def _squares(n: int) -> str:
    return f"{n} square{'s' if n != 1 else ''}"


def _apart(problem: TourProblem, by_move: dict[int, int]) -> list[Fault]:
    """Neighbouring numbers not a knight's move apart (a stored game might hold them)."""
    moves, name, found = moves_of(problem.side), problem.name, []
    for k, cell in sorted(by_move.items()):
        after = by_move.get(k + 1)
        if after is not None and after not in moves[cell]:
            message = f"{name(cell)} ({k}) and {name(after)} ({k + 1}) are not a knight's move apart"
            found.append(Fault(message, (cell, after), ((cell, after),)))
    return found


def _dead_ends(problem: TourProblem, at: dict[int, int], by_move: dict[int, int]) -> list[Fault]:
    """Numbers whose next (or previous) number is missing with no empty square a knight's move away."""
    moves, name, found = moves_of(problem.side), problem.name, []
    for k, cell in sorted(by_move.items()):
        if moves[cell] - set(at):
            continue
        wanted = [m for m in (k + 1, k - 1) if 1 <= m <= problem.squares and m not in by_move]
        if wanted:
            missing = wanted[0]
            left = _squares(problem.squares - len(at))
            message = f"dead end: no empty square a knight's move from {name(cell)} for {missing}, and {left} left"
            found.append(Fault(message, (cell,)))
    return found


def _gap(problem: TourProblem, at: dict[int, int], low: tuple[int, int], high: tuple[int, int]) -> list[Fault]:
    """Two numbers on the board with the moves between them missing: an aid when the knight
    cannot go from one to the other through the empty squares in that many moves, or would
    stand on the wrong colour (it changes colour every move)."""
    (a, source), (b, target) = low, high
    moves, name = moves_of(problem.side), problem.name
    seen, level, far = set(at) - {target}, [source], 0
    while level and target not in level:
        far += 1
        reached = []
        for v in level:
            for x in moves[v] - seen:
                seen.add(x)
                reached.append(x)
        level = reached
    left, what = b - a, f"{b} is on {name(target)}: from {name(source)} ({a})"
    if not level or far > left:
        how = "cannot reach it" if not level else f"needs {far} moves"
        message = f"{what} the knight {how} through the empty squares, and has {left}"
        return [Fault(message, (source, target), kind="aid")]
    if (left - far) % 2:
        message = f"{what}, but a knight changes colour every move: it cannot stand there {left} moves later"
        return [Fault(message, (source, target), kind="aid")]
    return []


def _cut_off(problem: TourProblem, at: dict[int, int], by_move: dict[int, int]) -> tuple[int, ...]:
    """The empty squares that no number can reach: none of their knight's moves is empty or
    holds a number whose neighbour number is still to be written."""
    moves, squares = moves_of(problem.side), problem.squares

    def open_end(cell: int) -> bool:
        k = at[cell]
        return (k < squares and k + 1 not in by_move) or (k > 1 and k - 1 not in by_move)

    empty = [c for c in range(squares) if c not in at]
    return tuple(c for c in empty if not any(x not in at or open_end(x) for x in moves[c]))


def solved(problem: TourProblem, state: Numbers) -> bool:
    """Every square numbered, a tour by the rules' checker (the givens are on it)."""
    by_move = squares_of(problem, state)
    if len(by_move) != problem.squares:
        return False
    return not violations(problem.rules, tuple(by_move[k] for k in range(1, problem.squares + 1)))


# ---------------------------------------------------------------- hint and solution
def warnsdorff(problem: TourProblem, path: Tour) -> tuple[int, int] | None:
    """Warnsdorff's choice among the unvisited knight's moves from the end of ``path`` and its
    number of onward moves: the fewest, ties towards the edge (farthest from the centre), then
    the first square."""
    moves, visited, centre = moves_of(problem.side), set(path), (problem.side - 1) / 2
    legal = sorted(moves[path[-1]] - visited) if path and len(path) < problem.squares else []
    if not legal:
        return None

    def onward(x: int) -> int:
        return len(moves[x] - visited)

    def key(x: int) -> tuple[int, float, int]:
        r, c = divmod(x, problem.side)
        return onward(x), -((r - centre) ** 2 + (c - centre) ** 2), x

    best = min(legal, key=key)
    return best, onward(best)


def hint(problem: TourProblem, state: Numbers, limits: Limits) -> Hint:
    """The next number to write (see the glossary), or why no tour finishes from here."""
    if solved(problem, state):
        return SOLVED_HINT
    wrong = [fault for fault in faults(problem, state) if fault.kind != "unfinished"]
    if wrong:
        return Hint(
            f"no tour finishes from here: {wrong[0].message}; take back (undo) or erase",
            wrong[0].cells,
            outcome="dead end",
        )
    if problem.solution:
        return _puzzle_hint(problem, state)
    path = chain(problem, state)
    if state == as_path(problem, path):
        return _path_hint(problem, path, limits)
    try:
        clicks = solution(problem, state, limits)
    except (TimeLimitReached, BoardPuzzlesError):
        return NO_HINT_IN_TIME
    at, after = numbers_of(problem, state), state
    for cell, tool in clicks:
        if tool == ERASE:
            return Hint(f"erase {problem.name(cell)}", (cell,))
        after = click(problem, after, cell, tool)
        if cell not in at:  # the first number written (the clicks before it select)
            return _number_hint(problem, state, numbers_of(problem, after)[cell], cell)
    return NO_HINT_IN_TIME  # not reached: a position not solved has a number to write


def _path_hint(problem: TourProblem, path: Tour, limits: Limits) -> Hint:
    """Warnsdorff's rule from the end of a path written in order, checked by the exact search;
    the cells are the path's end and the square it names, last."""
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
    end = path[-1]  # selected: a click on the square named writes the next number there
    try:
        if _completion(problem, path + (best,), limits) is not None:
            return Hint(f"{rule}; a tour finishes from there", (end, best))
        other = _completion(problem, path, limits)
    except TimeLimitReached:
        return Hint(f"{rule}; the search could not tell in time whether a tour finishes from here", (end, best))
    if other is None:
        return Hint(
            "no tour finishes from here (the search tried every way on): take back (undo)",
            (end,),
            outcome="dead end",
        )
    nxt = other[len(path)]
    return Hint(
        f"{problem.name(nxt)}: a tour finishes from there (Warnsdorff's choice, {problem.name(best)}, leads to none)",
        (end, nxt),
    )


def _puzzle_hint(problem: TourProblem, state: Numbers) -> Hint:
    """A number of the one tour next to one on the board (see :func:`_number_hint`), or a
    written number it does not hold."""
    tour, name = problem.solution, problem.name
    stray = next(((cell, k) for cell, k in state.placed if tour[k - 1] != cell), None)
    if stray is not None:
        cell, k = stray
        return Hint(f"no tour through the given numbers has {k} on {name(cell)}: erase it", (cell,), outcome="dead end")
    by_move = squares_of(problem, state)
    missing = [k for k in range(1, problem.squares + 1) if k not in by_move]
    beside = [k for k in missing if k - 1 in by_move or k + 1 in by_move] or missing[:1]
    # The number a click on its square writes (the selection's next, or the only one the square
    # can take), else one that follows a number on the board.
    one_click = [k for k in beside if _writes(problem, state, tour[k - 1]) == k]
    k = next(iter(one_click), next((k for k in beside if k - 1 in by_move), beside[0]))
    return _number_hint(problem, state, k, tour[k - 1])


def _number_hint(problem: TourProblem, state: Numbers, k: int, target: int) -> Hint:
    """Write ``k`` on ``target``: the cells are the square of the number it counts from (k - 1,
    else k + 1, where one is on the board) and the target, last."""
    name, by_move = problem.name, squares_of(problem, state)
    source = by_move.get(k - 1, by_move.get(k + 1))
    if source is None:
        return Hint(f"{k} goes on {name(target)}", (target,))
    message = (
        f"{k} goes on {name(target)}, a knight's move from {name(source)} ({k - 1 if k - 1 in by_move else k + 1})"
    )
    return Hint(message + _first(problem, state, k, source, target), (source, target))


def _first(problem: TourProblem, state: Numbers, k: int, source: int, target: int) -> str:
    """What to do first where a click on ``target`` would not write ``k`` (another number is
    selected, and the square could take more than one): select ``source``, the square of the
    number it counts from, and name the tool that writes the number before; else nothing."""
    if _writes(problem, state, target) == k:
        return ""
    name = problem.name
    if numbers_of(problem, state)[source] == k - 1:
        return f"; select {name(source)} first"
    select = "" if state.selected == source else f"select {name(source)}"
    label = next(tool.label for tool in TOOLS if tool.name == BEFORE)
    return f"; {select + ', then ' if select else ''}click {name(target)} with {label}"


def _writes(problem: TourProblem, state: Numbers, cell: int) -> int | None:
    """The number a click of the main tool writes on ``cell`` (None: it writes none there)."""
    try:
        return numbers_of(problem, click(problem, state, cell, STEP)).get(cell)
    except IllegalMove:
        return None


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
    moves = moves_of(problem.side)
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


def solution(problem: TourProblem, state: Numbers, limits: Limits) -> list[Click]:
    """Clicks from the numbers to a tour (see the glossary): the puzzle's one tour; in free play
    a completion of the path from 1, or a tour that :func:`~.finding.find` gives from its start
    or from nowhere."""
    tour = problem.solution or _free_tour(problem, chain(problem, state), limits)
    clicks: list[Click] = []

    def do(cell: int, tool: str) -> None:
        nonlocal state
        clicks.append((cell, tool))
        state = click(problem, state, cell, tool)

    for cell, k in state.placed:
        if tour[k - 1] != cell:
            do(cell, ERASE)
    by_move = squares_of(problem, state)
    if by_move and 1 not in by_move:  # a click selects, never lets go: the numbers before the lowest, backwards
        lowest = min(by_move)
        if state.selected != tour[lowest - 1]:
            do(tour[lowest - 1], STEP)
        for k in range(lowest - 1, 0, -1):
            do(tour[k - 1], BEFORE)
    for k, cell in enumerate(tour, start=1):
        if numbers_of(problem, state).get(cell) == k:
            continue
        if k > 1 and state.selected != tour[k - 2]:
            do(tour[k - 2], STEP)  # select the number before
        do(cell, STEP)  # (a 1 only on an empty board, where nothing is selected)
    return clicks


def _free_tour(problem: TourProblem, path: Tour, limits: Limits) -> Tour:
    """A tour that keeps as much of ``path`` as it can."""
    from boardpuzzles.puzzles.knights_tour.finding import find

    if path:
        try:
            tour = _completion(problem, path, limits)
        except TimeLimitReached:
            tour = None
        if tour is not None:
            return tour
    for start in dict.fromkeys((path[:1], ())):
        found = find(problem.side, closed=problem.closed, start=start[0] if start else None, limits=limits)
        if found.tour is not None:
            return tuple(found.tour)
    raise BoardPuzzlesError(f"no tour of the {problem.side}×{problem.side} board found in time")


# ---------------------------------------------------------------- picture, words and JSON
def scene(problem: TourProblem, state: Numbers) -> Scene:
    """The path from 1 (:func:`~.formats.to_scene`: step numbers and the path, in one colour),
    every other number on its square with segments between neighbouring ones, the given numbers
    marked, the selected square (until the board is full) and the legal next squares marked."""
    at, by_move, path = numbers_of(problem, state), squares_of(problem, state), chain(problem, state)
    complete = len(at) == problem.squares
    picture: Scene = to_scene(Problem(problem.side, problem.side, closed=problem.closed and complete), path)
    # The numbers say where the path starts and ends, so no ring and square say it again over the
    # selection's tint; and the answer's colours run up to red, which on a play page means a mistake.
    picture.path_colours, picture.start, picture.end = "plain", None, None
    picture.labels.update({cell: str(k) for cell, k in at.items()})
    picture.lines = [(by_move[k], by_move[k + 1], CHAIN_COLOUR) for k in by_move if k > len(path) and k + 1 in by_move]
    for cell, move in problem.givens:
        picture.marks[cell] = GIVEN_COLOUR
        picture.tooltips[cell] = f"{problem.name(cell)}: move {move} (given)"
    legal = legal_next(problem, state)
    picture.marks.update(dict.fromkeys(legal, LEGAL_COLOUR))
    selected = state.selected >= 0 and not complete  # a full board has no next number
    if selected:
        picture.marks[state.selected] = SELECTED_COLOUR
    meanings = {GIVEN_COLOUR: "a given number"} if problem.givens else {}
    meanings |= {SELECTED_COLOUR: "the next number follows this one"} if selected else {}
    picture.mark_meanings = meanings | ({LEGAL_COLOUR: "a legal next square"} if legal else {})
    return picture


def describe(problem: TourProblem, state: Numbers) -> list[str]:
    """Words for each square: "given 5", "step 12, selected", "empty, a legal next square" (as
    the scene marks them: nothing is selected on a full board)."""
    at, legal = numbers_of(problem, state), set(legal_next(problem, state))
    selected = state.selected if len(at) < problem.squares else -1
    words = []
    for cell in range(problem.squares):
        word = f"{'given ' if cell in problem.move_on else 'step '}{at[cell]}" if cell in at else "empty"
        word += ", selected" if cell == selected else ", a legal next square" if cell in legal else ""
        words.append(word)
    return words


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
    if pairs and not _tour_through_givens(problem, solution_):
        raise BoardPuzzlesError("the problem's solution is not a tour through its given numbers")
    if not pairs and solution_:
        raise BoardPuzzlesError("a blank board has no stored solution")
    return problem


def _tour_through_givens(problem: TourProblem, tour: Tour) -> bool:
    return (
        len(tour) == problem.squares
        and not violations(problem.rules, tour)
        and all(tour[move - 1] == cell for cell, move in problem.givens)
    )


PLAY: Play[TourProblem, Numbers] = Play(
    has_aids=True,
    tools=TOOLS,
    sizes=SIZES,
    default_size=DEFAULT_SIZE,
    difficulties=DIFFICULTIES,
    sizes_by_difficulty={"closed": tuple(side for side in SIZES if side % 2 == 0)},  # odd sides have no closed tour
    seedless=FREE_MODES,  # a blank board
    # selecting a number is part of the move that writes the next
    settled=lambda problem, state: state.placed,
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
    rules="Number the squares in the order a knight visits them, each exactly once: click a number, "
    "then a square a knight's move away for the next one. Fill them in any order.",
    solution=solution,
    describe=describe,
)
