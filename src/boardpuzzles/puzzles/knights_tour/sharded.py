"""Counting knight's tours with the frontier sweep in shards on disk (:mod:`.shards`), for counts
whose layers do not fit in memory.

A count goes on in shards where its sweep in memory stopped (``OverMemory``): the last whole
layer is written into the store, cut into ``2 ** bits`` shards, and every square is then decided
by one *task* a shard: read the shard's states from every part of the layer before, merge equal
states, decide the square, and write the states that follow cut into shards again. The tasks of
a square are independent: they run on ``--jobs`` threads or on a Dask cluster (``--scheduler``:
the store must then be on storage that every worker sees). Counting by halves, the leaves of both
halves are made the same way, cut into the count's pieces, and each piece is paired by a subtask
of the count (its checkpoint keeps them, as for a count in memory). A task that finds its part
written does nothing; a stopped count goes on from the last finished task.

A task holds at most its share of ``--memory`` (the memory over ``--jobs``); a shard that does not
fit is done in passes, each a share of the shard by more bits of the same hash.
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, SizeError
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.puzzles.knights_tour.frontier import Accumulator, OverMemory, collect, group_starts, say
from boardpuzzles.puzzles.knights_tour.meeting import Band, bottom_leaves, pair, top_leaves
from boardpuzzles.puzzles.knights_tour.rules import PLAN_MODULE
from boardpuzzles.puzzles.knights_tour.shards import Part, ShardError, Store, square_stage

#: Most shards a layer is cut into, and most passes a task makes over its shard.
MOST_SHARD_BITS = 12
MOST_PASS_BITS = 10
#: Bytes a state of a layer costs a task: its share of the layer read, the table it is merged in,
#: the states that follow and their table (a square makes about three times as many).
TASK_BYTES_PER_STATE = 200


@dataclass(frozen=True)
class ShardPlan:
    """What a store holds and how: the board, swept ``width`` squares a row for ``length`` rows
    (``paths``: open tours), its layers cut into ``2 ** bits`` shards from square ``seed`` on, up
    to square ``upto`` (keeping the layer at ``keep`` too); ``pieces`` > 0: by halves, the leaves
    cut into that many pieces; 0: the whole board, the tours counted as they are completed."""

    rows: int
    cols: int
    width: int
    length: int
    paths: bool
    bits: int
    seed: int
    upto: int
    keep: int
    pieces: int

    @property
    def shards(self) -> int:
        return 1 << self.bits

    @property
    def board(self) -> str:
        return f"{self.rows}x{self.cols}"

    def tasks_of(self, square: int) -> int:
        """How many tasks wrote the stage of the layer before ``square`` (one a shard, but one for
        a layer swept in memory, at the seed or before it)."""
        return 1 if square <= self.seed else self.shards

    @property
    def kind(self) -> str:
        return "open" if self.paths else "closed"

    def frontier(self) -> Any:
        from boardpuzzles._kernels.tour_sweep import frontier

        return frontier(self.width, self.length, self.paths)


def shard_bits(states: int, memory: int, jobs: int) -> int:
    """Shards for a layer of ``states`` at the start of a row: enough that a task of the rows to
    come (their layers may grow tenfold and more) holds its share of the memory."""
    bits = 1
    while (10 * states * TASK_BYTES_PER_STATE * jobs >> bits) > memory and bits < MOST_SHARD_BITS:
        bits += 1
    return bits


# ------------------------------------------------------------------ tasks
def _task_limits(limits: Limits) -> Limits:
    """The count's limits for a stage of tasks: the same stop flag, time limit, jobs and cluster,
    but no checkpoint (the store keeps what the tasks finished) and no progress bar."""
    stage = copy.copy(limits)
    stage.checkpoint, stage.checkpoint_file, stage.progress = None, None, None
    return stage


def _open(folder: str) -> tuple[Store, ShardPlan]:
    import json

    with open(os.path.join(folder, "store.json"), encoding="utf-8") as handle:
        identity = json.load(handle).get("identity", {})
    store = Store.open(folder, identity, create=False)
    return store, ShardPlan(**identity["plan"])


def complete_parts(store: Store, stage: str, tasks: int) -> list[Part]:
    """The parts of the tasks of a stage that finished all their passes; raises ``ShardError``
    when ``tasks`` of them are not all there."""
    parts = store.parts(stage)
    whole: list[Part] = []
    for task in range(tasks):
        mine = [p for name, p in parts.items() if name.split(".")[0] == f"t{task:05d}"]
        if not mine or len(mine) != int(mine[0].meta["part"].split("of")[-1]):
            raise ShardError(f"{store.folder}/{stage} misses the part of task {task}; run the count again")
        whole += mine
    return whole


def _done(store: Store, stage: str, task: int) -> int | None:
    """What task ``task`` completed when all its passes are written, else None (and its parts
    of an unfinished run are removed)."""
    mine = store.parts(stage, f"t{task:05d}.")
    passes = {int(n.split("of")[-1]) for n in mine}
    if len(passes) == 1 and len(mine) == passes.pop():
        return sum(p.completed for p in mine.values())
    for name in mine:
        for end in (".json", ".npy"):
            try:
                os.unlink(os.path.join(store.folder, stage, name + end))
            except FileNotFoundError:
                pass
    return None


def _merged(store: Store, stage: str, parts: list[Part], shard: int, part_of: Callable[[np.ndarray], np.ndarray],
            room: Callable[[int, int], None], board: str, budget: int, passes: int = 0) -> np.ndarray:  # fmt: skip
    """Shard ``shard``'s rows of the parts, only those that ``part_of`` keeps (one of ``2 **
    passes`` shares of them), equal codes merged. The parts are read a chunk at a time, a chunk
    taking about a thirty-second of the task's ``budget``: what it holds while it is read, sorted
    out and added counts against ``room`` too."""
    expected = sum(p.bounds[shard + 1] - p.bounds[shard] for p in parts) >> passes
    most = max((p.bounds[shard + 1] - p.bounds[shard] for p in parts), default=0)
    chunk = min(most, MERGING_CHUNK_ROWS, max(LEAST_MERGING_CHUNK_ROWS, budget // (32 * MERGING_BYTES_A_ROW)))
    reading = MERGING_BYTES_A_ROW * chunk
    accumulator = Accumulator(
        expected,
        lambda nbytes, rows: room(nbytes + reading, rows),
        f"the tour count of {board} outgrows 64-bit integers",
    )
    for part in parts:
        for rows in store.read_in_chunks(stage, part, shard, chunk):
            rows = part_of(rows)
            if len(rows):
                accumulator.add(rows, len(rows), np.empty_like(rows), np.empty(len(rows), np.int64))
    return accumulator.take()


#: Rows of a part read at once by :func:`_merged` (at most 16 MiB, fewer in a small budget), and
#: the bytes a row of it takes meanwhile: the row, its copy kept by the pass, the scratch rows and
#: groups of the table, the pass's hash and choice (16 + 16 + 16 + 8 + 8 + 1, rounded up).
MERGING_CHUNK_ROWS = 1 << 20
LEAST_MERGING_CHUNK_ROWS = 1 << 6
MERGING_BYTES_A_ROW = 72


def _share_of_pass(bits: int, passes: int, p: int) -> Callable[[np.ndarray], np.ndarray]:
    """The rows of pass ``p`` of ``2 ** passes`` over a shard (of ``bits`` bits): the next bits of
    the same hash of their codes."""
    from boardpuzzles._kernels import tour_sweep as ts

    def keep(rows: np.ndarray) -> np.ndarray:
        if passes == 0:
            return rows
        mine: np.ndarray = (ts.groups_of(rows[:, 0], bits + passes) & ((1 << passes) - 1)) == p
        kept: np.ndarray = rows[mine]
        return kept

    return keep


def _pass_room(budget: int) -> Callable[[int, int], None]:
    def room(nbytes: int, states: int) -> None:
        if nbytes > budget:
            raise OverMemory("a pass does not fit", -1, None)

    return room


#: What a pass of a task does: ``(keep, room, passes) -> (rows, bounds, completed)``: it reads the
#: rows ``keep`` leaves it, holds no more than ``room`` allows, and gives rows cut into shards.
OnePass = Callable[[Callable[[Any], Any], Callable[[int, int], None], int], tuple[Any, Any, int]]


def _in_passes(store: Store, stage: str, task: int, bits: int, budget: int, board: str, one_pass: OnePass) -> int:
    """Run a task's work over its shard in 1, 2, 4 ... passes until each pass fits ``budget``, and
    write a part a pass; what the task completed (at once when its parts are there)."""
    finished = _done(store, stage, task)
    if finished is not None:
        return finished
    passes = 0
    while True:
        try:
            completed = 0
            for p in range(1 << passes):
                rows, bounds, done = one_pass(_share_of_pass(bits, passes, p), _pass_room(budget), passes)
                store.write_part(stage, f"t{task:05d}.{p}of{1 << passes}", rows, bounds, done)
                del rows, bounds  # written: not held through the next pass, which has the whole budget
                completed += done
            return completed
        except OverMemory:
            _done(store, stage, task)  # removes the passes written so far
            passes += 1
            if passes > MOST_PASS_BITS:
                raise SizeError(f"a shard of the count of {board} does not fit in its memory; give it more") from None


#: Bytes a row takes while :func:`_by_shard` cuts it: the row and its sorted copy (16 each), its
#: key, its shard and its place in the order (8 each).
CUTTING_BYTES_A_ROW = 56


def _by_shard(
    rows: np.ndarray, keys: np.ndarray, bits: int, room: Callable[[int, int], None] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Rows sorted by the shard (top ``bits`` bits of the hash) of their ``keys``, and where each
    shard's rows start. ``room`` (if given) is asked first for what the cutting holds."""
    from boardpuzzles._kernels import tour_sweep as ts

    if room is not None:
        room(CUTTING_BYTES_A_ROW * len(rows), len(rows))
    shard = ts.groups_of(keys, bits)
    return np.take(rows, np.argsort(shard, kind="stable"), axis=0), group_starts(shard, 1 << bits)


def _sweep_task(spec: tuple[str, str, int, int, int], limits: Limits) -> int:
    """Decide square ``square`` for shard ``shard`` of the layer before it (spec: ``("square",
    folder, square, shard, budget)``); the tours it completed."""
    from boardpuzzles._kernels import tour_sweep as ts

    _, folder, square, shard, budget = spec
    store, plan = _open(folder)
    tables = plan.frontier()
    source = square_stage(square)
    parts = complete_parts(store, source, plan.tasks_of(square))
    one = copy.copy(limits)
    one.jobs = 1

    def one_pass(
        keep: Callable[[np.ndarray], np.ndarray], room: Callable[[int, int], None], passes: int
    ) -> tuple[Any, Any, int]:
        layer = _merged(store, source, parts, shard, keep, room, plan.board, budget, passes)
        after, _, done = collect(
            lambda lo, hi, out, at: ts.expand_square(tables, layer[lo:hi], at, out, square, one.flag),
            len(layer), len(layer), lambda nbytes, states: room(nbytes + layer.nbytes, states), one,
            f"the tour count of {plan.board} outgrows 64-bit integers",
        )  # fmt: skip
        layer = np.empty((0, 2), np.int64)  # the input is not held while the rows are cut
        rows, bounds = _by_shard(after, after[:, 0], plan.bits, room)
        return rows, bounds, done

    return _in_passes(store, square_stage(square + 1), shard, plan.bits, budget, plan.board, one_pass)


def _leaves_task(spec: tuple[str, str, int, int], limits: Limits) -> int:
    """The top (or bottom) leaves of shard ``shard`` of the top (bottom) layer, cut into the
    count's pieces (spec: ``("top" or "bottom", folder, shard, budget)``)."""
    from boardpuzzles._kernels import tour_join as tj

    side, folder, shard, budget = spec
    store, plan = _open(folder)
    band = Band.of(plan.frontier())
    square = plan.upto if side == "top" else plan.keep
    source = square_stage(square)
    parts = complete_parts(store, source, plan.tasks_of(square))
    one = copy.copy(limits)
    one.jobs = 1
    piece_bits = plan.pieces.bit_length() - 1

    def one_pass(
        keep: Callable[[np.ndarray], np.ndarray], room: Callable[[int, int], None], passes: int
    ) -> tuple[Any, Any, int]:
        layer = _merged(store, source, parts, shard, keep, room, plan.board, budget, passes)
        if side == "top":
            leaves = top_leaves(band, layer, one, lambda nbytes, n: room(nbytes + layer.nbytes, n), plan.board)
        else:
            leaves = bottom_leaves(band, layer)
        layer = np.empty((0, 2), np.int64)  # the input is not held while the leaves are cut
        keys = tj.leaf_keys(leaves, band.band, band.offsets, band.masks, band.powers, side == "top")
        rows, bounds = _by_shard(leaves, keys, piece_bits, room)
        return rows, bounds, 0

    return _in_passes(store, side, shard, plan.bits, budget, plan.board, one_pass)


class PairPieces:
    """The work of a count by halves in shards: piece ``piece`` of the pairing, from the leaves in
    the store. Named in the count's plan as the work of the same count in memory
    (``_open_share`` or ``_closed_share``), whose pieces mean the same: a checkpoint of one kind
    of run serves the other."""

    def __init__(self, folder: str, paths: bool, pieces: int, budget: int) -> None:
        self.folder = folder
        self.budget = budget
        self.whole = pieces == 1  # ``_closed_piece``: the whole count, each tour once
        self.__module__ = PLAN_MODULE
        self.__qualname__ = self.__name__ = (
            "_open_share" if paths else "_closed_share" if pieces > 1 else "_closed_piece"
        )

    def __call__(self, spec: tuple[str, int, int, int, int], limits: Limits) -> int:
        _, _, _, piece, pieces = spec
        store, plan = _open(self.folder)
        if pieces != plan.pieces:
            raise ShardError(f"{self.folder} holds leaves cut into {plan.pieces} pieces, not {pieces}")
        passes = 0
        while True:  # a piece that does not fit is paired in passes, each a share of its keys
            try:
                total = sum(self._pass(store, plan, piece, p, passes, limits) for p in range(1 << passes))
                return total // 2 if self.whole else total
            except OverMemory:
                passes += 1
                if passes > MOST_PASS_BITS:
                    raise SizeError(f"a piece of the count of {plan.board} does not fit in its memory") from None

    def _pass(self, store: Store, plan: ShardPlan, piece: int, p: int, passes: int, limits: Limits) -> int:
        from boardpuzzles._kernels import tour_join as tj
        from boardpuzzles._kernels import tour_sweep as ts

        band = Band.of(plan.frontier())
        bits = plan.pieces.bit_length() - 1 + passes

        def keep(top: bool) -> Callable[[np.ndarray], np.ndarray]:
            def rows_of_pass(rows: np.ndarray) -> np.ndarray:
                if passes == 0:
                    return rows
                keys = tj.leaf_keys(rows, band.band, band.offsets, band.masks, band.powers, top)
                mine: np.ndarray = (ts.groups_of(keys, bits) & ((1 << passes) - 1)) == p
                kept: np.ndarray = rows[mine]
                return kept

            return rows_of_pass

        def room(nbytes: int, states: int) -> None:
            if nbytes > self.budget:
                raise OverMemory("a pass of a piece does not fit", -1, None)

        above = complete_parts(store, "top", plan.shards)
        tops = _merged(store, "top", above, piece, keep(True), room, plan.board, self.budget, passes)
        below = complete_parts(store, "bottom", plan.shards)
        bottoms = np.concatenate(
            [np.empty((0, 2), np.int64)] + [keep(False)(store.read("bottom", b, piece)) for b in below]
        )
        room(tops.nbytes * 2 + bottoms.nbytes * 3, len(tops) + len(bottoms))
        top_keys = tj.leaf_keys(tops, band.band, band.offsets, band.masks, band.powers, True)
        bottom_keys = tj.leaf_keys(bottoms, band.band, band.offsets, band.masks, band.powers, False)
        t, b = np.argsort(top_keys, kind="stable"), np.argsort(bottom_keys, kind="stable")
        tops, top_keys, bottoms, bottom_keys = tops[t], top_keys[t], bottoms[b], bottom_keys[b]
        packed, terms = tj.bottom_links(bottoms, band.band, band.offsets, band.masks)
        return pair(band, tops, top_keys, bottoms, bottom_keys, packed, terms, limits, plan.board)


# ------------------------------------------------------------------ the count
def run_stage(name: str, work: Any, specs: list[Any], limits: Limits) -> int:
    """Run a stage's tasks (a task whose parts are there already returns at once)."""
    say(limits, name)
    return run_subtasks(work, [Subtask(s) for s in specs], _task_limits(limits))


def sweep_in_shards(store: Store, plan: ShardPlan, limits: Limits, budget: int) -> None:
    """Decide squares ``plan.seed`` .. ``plan.upto - 1`` in shards. The states of the layer before
    each square are removed once the next is whole (but the kept layers; the parts' records
    stay, with the tours they completed)."""
    for square in range(plan.seed, plan.upto):
        row, col = divmod(square, plan.width)
        run_stage(
            f"{plan.kind} tours of {plan.board} in {plan.shards} shards: row {row + 1}, "
            f"square {col + 1} of {plan.width}",
            _sweep_task,
            [("square", store.folder, square, k, budget) for k in range(plan.shards)],
            limits,
        )
        complete_parts(store, square_stage(square + 1), plan.shards)
        if square not in (plan.keep, plan.upto):
            store.remove(square_stage(square))


def completed_in(store: Store, plan: ShardPlan) -> int:
    """The tours completed by the sweep in memory (kept with the first layer) and by every task."""
    total = 0
    for square in range(plan.seed, plan.upto + 1):
        total += sum(p.completed for p in store.parts(square_stage(square)).values())
    return total


def open_store(folder: str, identity: dict[str, Any], plan: ShardPlan | None) -> tuple[Store, ShardPlan, bool]:
    """The store of this count: the one in ``folder`` (its plan is kept: the memory of an earlier
    run chose its shards), or a new one with ``plan``; and whether it was there."""
    import json

    head = os.path.join(folder, "store.json")
    if os.path.exists(head):
        try:
            with open(head, encoding="utf-8") as handle:
                saved = json.load(handle).get("identity", {})
            plan = ShardPlan(**saved["plan"])
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            raise ShardError(f"{folder} is not a whole store of knight's tour shards; remove it") from None
        if saved.get("count") != identity:
            raise ShardError(f"{folder} holds the shards of another count; remove it or name another")
        return Store.open(folder, saved), plan, True
    if plan is None:
        raise ShardError(f"{folder} holds no store of shards")
    return Store.open(folder, {"count": identity, "plan": asdict(plan)}), plan, False


def seed(store: Store, plan: ShardPlan, square: int, layer: np.ndarray, completed: int = 0) -> None:
    """Write a layer swept in memory as the one part of the stage before ``square``."""
    rows, bounds = _by_shard(layer, layer[:, 0], plan.bits)
    store.write_part(square_stage(square), "t00000.0of1", rows, bounds, completed)


def make_leaves(store: Store, plan: ShardPlan, limits: Limits, budget: int) -> None:
    """The leaves of both halves, cut into the count's pieces."""
    for side in ("top", "bottom"):
        run_stage(
            f"{plan.kind} tours of {plan.board} in {plan.shards} shards: the leaves of the {side} half",
            _leaves_task,
            [(side, store.folder, k, budget) for k in range(plan.shards)],
            limits,
        )


def temporary_folder(board: str) -> str:
    return tempfile.mkdtemp(prefix=f"boardpuzzles-tours-{board}-")


def store_of(
    rows: int, cols: int, paths: bool, pieces: int, over: OverMemory | None, limits: Limits, memory: int | None
) -> tuple[Store, ShardPlan, bool]:
    """The store of a count that goes on in shards (by halves when ``pieces``, else the whole
    board), and whether it is a temporary folder (there is no checkpoint). A store that is there
    is taken as it is; else ``over`` (where the sweep in memory stopped) seeds a new one."""
    from boardpuzzles.puzzles.knights_tour.frontier import frontier_memory, sweep_plan
    from boardpuzzles.puzzles.knights_tour.shards import store_folder

    width, length, top_rows, bottom_rows = sweep_plan(rows, cols)
    identity = {"puzzle": "knights-tour", "rows": rows, "cols": cols, "tours": "open" if paths else "closed"}
    folder = store_folder(limits.checkpoint, width, length, paths, "halves" if pieces else "board")
    temporary = folder is None
    if folder is None:
        if limits.scheduler:
            raise BoardPuzzlesError(
                f"counting {identity['tours']} tours of {rows}x{cols} on a cluster keeps its layers in shards "
                "beside --checkpoint: give one, in a folder that every worker sees"
            )
        folder = temporary_folder(f"{rows}x{cols}")
    if Store.exists(folder):
        store, plan, _ = open_store(folder, identity, None)
        return store, plan, temporary
    if over is None:
        raise ShardError(f"{folder} holds no store of shards")
    start = over.row * width if over.row >= 0 else top_rows * width
    upto, keep = (top_rows * width, bottom_rows * width) if pieces else (width * length, width * length)
    bits = shard_bits(len(over.layer), frontier_memory(memory), limits.jobs)
    plan = ShardPlan(rows, cols, width, length, paths, bits, start, upto, keep, pieces)
    store, plan, _ = open_store(folder, identity, plan)
    seed(store, plan, start, over.layer, over.completed)
    if over.kept is not None and keep < start:
        seed(store, plan, keep, over.kept)
    over.layer = over.kept = None  # the store holds them now: not kept in memory through the count
    return store, plan, temporary


def task_budget(memory: int | None, limits: Limits) -> int:
    """The bytes one task may hold: its share of the count's memory."""
    from boardpuzzles.puzzles.knights_tour.frontier import frontier_memory

    return frontier_memory(memory) // max(1, limits.jobs)


def halves_in_shards(
    rows: int, cols: int, paths: bool, pieces: int, over: OverMemory | None, limits: Limits, memory: int | None
) -> tuple[PairPieces, Store, bool]:
    """A count by halves that goes on in shards: the rest of the sweep and the leaves of both
    halves, in stages of tasks; returns the work of the pieces of the pairing (the caller runs
    them under the count's checkpoint), the store, and whether it is temporary."""
    store, plan, temporary = store_of(rows, cols, paths, pieces, over, limits, memory)
    budget = task_budget(memory, limits)
    try:
        sweep_in_shards(store, plan, limits, budget)
        make_leaves(store, plan, limits, budget)
    except BaseException:
        if temporary:
            store.delete()
        raise
    return PairPieces(store.folder, paths, pieces, budget), store, temporary


def paths_in_shards(rows: int, cols: int, over: OverMemory | None, limits: Limits, memory: int | None) -> int:
    """The open tours (undirected paths) of a board whose whole sweep goes on in shards: those
    completed in memory before (kept with the first layer) and by every task."""
    store, plan, temporary = store_of(rows, cols, True, 0, over, limits, memory)
    try:
        sweep_in_shards(store, plan, limits, task_budget(memory, limits))
        total = completed_in(store, plan)
    except BaseException:
        if temporary:
            store.delete()
        raise
    store.delete()
    return total
