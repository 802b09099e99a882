"""Classic n queens per core: our border search at an earlier revision and now, against two C
counters compiled here, and the class count (Burnside) against the plain count. Not part of the
tests.

    python benchmarks/queens_classic_rate.py                       # n = 14, 15, 16 (a few minutes)
    python benchmarks/queens_classic_rate.py --sizes 17 18 --repeat 1
    python benchmarks/queens_classic_rate.py --before main         # "before" = another revision

Everything runs on one core (``--jobs 1``; the C programs are single-threaded) and is timed in
CPU seconds of the process doing the count, so that other work on a shared machine slows the
wall clock more than the figures. The variants run alternately, ``--repeat`` times each; the
table shows medians. Columns:

* C ref: ``queens_reference.c``, the textbook bitboard search with the left-right mirror only
  (gcc -O3 -march=native);
* C border: ``queens_border.c``, the border pre-placement of Q27 and NQueensFAF written in C
  the way our kernel does it (same starts, same search; gcc -O2 -march=native, which gcc 12 runs
  about a tenth faster than -O3 here);
* before: ``queens count N`` of the package at revision ``--before`` (default: the revision
  before the border search was tuned per core), extracted with ``git archive`` into a temporary
  folder;
* after: ``queens count N`` of this working tree;
* unique: ``queens count N --unique`` of this working tree (Burnside: the border search and
  two small turn searches).

Both Python columns run in a fresh process each time (kernels loaded from numba's cache and
warmed on n = 8 first, outside the timing); their time includes planning the subtasks.
Rates are solutions (every placement) per CPU second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: The revision before the border search was tuned per core (5.5 M solutions/s).
BEFORE = "7adf107d6993f3b54654739e0e05106e238d4bdb"

# One timed count in a fresh process: prints "COUNT CPU_SECONDS".
HARNESS = """
import sys, time
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import queens
from boardpuzzles.puzzles.queens import Problem
n, group = int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None
queens.count(Problem(8, group=group), Limits(jobs=1))
started = time.process_time()
value = queens.count(Problem(n, group=group), Limits(jobs=1))
print(value, time.process_time() - started)
"""


def compile_c(folder: Path, source: str, flags: list[str]) -> Path:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise SystemExit("no C compiler (gcc or cc) found")
    binary = folder / Path(source).stem
    subprocess.run([gcc, *flags, "-o", str(binary), str(HERE / source)], check=True)
    return binary


def run_c(binary: Path, n: int) -> tuple[float, int]:
    line = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True).stdout.split()
    return float(line[2]), int(line[1])


def extract(revision: str, folder: Path) -> Path:
    """The package at ``revision`` (its src/ folder) unpacked under ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "src"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def run_python(src: Path, n: int, *extra: str) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", HARNESS, str(n), *extra], check=True, capture_output=True, text=True, env=env
    ).stdout.split()
    return float(out[1]), int(out[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[14, 15, 16])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", default=BEFORE, help="the git revision of the 'before' column")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        reference = compile_c(folder, "queens_reference.c", ["-O3", "-march=native"])
        border = compile_c(folder, "queens_border.c", ["-O2", "-march=native"])
        before = extract(args.before, folder / "before")
        after = ROOT / "src"
        variants: dict[str, Callable[[int], tuple[float, int]]] = {
            "C ref": lambda n: run_c(reference, n),
            "C border": lambda n: run_c(border, n),
            "before": lambda n: run_python(before, n),
            "after": lambda n: run_python(after, n),
            "unique": lambda n: run_python(after, n, "dihedral"),
        }
        for src in (before, after):  # compile both packages' kernels (numba's cache) before timing
            run_python(src, 8)
        print(
            f"{'n':>3} {'count':>13} {'classes':>11} "
            + " ".join(f"{v + ' s':>10}" for v in variants)
            + f" {'C ref M/s':>9} {'C border M/s':>12} {'before M/s':>10} {'after M/s':>9}"
            f" {'after/C ref':>11} {'after/C border':>14} {'after/before':>12} {'unique/after':>12}"
        )
        for n in args.sizes:
            times: dict[str, list[float]] = {v: [] for v in variants}
            values: dict[str, int] = {}
            for _ in range(args.repeat):
                for name_, run in variants.items():
                    seconds, value = run(n)
                    times[name_].append(seconds)
                    values[name_] = value
            assert len({values[v] for v in variants if v != "unique"}) == 1, values
            med = {v: statistics.median(t) for v, t in times.items()}
            count = values["after"]
            print(
                f"{n:>3} {count:>13,} {values['unique']:>11,} "
                + " ".join(f"{med[v]:>10.2f}" for v in variants)
                + f" {count / med['C ref'] / 1e6:>9.2f} {count / med['C border'] / 1e6:>12.2f}"
                f" {count / med['before'] / 1e6:>10.2f} {count / med['after'] / 1e6:>9.2f}"
                f" {med['C ref'] / med['after']:>11.2f} {med['C border'] / med['after']:>14.2f}"
                f" {med['before'] / med['after']:>12.2f} {med['unique'] / med['after']:>12.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
