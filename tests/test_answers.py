"""Answer types: each kind of answer's JSON and text picture read back what they wrote, bad
documents and pictures are one clear error, and the scenes hold what the pictures draw."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.answers import CELL_PAIRS, ORDER, CellPairs, Order, Path, board_of, path_of
from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.grid import Grid
from boardpuzzles.protocol import Param, Puzzle

GRID = Grid(3, 4)


def json_round_trip(kind, grid, answer):
    return kind.from_json(grid, json.loads(json.dumps(kind.to_json(answer))))


@st.composite
def cell_orders(draw):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    grid = Grid(rows, cols)
    cells = draw(st.lists(st.integers(0, grid.size - 1), unique=True))
    return grid, tuple(cells)


@st.composite
def cell_pair_sets(draw):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    grid = Grid(rows, cols)
    sides = [(c, c + 1) for c in grid.cells() if (c + 1) % cols] + [(c, c + cols) for c in range(grid.size - cols)]
    return CellPairs(grid, tuple(draw(st.lists(st.sampled_from(sides), unique=True)) if sides else ()))


@given(cell_orders())
def test_orders_and_paths_read_back_what_they_wrote(drawn):
    grid, cells = drawn
    order = Order(grid, cells)
    assert json_round_trip(ORDER, grid, order) == order
    assert ORDER.read(ORDER.text(order)) == order
    for closed in (False, True):
        kind, path = path_of(closed), Path(grid, cells, closed)
        assert json_round_trip(kind, grid, path) == path
        assert kind.read(kind.text(path)) == path


@given(cell_pair_sets())
def test_cell_pairs_read_back_what_they_wrote(pairs):
    assert json_round_trip(CELL_PAIRS, pairs.grid, pairs) == pairs
    text = CELL_PAIRS.text(pairs)
    assert CELL_PAIRS.read(text) == pairs
    assert all(line.strip() for line in text.split("\n")) or pairs.grid.cols == 1  # no blank lines


def test_the_pictures():
    assert CELL_PAIRS.text(CellPairs(Grid(2, 3), ((0, 1), (2, 5), (3, 4)))) == "< > ^\n< > v"
    edges = CellPairs(Grid(2, 3), ((0, 1), (1, 2), (1, 4)))  # b2 is in three pairs
    assert CELL_PAIRS.text(edges) == "o-o-o\n +|+\no o o"
    assert ORDER.text(Order(Grid(2, 3), (5, 0))) == "2 . .\n. . 1"
    assert path_of().text(Path(Grid(1, 12), tuple(range(12)))) == " 1  2  3  4  5  6  7  8  9 10 11 12"


def test_boards():
    kind = board_of("QK")
    board = Board.with_pieces(GRID, {0: "Q", 5: "K"})
    assert kind.to_json(board) == {"Q": ["a3"], "K": ["b2"]}
    assert json_round_trip(kind, GRID, board) == board
    assert kind.read(kind.text(board)) == board
    assert kind.scene(board).pieces == {0: "Q", 5: "K"}
    with pytest.raises(BoardPuzzlesError):
        kind.from_json(GRID, {"X": ["a1"]})


@pytest.mark.parametrize(
    "kind,document",
    [
        (ORDER, "a1"),
        (ORDER, ["a1", "a1"]),
        (ORDER, ["a9"]),
        (ORDER, [1]),
        (path_of(), ["a1"]),
        (path_of(), {"cells": ["a1"], "closed": "yes"}),
        (path_of(), {"cells": ["a1"], "extra": 1}),
        (CELL_PAIRS, [["a1", "c1"]]),
        (CELL_PAIRS, [["a1"]]),
        (CELL_PAIRS, [["a1", "a2"], ["a2", "a1"]]),
    ],
)
def test_bad_documents_are_one_clear_error(kind, document):
    with pytest.raises(BoardPuzzlesError):
        kind.from_json(GRID, document)


@pytest.mark.parametrize(
    "kind,text",
    [
        (ORDER, "1 2\n3"),
        (ORDER, "1 1\n. ."),
        (ORDER, "1 3\n. ."),
        (ORDER, "1 x"),
        (CELL_PAIRS, "< <"),
        (CELL_PAIRS, ". <\n> ."),
        (CELL_PAIRS, "^ .\n. ."),
        (CELL_PAIRS, "o-o\n|"),
        (CELL_PAIRS, "o-o\n +\nx o"),
        (CELL_PAIRS, ""),
    ],
)
def test_bad_pictures_are_one_clear_error(kind, text):
    with pytest.raises(BoardPuzzlesError):
        kind.read(text)


def test_scenes():
    pairs = CellPairs(GRID, ((0, 1), (2, 6)))
    assert [(a, b) for a, b, _ in CELL_PAIRS.scene(pairs).spans] == [(0, 1), (2, 6)]
    scene = path_of(True).scene(Path(GRID, (0, 1, 5, 4), True))
    assert scene.path == [0, 1, 5, 4, 0] and scene.start == 0 and scene.end is None
    assert scene.labels == {0: "1", 1: "2", 5: "3", 4: "4"}
    open_scene = path_of().scene(Path(GRID, (0, 1, 5), False))
    assert open_scene.path == [0, 1, 5] and open_scene.end == 5
    assert ORDER.scene(Order(GRID, (3, 2))).labels == {3: "1", 2: "2"}


def test_a_puzzle_record_takes_its_converters_from_its_answer_type():
    record = Puzzle(
        name="pairs",
        title="t",
        description="d",
        params=(Param("size", "size", "the board", positional=True),),
        problem=lambda size: GRID,
        solutions=lambda problem, limits: iter(()),
        violations=lambda problem, answer: [],
        answer_type=CELL_PAIRS,
        read_answer=CELL_PAIRS.reader(lambda values, grid: grid),
    )
    pairs = CellPairs(GRID, ((0, 1),))

    class Problem:
        grid = GRID

    assert record.answer_to_json(Problem(), pairs) == [["a3", "b3"]]
    assert record.answer_from_json(Problem(), [["a3", "b3"]]) == pairs
    assert record.text_of(Problem(), pairs) == CELL_PAIRS.text(pairs)
    assert record.to_scene(Problem(), pairs).spans
    assert record.read_answer({}, CELL_PAIRS.text(pairs)) == (GRID, pairs)
    with pytest.raises(ValueError, match="answer_type"):
        Puzzle(
            name="bare",
            title="t",
            description="d",
            params=(),
            problem=lambda: None,
            solutions=lambda problem, limits: iter(()),
            violations=lambda problem, answer: [],
            read_answer=lambda values, text: (None, None),
        )


# ---------------------------------------------------------------- the values: sequences with pictures
SVG = "{http://www.w3.org/2000/svg}svg"


@given(cell_orders())
def test_paths_and_orders_read_as_the_tuple_of_their_cells(drawn):
    grid, cells = drawn
    for value in (Path(grid, cells, False), Order(grid, cells)):
        assert len(value) == len(cells) and tuple(value) == cells and list(value[1:3]) == list(cells[1:3])
        assert all(value[k] == cells[k] and cells[k] in value for k in range(len(cells)))
        assert np.asarray(value).tolist() == list(cells) and bool(value) == bool(cells)
        if cells:
            assert value.index(cells[-1]) == len(cells) - 1
        assert hash(value) == hash(type(value)(grid, cells))  # values: equal ones hash alike


def test_values_show_their_text_picture_a_short_repr_and_an_svg_picture():
    path, order = Path(GRID, (0, 1, 2), True), Order(GRID, (5, 0))
    pairs = CellPairs(Grid(2, 3), ((0, 1), (2, 5), (3, 4)))
    assert str(path) == path_of().text(path) and str(order) == ORDER.text(order) and str(pairs) == "< > ^\n< > v"
    assert repr(path) == "<Path on 3x4: a3 b3 c3>" and repr(pairs) == "<CellPairs on 2x3: a2-b2 c2-c1 a1-b1>"
    long = Path(Grid(40, 40), tuple(range(1600)))
    assert len(repr(long)) < 120 and "(1600 cells)" in repr(long)  # a notebook prints it whole
    for value in (path, order, pairs):
        root = ET.fromstring(value._repr_svg_())
        assert root.tag == SVG and root.findall("{http://www.w3.org/2000/svg}g")
    assert "ring: where the path starts" in path._repr_svg_()  # the legend of the path's picture


def test_the_values_import_no_renderer_until_a_picture_is_asked_for():
    code = (
        "import sys; from boardpuzzles.answers import Path; from boardpuzzles.grid import Grid; "
        "p = Path(Grid(2, 2), (0, 1)); str(p); repr(p); "
        "print(any(m.startswith('boardpuzzles.render') for m in sys.modules)); p._repr_svg_(); "
        "print(any(m.startswith('boardpuzzles.render') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_tours_are_paths_that_every_consumer_takes():
    """A knight's tour handed out (solve's answers, find's tour, a tour read back) is a Path: it
    reads as the tuple of its squares, so its JSON, text, checker and pictures are unchanged."""
    from boardpuzzles.limits import Limits
    from boardpuzzles.puzzles import get
    from boardpuzzles.puzzles import knights_tour as kt

    record = get("knights-tour")
    problem = record.parse("5 --start a1")
    answer = next(record.solutions(problem, Limits()))
    raw = next(kt.solutions(problem))  # the search's own tuple
    assert isinstance(answer, Path) and tuple(answer) == raw and answer.grid == problem.grid and not answer.closed
    assert record.answer_to_json(problem, answer) == kt.answer_to_json(problem, raw)
    assert record.text_of(problem, answer) == kt.picture(5, 5, raw) and kt.check(5, 5, answer)
    assert record.read_answer({"size": (5, 5), "start": "a1"}, record.text_of(problem, answer)) == (problem, answer)
    assert record.answer_from_json(problem, record.answer_to_json(problem, answer)) == answer
    found = kt.find(6, 6, closed=True).tour
    assert isinstance(found, Path) and found.closed and kt.check(6, 6, found, closed=True)
    scene = kt.view(found)
    assert scene.title == "a closed knight's tour of 6x6" and scene.path == [*found, found[0]]
    assert scene.label_meaning == "move" and found.scene().path == scene.path


def test_goishi_answers_are_pick_up_orders_with_the_puzzle_drawn():
    from boardpuzzles.limits import Limits
    from boardpuzzles.puzzles import get
    from boardpuzzles.puzzles import goishi as gh

    record = get("goishi")
    problem = record.parse("goishi/4/4/1370")
    answers = list(record.solutions(problem, Limits()))
    assert all(isinstance(a, gh.PickUpOrder) and a.puzzle == problem for a in answers)
    assert [tuple(a) for a in answers] == list(gh.solutions(problem))
    first = answers[0]
    assert str(first) == record.text_of(problem, first) and record.violations(problem, first) == []
    assert record.answer_from_json(problem, record.answer_to_json(problem, first)) == first
    assert record.read_answer({"file": "goishi/4/4/1370"}, " ".join(map(problem.name, first)))[1] == first
    root = ET.fromstring(first._repr_svg_())
    assert len([e for e in root.iter("{http://www.w3.org/2000/svg}circle") if e.get("data-piece") is None]) > 10
