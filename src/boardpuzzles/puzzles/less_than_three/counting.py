"""Counting Less Than Three boards: every placement or the classes, by the stone by stone search
(:mod:`.search`) or, for many colours with the most stones, as tuples of one-colour boards
(:mod:`.tuples`). Checkpoints name the work functions here by ``PLAN_MODULE``."""

from __future__ import annotations

from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.puzzles.less_than_three.rules import Problem, Rules, plan_identity, planned
from boardpuzzles.puzzles.less_than_three.search import _first_rows, _kernel_module, _run, group_order
from boardpuzzles.puzzles.less_than_three.tuples import _count_tuples, through_one_colour


@planned
def _count_work(spec: tuple[Rules, tuple[int, ...]], limits: Limits) -> int:
    rules, prefix = spec
    return _run(rules, prefix, rules.size, limits, weigh=True)[0]


@planned
def _classes_work(spec: tuple[Rules, tuple[int, ...], bool], limits: Limits) -> int:
    """The classes as a sum over the boards the weighted count walks: a board b stands for its
    weight w(b) of boards, and a class of s boards is counted once when each of its boards adds
    1/s = |stabiliser| / |group| (Burnside's lemma, board by board). So each board walked adds
    w(b) x |stabiliser(b)|, and ``count`` divides the sum by SYMMETRY_UNIT x |group|. The
    stabiliser is invariant under the 8 symmetries, which is all the weighting needs."""
    rules, prefix, swap = spec
    return _run(rules, prefix, rules.size, limits, symmetric=True, swap_colours=swap, weigh=True)[1]


def count(problem: Problem, limits: Limits | None = None) -> int:
    """Every placement (rotations, mirror images and colour swaps counted separately), or the
    classes with ``problem.unique``. Two or more colours with the most stones are counted as
    tuples of disjoint one-colour solutions (``_count_tuples``); everything else by the stone by
    stone search, in which symmetry stands in for work: only boards whose first searched row is
    the least of its 8 images are walked, each weighted by its share of its orbit (see the
    kernel), and classes add each board's stabiliser too (``_classes_work``)."""
    limits = limits if limits is not None else Limits()
    if through_one_colour(problem.rules):
        return _count_tuples(problem, limits)
    return _count_by_search(problem, limits)


def _count_by_search(problem: Problem, limits: Limits) -> int:
    """``count`` by the stone by stone search, for any member of the family."""
    rules = problem.rules
    where = {"identity": plan_identity(problem)}
    unit = _kernel_module().SYMMETRY_UNIT
    first = _first_rows(rules, limits, weigh=True)
    if problem.unique:
        tasks = [Subtask((rules, p, problem.swap_colours)) for p in first]
        order = group_order(rules, problem.swap_colours)
        return run_subtasks(_classes_work, tasks, limits, unit=unit * order, **where)
    tasks = [Subtask((rules, p)) for p in first]
    return run_subtasks(_count_work, tasks, limits, unit=unit, **where)
