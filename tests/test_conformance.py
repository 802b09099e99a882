"""Every puzzle the CLI lists offers the shared protocol, and its answers pass its own checker."""

import importlib
from collections.abc import Iterator

import pytest

from boardpuzzles.parallel import ProgressBar, Subtask, run_subtasks
from boardpuzzles.puzzles import PUZZLES

# A small instance per puzzle: its arguments, its published count (OEIS A051906, A000170, the
# seed article's 42), and how its checker is called on one solution.
SMALL = {
    "hyperqueen": ((7,), 28, lambda m, s: m.check(7, s)),
    "queens": ((6,), 4, lambda m, s: m.check(6, s)),
    "less-than-three": ((), 42, lambda m, s: m.check(s)),
    # 5x5 open tours from every start, directed: 1728 (OEIS A165134).
    "knights-tour": ((5,), 1728, lambda m, s: m.check(5, 5, s)),
    # goishi2_80Q1 (umeya/puzzle_alogorithm_python, from 大槻兼資's book): 4 orders.
    "goishi": (("OOOO\n.OOO\n..OO\n...O",), 4, lambda m, s: m.check("OOOO\n.OOO\n..OO\n...O", s)),
}


@pytest.mark.parametrize("name", PUZZLES)
def test_puzzle_offers_the_protocol(name):
    module = importlib.import_module(f"boardpuzzles.puzzles.{name.replace('-', '_')}")
    for function in ("solutions", "count", "check", "violations"):
        assert callable(getattr(module, function, None)), f"{name}.{function} is missing"
    assert "Glossary" in module.__doc__
    args, published, check = SMALL[name]
    assert isinstance(module.solutions(*args), Iterator)  # lazy, not a list
    found = list(module.solutions(*args))
    assert len(found) == module.count(*args) == published
    assert all(check(module, s) for s in found)


def test_run_subtasks_weights_and_units():
    tasks = [Subtask(3, 2), Subtask(5, 1), Subtask(1, 4)]
    assert run_subtasks(lambda x: x, tasks) == 15
    assert run_subtasks(lambda x: x, tasks, jobs=3) == 15
    assert run_subtasks(lambda x: 10 * x, tasks, unit=5) == 30
    with pytest.raises(ArithmeticError):
        run_subtasks(lambda x: x, tasks, unit=4)
    assert run_subtasks(lambda x: x, []) == 0


def test_errors_in_a_worker_reach_the_caller():
    def work(x):
        if x == 2:
            raise ValueError("boom")
        return x

    with pytest.raises(ValueError, match="boom"):
        run_subtasks(work, [Subtask(i) for i in range(5)], jobs=2)


def test_progress_bar_appears_only_after_its_delay_and_closes():
    bar = ProgressBar("test", delay=0, enabled=True)
    bar(1, 4, 10)
    assert bar._progress is not None and bar._progress.tasks[0].completed == 1
    bar(3, 4, 30)
    assert bar._progress.tasks[0].fields["partial"] == 30
    bar.close()
    assert bar._progress is None
    slow = ProgressBar("slow", delay=60, enabled=True)
    slow(1, 4, 10)
    assert slow._progress is None  # a count shorter than the delay shows nothing
    quiet = ProgressBar("quiet", delay=0, enabled=False)
    quiet(1, 2, 3)  # disabled: nothing happens
    assert quiet._progress is None
