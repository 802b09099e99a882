"""``check``: whether an answer (a picture, a file, a JSON document of several) solves a
problem, and if not, why."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from boardpuzzles.cli.common import EXIT_NEGATIVE, CommandResult, command_settings, json_option
from boardpuzzles.cli.documents import is_document, read_document
from boardpuzzles.cli.params import arguments_help, epilog, examples_help, examples_of, problem_options, problem_values
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import Fault
from boardpuzzles.inputs import MAX_INPUT_BYTES, is_existing_file, read_text
from boardpuzzles.protocol import Param, Puzzle


def check_command(puzzle: Puzzle[Any, Any]) -> click.Command:
    params = [p for p in puzzle.params if p.name in puzzle.check_params]

    @click.command(
        "check",
        context_settings=command_settings(),
        help=f"Tell whether an answer solves a {puzzle.name} problem, and if not, why.",
        epilog=epilog(
            arguments_help(params),
            _answer_help(puzzle, params),
            examples_help(puzzle.name, examples_of(puzzle, "check")),
            "\b\nExit codes:\n  0    a solution\n  1    not a solution (each problem is listed)\n"
            "  2    unreadable input or bad options\n  70   a bug in boardpuzzles: please report it",
        ),
    )
    @problem_options(params)
    @click.argument("answer", metavar="ANSWER" if not puzzle.answer_optional else "[ANSWER]", required=False)
    @json_option
    def check(answer: str | None, as_json: bool, **kwargs: Any) -> None:
        if answer is None and not puzzle.answer_optional:
            raise click.UsageError("missing ANSWER: a file holding the answer, or - for standard input")
        if answer == "-" and click.get_current_context().meta.get("stdin_read"):
            raise click.UsageError("standard input can hold the problem or the answer, not both: give one as a file")
        text = None if answer is None else answer_text(answer, puzzle.literal_answers, puzzle.answer_bytes)
        run_check(puzzle, params, problem_values(params, kwargs), text, as_json)

    return check


def _answer_help(puzzle: Puzzle[Any, Any], params: Sequence[Param]) -> str:
    """What ``check --help`` says of ANSWER: what it may be, and where the problem comes from."""
    answer_help = (
        "ANSWER is a file (or - for standard input) holding an answer as `solve` prints it, or the JSON "
        "document that `solve --json` (or find, generate) prints: each of its answers is checked"
    )
    if puzzle.literal_answers:
        answer_help += ", or the answer itself"
    if puzzle.answer_optional:
        answer_help += "; without it, the answer held by the problem's own file is checked"
    answer_help += "."
    options = [
        f"{p.option} {p.metavar or p.kind.upper()}" if p.kind != "flag" else p.option
        for p in params
        if not p.positional and p.name != "format"  # how the file is read, not what it must solve
    ]
    from_answer = [
        f"{p.metavar or p.name.upper()} ({p.help})" for p in puzzle.params if p.positional and p not in params
    ]
    if options:
        answer_help += (
            f" The options give the problem that the answer must solve ({', '.join(options)}; the defaults as "
            "for solve)"
        )
        answer_help += f"; the answer itself gives {' and '.join(from_answer)}." if from_answer else "."
    elif from_answer:
        answer_help += f" The answer itself gives {' and '.join(from_answer)}."
    return answer_help


def run_check(
    puzzle: Puzzle[Any, Any], params: Sequence[Param], values: dict[str, Any], text: str | None, as_json: bool
) -> None:
    """Judge every answer that ``text`` holds (none: the problem's own file holds it) and say
    what is wrong with each; exit 1 when one is not a solution."""
    pictures: list[str | None] = [text]
    listed: list[Any] = [None]  # each answer's "answer" entry, where a JSON document has one
    claimed = None  # a JSON document's answers and the problem it says they solve
    if text is not None and is_document(text):
        claimed = read_document(puzzle, params, values, text)
        values, pictures, listed = claimed.values, claimed.pictures, claimed.listed
    elif text is not None:
        pictures = list(_pictures_of(text))
        listed = [None] * len(pictures)
    problems: list[str] = []
    faults: list[Any] = []
    for i, (picture, as_listed) in enumerate(zip(pictures, listed, strict=True), 1):
        try:
            problem, proposed = puzzle.read_answer(values, picture)
            if claimed is not None:
                claimed.agree(puzzle, problem)  # the problem the document claims is the one judged
            if as_listed is not None:
                _same_answer(puzzle, problem, proposed, as_listed)
        except BoardPuzzlesError as error:
            if len(pictures) == 1:
                raise
            raise BoardPuzzlesError(f"answer {i}: {error}") from None
        found = puzzle.violations(problem, proposed)
        problems += [f"answer {i}: {p}" for p in found] if len(pictures) > 1 else [p.message for p in found]
        faults += [_named(fault, problem, proposed, i if len(pictures) > 1 else None) for fault in found]
    _say_verdict(puzzle, problem, problems, faults, len(pictures), as_json)


def _named(fault: Fault, problem: Any, answer: Any, answer_number: int | None) -> dict[str, Any]:
    """A fault as ``check --json`` lists it: its message, squares by name, lines and kind (and
    which answer it is about, when the input holds several)."""
    grid = getattr(problem, "grid", None) or getattr(answer, "grid", None)
    entry = (
        fault.named(grid)
        if grid is not None
        else {"message": fault.message, "squares": [], "lines": [], "kind": fault.kind}
    )
    return entry if answer_number is None else {**entry, "answer": answer_number}


def _say_verdict(
    puzzle: Puzzle[Any, Any], problem: Any, problems: list[str], faults: list[Any], answers: int, as_json: bool
) -> None:
    if as_json:
        identity = puzzle.problem_identity(problem)
        document = {"puzzle": puzzle.name, "problem": identity["problem"], "valid": not problems}
        click.echo(json.dumps({**document, "faults": faults, "violations": problems}))
    else:
        for problem_text in problems:
            click.echo(f"not a solution: {problem_text}")
        if not problems:
            if answers > 1:
                click.echo(f"all {answers} answers are solutions: {puzzle.describe(problem)}")
            else:
                click.echo(f"a solution: one of the {puzzle.describe(problem)}")
    if problems:
        raise CommandResult(EXIT_NEGATIVE)


def _same_answer(puzzle: Puzzle[Any, Any], problem: Any, proposed: Any, as_listed: Any) -> None:
    """A JSON answer holds the answer twice, as its ``"answer"`` and as its ``"board"`` picture;
    ``check`` judges the picture, so the two must be the same answer (a hand-edited document
    might change one only). Raises a one-line error when they differ or the first is unreadable."""
    try:
        listed = puzzle.answer_to_json(problem, puzzle.answer_from_json(problem, as_listed))
    except (BoardPuzzlesError, ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        raise BoardPuzzlesError(f"'answer' cannot be read ({error}): remove it to check the 'board' alone") from None
    if listed != puzzle.answer_to_json(problem, proposed):
        raise BoardPuzzlesError("'answer' and 'board' hold different answers: correct one of them or remove 'answer'")


def _pictures_of(text: str) -> list[str]:
    """The answers of a text: ``solve`` prints boards with an empty line between them. The text
    is split only where every part has the same number of lines and of characters in its first
    line, so one picture whose empty row was typed as an empty line is still read whole (and a
    listing is never read as one tall board)."""
    blocks = [block.strip("\n") for block in text.replace("\r\n", "\n").split("\n\n")]
    blocks = [block for block in blocks if block.strip()]
    if len(blocks) < 2:
        return [text]
    shapes = {(block.count("\n"), len(block.split("\n")[0].rstrip())) for block in blocks}
    return blocks if len(shapes) == 1 else [text]


def answer_text(argument: str, literal: bool, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of an answer argument: a file, standard input (``-``), or, where answers may be
    typed, the argument itself (decided without touching the file system for long text)."""
    if argument == "-" or not literal or is_existing_file(argument):
        return read_text(argument, limit)
    return argument
