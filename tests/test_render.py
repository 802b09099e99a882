"""Pictures are well-formed and show what the scene holds, in SVG and in PNG alike: pieces,
queens as shapes, tooltips, headings and legends, large tours as compact colour bands, Goishi on
a go board, and notebooks' ``_repr_svg_``."""

import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.board import Board, parse_board
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles import get
from boardpuzzles.puzzles import goishi as gh
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.render import draw
from boardpuzzles.render.png import png_bytes
from boardpuzzles.render.svg import board_svg, sheet_svg, trail_d
from boardpuzzles.scene import Scene, scene_text

NS = "{http://www.w3.org/2000/svg}"
PZPRJS = gh.Puzzle.parse(".......\n..OO...\n.O.O...\n.O.O...\n.OOOO..\n...O...\n.......")


def boards(root):
    return root.findall(f"{NS}g")


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
    groups = boards(root)
    assert [g.find(f"{NS}title").text for g in groups] == [f"#{i}" for i in range(5)]
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert [t for t in texts if t and t.startswith("#")] == [f"#{i}" for i in range(5)]
    assert texts.count("12") == 5
    assert [len(g.findall(f"{NS}polyline")) for g in groups] == [1] * 5
    assert sum(1 for e in root.iter(f"{NS}rect") if e.get("fill") == "#ff0000") == 5


def test_the_queen_is_a_shape_not_a_font_glyph():
    svg = board_svg(parse_board("Q.\n.Q\n"))
    root = ET.fromstring(svg)
    queens = [e for e in root.iter() if e.get("data-piece") == "Q"]
    assert [e.tag for e in queens] == [f"{NS}path"] * 2
    assert "\u265b" not in svg and all(e.text != "Q" for e in root.iter(f"{NS}text"))
    # and the raster draws it: the queen's square is dark where an empty one is not
    picture = _image(png_bytes([Scene.of_board(parse_board("Q.\n..\n"))]))
    assert _dark_pixels(picture, (4, 4, 36, 36)) > 200 and _dark_pixels(picture, (44, 4, 76, 36)) == 0


def _image(data: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(data)).convert("RGB")


def _dark_pixels(picture, box, limit=80) -> int:
    """Pixels darker than ``limit`` in ``box`` (board coordinates: the sheet's margin added)."""
    x0, y0, x1, y1 = (v + draw.GAP for v in box)
    region = np.asarray(picture.crop((x0 + draw.MARGIN, y0, x1 + draw.MARGIN, y1)))
    return int((region.max(axis=2) < limit).sum())


def test_tooltips_name_the_square_and_what_is_on_it():
    hq = get("hyperqueen")
    problem = hq.parse("5")
    root = ET.fromstring(sheet_svg([hq.to_scene(problem, next(iter(hq.solutions(problem, None))))]))
    titles = [e.text for e in root.iter(f"{NS}title")]
    assert "a5: queen" in titles and len([t for t in titles if t.endswith(": queen")]) == 5
    tour = kt.find(5, 5, start=kt.board(5, 5).cell_named("a1")).tour
    root = ET.fromstring(sheet_svg([kt.to_scene(kt.Problem(5, 5), tour)]))
    titles = {e.text for e in root.iter(f"{NS}title")}
    assert {f"{kt.board(5, 5).name(c)}: move {i + 1}" for i, c in enumerate(tour)} <= titles
    assert "start: a1 (move 1)" in titles


def test_a_sheet_has_a_heading_and_a_legend_of_the_torus():
    torus = Scene.of_board(parse_board("Q.\n..\n"))
    torus.grid = Grid(2, 2, torus=True)
    svg = sheet_svg([torus], heading="hyperqueen: something")
    texts = [e.text for e in ET.fromstring(svg).iter(f"{NS}text")]
    assert texts[0] == "hyperqueen: something"
    assert any(t and t.startswith("dashed border: the board wraps around") for t in texts)
    plain = [e.text for e in ET.fromstring(sheet_svg([Scene.of_board(parse_board("Q.\n..\n"))])).iter(f"{NS}text")]
    assert not any(t and "dashed" in t for t in plain)


def test_numbers_fit_their_squares_and_large_boards_drop_them():
    for n in (5, 10, 32):  # up to 1024 squares: four-digit numbers
        scene = kt.to_scene(kt.Problem(n, n), kt.find(n, n).tour)
        lay = draw.layout(scene)
        longest = max(map(len, scene.labels.values()))
        assert lay.labels and draw.text_width("8" * longest, lay.label_size) <= 0.8 * lay.cell
    scene = kt.to_scene(kt.Problem(50, 50), kt.find(50, 50).tour)
    lay = draw.layout(scene)
    assert not lay.labels and not lay.coordinates and lay.cell * 50 <= draw.BOARD_PIXELS
    root = ET.fromstring(sheet_svg([scene]))
    assert all(e.text is None or not e.text.isdigit() for e in root.iter(f"{NS}text"))
    squares = [e for e in root.iter(f"{NS}rect") if e.get("fill") in (draw.LIGHT, draw.DARK)]
    assert squares == []  # no chessboard
    titles = [e.text for e in root.iter(f"{NS}title")]
    assert len([t for t in titles if ": move " in t]) == 2500  # the numbers are still there, on hover


def test_a_large_tour_is_compact_colour_bands_with_its_ends_marked():
    n = 200
    tour = kt.find(n, n).tour
    svg = sheet_svg([kt.to_scene(kt.Problem(n, n), tour)])
    root = ET.fromstring(svg)
    paths = [e for e in root.iter(f"{NS}path") if e.get("transform")]
    assert len(paths) == draw.BANDS and len({p.get("stroke") for p in paths}) > draw.BANDS // 2
    assert len(list(boards(root)[0].iter(f"{NS}rect"))) < 5  # no rect per square
    assert len(svg) < 6 * n * n  # about four bytes a move
    # the bands, read back, are the tour
    walk: list[tuple[int, int]] = []
    for p in paths:
        points = _read_trail(p.get("d"))
        assert not walk or walk[-1] == points[0]  # each band starts where the last one ended
        walk.extend(points if not walk else points[1:])
    assert walk == [(c % n, c // n) for c in tour]
    titles = [e.text for e in root.iter(f"{NS}title")]
    name = kt.board(n, n).name
    assert f"start: {name(tour[0])} (move 1)" in titles and f"end: {name(tour[-1])} (move {n * n})" in titles


def _read_trail(d: str) -> list[tuple[int, int]]:
    head, _, steps = d.partition("l")
    x, y = map(int, head[1:].split())
    numbers = list(map(int, re.findall(r"-?\d+", steps)))
    points = [(x, y)]
    for dx, dy in zip(numbers[::2], numbers[1::2], strict=True):
        x, y = x + dx, y + dy
        points.append((x, y))
    return points


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=60))
def test_trail_data_reads_back_as_the_walk(points):
    cols, rows = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    read = _read_trail(trail_d(cols, rows))
    assert read == (points if len(points) > 1 else points + points)


def test_goishi_is_drawn_on_a_go_board():
    order = gh.solve(PZPRJS)
    scene = gh.to_scene(PZPRJS, order)
    root = ET.fromstring(sheet_svg([scene]))
    group = boards(root)[0]
    stones = [e for e in group.iter(f"{NS}circle") if e.get("fill") == draw.FADED_FILL]
    assert len(stones) == 11  # every stone, as a circle, greyed: picked up
    assert not [e for e in group.iter(f"{NS}rect") if e.get("fill") in (draw.LIGHT, draw.DARK)]  # no chessboard
    lines = [e for e in group.iter(f"{NS}polyline") if e.get("stroke") == draw.GRID_LINE]
    assert len(lines) == PZPRJS.rows + PZPRJS.cols
    assert len(group.findall(f"{NS}polygon")) == len(order) - 1  # an arrowhead on every step
    start = [e for e in group.iter(f"{NS}circle") if e.find(f"{NS}title") is not None]
    assert f"start: {PZPRJS.name(order[0])} (step 1)" in [e.find(f"{NS}title").text for e in start]


def test_a_goishi_step_over_stones_bends_around_them():
    """The 10th step of this puzzle's solution (d6 to d2) jumps over d5, d4 and d3, which held
    stones 4, 3 and 2: drawn straight it would hide under them and read as a step from 2."""
    order = gh.solve(PZPRJS)
    assert [PZPRJS.name(p) for p in order[9:]] == ["d6", "d2"]
    group = boards(ET.fromstring(sheet_svg([gh.to_scene(PZPRJS, order)])))[0]
    steps = [e for e in group.iter(f"{NS}polyline") if e.get("stroke") != draw.GRID_LINE]
    points = [[tuple(map(float, xy.split(","))) for xy in e.get("points").split()] for e in steps]
    bent = [p for p in points if len(p) > 2]
    assert len(bent) == 1 and len(points) == len(order) - 1
    xs = [x for x, _ in bent[0][1:3]]  # its run beside the d file, half a cell away
    d = draw.MARGIN + 3.5 * draw.CELL  # the d file's x, less the sheet's gap
    assert xs[0] == xs[1] and abs(abs(xs[0] - draw.GAP - d) - draw.CELL / 2) < 1e-6
    # on the left: on the right it would run across the gap between e3 and d3, the whole of the
    # first step (1 to 2) and its arrowhead, though fewer stones stand beside it there
    assert xs[0] < draw.GAP + d


def test_long_headings_and_legends_wrap_instead_of_widening_the_picture():
    assert draw.wrap("aaa bbb ccc", 10, draw.text_width("aaa bbb", 10)) == ["aaa bbb", "ccc"]
    assert draw.wrap("x" * 50, 10, 20) == ["x" * 50]  # a long word keeps its own line
    scene = gh.to_scene(PZPRJS, gh.solve(PZPRJS))
    heading = "goishi: " + " ".join(["a long heading"] * 12)
    picture = draw.sheet([scene], heading=heading)
    assert picture.width == draw.MIN_SHEET_WIDTH
    lines = [s.text for s in picture.walk() if isinstance(s, draw.Text) and s.bold]
    assert len(lines) > 2 and " ".join(lines) == heading
    assert all(draw.text_width(line, draw.HEADING_SIZE) <= picture.width - 2 * draw.GAP for line in lines)
    assert draw.sheet([scene]).width < draw.MIN_SHEET_WIDTH  # without it, as wide as the board and legend


def test_every_goishi_picture_is_one_style():
    """An answer (`solve`, `generate --solution`, a notebook), the play page and the last frame of
    an animation draw the same picture: a solution is the last frame of its walk."""
    from boardpuzzles.puzzles.goishi import play

    order = gh.solve(PZPRJS)
    answer = gh.to_scene(PZPRJS, order)
    assert answer.faded == set(order) and not answer.pieces and answer.marks == {order[-1]: gh.CURRENT_MARK}
    for other in (gh.frames(PZPRJS, order)[-1], play.scene(PZPRJS, order), gh.PickUpOrder(PZPRJS, order).scene()):
        other.title = ""
        assert other == answer
    alone = gh.frame(PZPRJS, (), 0)  # the puzzle alone (a notebook, `generate` without --solution): stones only
    assert set(alone.pieces) == set(PZPRJS.stones) and not (alone.faded or alone.marks or alone.path)


def test_goishi_frames_grey_the_picked_stones():
    order = gh.solve(PZPRJS)
    frame = gh.frame(PZPRJS, order, 4)
    assert frame.faded == set(order[:4]) and set(frame.pieces) == set(PZPRJS.stones) - set(order[:4])
    root = ET.fromstring(sheet_svg([frame]))
    grey = [e for e in root.iter(f"{NS}circle") if e.get("fill") == draw.FADED_FILL]
    assert len(grey) == 4 + 1  # and the legend's sample
    assert any(e.text == "grey: picked up" for e in root.iter(f"{NS}text"))


def test_the_gif_keeps_the_coordinates_of_its_titles():
    from boardpuzzles.render.animate import frame_images, gif_bytes

    order = gh.solve(PZPRJS)
    scenes = gh.frames(PZPRJS, order)
    shapes = list(draw.sheet([scenes[1]], legend_of=scenes).walk())
    texts = {s.text for s in shapes if isinstance(s, draw.Text)}
    assert {"a", "b", "c", "d", "e", "f", "1", "7", "1: e3"} <= texts
    images = frame_images(scenes)
    assert len({im.size for im in images}) == 1  # every frame the same size
    first = np.asarray(images[0])
    margin = first[draw.GAP + draw.TITLE_HEIGHT : -60, draw.GAP : draw.GAP + draw.MARGIN]
    assert (margin.max(axis=2) < 150).sum() > 30  # the rank numbers are drawn left of the board
    from PIL import Image

    with Image.open(io.BytesIO(gif_bytes(scenes))) as gif:
        assert gif.n_frames == len(scenes) and gif.size == images[0].size


def test_png_shows_what_the_svg_shows():
    scene = Scene(Grid(3, 3), {4: "X"}, marks={0: "#ff0000"}, title="t")
    picture = _image(png_bytes([scene]))
    layout = draw.layout(scene)
    assert picture.size == (draw.sheet([scene]).width, draw.sheet([scene]).height)
    x0, y0 = draw.GAP + draw.MARGIN, draw.GAP + draw.TITLE_HEIGHT
    assert picture.getpixel((int(x0 + 0.5 * layout.cell), int(y0 + 0.5 * layout.cell)))[0] > 200  # the mark
    assert max(picture.getpixel((int(x0 + 1.5 * layout.cell), int(y0 + 1.5 * layout.cell)))) < 60  # black stone


def test_spans_are_tiles_and_edges_are_walls_in_svg_and_png():
    grid = Grid(3, 4)
    scene = Scene(grid, spans=[(0, 1, "#fffdf7"), (2, 6, "#fffdf7")], edges=[(4, 5, "#0000ff"), (9, 5, "#0000ff")])
    root = ET.fromstring(sheet_svg([scene]))
    tiles = {e.find(f"{NS}title").text: e for e in root.iter(f"{NS}rect") if e.find(f"{NS}title") is not None}
    across, down = tiles["a3-b3"], tiles["c3-c2"]
    cell = draw.layout(scene).cell
    assert float(across.get("width")) > 1.5 * cell > float(across.get("height"))
    assert float(down.get("height")) > 1.5 * cell > float(down.get("width"))
    walls = [e for e in root.iter(f"{NS}polyline") if e.get("stroke") == "#0000ff"]
    assert len(walls) == 2
    xs, ys = ([float(v) for v in walls[i].get("points").replace(",", " ").split()] for i in range(2))
    assert xs[0] == xs[2] and ys[1] == ys[3]  # a wall between side by side cells stands; one between rows lies
    x0, y0 = draw.GAP + draw.MARGIN, draw.GAP
    picture = _image(png_bytes([scene]))
    assert min(picture.getpixel((int(x0 + 1.0 * cell), int(y0 + 0.5 * cell)))) > 240  # inside the tile across
    assert picture.getpixel((int(x0 + 1.0 * cell), int(y0 + 1.5 * cell)))[2] > 200  # on the wall (blue)
    with pytest.raises(ValueError):
        draw.scene_group(Scene(grid, edges=[(0, 5, "#000000")]), 0, 0)


def test_the_text_form_ignores_the_picture_fields():
    order = gh.solve(PZPRJS)
    plain = Scene(
        PZPRJS.grid, {c: "O" for c in PZPRJS.stones if c not in order}, labels=gh.to_scene(PZPRJS, order).labels
    )
    assert scene_text(gh.to_scene(PZPRJS, order)) == scene_text(plain)


def test_baikago_judge_picture_draws_the_cross():
    from boardpuzzles.render.baikago import CROSS_COLOUR, position_scene

    judgement = bk.judge_text("X.X\n.X.\nX.X\n")
    crosses = [c.points for c in judgement.crosses[bk.BLACK]]
    root = ET.fromstring(sheet_svg([position_scene(judgement.points, 3, crosses)]))
    assert len([e for e in root.iter(f"{NS}polyline") if e.get("stroke") == CROSS_COLOUR]) == 4  # centre to arms
    assert len([e for e in boards(root)[0].iter(f"{NS}circle") if e.get("stroke") == CROSS_COLOUR]) == 5
    assert any(e.text == "ring: a winning cross" for e in root.iter(f"{NS}text"))  # the legend


def test_jupyter_sees_boards_puzzles_positions_and_tours_as_svg():
    position = bk.Position(bk.Rules(size=9))
    for name in ["e5", "a1", "d5", "a9", "f5", "i1", "e6", "i9", "e4"]:
        position.make_named(name)
    dominoes = get("dominoes")
    pictures = [
        parse_board("Q.\n.Q\n"),
        PZPRJS,
        gh.to_scene(PZPRJS, gh.solve(PZPRJS)),
        position,
        kt.view(kt.find(6, 6).tour, 6),
        kt.find(6, 6).tour,  # answers themselves: a tour, a pick-up order, a tiling
        gh.PickUpOrder(PZPRJS, gh.solve(PZPRJS)),
        next(dominoes.solutions(dominoes.parse("4"), Limits())),
    ]
    for thing in pictures:
        root = ET.fromstring(thing._repr_svg_())
        assert root.tag == f"{NS}svg" and boards(root)
    svg = position._repr_svg_()
    assert "Black wins: + cross centred on e5" in svg and "e4: black stone, played last" in svg


def test_less_than_three_and_dominoes_stand_on_a_plain_ruled_grid():
    """Their stones and tiles are the picture: no chessboard under them, here or on the play page
    (whose board is the same scene)."""
    from boardpuzzles.puzzles import less_than_three as lt3
    from boardpuzzles.puzzles.less_than_three import play

    problem = lt3.Problem(lt3.Rules(6))
    board = next(lt3.solutions(problem))
    dominoes = get("dominoes")
    tiling = next(dominoes.solutions(dominoes.parse("4x6"), Limits()))
    setup, state = play.new(6, "easy", 1)
    page = play.scene(setup, state)
    scenes = [lt3.to_scene(problem, board), dominoes.to_scene(dominoes.parse("4x6"), tiling), page]
    for scene in scenes:
        assert scene.style == "grid"
        group = boards(ET.fromstring(sheet_svg([scene])))[0]
        assert not [e for e in group.iter(f"{NS}rect") if e.get("fill") in (draw.LIGHT, draw.DARK)]
        rules = [e for e in group.iter(f"{NS}polyline") if e.get("stroke") == draw.RULE]
        assert len(rules) == scene.grid.rows + scene.grid.cols - 2  # the lines between the squares
    # the page's givens keep their shading on the plain squares
    shaded = [e for e in boards(ET.fromstring(sheet_svg([page])))[0].iter(f"{NS}rect") if e.get("fill") != draw.PAPER]
    assert len([e for e in shaded if e.get("width") == str(draw.CELL)]) == len(setup.givens) > 0
    # and a PNG draws paper where the SVG does: the empty a6 square is the paper's colour
    picture = np.asarray(_image(png_bytes([lt3.to_scene(problem, Board(problem.rules.grid))])))
    x, y = draw.GAP + draw.MARGIN + draw.CELL // 2, draw.GAP + draw.CELL // 2
    assert np.abs(picture[y, x].astype(int) - draw._rgb(draw.PAPER)).max() <= 3  # (the raster is smoothed)


def test_the_core_imports_no_renderer():
    code = (
        "import sys; import boardpuzzles.puzzles.goishi, boardpuzzles.puzzles.knights_tour, "
        "boardpuzzles.puzzles.baikago, boardpuzzles.scene; "
        "print(sorted(m for m in sys.modules if m.startswith(('boardpuzzles.render', 'PIL'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


@pytest.mark.parametrize("style", ["cells", "points"])
def test_every_feature_draws_in_both_back_ends(style):
    grid = Grid(5, 6, torus=True)
    scene = Scene(
        grid,
        {0: "Q", 1: "X", 2: "O", 3: "K"},
        marks={4: "#00ff00"},
        labels={5: "7", 6: "12"},
        path=[5, 6, 12, 18],
        title="all",
        style=style,
        path_colours="gradient",
        arrows=style == "points",
        start=5,
        end=18,
        faded={7},
        lines=[(0, 14, "#ff0000")],
        tooltips={29: "corner"},
        label_meaning="move",
    )
    root = ET.fromstring(sheet_svg([scene, scene], heading="both"))
    assert len(boards(root)) == 2 and "corner" in [e.text for e in root.iter(f"{NS}title")]
    assert _image(png_bytes([scene, scene], heading="both")).size == (
        draw.sheet([scene, scene], heading="both").width,
        draw.sheet([scene, scene], heading="both").height,
    )


# ---------------------------------------------------------------- titles as one says them, fitted
def _texts(root):
    return [(float(e.get("x")), float(e.get("font-size")), e.text) for e in root.iter(f"{NS}text")]


def test_a_long_title_wraps_to_its_board_and_a_long_word_shrinks():
    title = "a rather long title that a small board cannot hold on one line"
    scene = Scene(Grid.square(3), title=title)
    lay = draw.layout(scene)
    assert len(lay.title_lines) > 2 and " ".join(lay.title_lines) == title
    assert all(draw.text_width(line, lay.title_size) <= 3 * draw.CELL + 0.5 for line in lay.title_lines)
    assert lay.height == 3 * draw.CELL + draw.MARGIN + draw.TITLE_HEIGHT + draw.TITLE_LINE * (len(lay.title_lines) - 1)
    word = Scene(Grid.square(2), title="x" * 14)
    lay = draw.layout(word)
    assert lay.title_lines == ("x" * 14,) and lay.title_size < draw.TITLE_SIZE
    assert draw.text_width("x" * 14, lay.title_size) <= 2 * draw.CELL + 1e-9
    # drawn: every title line starts on the board's left edge and ends within the picture
    root = ET.fromstring(sheet_svg([scene]))
    width = float(root.get("width"))
    lines = [(x, size, text) for x, size, text in _texts(root) if text in draw.layout(scene).title_lines]
    assert len(lines) == len(draw.layout(scene).title_lines)
    assert all(x + draw.text_width(text, size) <= width for x, size, text in lines)


def test_text_width_is_never_less_than_the_drawn_width():
    from boardpuzzles.render import png

    samples = ["8 queens on 8x8: all 92 solutions", "WWW MMM mmm %%%", "1000x1000", "an open knight's tour"]
    font = png.font(40)
    if "DejaVu" not in " ".join(map(str, getattr(font, "getname", lambda: ())())):
        pytest.skip("DejaVu Sans is not installed: the PNG uses another font")
    for bold in (False, True):
        for text in samples:
            assert png.font(40, bold).getlength(text) <= draw.text_width(text, 40), (text, bold)


@pytest.mark.parametrize(
    "args,heading,first_title",
    [
        (["queens", "solve", "6"], "6 queens on 6x6: all 4 solutions", "1 of 4"),  # OEIS A000170: 4
        (["queens", "solve", "8", "--limit", "3"], "8 queens on 8x8: the first 3 solutions", "solution 1"),
        (["kings", "solve", "2"], "1 king on 2x2: all 4 solutions", "1 of 4"),
        (["hyperqueen", "solve", "5", "--limit", "1"], "5 queens on the 5x5 torus: the first solution", None),
        (
            ["less-than-three", "solve", "--limit", "1"],
            "12 black and 12 white stones on 6x6, no three of a colour in a line: the first solution",
            None,
        ),
        (
            ["less-than-three", "solve", "4", "--colours", "1", "--limit", "2"],
            "8 stones on 4x4, no three in a line: the first 2 solutions",
            "solution 1",
        ),
    ],
)
def test_sheet_headings_read_as_one_says_them(tmp_path, capsys, args, heading, first_title):
    from boardpuzzles.cli import _run

    svg = tmp_path / "answers.svg"
    assert _run([*args, "--svg", str(svg)]) == 0
    capsys.readouterr()
    root = ET.fromstring(svg.read_text())
    bold = [e.text for e in root.iter(f"{NS}text") if e.get("font-weight") == "bold"]
    assert " ".join(bold) == heading
    boards = [e.text for e in root.iter(f"{NS}title") if " of " in e.text or e.text.startswith("solution ")]
    assert boards[:1] == ([first_title] if first_title else [])  # one board alone has no title of its own


def test_queens_find_has_a_title_that_fits(tmp_path, capsys):
    from boardpuzzles.cli import _run

    for n in (60, 4):
        svg = tmp_path / f"q{n}.svg"
        assert _run(["queens", "find", str(n), "--svg", str(svg)]) == 0
        capsys.readouterr()
        root = ET.fromstring(svg.read_text())
        width = float(root.get("width"))
        title = [(x, size, text) for x, size, text in _texts(root) if size != draw.LEGEND_SIZE and " " in (text or "")]
        assert " ".join(text for _, _, text in title) == f"{n} queens on {n}x{n}: one solution, built directly"
        assert all(x + draw.text_width(text, size) <= width for x, size, text in title)
