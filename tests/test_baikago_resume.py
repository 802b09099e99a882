"""Baikago's df-pn searches in pieces: a checkpoint file keeps their tables when a run stops, and
a later run continues from it (``baikago solve --checkpoint FILE``).

Every resumed result is replayed by the independent checker of ``tests/test_baikago_solve.py``
and compared with a run that never stopped; a file made for another search, damaged, or not
ours is refused with one line (exit 2) and left byte for byte as it was.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardpuzzles.checkpoint import CheckpointError
from boardpuzzles.cli import _run
from boardpuzzles.limits import Interrupted, Limits, TimeLimitReached
from boardpuzzles.puzzles.baikago import proof
from boardpuzzles.puzzles.baikago import solve as bs
from boardpuzzles.puzzles.baikago.dfpn import WHOLE_GAME
from boardpuzzles.puzzles.baikago.rules import BLACK, WHITE, Rules
from boardpuzzles.puzzles.baikago.table_file import ENTRY_BYTES, FILE_OVERHEAD_BYTES
from tests.test_baikago_solve import board_of, check_proof
from tests.timing import process_cpu_seconds

#: Positions found by sampling random 5x5 positions for ones that take the search hundreds of
#: nodes (with pairings on): two black wins and a draw.
#: Runs a resumed solve may take before the test gives up (a node limit below the depth of the
#: search would make no progress: each run starts again from the root).
MAX_PIECES = 200


def solve_in_pieces(
    path: Path, node_limit: int, states: list[str] | None = None, **options: Any
) -> tuple[bs.Solution, int, list[int]]:
    """Solve with a checkpoint, ``node_limit`` nodes a run, until it ends: the solution, how many
    runs stopped at the limit, and the nodes of all searches in the file after each stop (and
    their states, in ``states``)."""
    stops = 0
    nodes: list[int] = []
    for _ in range(MAX_PIECES):
        try:
            return bs.solve(checkpoint=str(path), node_limit=node_limit, **options), stops, nodes
        except bs.NodeLimitReached:
            stops += 1
            solver = bs.Solver(
                options["rules"],
                options.get("tt_bits", bs.DEFAULT_TT_BITS),
                options.get("start"),
                options.get("pairings", True),
                options.get("attackers", (BLACK, WHITE)),
                checkpoint=str(path),
            )
            nodes.append(sum(search["nodes"] for search in solver.standing()))
            if states is not None:
                states.extend(search["state"] for search in solver.standing())
    raise AssertionError(f"no answer after {MAX_PIECES} runs of {node_limit} nodes")


def strategies(solution: bs.Solution) -> list[Any]:
    return [proof.get("strategy") for proof in solution.to_json()["proofs"]]


CASES = {
    "3x3 strategies": {"rules": Rules(3), "pairings": False, "tt_bits": 10},
    "4x4 strategies": {"rules": Rules(4), "pairings": False, "tt_bits": 12},
    "5x5 position, black wins": {"rules": Rules(5), "start": board_of(".....X....X.X.....O..O..O"), "tt_bits": 14},
    "5x5 position, black wins again": {
        "rules": Rules(5),
        "start": board_of("..XO..X.....X........O..."),
        "tt_bits": 14,
    },
    "5x5 position, a draw": {"rules": Rules(5), "start": board_of(".O...........XO..X......."), "tt_bits": 14},
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("pieces", [3, 12])
def test_a_resumed_search_gives_the_same_checked_proof(tmp_path: Path, name: str, pieces: int) -> None:
    """The search split into about ``pieces`` runs (at least 12 nodes each)."""
    options = CASES[name]
    whole = bs.solve(**options)
    node_limit = max(12, sum(c.nodes for c in whole.claims) // pieces)
    resumed, stops, nodes = solve_in_pieces(tmp_path / "search.dfpn", node_limit, **options)
    assert stops >= 2, "the node limit did not stop the search twice: this test would test less than it says"
    assert nodes == sorted(nodes) and len(set(nodes)) == len(nodes), "a resumed search lost nodes"
    document = resumed.to_json()
    assert check_proof(document) == resumed.value == whole.value
    # Not a law of df-pn (each resume walks again from the root, and its table's work counts
    # differ from the whole run's, so it could take another path), but on these cases the
    # proofs come out identical, which is the strongest check there is; the resumed search takes
    # a few more nodes for the walks.
    assert strategies(resumed) == strategies(whole)
    assert sum(c.nodes for c in resumed.claims) >= sum(c.nodes for c in whole.claims)


#: A 5x5 position of about 4,000 search nodes whose table holds thousands of entries (found by
#: sampling): black cannot win.
SAMPLED_DEFENCE: dict[str, Any] = {
    "rules": Rules(5),
    "start": board_of(".O.......X.X.X..X...O..OO"),
    "tt_bits": 14,
    "attackers": (BLACK,),
}


def held_to(entries: int) -> int:
    """The --checkpoint-size, in bytes, that keeps ``entries`` entries of one search."""
    return FILE_OVERHEAD_BYTES + entries * ENTRY_BYTES


@pytest.mark.parametrize("entries", [300, 1000])
def test_a_checkpoint_kept_small_still_gives_a_checked_proof(tmp_path: Path, entries: int) -> None:
    """A checkpoint held to a few hundred entries, of the thousands the search holds (a 5x5
    position of about 4,000 nodes, found by sampling: black cannot win): each file stays under
    its bound, and the resumed search, which finds again what was left out, still ends in a proof
    the checker accepts, of the same claim as a search that never stopped."""
    options = SAMPLED_DEFENCE
    whole = bs.solve(**options)
    most_bytes = held_to(entries)
    path = tmp_path / "small.dfpn"
    node_limit = sum(c.nodes for c in whole.claims) // 20
    states: list[str] = []
    resumed, stops, nodes = solve_in_pieces(path, node_limit, states, checkpoint_bytes=most_bytes, **options)
    assert stops >= 2 and nodes == sorted(nodes)
    if entries == 1000:  # a stop while the proof was read out: its walk went on beside the cut table
        assert "disproved" in states
    solver = bs.Solver(checkpoint=str(tmp_path / "again.dfpn"), checkpoint_bytes=most_bytes, **options)
    with pytest.raises(bs.NodeLimitReached):
        solver.run(Limits(), sum(c.nodes for c in whole.claims) * 3 // 4)
    kept, held = solver.entries_kept()  # what the stop's line says
    assert kept == entries < held
    assert path.stat().st_size <= most_bytes
    assert bs.Solver(checkpoint=str(path), **options).loaded  # the size is not part of the search's identity
    assert [c.statement() for c in resumed.claims] == [c.statement() for c in whole.claims] == ["black cannot win"]
    check_proof(resumed.to_json())


def test_a_checkpoint_cut_smaller_later_still_serves(tmp_path: Path) -> None:
    """A finished search saved whole, then answered again with a smaller --checkpoint-size (which
    saves a cut table), then again with none: its finished strategy is read back each time (a
    finished walk is bound to no table); and a walk stopped beside a cut checkpoint goes on in the
    same solver, whose table is still whole (and not with another table size)."""
    options = SAMPLED_DEFENCE
    path = tmp_path / "cut.dfpn"
    first = bs.solve(checkpoint=str(path), **options)
    for size in (held_to(300), None):
        again = bs.solve(checkpoint=str(path), checkpoint_bytes=size, **options)
        assert strategies(again) == strategies(first)
    assert path.stat().st_size <= held_to(300)  # the cut table, read back whole
    solver = bs.Solver(checkpoint=str(tmp_path / "walk.dfpn"), checkpoint_bytes=held_to(300), **options)
    limits = Limits()
    solver.report = lambda line: limits.stop()  # stop at the read-out's first report
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bs, "REPORT_SECONDS", 0.0)
        patch.setattr(proof, "REPORT_EVERY", 3)
        with pytest.raises(Interrupted):
            solver.run(limits)
    assert solver.save()
    bits = options["tt_bits"]  # the walk needs the table it was saved from: not another size
    with pytest.raises(CheckpointError, match=f"read out part way from a table of --tt-bits {bits}: continue with"):
        bs.Solver(checkpoint=str(tmp_path / "walk.dfpn"), **{**options, "tt_bits": bits + 1}).run(Limits())
    assert check_proof(solver.run(Limits()).to_json()) == "unknown"


def _rewrite_header(path: Path, change: Any) -> None:
    """Give a checkpoint another header (``change`` edits its dict), with a checksum that fits:
    a file this program could have written, not a damaged one."""
    import hashlib

    from boardpuzzles.checkpoint import canonical
    from boardpuzzles.puzzles.baikago.table_file import TABLE_MAGIC

    data = path.read_bytes()
    at = len(TABLE_MAGIC) + 8
    length = int.from_bytes(data[len(TABLE_MAGIC) : at], "little")
    header = json.loads(data[at : at + length])
    change(header)
    text = canonical(header).encode("ascii")
    body = TABLE_MAGIC + len(text).to_bytes(8, "little") + text + data[at + length : -32]
    path.write_bytes(body + hashlib.sha256(body).digest())


@pytest.mark.parametrize("bits", [10, 16], ids=["into a smaller table", "into a larger table"])
def test_a_checkpoint_continues_with_another_table_size(tmp_path: Path, bits: int) -> None:
    """A table is a cache of values keyed by position: a search saved with one --tt-bits goes on
    with another, its entries moved into the new table's buckets (a larger one takes them all),
    its node count carried on, and ends in the proof a run that never stopped gives (replayed by
    the checker)."""
    path = tmp_path / "four.dfpn"
    options: dict[str, Any] = {"rules": Rules(4), "pairings": False}
    with pytest.raises(bs.NodeLimitReached):
        bs.solve(tt_bits=12, checkpoint=str(path), node_limit=60, **options)
    saved = bs.Solver(Rules(4), 12, None, False, checkpoint=str(path))
    saved_entries = {attacker: search.entries() for attacker, search in saved.searches.items()}
    moved = bs.Solver(Rules(4), bits, None, False, checkpoint=str(path))
    assert moved.loaded and moved.table_file is not None and moved.table_file.saved_tt_bits == 12
    for attacker, search in moved.searches.items():
        assert search.nodes == saved.searches[attacker].nodes
        old, new = saved_entries[attacker], search.entries()
        here = dict(zip(new[1].tolist(), zip(*(array.tolist() for array in new[2:]), strict=True), strict=True))
        there = dict(zip(old[1].tolist(), zip(*(array.tolist() for array in old[2:]), strict=True), strict=True))
        assert set(here) <= set(there) and all(here[key] == there[key] for key in here)
        assert len(here) == len(there) if bits > 12 else 0 < len(here) <= 1 << bits
        assert all(
            slot - (key & ((1 << bits) - 4)) in range(4)
            for slot, key in zip(new[0].tolist(), new[1].tolist(), strict=True)
        )
    solution = bs.solve(tt_bits=bits, checkpoint=str(path), **options)
    assert check_proof(solution.to_json()) == "draw" == check_proof(bs.solve(tt_bits=12, **options).to_json())
    assert solution.value == "draw"


def test_entries_that_meet_in_a_smaller_tables_bucket_keep_the_costliest() -> None:
    """Six entries whose keys share a bucket of a 2**10 table (and two of another): the bucket
    keeps the four that cost most to compute (a settled one counts SETTLED_WEIGHT times its work),
    the other bucket both; a larger table keeps all eight."""
    from boardpuzzles.puzzles.baikago.dfpn import Search

    keys = np.array([(i << 12) | 8 for i in range(1, 7)] + [(1 << 12) | 20, (2 << 12) | 21], dtype=np.uint64)
    pn = np.array([5, 5, 0, 5, 5, 5, 1, 1], dtype=np.int64)  # the third is settled
    dn = np.array([5, 5, 9, 5, 5, 5, 1, 1], dtype=np.int64)
    work = np.array([10, 60, 9, 30, 50, 40, 1, 2], dtype=np.int64)
    flag = np.zeros(8, dtype=np.int8)
    small = Search(Rules(4), BLACK, tt_bits=10)
    small.place((keys, pn, dn, work, flag))
    slots, kept_keys, _, _, kept_work, _ = small.entries()
    assert sorted(zip(kept_work.tolist(), kept_keys.tolist(), strict=True)) == sorted(
        (w, k) for w, k in zip(work.tolist(), keys.tolist(), strict=True) if w not in (10, 30)
    )  # the settled one (9 x SETTLED_WEIGHT, 4) outweighs work 10 and 30
    assert set(slots.tolist()) == {8, 9, 10, 11, 20, 21}
    large = Search(Rules(4), BLACK, tt_bits=16)
    large.place((keys, pn, dn, work, flag))
    assert sorted(large.entries()[1].tolist()) == sorted(keys.tolist())


def test_a_checkpoint_keeps_its_size_when_continued_without_one(tmp_path: Path) -> None:
    """A search saved under a size and continued without --checkpoint-size stays under that size
    (continuing a file held small, as the committed 8x8 one is, never writes a whole table over
    it); a size given again replaces it, and "all" lifts it. A file from before sizes were
    remembered (no ``size_bound``) keeps every entry, as it always did."""
    options = SAMPLED_DEFENCE
    path = tmp_path / "held.dfpn"
    most_bytes = held_to(300)
    held = bs.Solver(checkpoint=str(path), checkpoint_bytes=most_bytes, **options)
    with pytest.raises(bs.NodeLimitReached):
        held.run(Limits(), 2_000)
    held.save()
    assert held.entries_kept()[1] > 300  # the table holds more than the file keeps
    continued = bs.Solver(checkpoint=str(path), **options)
    assert continued.bound_from_file and continued.checkpoint_bytes == most_bytes
    with pytest.raises(bs.NodeLimitReached):
        continued.run(Limits(), 1_000)
    continued.save()
    assert continued.entries_kept()[0] == 300 and path.stat().st_size <= most_bytes
    larger = held_to(600)
    resized = bs.Solver(checkpoint=str(path), checkpoint_bytes=larger, **options)
    assert not resized.bound_from_file and resized.checkpoint_bytes == larger
    lifted = bs.Solver(checkpoint=str(path), checkpoint_bytes="all", **options)
    assert lifted.checkpoint_bytes is None and lifted.checkpoint_entries is None
    with pytest.raises(bs.NodeLimitReached):
        lifted.run(Limits(), 1_000)
    lifted.save()
    assert path.stat().st_size > most_bytes and bs.Solver(checkpoint=str(path), **options).checkpoint_bytes is None
    _rewrite_header(path, lambda header: header.pop("size_bound"))
    older = bs.Solver(checkpoint=str(path), **options)
    assert not older.bound_from_file and older.checkpoint_entries is None


@pytest.mark.parametrize("bound", [0, -5, "16M", 1.5, True])
def test_a_checkpoint_with_a_size_bound_that_cannot_be_one_is_refused(tmp_path: Path, bound: Any) -> None:
    path = tmp_path / "odd.dfpn"
    solver = bs.Solver(checkpoint=str(path), checkpoint_bytes=held_to(300), **SAMPLED_DEFENCE)
    with pytest.raises(bs.NodeLimitReached):
        solver.run(Limits(), 500)
    solver.save()
    _rewrite_header(path, lambda header: header.update(size_bound=bound))
    with pytest.raises(CheckpointError, match="is damaged"):
        bs.Solver(checkpoint=str(path), **SAMPLED_DEFENCE)


def test_a_small_checkpoint_keeps_the_entries_the_table_would_give_up_last() -> None:
    from boardpuzzles._kernels.baikago_solve import SETTLED_WEIGHT
    from boardpuzzles.puzzles.baikago.dfpn import Search

    search = Search(Rules(5), BLACK, 14)
    search.solve(np.array(SAMPLED_DEFENCE["start"], dtype=np.int8), Limits())
    slots, key, pn, dn, work, flag = search.entries()
    assert len(slots) > 100
    cost = np.where((pn == 0) | (dn == 0), work * SETTLED_WEIGHT, work)
    kept = search.entries(100)
    assert len(kept[0]) == 100 and list(kept[0]) == sorted(kept[0])
    kept_cost = np.where((kept[2] == 0) | (kept[3] == 0), kept[4] * SETTLED_WEIGHT, kept[4])
    assert kept_cost.min() >= np.sort(cost)[-100]  # none left out costs more than one kept
    for table, values in zip(search.tt, kept[1:], strict=True):
        assert np.array_equal(table[kept[0]], values)  # each kept entry whole, at its own slot
    assert len(search.entries(0)[0]) == 0 and len(search.entries(10**9)[0]) == len(slots)


RECORDS = Path(__file__).resolve().parent.parent / "records"


@pytest.mark.parametrize("name", ["baikago-8.dfpn"] + sorted(p.name for p in RECORDS.glob("baikago-8-after-*.dfpn")))
def test_the_committed_8x8_checkpoint_is_the_search_the_records_describe(tmp_path: Path, name: str) -> None:
    """records/baikago-8.dfpn, the search for black's win on 8x8 that a fresh checkout continues,
    and records/baikago-8-after-M.dfpn, each search after black's first move M (or after moves
    M-N-X, as d5-e4-f5): read as `solve 8 --side black --tt-bits 26 [--after M]` reads it
    (checksum and entries checked; the 2^26-slot table itself is not built here), held to 16 MB
    and saved with that bound, and at the node count the records page gives (open, or settled)."""
    import shutil

    from boardpuzzles.cli.baikago.solve import _position_after

    root = RECORDS.parent
    path = tmp_path / name
    shutil.copyfile(RECORDS / name, path)
    assert path.stat().st_size <= 16 << 20
    after = name.removesuffix(".dfpn").split("-after-")[1:]
    start = _position_after(Rules(8), after[0].replace("-", ",")) if after else None  # after-d5-e4-f5: d5,e4,f5
    solver = bs.Solver(Rules(8), 26, start, True, (BLACK,))
    table_file = bs.TableFile(str(path), solver.identity())
    saved = table_file.read()
    assert saved is not None and list(saved) == [BLACK]
    assert table_file.bound == 16 << 20  # continuing it without --checkpoint-size keeps it small
    search = saved[BLACK]
    assert len(search.slots) > 100_000
    records = (root / "docs" / "records.md").read_text()
    if search.result is None:  # open: the In progress list says where it stands
        assert f"{search.stats[0]:,} nodes" in records.split("## In progress")[1]
    else:  # settled, as black cannot win (a proof is read out of it again): the records give its nodes
        assert after and search.result[1] == 0 and f"{search.stats[0]:,} nodes" in records


def test_a_finished_checkpoint_answers_without_searching_again(tmp_path: Path) -> None:
    path = tmp_path / "three.dfpn"
    first = bs.solve(Rules(3), pairings=False, tt_bits=10, checkpoint=str(path))
    again = bs.Solver(Rules(3), 10, None, False, checkpoint=str(path))
    assert again.loaded and [s["state"] for s in again.standing()] == ["disproved", "disproved"]
    second = again.run(Limits())
    assert [c.nodes for c in second.claims] == [c.nodes for c in first.claims]
    assert check_proof(second.to_json()) == "draw"


def test_a_time_limit_keeps_the_search_and_the_next_run_goes_on(tmp_path: Path) -> None:
    """7x7 black (about 20 CPU seconds in all) stopped twice by a time limit: the second run starts
    from the nodes of the first and adds to them."""
    path = tmp_path / "seven.dfpn"
    options: dict[str, Any] = {"rules": Rules(7), "attackers": (BLACK,), "tt_bits": 16, "checkpoint": str(path)}
    seen = []
    for _ in range(2):
        limits = Limits(0.5)
        with pytest.raises(TimeLimitReached):
            bs.solve(limits=limits, **options)
        solver = bs.Solver(Rules(7), 16, None, True, (BLACK,), str(path))
        assert solver.loaded
        (standing,) = solver.standing()
        assert standing["state"] == "open" and standing["pn"] > 0 and standing["dn"] > 0
        seen.append(standing["nodes"])
    assert 0 < seen[0] < seen[1]


def test_how_far_a_search_got_says_which_root_children_the_table_lost() -> None:
    """An open search's numbers at the root are read from its children's entries; a full table
    may have given some up, and those read as unexplored (1 and 1). The standing says how many
    the table holds, and the line printed at a stop says so when some are gone."""
    from boardpuzzles.cli.baikago.solve import _standing

    solver = bs.Solver(Rules(6), 14, None, False, (BLACK,))
    with pytest.raises(bs.NodeLimitReached):
        solver.run(Limits(), node_limit=3_000)
    (whole,) = solver.standing()
    assert whole["state"] == "open" and whole["root_children"] == 6  # 36 points, 6 classes
    assert 1 <= whole["root_children_in_table"] <= 6
    moves = whole["moves"]  # each class once, costliest first, and the root's numbers are theirs
    assert len({m["move"] for m in moves}) == 6 and [m["work"] for m in moves] == sorted(
        (m["work"] for m in moves), reverse=True
    )
    assert (min(m["pn"] for m in moves), sum(m["dn"] for m in moves)) == (whole["pn"], whole["dn"])
    assert sum(m["work"] > 0 for m in moves) == whole["root_children_in_table"]
    assert {m["move"] for m in moves} == {"a6", "b6", "c6", "b5", "c5", "c4"}  # each class by its first point
    search = solver.search(BLACK)
    board = np.zeros(36, dtype=np.int8)
    _, keys = search.state(board)
    for p in range(36):  # give up every child's entry
        slot = int(search.k.tt_find(search.tt[0], np.uint64(search.child_key(keys, BLACK, p))))
        if slot >= 0:
            search.tt[0][slot] = 0
    (lost,) = solver.standing()
    assert lost["root_children_in_table"] == 0 and (lost["pn"], lost["dn"]) == (1, 6)
    assert all((m["pn"], m["dn"], m["work"]) == (1, 1, 0) for m in lost["moves"])
    (line,) = _standing(solver)
    assert line.endswith(
        "at the root pn 1, dn 6 (the table holds 0 of the root's 6 children; the others are read as unexplored)"
    )


def test_a_checkpoint_holds_only_the_search_it_names(tmp_path: Path) -> None:
    """A threat-space search's disproofs hold only for an attacker held to threats: a file is
    bound to one kind of search (its identity names ``threats_from``), and a search of another
    kind is never written into it, nor read from it."""
    path = tmp_path / "five.dfpn"
    solver = bs.Solver(Rules(5), 12, None, False, (BLACK,), str(path))
    solver.search(BLACK).threats_from = 4
    with pytest.raises(ValueError, match="only the search its identity names"):
        solver.save()
    assert not path.exists()
    threats = bs.Solver(Rules(5), 12, None, False, (BLACK,), str(path), threats_from=4)
    assert threats.identity()["threats_from"] == 4 and "threats_from" not in solver.identity()
    threats.search(BLACK).threats_from = WHOLE_GAME
    with pytest.raises(ValueError, match="only the search its identity names"):
        threats.save()
    threats.search(BLACK).threats_from = 4
    assert threats.save() and path.exists()
    for other in (None, 2):
        with pytest.raises(CheckpointError, match="--threats-from 4, here"):
            bs.Solver(Rules(5), 12, None, False, (BLACK,), str(path), threats_from=other)
    assert bs.Solver(Rules(5), 12, None, False, (BLACK,), str(path), threats_from=4).loaded


def test_a_save_cut_short_leaves_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "four.dfpn"
    with pytest.raises(bs.NodeLimitReached):
        bs.solve(Rules(4), pairings=False, tt_bits=12, checkpoint=str(path), node_limit=60)
    before = path.read_bytes()

    def killed(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        bs.solve(Rules(4), pairings=False, tt_bits=12, checkpoint=str(path), node_limit=60)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["four.dfpn"], "a temporary file was left"


def test_a_save_waits_for_a_search_that_still_holds_its_table(tmp_path: Path) -> None:
    path = tmp_path / "three.dfpn"
    solver = bs.Solver(Rules(3), 10, None, False, checkpoint=str(path))
    with solver._lock:  # as a search abandoned in its kernel would hold it
        assert solver.save(wait=0.01) is False
    assert not path.exists()
    assert solver.save() is True and path.exists()


# -------------------------------------------------------------------- the command line
FOUR = ["baikago", "solve", "4", "--no-pairings", "--tt-bits", "12"]


def made_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A checkpoint of 4x4 (no pairings), stopped part way by the command's node limit."""
    path = tmp_path / "four.dfpn"
    assert _run([*FOUR, "--checkpoint", str(path), "--node-limit", "100"]) == 3
    err = capsys.readouterr().err
    assert "search is kept in" in err and "Traceback" not in err
    return path


def test_cli_stops_keeps_and_continues(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = made_checkpoint(tmp_path, capsys)
    proof = tmp_path / "four.json.gz"
    assert _run([*FOUR, "--checkpoint", str(path), "--proof", str(proof)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("4x4, + and x crosses, any d: a draw")
    assert f"continuing from {path}: black attacking: " in err
    assert check_proof(json.loads(gzip.decompress(proof.read_bytes()))) == "draw"
    # the finished file answers again, at once, and says so in JSON
    assert _run([*FOUR, "--checkpoint", str(path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["value"] == "draw" and document["resumed"] is True


def test_cli_checkpoint_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "four.dfpn"
    assert _run([*FOUR, "--checkpoint", str(path), "--checkpoint-size", "1M", "--node-limit", "100"]) == 3
    assert "search is kept in" in capsys.readouterr().err and 0 < path.stat().st_size <= 1 << 20
    assert _run([*FOUR, "--checkpoint", str(path), "--node-limit", "20"]) == 3
    err = capsys.readouterr().err
    assert f"keeping {path} under 1 MiB, as it was saved (--checkpoint-size SIZE or all to change that)" in err
    assert _run([*FOUR, "--checkpoint", str(path), "--checkpoint-size", "ALL", "--node-limit", "20"]) == 3
    assert "keeping" not in capsys.readouterr().err
    assert _run([*FOUR, "--checkpoint", str(path), "--checkpoint-size", "1M"]) == 0
    assert capsys.readouterr().out.startswith("4x4, + and x crosses, any d: a draw")
    for bad, says in [
        (["--checkpoint-size", "1M"], "--checkpoint-size needs --checkpoint FILE"),
        (
            ["--checkpoint", str(path), "--checkpoint-size", "lots"],
            "--checkpoint-size takes a size like 8G or 512M, or all, not 'lots'",
        ),
        (["--checkpoint", str(path), "--checkpoint-size", "100K"], "is less than 1 MiB: too little to keep a search"),
    ]:
        before = path.read_bytes()
        assert _run([*FOUR, *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err and "Traceback" not in err
        assert path.read_bytes() == before


def test_cli_a_board_settled_by_a_pairing_keeps_no_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """6x6 has a pairing (black cannot win, no search runs): the checkpoint holds no search, and
    the command does not say that it continues one, or keeps one."""
    path = tmp_path / "six.dfpn"
    for _ in range(2):
        assert _run(["baikago", "solve", "6", "--side", "black", "--checkpoint", str(path)]) == 0
        out, err = capsys.readouterr()
        assert "black cannot win: pairing" in out and err == ""


def test_cli_node_limit_without_checkpoint(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([*FOUR, "--node-limit", "10"]) == 3
    *standing, last = capsys.readouterr().err.splitlines()
    assert "node limit of 10" in last and "add --checkpoint FILE" in last
    assert standing and all(line.startswith("  ") and "search nodes" in line for line in standing)  # how far it got


@pytest.mark.parametrize("value", ["0", "-3", str(2**61 + 1), "9" * 30])
def test_cli_node_limit_out_of_range(capsys: pytest.CaptureFixture[str], value: str) -> None:
    assert _run([*FOUR, "--node-limit", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--node-limit must be a positive whole number of search nodes" in err
    assert "2305843009213693952" not in err and "Traceback" not in err


def test_cli_stop_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "four.dfpn"
    assert _run([*FOUR, "--checkpoint", str(path), "--node-limit", "50", "--json"]) == 3
    document = json.loads(capsys.readouterr().out)
    assert document["complete"] is False and document["checkpoint"] == str(path)
    assert document["searches"][0]["attacker"] == "black" and document["searches"][0]["nodes"] > 50


@pytest.mark.parametrize(
    "options,words",
    [
        (["baikago", "solve", "5", "--no-pairings", "--tt-bits", "12"], "another search (board 4x4, here 5x5)"),
        ([*FOUR, "--side", "black"], "another search (--side both, here black)"),
        (["baikago", "solve", "4", "--tt-bits", "12"], "another search (--pairings off, here on)"),
        ([*FOUR, "--max-d", "1"], "another search (--max-d any, here 1)"),
        ([*FOUR, "--orientations", "+"], "another search (--orientations +x, here +)"),
        ([*FOUR, "--threats-from", "3"], "another search (--threats-from off, here 3)"),
    ],
)
def test_cli_refuses_a_checkpoint_of_another_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], words: str
) -> None:
    path = made_checkpoint(tmp_path, capsys)
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    assert _run([*options, "--checkpoint", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "use a new file" in err, err
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime


def test_the_refusal_gives_a_command_a_shell_can_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command that continues a refused checkpoint, quoted for a shell (a path with spaces)."""
    import shlex

    spaced = tmp_path / "my run (1).dfpn"
    made_checkpoint(tmp_path, capsys).rename(spaced)
    assert _run([*FOUR, "--side", "black", "--checkpoint", str(spaced)]) == 2
    err = capsys.readouterr().err
    command = shlex.split(err.split("`")[1])
    assert command[:3] == ["boardpuzzles", "baikago", "solve"] and command[-2:] == ["--checkpoint", str(spaced)]
    assert _run([*command[1:], "--node-limit", "100"]) in (0, 3)  # 0: it finished within them
    assert "continuing from" in capsys.readouterr().err


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1 :]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda d: _flip(d, len(d) // 2), id="a flipped bit in the table"),
        pytest.param(lambda d: _flip(d, 30), id="a flipped bit in the header"),
        pytest.param(lambda d: d[:-100], id="cut short"),
        pytest.param(lambda d: d + b"\0", id="a byte more"),
        pytest.param(lambda d: d[:12], id="only the start"),
    ],
)
def test_cli_refuses_a_damaged_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Any) -> None:
    path = made_checkpoint(tmp_path, capsys)
    path.write_bytes(damage(path.read_bytes()))
    before = path.read_bytes()
    assert _run([*FOUR, "--checkpoint", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is damaged" in err and "Traceback" not in err, err
    assert path.read_bytes() == before


def _sqlite_file(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE mine (x)")
    db.commit()
    db.close()


@pytest.mark.parametrize(
    "make,words",
    [
        (lambda p: p.write_text("my notes, not a checkpoint\n"), "is not a boardpuzzles search checkpoint"),
        (lambda p: p.write_bytes(bytes(range(256)) * 4), "is not a boardpuzzles search checkpoint"),
        (_sqlite_file, "is an SQLite database"),
    ],
)
def test_cli_never_touches_a_file_that_is_not_ours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, words: str
) -> None:
    path = tmp_path / "precious"
    make(path)
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    assert _run([*FOUR, "--checkpoint", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "refusing to touch it" in err, err
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious"]


def test_a_count_refuses_a_search_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The other way round: a count's --checkpoint leaves a search checkpoint untouched."""
    path = made_checkpoint(tmp_path, capsys)
    before = path.read_bytes()
    assert _run(["queens", "count", "6", "--checkpoint", str(path)]) == 2
    assert "not a boardpuzzles checkpoint" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_cli_bad_checkpoint_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([*FOUR, "--checkpoint", str(tmp_path)]) == 2
    assert _run([*FOUR, "--checkpoint", str(tmp_path / "no" / "such.dfpn")]) == 2
    assert _run([*FOUR, "--node-limit", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and "Traceback" not in err


def test_an_empty_file_is_a_fresh_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.dfpn"
    path.write_bytes(b"")
    assert _run([*FOUR, "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    assert path.read_bytes().startswith(bs.TABLE_MAGIC)


def test_a_planted_entry_must_verify(tmp_path: Path) -> None:
    """Entries out of their bucket (an edit that recomputed the checksum) are refused too."""
    path = tmp_path / "three.dfpn"
    solver = bs.Solver(Rules(3), 10, None, False, checkpoint=str(path))
    search = solver.search(BLACK)
    slot = 5
    search.tt[0][slot] = np.uint64(0x1000)  # a key whose bucket starts at slot 0, not at 4
    search.tt[1][slot] = 0
    solver.save()
    with pytest.raises(CheckpointError, match="damaged"):
        bs.Solver(Rules(3), 10, None, False, checkpoint=str(path))
    assert os.path.getsize(path) > 0


def _nodes_in(path: Path) -> int:
    solver = bs.Solver(Rules(7), 16, None, True, (BLACK,), str(path))
    return sum(search["nodes"] for search in solver.standing())


def _deaf_to_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell starts a job in the background


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["ctrl-c", "kill-in-the-background"])
def test_ctrl_c_keeps_the_search(tmp_path: Path, stop: str) -> None:
    """A real process, interrupted with SIGINT while it continues a 7x7 search: exit 130, and the
    file holds more nodes than before (the save runs in the main thread once the search let go).
    The same for a kill (SIGTERM) of a run in the background, which a shell makes deaf to Ctrl-C:
    it used to end at once, losing the work since its last save."""
    path = tmp_path / "seven.dfpn"
    args = ["baikago", "solve", "7", "--side", "black", "--tt-bits", "16", "--checkpoint", str(path)]
    cli = [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args]
    first = subprocess.run([*cli, "--time-limit", "1"], capture_output=True, text=True, timeout=120)
    assert first.returncode == 3, first.stderr
    before = _nodes_in(path)
    assert before > 0
    background = stop == "kill-in-the-background"
    process = subprocess.Popen(
        cli,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_deaf_to_ctrl_c if background else None,
    )
    try:
        assert process.stderr is not None
        line = ""
        while not line.startswith("continuing from"):  # the search starts right after this line
            line = process.stderr.readline()
            assert line, "the command ended before it continued the search"
        time.sleep(1.5)
        assert process.poll() is None, "the command ended before the signal"
        process.send_signal(signal.SIGTERM if background else signal.SIGINT)
        code = process.wait(timeout=60)
        err = process.stderr.read()
    finally:
        process.kill()
    assert code == 130, err
    assert "interrupted: the search is kept in" in err and "Traceback" not in err
    assert "error" not in err  # one message, not a second "error: interrupted"
    assert _nodes_in(path) > before


@pytest.mark.slow
def test_ctrl_c_without_a_checkpoint_says_how_far_it_got() -> None:
    """Ctrl-C on a search with no checkpoint: exit 130, where the search stood (once it has
    started), and how to keep the next one; it used to end with only "interrupted"."""
    args = ["baikago", "solve", "8", "--side", "black", "--tt-bits", "16"]
    process = subprocess.Popen(
        [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # CPU time, not wall time, says the search has begun (loading the kernels takes about a
        # second of it): on a loaded machine a fixed sleep could end before the search starts
        deadline = time.monotonic() + 120
        while process_cpu_seconds(process.pid) < 4 and time.monotonic() < deadline:
            assert process.poll() is None, "the command ended before the signal"
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=60)
        assert process.stderr is not None
        err = process.stderr.read()
    finally:
        process.kill()
    assert code == 130, err
    assert "interrupted; add --checkpoint FILE to keep the search for a later run" in err and "Traceback" not in err
    assert "error" not in err


def test_solve_after_moves_proves_the_position_they_reach_and_its_checkpoint_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--after MOVES` solves the position after them: the proof file starts there, both
    checkers replay it from there, and a checkpoint of it is bound to it; refused for another
    start, it names the moves that continue it (any order of the stones reaches the position)."""
    import gzip
    import shlex

    from tests.test_baikago_solve import check_proof

    proof, checkpoint = tmp_path / "after.json.gz", tmp_path / "after.dfpn"
    after = ["baikago", "solve", "5", "--side", "black", "--tt-bits", "12", "--after", "c3, b2,d4"]
    assert _run([*after, "--proof", str(proof), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    start = "........X...X...O........"  # black on d4 (point 8) and c3 (12), white on b2 (16)
    assert document["start"] == start and document["value"] == "unknown"
    written = json.loads(gzip.decompress(proof.read_bytes()))
    assert written["start"] == start and check_proof(written) == "unknown"  # one side's claim, which holds
    assert _run(["baikago", "verify", str(proof)]) == 0
    assert "with black on d4 c3 and white on b2 (the proof holds)" in capsys.readouterr().out
    assert _run([*FOUR, "--after", "b2", "--checkpoint", str(checkpoint), "--node-limit", "30"]) in (0, 3)
    capsys.readouterr()
    assert _run([*FOUR, "--after", "c2", "--checkpoint", str(checkpoint)]) == 2
    err = capsys.readouterr().err
    assert "(--after b2, here c2)" in err
    command = shlex.split(err.split("`")[1])
    assert command[command.index("--after") + 1] == "b2"
    assert _run([*command[1:], "--node-limit", "30"]) in (0, 3) and "continuing from" in capsys.readouterr().err
    # several stones of each colour, given in another order: the command's moves reach the same
    # position; and a position where every cross is blocked is one too (over as a game, drawn)
    several = tmp_path / "several.dfpn"
    assert _run([*FOUR, "--after", "d1 b4 c1 b2 b3 a4 a1 d3", "--checkpoint", str(several), "--node-limit", "5"]) in (
        0,
        3,
    )
    capsys.readouterr()
    assert _run([*FOUR, "--checkpoint", str(several)]) == 2
    err = capsys.readouterr().err
    assert "(--after" in err and "here no moves)" in err
    command = shlex.split(err.split("`")[1])
    moves = command[command.index("--after") + 1].split(",")
    assert sorted(moves[0::2]) == sorted(["d1", "c1", "b3", "a1"]) and sorted(moves[1::2]) == sorted(
        ["b4", "b2", "a4", "d3"]
    )
    assert _run([*command[1:], "--node-limit", "5"]) in (0, 3) and "continuing from" in capsys.readouterr().err
    assert _run(["baikago", "solve", "4", "--after", "d1,b4,c1,b2,b3,a4,a1,d3,d2"]) == 0
    assert "a draw" in capsys.readouterr().out


@pytest.mark.parametrize(
    "after,words",
    [
        ("d4,d4", "move 2: d4 is already taken"),
        ("z9", "move 1: square 'z9' is off the 5x5 board"),
        (" , ", "name at least one move"),
        ("c3,a1,c2,a2,c4,a3,b3,a4,d3,e5", "inconsistent start position: black has a cross"),
        ("c3,a1,c2,a2,c4,a3,b3,a4,d3", "the start position is already won by black"),
    ],
)
def test_solve_after_moves_that_cannot_be_played_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], after: str, words: str
) -> None:
    assert _run(["baikago", "solve", "5", "--after", after]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
