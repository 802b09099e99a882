"""Classic n queens per core: our border search against the plain C bitboard counter
(benchmarks/queens_reference.c), and the class count (Burnside) against the plain count.
Not part of the tests.

    python benchmarks/queens_classic_rate.py                 # n = 14, 15, 16 (a few minutes)
    python benchmarks/queens_classic_rate.py --sizes 17 --repeat 1

Everything runs on one core (``--jobs 1``; the C program is single-threaded) and is timed in CPU
seconds of this process or of the C process, so that other work on a shared machine slows the
wall clock more than the figures. The variants run alternately, ``--repeat`` times each; the
table shows medians. Columns:

* C: the C reference, gcc -O3 -march=native, the mirror only (row 0 in the left half);
* before: our kernel with the same plan as C (the mirror, prefixes of three rows);
* border: the search now (four border queens fixed per start, one start per class of the 8
  symmetries, the last two rows counted with popcounts);
* unique: ``queens count N --unique``: Burnside over the border search and two small turn searches.

Rates are solutions (every placement) per CPU second.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.puzzles import queens
from boardpuzzles.puzzles.queens import Problem

HERE = Path(__file__).resolve().parent


def compile_reference(folder: Path) -> Path:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise SystemExit("no C compiler (gcc or cc) found")
    binary = folder / "queens_reference"
    flags = ["-O3", "-march=native"]
    subprocess.run([gcc, *flags, "-o", str(binary), str(HERE / "queens_reference.c")], check=True)
    return binary


def run_c(binary: Path, n: int) -> tuple[float, int]:
    line = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True).stdout.split()
    return float(line[2]), int(line[1])


def cpu_seconds(call: Callable[[], int]) -> tuple[float, int]:
    started = time.process_time()
    value = call()
    return time.process_time() - started, value


def before_plan(n: int) -> int:
    """The plan before the border search: the left-right mirror, prefixes of three rows."""
    base: list[tuple[tuple[int, ...], int]] = []
    for c in range(n):
        if c < n - 1 - c:
            base.append(((c,), 2))
        elif c == n - 1 - c and n > 1:
            base += [((c, c2), 2) for c2 in queens._open_columns(n, (c,), False) if c2 < n - 1 - c2]
    tasks = [Subtask(("board", n, s.spec), s.weight) for s in queens._split(n, base, 3, False)]
    return run_subtasks(queens._count_work, tasks, Limits(jobs=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[14, 15, 16])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    queens.count(Problem(8)), queens.count(Problem(8, group="dihedral")), before_plan(8)  # compile first
    with tempfile.TemporaryDirectory() as folder:
        binary = compile_reference(Path(folder))
        variants: dict[str, Callable[[int], tuple[float, int]]] = {
            "C": lambda n: run_c(binary, n),
            "before": lambda n: cpu_seconds(lambda: before_plan(n)),
            "border": lambda n: cpu_seconds(lambda: queens.count(Problem(n), Limits(jobs=1))),
            "unique": lambda n: cpu_seconds(lambda: queens.count(Problem(n, group="dihedral"), Limits(jobs=1))),
        }
        print(
            f"{'n':>3} {'count':>12} {'classes':>9} "
            + " ".join(f"{v + ' s':>9}" for v in variants)
            + f" {'C M/s':>7} {'border M/s':>11} {'border/C':>9} {'border/before':>14} {'unique/border':>14}"
        )
        for n in args.sizes:
            times: dict[str, list[float]] = {v: [] for v in variants}
            values: dict[str, int] = {}
            for _ in range(args.repeat):
                for name, run in variants.items():
                    seconds, value = run(n)
                    times[name].append(seconds)
                    values[name] = value
            assert values["C"] == values["before"] == values["border"], values
            med = {v: statistics.median(t) for v, t in times.items()}
            count = values["border"]
            print(
                f"{n:>3} {count:>12,} {values['unique']:>9,} "
                + " ".join(f"{med[v]:>9.2f}" for v in variants)
                + f" {count / med['C'] / 1e6:>7.2f} {count / med['border'] / 1e6:>11.2f}"
                f" {med['C'] / med['border']:>9.2f} {med['before'] / med['border']:>14.2f}"
                f" {med['unique'] / med['border']:>14.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
