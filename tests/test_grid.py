"""Properties of the grid geometry (hypothesis) and a few hand-checked facts."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError, SizeError
from boardpuzzles.grid import KNIGHT_STEPS, QUEEN_LINES, Grid, file_letters, is_primitive, line_directions

sides = st.integers(1, 12)
grids = st.builds(Grid, sides, sides, st.booleans())


@st.composite
def grid_and_cell(draw, grid_strategy=grids):
    grid = draw(grid_strategy)
    return grid, draw(st.integers(0, grid.size - 1))


@st.composite
def primitive_direction(draw, limit=4):
    d = draw(st.tuples(st.integers(-limit, limit), st.integers(-limit, limit)).filter(is_primitive))
    return d


def test_chess_names_put_a1_bottom_left():
    g = Grid(8, 8)
    assert g.name(g.index(7, 0)) == "a1"
    assert g.name(g.index(0, 7)) == "h8"
    assert g.cell_named("e4") == g.index(4, 4)
    assert g.cell_named("H8") == g.index(0, 7)


def test_file_letters_continue_past_z():
    assert [file_letters(c) for c in (0, 25, 26, 27, 51, 52)] == ["a", "z", "aa", "ab", "az", "ba"]
    wide = Grid(2, 30)
    assert wide.cell_named("ad1") == wide.index(1, 29)


@given(grid_and_cell())
def test_index_coords_and_names_round_trip(gc):
    grid, cell = gc
    assert grid.index(*grid.coords(cell)) == cell
    assert grid.cell_named(grid.name(cell)) == cell


@pytest.mark.parametrize("bad", ["", "a", "1", "a0", "i1", "a9", "é1", "1a", "a-1"])
def test_bad_names_are_refused(bad):
    with pytest.raises(BoardPuzzlesError):
        Grid(8, 8).cell_named(bad)


@pytest.mark.parametrize("rows,cols", [(0, 3), (3, 0), (-1, 2), (5000, 1)])
def test_impossible_sizes_are_refused(rows, cols):
    with pytest.raises(SizeError):
        Grid(rows, cols)


@given(grid_and_cell(), primitive_direction())
def test_ray_steps_by_the_direction_and_stops_at_the_edge(gc, direction):
    grid, cell = gc
    ray = grid.ray(cell, direction)
    previous = cell
    for other in ray:
        assert grid.step(previous, direction) == other
        previous = other
    if grid.torus:
        assert grid.step(previous, direction) == cell  # a torus ray closes its cycle
    else:
        assert grid.step(previous, direction) is None
    assert cell not in ray and len(set(ray)) == len(ray)


@given(grids, primitive_direction())
def test_lines_in_a_direction_partition_the_board(grid, direction):
    lines = grid.lines(direction)
    cells = [c for line in lines for c in line]
    assert sorted(cells) == list(grid.cells())
    for line in lines:
        for cell in line:
            assert set(grid.line(cell, direction)) == set(line)


@given(grids.filter(lambda g: g.torus), primitive_direction())
def test_torus_line_length_is_the_period_of_the_direction(grid, direction):
    dr, dc = direction
    period = math.lcm(grid.rows // math.gcd(grid.rows, dr), grid.cols // math.gcd(grid.cols, dc))
    assert len(grid.line(0, direction)) == period


def test_bounded_line_runs_edge_to_edge_in_order():
    g = Grid(6, 6)
    assert g.line(g.index(2, 2), (1, 1)) == tuple(g.index(i, i) for i in range(6))
    assert g.line(g.index(0, 1), (1, 2)) == (g.index(0, 1), g.index(1, 3), g.index(2, 5))


def test_non_primitive_direction_is_refused_for_lines():
    with pytest.raises(BoardPuzzlesError):
        Grid(5, 5).line(0, (2, 2))


def test_line_directions_are_the_slopes_that_matter():
    assert sorted(line_directions(1)) == sorted(QUEEN_LINES)
    # On 6x6, three stones fit on a line of step at most 2: the 8 directions of the seed article.
    assert len(line_directions(2)) == 8
    assert all(is_primitive(d) for d in line_directions(5))


def test_knight_neighbours():
    g = Grid(8, 8)
    assert len(g.neighbours(g.cell_named("a1"), KNIGHT_STEPS)) == 2
    assert len(g.neighbours(g.cell_named("e4"), KNIGHT_STEPS)) == 8
    assert len(Grid(8, 8, torus=True).neighbours(0, KNIGHT_STEPS)) == 8


@pytest.mark.parametrize(
    "grid,name,size",
    [
        (Grid(5, 5), "dihedral", 8),
        (Grid(4, 6), "dihedral", 4),
        (Grid(2, 2), "dihedral", 8),
        (Grid(7, 7, True), "translations", 49),
        (Grid(7, 7, True), "torus", 8 * 49),
        (Grid(4, 6, True), "torus", 4 * 24),
        (Grid(7, 7, True), "multipliers", 49 * 8 * 6 // 2),  # -1 is already a rotation by 180
        (Grid(7, 7, True), "full", 49 * 8 * 6 // 2 * 2),
    ],
)
def test_group_sizes(grid, name, size):
    group = grid.group(name)
    assert len(group) == size
    perms = {tuple(p) for p in group.permutations()}
    assert len(perms) == size  # every element distinct
    assert all(sorted(p) == list(range(grid.size)) for p in perms)  # every element a bijection


@pytest.mark.parametrize(
    "grid,name",
    [
        (Grid(4, 4), "dihedral"),
        (Grid(3, 5), "dihedral"),
        (Grid(5, 5, True), "torus"),
        (Grid(5, 5, True), "multipliers"),
        (Grid(5, 5, True), "full"),
    ],
)
def test_groups_are_closed_under_composition(grid, name):
    perms = {tuple(p) for p in grid.group(name).permutations()}
    for p in perms:
        for q in list(perms)[:25]:
            assert tuple(p[q[i]] for i in range(grid.size)) in perms


@pytest.mark.parametrize(
    "grid,name",
    [
        (Grid(4, 4), "translations"),
        (Grid(4, 6, True), "multipliers"),
        (Grid(6, 6, True), "full"),
        (Grid(5, 5), "nonsense"),
    ],
)
def test_groups_that_do_not_exist_are_refused(grid, name):
    with pytest.raises(BoardPuzzlesError):
        grid.group(name)


group_cases = st.sampled_from(
    [
        (Grid(5, 5), "dihedral"),
        (Grid(3, 6), "dihedral"),
        (Grid(5, 5, True), "torus"),
        (Grid(4, 6, True), "torus"),
        (Grid(7, 7, True), "multipliers"),
        (Grid(5, 5, True), "full"),
    ]
)


@given(group_cases, st.data())
def test_canonical_form_is_the_same_for_every_image(case, data):
    grid, name = case
    group = grid.group(name)
    cells = data.draw(st.sets(st.integers(0, grid.size - 1), min_size=1, max_size=6))
    element = data.draw(st.sampled_from(list(group)))
    image = grid.transform(cells, element)
    assert grid.canonical(image, group) == grid.canonical(cells, group)
    orbit = grid.orbit(cells, group)
    assert grid.canonical(cells, group) == min(orbit)  # the smallest image, found without the orbit
    assert len(group) % len(orbit) == 0  # orbit-stabiliser


def test_canonical_form_of_nothing_is_empty():
    assert Grid(3, 3).canonical([], "dihedral") == ()


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 5), (4, 7), (6, 6), (9, 4)])
def test_long_lines_are_the_lines_longer_than_k(rows, cols):
    """The vectorised lines (no cache) are the cached ones, in every direction of the board."""
    from boardpuzzles.grid import line_directions

    grid = Grid(rows, cols)
    for direction in line_directions(max(rows, cols)):
        for k in (0, 1, 2):
            table = grid.long_lines(direction, k)
            found = [tuple(int(c) for c in row if c >= 0) for row in table]
            assert sorted(found) == sorted(line for line in grid.lines(direction) if len(line) > k)
