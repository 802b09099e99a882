"""`boardpuzzles baikago verify`: replay a proof file with the independent checker."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from boardpuzzles.cli.common import (
    EXIT_NEGATIVE,
    CommandResult,
    command_settings,
    emit_json,
    json_option,
    note,
)

#: A long replay says how far it got at most every so many seconds.
REPORT_SECONDS = 30.0


@click.command(
    "verify",
    context_settings=command_settings(),
    epilog="""Reads a proof file (JSON, gzip-compressed or not, as `baikago solve --proof` writes it;
- reads standard input) and replays every claim with a checker that shares no code with the solver: every reply of the
opponent is followed, the strategy's move is played at every position where its owner is to
move, and every line must end as the claim says (a pairing checked point by point, the owner's
cross, or no cross left for the opponent). The format is documented completely in the
reference (Baikago proof files), so that a checker can be written from it alone. The proofs of
the boards solved so far are in the source's records/ folder (7x7: records/baikago-7.json.gz).

Several files are checked each, then joined: files about one position add up their claims (one
side's and the other's make its value); files about positions further on (as `solve --after`
makes them, one per line of play) prove what follows at the position all their starts hold,
carried back one move at a time: the side to move cannot win when each of its moves leads where
it cannot (moves that make positions alike under the board's symmetries count once), and wins
when one leads to its win or fills a cross (the other side: the reverse). The moves a claim
still lacks there are named.

\b
Examples:
  boardpuzzles baikago verify tests/data/baikago/four.json.gz     # from a clone
  boardpuzzles baikago verify tests/data/baikago/five.json --json
  boardpuzzles baikago solve 5 --proof five.json
  boardpuzzles baikago verify tests/data/baikago/four-black-*.json  # black's first moves, joined

\b
Exit codes:
  0    the proof holds: its value is printed (several files: something follows from them)
  1    a file is not a proof, or a proof does not hold (one line says where); several files
       that prove nothing together
  2    the file cannot be read, or bad options
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
@json_option
def verify_command(files: tuple[str, ...], as_json: bool) -> None:
    """Check proof files: replay each claim and print the value they prove."""
    from boardpuzzles.puzzles.baikago.verify import ProofError
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    last = time.monotonic()

    def progress(line: str) -> None:
        nonlocal last
        if time.monotonic() - last >= REPORT_SECONDS:
            last = time.monotonic()
            note(line)

    several = len(files) > 1
    if files.count("-") > 1:
        raise click.UsageError("standard input (-) can be read once")
    verdicts, reports = _each_file(files, as_json, progress)
    if not several:
        if as_json:
            emit_json(reports[0])
        return
    try:
        joined = join_verdicts(verdicts)
    except ProofError as err:
        if as_json:
            emit_json({"puzzle": "baikago", "files": reports, "joined": None, "reason": str(err)})
        else:
            click.echo(f"not joined: {err}")
        raise CommandResult(EXIT_NEGATIVE) from None
    if as_json:
        emit_json({"puzzle": "baikago", "files": reports, "joined": joined.to_json()})
    else:
        click.echo(joined.summary())
        for gap in joined.gaps():
            click.echo(f"  {gap}")
    if not joined.established:
        raise CommandResult(EXIT_NEGATIVE)


def _each_file(files: tuple[str, ...], as_json: bool, progress: Any) -> tuple[list[Any], list[dict[str, Any]]]:
    """Check each file, printing what it proves (as text at once, or kept for the JSON); the
    first that does not hold ends the command (exit 1)."""
    from boardpuzzles.puzzles.baikago.verify import ProofError, read_document, verify_document, verify_file

    several = len(files) > 1
    verdicts: list[Any] = []
    reports: list[dict[str, Any]] = []
    for file in files:
        try:
            if file == "-":
                verdict = verify_document(read_document(sys.stdin.buffer.read()), progress)
            else:
                verdict = verify_file(file, progress)
        except ProofError as err:
            refused = {"puzzle": "baikago", "file": file, "holds": False, "reason": str(err)}
            if as_json:
                emit_json({"puzzle": "baikago", "files": [*reports, refused], "joined": None} if several else refused)
            else:
                click.echo(f"refused: {file}: {err}" if several else f"refused: {err}")
            raise CommandResult(EXIT_NEGATIVE) from None
        verdicts.append(verdict)
        reports.append({"puzzle": "baikago", "file": file, "holds": True, **verdict.to_json()})
        if not as_json:
            click.echo(f"{file}: {verdict.summary()}" if several else verdict.summary())
            for replay in verdict.replays:
                click.echo(f"  {replay.describe()}")
    return verdicts, reports
