"""`boardpuzzles baikago verify`: replay a proof file with the independent checker."""

from __future__ import annotations

import sys
import time

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

\b
Examples:
  boardpuzzles baikago verify tests/data/baikago/four.json.gz     # from a clone
  boardpuzzles baikago verify tests/data/baikago/five.json --json
  boardpuzzles baikago solve 5 --proof five.json

\b
Exit codes:
  0    the proof holds: its value is printed
  1    the file is not a proof, or the proof does not hold (one line says where)
  2    the file cannot be read, or bad options
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@click.argument("file", metavar="FILE")
@json_option
def verify_command(file: str, as_json: bool) -> None:
    """Check a proof file: replay each claim and print the value it proves."""
    from boardpuzzles.puzzles.baikago.verify import ProofError, read_document, verify_document, verify_file

    last = time.monotonic()

    def progress(line: str) -> None:
        nonlocal last
        if time.monotonic() - last >= REPORT_SECONDS:
            last = time.monotonic()
            note(line)

    try:
        if file == "-":
            verdict = verify_document(read_document(sys.stdin.buffer.read()), progress)
        else:
            verdict = verify_file(file, progress)
    except ProofError as err:
        if as_json:
            emit_json({"puzzle": "baikago", "file": file, "holds": False, "reason": str(err)})
        else:
            click.echo(f"refused: {err}")
        raise CommandResult(EXIT_NEGATIVE) from None
    if as_json:
        emit_json({"puzzle": "baikago", "file": file, "holds": True, **verdict.to_json()})
        return
    click.echo(verdict.summary())
    for replay in verdict.replays:
        click.echo(f"  {replay.describe()}")
