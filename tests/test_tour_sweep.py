"""The sweep kernel's successors (``_kernels.tour_sweep.expand_square``) against a plain twin.

The kernel makes a state's slid code once and each successor's code from it by rewriting the
fields of the few squares a choice changes. The twin here decodes each state, applies each choice
to a fresh copy of its mates and encodes the window whole after it slides (with the mirror image
at a row's end): the kernel must write the same rows, in the same order, and complete the same
tours. Counts (published values, plain backtracking) are checked in test_open_tours.py and
test_closed_tours.py."""

import numpy as np
import pytest

from boardpuzzles._kernels import tour_sweep as ts


def twin_successors(f, code, ways, v):
    """(rows, completed) for one state: every choice, each successor encoded whole."""
    slots = f.slots
    mate = np.empty(slots + 1, np.int64)
    ts.decode(code, slots, f.paths, f.offsets, f.masks, mate)
    first = int(mate[0])
    room = f.paths and int(np.count_nonzero(mate == ts.TERM)) < 2
    reflect = v % f.width == f.width - 1
    forward = f.forward[v]
    n_forward = int(f.n_forward[v])
    shifted, reflected = np.empty(slots, np.int64), np.empty(slots, np.int64)
    choices = [(-1, -1)] + [(a, -1) for a in range(n_forward)]
    choices += [(a, b) for a in range(n_forward) for b in range(a + 1, n_forward)]
    rows, completed = [], 0
    for a, b in sorted(choices, key=lambda c: (c[0], c[1] if c[1] >= 0 else c[0])):
        edges = (a >= 0) + (b >= 0)
        if first == ts.FULL and edges:
            continue
        if first == ts.EMPTY and (edges == 0 or (edges == 1 and not room)):
            continue
        if first >= 0 or first == ts.TERM:
            if edges == 2 or (edges == 0 and not (f.paths and (first == ts.TERM or room))):
                continue
        work = mate.copy()
        result = ts._choose(work, first, forward, a, b)
        if result == ts.THIRD_EDGE or (result == ts.CYCLE and f.paths):
            continue
        if result in (ts.CYCLE, ts.WHOLE):
            if ts.all_full(work, slots, f.squares - v):
                completed += int(ways)
            continue
        rows.append((int(ts.slide(work, slots, f.offsets, f.mirror, reflect, shifted, reflected)), int(ways)))
    return rows, completed


@pytest.mark.parametrize(
    ("width", "length", "paths"),
    [
        pytest.param(5, 5, True, marks=pytest.mark.nojit),  # the kernel as plain Python too
        (3, 6, True),
        (5, 6, True),
        (5, 6, False),
        (6, 5, True),
        (7, 4, False),
        (8, 4, True),
        (8, 4, False),
    ],
)
def test_the_kernels_successors_are_the_twins(width, length, paths):
    f = ts.frontier(width, length, paths)
    flag = np.zeros(1, np.int64)
    rng = np.random.default_rng(width * 100 + length * 10 + paths)
    layer = np.array([[0, 1]], np.int64)
    for v in range(f.squares):
        out = np.empty((ts.MAX_SUCCESSORS * len(layer) + ts.MAX_SUCCESSORS, 2), np.int64)
        status, _, n, completed = ts.expand_square(f, layer, 0, out, v, flag)
        assert status == ts.DONE
        twin_rows, twin_completed = [], 0
        for code, ways in layer:
            rows, done = twin_successors(f, code, ways, v)
            twin_rows += rows
            twin_completed += done
        assert [tuple(row) for row in out[:n].tolist()] == twin_rows, (v, width, length, paths)
        assert completed == twin_completed
        codes, where = np.unique(out[:n, 0], return_inverse=True)
        ways = np.zeros(len(codes), np.int64)
        np.add.at(ways, where, out[:n, 1])
        layer = np.stack([codes, ways], axis=1)
        if len(layer) > 400:  # a sample keeps the twin quick and the later squares reached
            layer = layer[np.sort(rng.choice(len(layer), 400, replace=False))]
