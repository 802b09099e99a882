"""`boardpuzzles baikago solve`: who wins a small board with perfect play, with a proof file and
a checkpoint of the searches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NoReturn

import click

from boardpuzzles.cli.baikago.options import rules_options
from boardpuzzles.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    OUTPUT_PATH,
    ByteSize,
    CommandResult,
    OneOf,
    Whole,
    command_settings,
    emit_json,
    json_option,
    note,
    time_limit_option,
    write_file_atomically,
)
from boardpuzzles.compiling import compile_seconds
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.rules import MAX_SOLVE_SIZE

if TYPE_CHECKING:
    from boardpuzzles.puzzles.baikago.solve import NoThreatWin, Solution, Solver
    from boardpuzzles.puzzles.baikago.table_file import TableFile


class NodeCount(Whole):
    """A number of search nodes: a positive whole number (the cap, 2^61, only keeps the kernel's
    node counter far from overflowing, so the error does not spell it out)."""

    def __init__(self) -> None:
        super().__init__(1, 2**61)

    def wanted(self) -> str:
        return "a positive whole number of search nodes"


@click.command(
    "solve",
    context_settings=command_settings(),
    epilog="""Who wins on an empty N x N board with perfect play. A pairing of the board proves a draw;
otherwise a proof-number search runs for each side (--side: one side only). --proof writes each
side's strategy (JSON, gzip when the name ends in .gz) for an independent checker to replay.
3x3 to 7x7 are draws (7x7 in about 10 s: no pairing, so both searches run); 9x9 to 15x15 are
wins for black (`solve 9 --side black`: about a minute).

--threats-from F holds the attacker to threats once F stones are on the board (a threat-space
search): its tree is far narrower, a win it finds is a win of the whole game (the proof covers
every reply), and when it finds none the board is not settled (exit 1). 11x11 in about two
minutes, and the seed's 15x15 board in about eight (3.8 GB):

\b
  boardpuzzles baikago solve 11 --side black --threats-from 6 --tt-bits 25
  boardpuzzles baikago solve 15 --side black --threats-from 6 --tt-bits 26

--checkpoint FILE keeps the search tables when the run stops or ends, and the same command with
the same FILE continues from them (with any --tt-bits: the saved entries move into the table of
this run). A file made for another board, rules, --side, --pairings or --threats-from, or a
damaged one, is refused (exit 2) and left as it was; it takes up to 155 MB at the default
--tt-bits 22. The strategy of each search is written to FILE.black-search (white's
defence when black cannot win) or FILE.white-search as it is found, with its state in
FILE.SIDE-search.state: a run stopped while it was being read out continues from there.
--checkpoint-size SIZE keeps the file under SIZE: the table entries that cost least to compute
are left out and searched again later, so a search of hours fits where a full table would not
(8x8 black: `--tt-bits 26 --checkpoint-size 16M`). The file remembers SIZE: a run that continues
it without --checkpoint-size keeps it under the same size (--checkpoint-size all keeps every
entry from then on).

--after MOVES solves the position after those moves instead of the empty board (one point of
each of black's first moves, say, to split a long search into pieces that run apart: the proof
files say from which position they hold, and the checker replays them from there).

\b
Examples:
  boardpuzzles baikago solve 5
  boardpuzzles baikago solve 7 --side black --after d4,c3 --proof after-d4-c3.json.gz
  boardpuzzles baikago solve 4 --no-pairings --proof four.json.gz
  boardpuzzles baikago solve 6 --json
  boardpuzzles baikago solve 4 --no-pairings --tt-bits 16 --checkpoint four.dfpn

\b
Exit codes:
  0    solved
  1    --threats-from: no win by threats (the board is not settled)
  2    bad options, or a checkpoint that cannot serve this search
  3    stopped at the time limit or the node limit (with --checkpoint the
       search is kept and the same command continues it; without, a later
       run starts afresh)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM; with --checkpoint the search is kept)""",
)
@click.argument("size", type=Whole(3, MAX_SOLVE_SIZE), metavar="N")
@rules_options
@click.option("--proof", "proof_path", type=OUTPUT_PATH, default=None, metavar="FILE", help="Write the proof here.")
@click.option(
    "--pairings/--no-pairings", default=True, show_default=True, help="Use pairings (draw certificates) in proofs."
)
@click.option(
    "--tt-bits",
    type=Whole(10, 26),
    default=22,
    show_default=True,
    metavar="B",
    help="2^B transposition table slots (33 bytes each).",
)
@click.option(
    "--side",
    type=OneOf(["both", "black", "white"]),
    default="both",
    show_default=True,
    help="Search whether this side can win (both: the value).",
)
@click.option(
    "--checkpoint",
    type=OUTPUT_PATH,
    default=None,
    metavar="FILE",
    help="Keep the searches in FILE when the run stops or ends; the same command continues from it.",
)
@click.option(
    "--checkpoint-size",
    "checkpoint_bytes",
    type=ByteSize(1 << 20, "too little to keep a search", unbounded="all"),
    default=None,
    metavar="SIZE",
    help="Keep at most SIZE in the checkpoint (20M, 1G): the entries that cost least are left out. "
    "A file keeps its size when continued; 'all' lifts it.",
)
@click.option(
    "--node-limit",
    type=NodeCount(),
    default=None,
    metavar="K",
    help="Stop after K search nodes in this run (exit 3); see --checkpoint.",
)
@click.option(
    "--threats-from",
    type=Whole(0, MAX_SOLVE_SIZE**2),
    default=None,
    metavar="F",
    help="Hold the attacker to threats (moves that make a four or a double-four point) once F stones are on the board.",
)
@click.option(
    "--after",
    "after",
    default=None,
    metavar="MOVES",
    help="Solve the position after these moves (point names, black first, like d5,e4) instead of the empty board.",
)
@time_limit_option(what="Stop after S seconds (exit 3); see --checkpoint.")
@json_option
def solve_command(
    size: int,
    max_d: int | None,
    orientations: str,
    proof_path: str | None,
    pairings: bool,
    tt_bits: int,
    side: str,
    checkpoint: str | None,
    checkpoint_bytes: int | Literal["all"] | None,
    node_limit: int | None,
    time_limit: float | None,
    threats_from: int | None,
    after: str | None,
    as_json: bool,
) -> None:
    """Solve a small board: who wins with perfect play, with a proof file."""
    from boardpuzzles.limits import Limits, TimeLimitReached
    from boardpuzzles.puzzles.baikago import solve as bs

    rules = bk.Rules(size, max_d, orientations)
    attackers = {"both": (bk.BLACK, bk.WHITE), "black": (bk.BLACK,), "white": (bk.WHITE,)}[side]
    if checkpoint_bytes is not None and checkpoint is None:
        raise click.UsageError("--checkpoint-size needs --checkpoint FILE")
    # a bad checkpoint file is refused here, before any search
    start = None if after is None else _position_after(rules, after)
    solver = bs.Solver(rules, tt_bits, start, pairings, attackers, checkpoint, threats_from, checkpoint_bytes)
    if solver.loaded and solver.searches:  # a board settled by a pairing keeps no search
        moved = "" if solver.table_file is None else _moved(solver.table_file, solver.entries_kept()[1], tt_bits)
        note(f"continuing from {checkpoint}{moved}: " + "; ".join(_standing(solver)))
    if solver.bound_from_file and solver.checkpoint_bytes is not None:
        note(
            f"keeping {checkpoint} under {solver.checkpoint_bytes / (1 << 20):,.4g} MiB, as it was saved "
            "(--checkpoint-size SIZE or all to change that)"
        )
    solver.report = note
    limits = Limits(time_limit)
    try:
        solution = limits.run(solver.run, limits, node_limit)
    except (TimeLimitReached, KeyboardInterrupt) as stop:
        limits.close()
        _stopped(stop, solver, checkpoint, time_limit, as_json)
    except bs.NoThreatWin as none:
        limits.close()
        # kept, so the same command says so again at once
        if checkpoint is not None and not solver.save():
            note(f"the search did not let go of its table in time; {checkpoint} is as it was")
        _no_threat_win(none, solver, as_json)
    finally:
        limits.close()
    if checkpoint is not None and not solver.save():
        note(f"the search did not let go of its table in time; {checkpoint} is as it was")
    if proof_path is not None:
        write_file_atomically(proof_path, bs.write_proof(solution, proof_path))
    _show_solution(solution, solver, proof_path, checkpoint, as_json)


def _moved(table_file: TableFile, held: int, tt_bits: int) -> str:
    """What became of a checkpoint saved with another table size: its entries in this table."""
    saved_bits, saved = table_file.saved_tt_bits, table_file.saved_entries
    if saved_bits == tt_bits:
        return ""
    kept = f"its {saved:,} entries" if held == saved else f"{held:,} of its {saved:,} entries (the costliest)"
    return f" (saved with --tt-bits {saved_bits}: {kept} moved into this table)"


def _position_after(rules: bk.Rules, moves: str) -> list[int]:
    """The points' colours after ``moves`` (point names, black first, split by commas or spaces);
    a point taken twice or off the board is refused in one line, and so (by the solver) is a
    position with a cross filled. A position where every cross is blocked is taken: it is over
    as a game, but a position all the same (its value is known at once)."""
    names = [name for name in moves.replace(",", " ").split() if name]
    if not names:
        raise click.BadParameter("name at least one move, like d5,e4", param_hint="'--after'")
    grid = rules.grid
    board = [bk.EMPTY_POINT] * grid.size
    for number, name in enumerate(names):
        try:
            point = grid.cell_named(name)
        except BoardPuzzlesError as err:
            raise click.BadParameter(f"move {number + 1}: {err}", param_hint="'--after'") from None
        if board[point] != bk.EMPTY_POINT:
            raise click.BadParameter(f"move {number + 1}: {name} is already taken", param_hint="'--after'")
        board[point] = bk.BLACK if number % 2 == 0 else bk.WHITE
    return board


def _stopped(
    stop: BaseException, solver: Solver, checkpoint: str | None, time_limit: float | None, as_json: bool
) -> NoReturn:
    """A run stopped by a limit or Ctrl-C: keep the search when there is a checkpoint, say
    where it stands, and end the command (exit 3, or 130 for an interruption)."""
    from boardpuzzles.limits import TimeLimitReached
    from boardpuzzles.puzzles.baikago import solve as bs
    from boardpuzzles.puzzles.baikago.dfpn import picture

    if isinstance(stop, bs.NodeLimitReached):
        what = str(stop)
    elif isinstance(stop, TimeLimitReached):
        what = f"stopped at the time limit ({time_limit:g} s)" if time_limit else "stopped at the time limit"
    else:
        what = "interrupted"
    saved = checkpoint is not None and solver.save()
    for line in _standing(solver):
        note(f"  {line}")
    if checkpoint is None:
        note(f"{what}; add --checkpoint FILE to keep the search for a later run")
    elif saved:
        kept, held = solver.entries_kept()
        share = f" (the costliest {kept:,} of {held:,} table entries)" if kept < held else ""
        note(f"{what}: the search is kept in {checkpoint}{share}; the same command continues it")
    else:
        note(f"{what}: the search did not let go of its table in time; {checkpoint} is as it was")
    if isinstance(stop, KeyboardInterrupt):
        raise CommandResult(EXIT_INTERRUPTED) from None  # said above: no second line
    if as_json:
        emit_json(
            {
                "puzzle": "baikago",
                "rules": solver.rules.to_json(),
                "start": picture(solver.board),
                "complete": False,
                "checkpoint": checkpoint if saved else None,
                "searches": solver.standing(),
            }
        )
    raise CommandResult(EXIT_PARTIAL) from None


def _no_threat_win(none: NoThreatWin, solver: Solver, as_json: bool) -> NoReturn:
    """A threat-space search that found no win: one line (the board stays unsettled), exit 1."""
    from boardpuzzles.puzzles.baikago.dfpn import picture
    from boardpuzzles.puzzles.baikago.proof import start_in_words

    rules = solver.rules
    if as_json:
        emit_json(
            {
                "puzzle": "baikago",
                "rules": rules.to_json(),
                "start": picture(solver.board),
                "complete": True,
                "value": "unknown",
                "threat_space_win": False,
                "attacker": "both" if len(none.attackers) == 2 else bk.COLOUR_NAMES[none.attackers[0]],
                "threats_from": none.threats_from,
                "nodes": none.nodes,
            }
        )
    else:
        click.echo(f"{rules.describe()}{start_in_words(rules, solver.board)}: {none}")
    raise CommandResult(EXIT_NEGATIVE) from None


def _show_solution(
    solution: Solution, solver: Solver, proof_path: str | None, checkpoint: str | None, as_json: bool
) -> None:
    """The value and its claims, as text or as one JSON document."""
    if as_json:
        document = solution.to_json()
        emit_json(
            {
                "puzzle": "baikago",
                "rules": document["rules"],
                "start": document["start"],
                "value": document["value"],
                "seconds": document["seconds"],
                "compile_seconds": round(compile_seconds(), 2),
                "claims": [
                    {"claim": c.statement(), "method": c.method(), "nodes": c.nodes, "seconds": round(c.seconds, 2)}
                    for c in solution.claims
                ],
                "proof": proof_path,
                "checkpoint": checkpoint,
                "resumed": solver.loaded,
            }
        )
    else:
        click.echo(solution.summary())
        for line in solution.details():
            click.echo(f"  {line}")
        if proof_path is not None:
            note(f"proof written to {proof_path}")
        if checkpoint is not None and solver.searches:
            note(f"the searches are kept in {checkpoint}")


def _standing(solver: Solver) -> list[str]:
    """One line per search of a solver: how far it got."""
    lines = []
    for s in solver.standing():
        if s["state"] == "open":
            seconds = f"{s['seconds']:.0f}" if s["seconds"] >= 10 else f"{s['seconds']:.1f}"  # not "0 s"
            line = (
                f"{s['attacker']} attacking: {s['nodes']:,} search nodes, {seconds} s so far; "
                f"at the root pn {s['pn']:,}, dn {s['dn']:,}"
            )
            if s["root_children_in_table"] < s["root_children"]:
                line += (
                    f" (the table holds {s['root_children_in_table']} of the root's {s['root_children']} children;"
                    " the others are read as unexplored)"
                )
            lines.append(line)
        else:
            verdict = {"proved": "it wins", "disproved": "it cannot win"}.get(s["state"], "which settles nothing")
            lines.append(f"{s['attacker']} attacking: {s['state']} ({verdict}), {s['nodes']:,} search nodes")
    return lines
