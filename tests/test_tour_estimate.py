"""`knights-tour estimate`: the figures of a count by halves before it runs. Rows swept whole give
the sweep's own figures; rows past them follow the trend of narrower boards (good to a factor
of about two); the command prints them, as text or JSON."""

import json

import pytest

from boardpuzzles.cli import _run
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.knights_tour.closed import halves
from boardpuzzles.puzzles.knights_tour.estimate import _next, estimate
from boardpuzzles.puzzles.knights_tour.frontier import frontier_layers
from boardpuzzles.puzzles.knights_tour.meeting import _pairings


@pytest.mark.parametrize(("rows", "cols", "paths"), [(4, 8, True), (6, 8, False)])
def test_rows_swept_whole_give_the_sweeps_own_figures(rows, cols, paths):
    found = estimate(rows, cols, paths)
    assert found.figures.exact == found.top_rows == 3
    top, bottom, report = frontier_layers(rows, cols, 3, 3, Limits(), paths=paths)
    assert found.figures.states == [r.states for r in report] and found.top_states == len(top)
    assert found.figures.peak == [r.peak for r in report]
    kt._SWEEPS.clear()
    meeting = halves(rows, cols, paths, 1, Limits())
    kt._SWEEPS.clear()
    assert round(found.top_leaves) == len(meeting.tops) and found.bottom_leaves == len(meeting.bottoms)
    assert round(found.pairings) == _pairings(meeting.top_keys, meeting.bottom_keys)
    assert found.core_hours > 0 and found.disk > 0 and found.memory_in_memory > 0


def test_rows_past_the_swept_ones_follow_the_trend_of_narrower_boards():
    # 6x8's third row (740,415 states, 1,399,340 at most) from 3, 4 and 5 squares a row.
    found = estimate(6, 8, True, exact_states=400_000)
    assert found.figures.exact == 2
    assert 740_415 / 2 < found.top_states < 740_415 * 2
    assert 1_399_340 / 2 < found.figures.peak[2] < 1_399_340 * 2


def test_the_trend_is_geometric():
    assert _next(7, [(5, 2.0), (6, 4.0)]) == 8.0
    assert _next(8, [(5, 2.0), (6, 4.0)]) == 16.0
    assert _next(7, [(6, 3.0)]) == 3.0 and _next(7, []) == 1.0


def test_the_command_prints_the_estimate(capsys):
    assert _run(["knights-tour", "estimate", "5x8", "--memory", "1G"]) == 0
    out = capsys.readouterr().out
    assert "top layer 28,207 states" in out and "in shards under --memory 1.1 GB" in out
    assert _run(["knights-tour", "estimate", "6x8", "--closed", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["tours"] == "closed" and document["top_states"] == 25_145 and document["rows"][2]["exact"]


def test_the_command_refuses_what_it_cannot_estimate(capsys):
    assert _run(["knights-tour", "estimate", "2x3"]) == 2
    assert _run(["knights-tour", "estimate", "9x10", "--closed"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "side of at most 8" in err


def test_memory_is_an_option_of_count_and_estimate_only(capsys):
    """--memory bounds a count by the frontier sweep: solve neither lists nor takes it, and each
    command's help says what it means there."""
    helps = {}
    for command in ("solve", "count", "estimate"):
        assert _run(["knights-tour", command, "--help"]) == 0
        helps[command] = capsys.readouterr().out
    assert "--memory" not in helps["solve"]
    assert "--memory SIZE" in helps["count"] and "`knights-tour estimate` sizes them" in helps["count"]
    assert "--memory SIZE" in helps["estimate"] and "knights-tour estimate`" not in helps["estimate"]
    assert _run(["knights-tour", "solve", "5", "--memory", "1G"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such option: --memory" in err
    assert [p.name for p in kt.PUZZLE.params if not p.taken_by("solve")] == ["memory"]
