"""Baikago: who wins on small boards, with proof sizes and times by board (not part of the test
run, nor of `make bench`).

    python benchmarks/baikago_proofs.py                      # 3x3 to 6x6, about a minute
    python benchmarks/baikago_proofs.py --sizes 7 --time-limit 1200 --proof-dir /tmp
    python benchmarks/baikago_proofs.py --sizes 3,4 --pieces 10     # the cost of resuming
    python benchmarks/baikago_proofs.py --check black.json.gz white.json.gz --join seven.json.gz

Each board is solved twice: as ``baikago solve`` does (a pairing of the whole board when there
is one), and with pairings off (``--no-pairings``: plain strategies from a df-pn search per side,
boards up to ``--strategy-max`` only). Every proof is then replayed by the independent checker of
``tests/test_baikago_solve.py``. Printed per board and method: the value, each claim's method
and search nodes, the solving seconds (the first line includes compiling the kernels), the
proof file's size gzip-compressed, and the checker's seconds.

``--check FILE...``: replay proof files that ``baikago solve --side ... --proof FILE`` wrote (one
side each, searched in separate runs) with the same checker, and, when they hold claims for both
sides of the same rules and start, check the document that joins them (the board's value) and
write it with ``--join OUT``.

``--pieces K``: each board solved with pairings off is solved again through a checkpoint file
(``baikago solve --checkpoint``), stopped by a node limit of about 1/K of the whole search's nodes
and resumed until it ends: printed are the runs it took, its nodes against the whole run's (each
resume walks again from the root), the checkpoint's size, and whether its proof is the same as
the whole run's (and passes the checker).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
import zlib
from pathlib import Path

from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles.baikago.rules import Rules
from boardpuzzles.puzzles.baikago.solve import NodeLimitReached, Solution, solve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_baikago_solve import check_proof  # noqa: E402  (the checker lives with the tests)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="3,4,5,6")
    parser.add_argument("--strategy-max", type=int, default=4, help="largest board solved with pairings off")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per solve")
    parser.add_argument("--proof-dir", default=None, help="write each proof here as baikago-N[-strategies].json.gz")
    parser.add_argument("--pieces", type=int, default=0, help="also solve each strategy board in about K resumed runs")
    parser.add_argument("--check", nargs="+", metavar="FILE", help="check these proof files (and join them)")
    parser.add_argument("--join", metavar="OUT", help="with --check: write the joined proof here")
    args = parser.parse_args()
    if args.check:
        check_files(args.check, args.join)
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    print(f"{'board':<6} {'proof':<11} {'value':<6} {'claims':<70} {'solve s':>8} {'bytes':>9} {'check s':>8}")
    for n in (int(s) for s in args.sizes.split(",")):
        for pairings in (True, False):
            if not pairings and n > args.strategy_max:
                continue
            kind = "pairings" if pairings else "strategies"
            limits = Limits(args.time_limit)
            started = time.perf_counter()
            try:
                solution = solve(Rules(n), limits, pairings=pairings)
            except TimeLimitReached:
                print(f"{n}x{n:<4} {kind:<11} not solved within {args.time_limit:g} s", flush=True)
                continue
            finally:
                limits.close()
            seconds = time.perf_counter() - started
            data = solution.proof_bytes(compress=True)
            if args.proof_dir:
                suffix = "" if pairings else "-strategies"
                Path(args.proof_dir, f"baikago-{n}{suffix}.json.gz").write_bytes(data)
            started = time.perf_counter()
            checked = check_proof(json.loads(gzip.decompress(data)))
            check_seconds = time.perf_counter() - started
            assert checked == solution.value
            claims = "; ".join(f"{c.statement()}: {c.method()}, {c.nodes:,} nodes" for c in solution.claims)
            print(
                f"{n}x{n:<4} {kind:<11} {solution.value:<6} {claims:<70} {seconds:>8.2f} {len(data):>9,} "
                f"{check_seconds:>8.2f}",
                flush=True,
            )
            if args.pieces and not pairings:
                in_pieces(n, solution, args.pieces)


def read_proof(path: str) -> dict:
    """The proof document in ``path`` (gzip or plain JSON); a file that cannot be read ends the
    script with one line."""
    try:
        data = Path(path).read_bytes()
        return json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    except (OSError, EOFError, ValueError, zlib.error) as err:  # missing, truncated or damaged gzip, not JSON
        raise SystemExit(f"baikago_proofs: cannot read {path}: {err}") from None


def check_files(paths: list[str], join: str | None) -> None:
    """Check each proof file, then the document joining their claims (when they are of one
    board, rules and start)."""
    documents = []
    for path in paths:
        document = read_proof(path)
        started = time.perf_counter()
        value = check_proof(document)
        seconds = time.perf_counter() - started
        for proof in document["proofs"]:
            size = len(proof.get("strategy", proof.get("pairing", [])))
            print(f"{path}: {proof['claim']} ({proof['player']}'s strategy of {size:,} positions): checked")
        print(f"{path}: value {value}, checked in {seconds:.1f} s", flush=True)
        documents.append(document)
    same = {json.dumps([d["rules"], d["start"], d["format"]], sort_keys=True) for d in documents}
    if len(same) != 1:
        print("the files are not of one board, rules and start: not joined")
        return
    proofs = [proof for document in documents for proof in document["proofs"]]
    claims = {proof["claim"] for proof in proofs}
    value = next((c.split()[0] for c in claims if c.split()[1] == "wins"), None)
    if value is None:
        value = "draw" if {"black cannot win", "white cannot win"} <= claims else "unknown"
    joined = {**documents[0], "value": value, "proofs": proofs}
    joined["seconds"] = round(sum(d["seconds"] for d in documents), 2)
    started = time.perf_counter()
    checked = check_proof(joined)
    print(f"joined: value {checked}, checked in {time.perf_counter() - started:.1f} s")
    if join:
        text = json.dumps(joined, separators=(",", ":")).encode("ascii")
        Path(join).write_bytes(gzip.compress(text, mtime=0) if join.endswith(".gz") else text)
        print(f"wrote {join}")


def in_pieces(n: int, whole: Solution, pieces: int) -> None:
    """Solve again in about ``pieces`` runs through a checkpoint file; compare with ``whole``."""
    nodes = sum(c.nodes for c in whole.claims)
    limit = max(12, nodes // pieces)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder, "search.dfpn"))
        runs = 0
        started = time.perf_counter()
        while True:
            runs += 1
            try:
                resumed = solve(Rules(n), pairings=False, checkpoint=path, node_limit=limit)
                break
            except NodeLimitReached:
                continue
        seconds = time.perf_counter() - started
        size = os.path.getsize(path)
    same = [p.get("strategy") for p in resumed.to_json()["proofs"]] == [
        p.get("strategy") for p in whole.to_json()["proofs"]
    ]
    checked = check_proof(resumed.to_json()) == whole.value
    total = sum(c.nodes for c in resumed.claims)
    print(
        f"{n}x{n:<4} {'in pieces':<11} {resumed.value:<6} {runs} runs of {limit:,} nodes: {total:,} nodes "
        f"({total / max(1, nodes):.2f} x the whole run's), checkpoint {size:,} bytes, same proof: {same}, "
        f"checked: {checked}; {seconds:.2f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
