"""SVG pictures are well-formed and show what the board holds."""

import xml.etree.ElementTree as ET

from boardpuzzles.board import parse_board
from boardpuzzles.grid import Grid
from boardpuzzles.render.scene import Scene
from boardpuzzles.render.svg import board_svg, sheet_svg

NS = "{http://www.w3.org/2000/svg}"


def test_board_svg_draws_every_piece():
    board = parse_board("Q..\n.XO\n...\n")
    root = ET.fromstring(board_svg(board))
    drawn = [e.get("data-piece") for e in root.iter() if e.get("data-piece")]
    assert sorted(drawn) == ["O", "Q", "X"]
    squares = [e for e in root.iter(f"{NS}rect") if e.get("width") == "40"]
    assert len(squares) == 9


def test_sheet_holds_several_boards_with_titles_marks_labels_and_path():
    grid = Grid(4, 4, torus=True)
    scenes = [
        Scene(grid, {0: "Q"}, marks={5: "#ff0000"}, labels={6: "12"}, path=[0, 6, 12], title=f"#{i}") for i in range(5)
    ]
    root = ET.fromstring(sheet_svg(scenes))
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert [t for t in texts if t and t.startswith("#")] == [f"#{i}" for i in range(5)]
    assert texts.count("12") == 5
    assert len(list(root.iter(f"{NS}polyline"))) == 5
    assert sum(1 for e in root.iter(f"{NS}rect") if e.get("fill") == "#ff0000") == 5


def test_jupyter_sees_boards_as_svg():
    assert parse_board("Q.\n.Q\n")._repr_svg_().startswith("<svg")
