"""`boardpuzzles goishi animate | convert | generate | hint`: the commands of Goishi Hiroi's own (solve,
count and check come from the protocol, see :mod:`boardpuzzles.cli.commands`)."""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any, NoReturn

import click

from boardpuzzles.checkpoint import Checkpoint
from boardpuzzles.cli.commands import answer_text, draw_into_files, interrupted, problem_options
from boardpuzzles.cli.common import (
    COUNT_EXIT_CODES_HELP,
    DELAY,
    EXIT_CODES_HELP,
    EXIT_INTERRUPTED,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    GIF_PATH,
    OUTPUT_PATH,
    SEED,
    SVG_PATH,
    CommandResult,
    OneOf,
    Whole,
    checkpoint_option,
    command_settings,
    jobs_option,
    json_option,
    note,
    picture_options,
    quiet_option,
    time_limit_option,
    write_file_atomically,
)
from boardpuzzles.cli.progress import ProgressBar
from boardpuzzles.compiling import compile_seconds, search_seconds
from boardpuzzles.formats import goishi as formats
from boardpuzzles.limits import Interrupted, Limits, TimeLimitReached
from boardpuzzles.parallel import default_jobs
from boardpuzzles.protocol import parse_size
from boardpuzzles.puzzles import goishi as gh

NAME = "goishi"
FORMATS_HELP = "\b\nFormats (detected automatically; --format to insist):\n" + "\n".join(
    f"  {name:<8} {what}" for name, what in {**formats.FORMATS, **formats.READ_ONLY}.items()
)
#: The puzzle file the examples of --help read: it comes with the source (run them in a clone of
#: the repository, as the README's), or give your own file or a puzz.link URL instead.
SAMPLE = "tests/data/goishi/pzprjs_test.txt"
SAMPLE_HELP = (
    f"The examples read {SAMPLE}, which comes with the source (run them in a clone of the "
    "repository); FILE may be any puzzle file, - for standard input, or a puzz.link URL."
)
#: The longest pause between two frames of a replay.
MAX_DELAY = 3600.0


def _document(kwargs: dict[str, Any]) -> formats.Document:
    """The puzzle (and any order) that the FILE argument holds."""
    return formats.read(kwargs["file"], kwargs["format"])


def _first_order(document: formats.Document, used: str) -> gh.Order | None:
    """The order a command uses from FILE: the only one, or the first of a listing (said on
    stderr, since the others are left aside)."""
    if document.more_orders:
        note(f"FILE holds {len(document.orders)} orders: {used} the first")
    return document.order


def svg_option(f: Any) -> Any:
    return click.option("--svg", "svg_path", type=SVG_PATH, metavar="PATH", help="Also draw into an SVG file.")(f)


@click.command(
    "animate",
    context_settings=command_settings(),
    epilog=f"""\b
Replays the solution (or the order in FILE, or --order) one stone at a time: press a key for
the next stone (q quits, Ctrl-C too), or give --delay S. In a terminal each frame is drawn in
colour over the last; otherwise the frames are printed one after another. O is a stone on the
board, = a point whose stone has been picked up, @ the stone just picked; rank numbers on the
left and file letters below name the points (a1 bottom left). --gif and --svg write the frames
to a file instead: a go board, picked stones greyed and numbered, arrows along the walk.

\b
Examples:
  boardpuzzles {NAME} animate {SAMPLE}
  boardpuzzles {NAME} animate {SAMPLE} --delay 0.3
  boardpuzzles {NAME} animate {SAMPLE} --gif walk.gif --svg frames.svg

{SAMPLE_HELP}

{FORMATS_HELP}

{EXIT_CODES_HELP}""",
)
@problem_options(gh.PUZZLE.params)
@click.option("--order", "order_text", metavar="ORDER", help="Replay this order instead of the solution.")
@click.option("--delay", type=DELAY, default=None, metavar="S", help="Seconds between stones (at most 60).")
@click.option("--gif", "gif_path", type=GIF_PATH, metavar="PATH", help="Write an animated GIF instead of replaying.")
@svg_option
@json_option
def animate(
    order_text: str | None,
    delay: float | None,
    gif_path: str | None,
    svg_path: str | None,
    as_json: bool,
    **kwargs: Any,
) -> None:
    """Replay the pick-up order step by step."""
    from boardpuzzles.render import animate as anim

    if delay is not None and delay > MAX_DELAY:
        raise click.UsageError(f"--delay is at most {MAX_DELAY:g} seconds")
    document = _document(kwargs)
    puzzle = document.puzzle
    order: gh.Order | None
    if order_text is not None:
        order = gh.read_order(puzzle, answer_text(order_text, literal=True))
    else:
        limits = Limits()
        order = _first_order(document, "replaying") or limits.run(gh.solve, puzzle, limits)
    if order is None:
        note(f"no solution: no order picks up all {puzzle.size} stones")
        raise CommandResult(EXIT_NEGATIVE)
    problem = gh.first_problem(puzzle, order)
    if problem is not None and problem.step:
        raise click.UsageError(f"cannot replay an illegal order: {problem}")
    frames = [gh.text_frame(puzzle, order, k) for k in range(len(order) + 1)]
    captions = ["start: every stone on the board"] + [
        f"{k}/{len(order)}: {puzzle.name(order[k - 1])}" for k in range(1, len(order) + 1)
    ]
    if as_json:
        document_json = {
            "puzzle": NAME,
            "problem": gh.PUZZLE.problem_identity(puzzle)["problem"],
            "order": gh.answer_to_json(puzzle, order),
            "frames": [f.split("\n") for f in frames],
        }
        click.echo(json.dumps(document_json))
    if gif_path or svg_path:
        scenes = gh.frames(puzzle, order)
        if svg_path:
            heading = f"{puzzle.describe()}: picked up one stone a frame"
            write_file_atomically(svg_path, anim.frames_svg(scenes, heading))
            note(f"wrote {len(scenes)} frames to {svg_path}")
        if gif_path:
            write_file_atomically(gif_path, anim.gif_bytes(scenes, delay if delay else 0.6))
            note(f"wrote {len(scenes)} frames to {gif_path}")
    if as_json or gif_path or svg_path:
        return
    _replay(puzzle, order, captions, delay)
    if problem is not None:
        note(f"the order stops early: {problem}")


#: Rich styles of the replay's characters in a terminal.
REPLAY_STYLES = {"O": "bold", "=": "dim", "@": "bold red", ".": "dim"}


def _painted(text: str) -> str:
    """A frame with coordinates, in colour (ANSI, through Rich): stones bold, picked points dim,
    the stone just picked red, the coordinates cyan."""
    import io

    from rich.console import Console
    from rich.text import Text

    picture = Text()
    lines = text.split("\n")
    for i, line in enumerate(lines):
        coordinates = i == len(lines) - 1
        for j, ch in enumerate(line):
            if coordinates or j < line.index(" "):  # file letters, rank numbers
                picture.append(ch, "cyan" if ch != " " else "")
            else:
                picture.append(ch, REPLAY_STYLES.get(ch, ""))
        picture.append("\n" if i < len(lines) - 1 else "")
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="standard", width=10_000, highlight=False).print(
        picture, end=""
    )
    return buffer.getvalue()


def _replay(puzzle: gh.Puzzle, order: gh.Order, captions: list[str], delay: float | None) -> None:
    """The frames in the terminal, with coordinates; in colour and redrawn in place when stdout
    is a terminal. q (or Ctrl-D) ends it early; Ctrl-C ends it quietly with exit 130."""
    from boardpuzzles.render import animate as anim

    interactive = sys.stdout.isatty()
    frames = [gh.text_frame(puzzle, order, k, coordinates=True) for k in range(len(order) + 1)]
    if interactive:
        frames = [_painted(frame) for frame in frames]
    last = len(captions) - 1
    if delay is not None:
        wait = anim.sleeper(delay)
        if interactive:
            captions = [f"{c}   (Ctrl-C to stop)" if k < last else c for k, c in enumerate(captions)]
    elif interactive and sys.stdin.isatty():
        captions = [
            f"{c}   (press a key for the next stone, q to quit)" if k < last else c for k, c in enumerate(captions)
        ]

        def wait(k: int) -> None:
            try:
                key = click.getchar()
            except EOFError:  # Ctrl-D
                raise anim.Quit from None
            if key in ("q", "Q"):
                raise anim.Quit

    else:
        wait = anim.sleeper(0)  # nobody to press a key: print every frame
    try:
        anim.replay(frames, captions, lambda s: click.echo(s, nl=False), wait, in_place=interactive)
    except anim.Quit:
        return
    except KeyboardInterrupt:  # Ctrl-C: leave quietly, the cursor below the last frame
        sys.stdout.flush()
        raise CommandResult(EXIT_INTERRUPTED) from None


@click.command(
    "convert",
    context_settings=command_settings(),
    epilog=f"""\b
Round trips are lossless: the board keeps its size and empty border, and the pick-up numbers
stay where the target format can hold them (numbers, pzprv3). --solve adds the solution's
numbers.

\b
Examples:
  boardpuzzles {NAME} convert {SAMPLE} --to url
  boardpuzzles {NAME} convert 'goishi/6/7/vsten1tvo' --to quoted -o seed.txt
  boardpuzzles {NAME} convert {SAMPLE} --to pzprv3 --solve

{SAMPLE_HELP}

{FORMATS_HELP}

{EXIT_CODES_HELP}""",
)
@problem_options(gh.PUZZLE.params)
@click.option("--to", "out_format", type=OneOf(list(formats.FORMATS)), required=True, help="The format to write.")
@click.option("--solve", "with_solution", is_flag=True, help="Include the solution's pick-up numbers.")
@click.option("--output", "-o", "out_path", type=OUTPUT_PATH, metavar="PATH", help="Write to a file (default: stdout).")
@json_option
def convert(out_format: str, with_solution: bool, out_path: str | None, as_json: bool, **kwargs: Any) -> None:
    """Write a puzzle in another format."""
    document = _document(kwargs)
    order = document.order
    if with_solution:
        if out_format not in formats.CARRY_ORDER:
            raise click.UsageError(
                f"--solve needs a format that holds pick-up numbers: {' or '.join(formats.CARRY_ORDER)}"
            )
        limits = Limits()
        order = limits.run(gh.solve, document.puzzle, limits)
        if order is None:
            note("no solution: nothing to add")
            raise CommandResult(EXIT_NEGATIVE)
    if order is not None and out_format not in formats.CARRY_ORDER:
        note(f"the {out_format} format holds no pick-up numbers: the order is left out")
        order = None
    elif order is not None and not with_solution:
        order = _first_order(document, "writing")
    text = formats.write(document.puzzle, out_format, order)
    _emit_text(text, out_path, as_json, {"from": document.format, "to": out_format})


def _say_fallback(request: dict[str, Any]) -> None:
    """A note on stderr when the --method asked cannot serve the request: why, and which ran."""
    reason = gh.fallback_reason(request["rows"], request["cols"], request["stones"], request["method"])
    if reason is not None:
        note(f"--method {reason}")


def _say_how_it_was_made(made: Any, seed: int) -> None:
    """The note on stderr after ``generate``: the seed, the method and its effort, the time."""
    if made.method in ("grow", "join"):
        how = f"{made.checks} layouts counted, {made.backtracks} dead ends"
    else:
        how = f"{made.regrowths} regrowth{'s' if made.regrowths != 1 else ''}"
    note(
        f"seed {seed}: unique puzzle of {made.puzzle.describe()} ({made.method}: {how}, "
        f"{made.restarts} restart{'s' if made.restarts != 1 else ''}) in {made.seconds:.2f}s"
    )


@click.command(
    "generate",
    context_settings=command_settings(),
    epilog="""\b
Makes a new puzzle with exactly one solution, proven by the counter and checked by the
independent checker. --method grow starts from a small layout with one order and adds a stone
at a time, keeping only layouts with one order; join grows two halves on disjoint lines and
joins them at one stone; auto (the default) joins from 48 stones on and grows below; regrow
grows a random legal walk and regrows it from its first point of ambiguity until one order is
left. Where the board or the stones are too few for the method asked, the next one runs (join,
then grow, then regrow) and a note on stderr says why. The same --seed (and method) gives the
same puzzle; without one, a seed is chosen and reported on stderr. SIZE
is N or RxC. A request no layout can meet is refused at once (exit 2): 2 to 6 stones, a full
board, more than one stone on a single line, or more stones than any layout of a board up to
6x6 with exactly one order has (`goishi layouts N` counted them all).

\b
Examples:
  boardpuzzles goishi generate 10x10 --stones 20 --seed 1
  boardpuzzles goishi generate 15x15 --stones 40 --to url
  boardpuzzles goishi generate 8 --stones 16 --to numbers --solution --svg puzzle.svg

\b
Exit codes:
  0    generated
  2    bad input or usage
  3    gave up at the time limit (--json prints a document with "found": false)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@click.argument("size", metavar="SIZE")
@click.option("--stones", type=Whole(1, gh.MAX_STONES), required=True, metavar="K", help="Number of stones.")
@click.option("--seed", type=SEED, default=None, help="Seed of the random walk.")
@click.option(
    "--to",
    "out_format",
    type=OneOf(list(formats.FORMATS)),
    default="rows",
    show_default=True,
    help="The format to write.",
)
@click.option("--solution", is_flag=True, help="Write the pick-up numbers too (numbers, pzprv3).")
@click.option(
    "--method", type=OneOf(list(gh.METHODS)), default="auto", show_default=True, help="How to generate (see below)."
)
@time_limit_option(default=60.0, what="Give up after S seconds.")
@click.option("--output", "-o", "out_path", type=OUTPUT_PATH, metavar="PATH", help="Write to a file (default: stdout).")
@json_option
@picture_options("the puzzle (with --solution: its order)")
def generate(
    size: str,
    stones: int,
    seed: int | None,
    out_format: str,
    solution: bool,
    method: str,
    time_limit: float,
    out_path: str | None,
    as_json: bool,
    svg_path: str | None,
    png_path: str | None,
) -> None:
    """Generate a new puzzle with exactly one solution."""
    rows, cols = parse_size(size)
    if solution and out_format not in formats.CARRY_ORDER:
        raise click.UsageError(
            f"--solution needs a format that holds pick-up numbers: {' or '.join(formats.CARRY_ORDER)}"
        )
    chosen = seed if seed is not None else random.SystemRandom().randrange(2**31)
    request = {"rows": rows, "cols": cols, "stones": stones, "method": method}
    limits = Limits(time_limit)
    try:
        made = limits.run(lambda: gh.generate(rows, cols, stones, seed=chosen, limits=limits, method=method))
    except TimeLimitReached:  # stopped before the generator's own loop began: nothing was tried
        gave_up = gh.GenerationTimeout(
            gh.gave_up_message(rows, cols, stones, time_limit),
            method=method,
            seconds=limits.elapsed(),
        )
        _given_up(gave_up, chosen, request, as_json)
    except gh.GenerationTimeout as err:
        _given_up(err, chosen, request, as_json)
    finally:
        limits.close()
    if not gh.is_unique(made.puzzle) or not gh.check(made.puzzle, made.order):  # proven, not assumed
        raise RuntimeError("the generator returned a puzzle that is not unique")
    _say_fallback(request)
    _say_how_it_was_made(made, chosen)
    text = formats.write(made.puzzle, out_format, made.order if solution else None)
    if svg_path or png_path:
        scene = gh.frame(made.puzzle, made.order, len(made.order) if solution else 0)
        scene.title = f"{made.puzzle.describe()}: a new puzzle" + (", solved" if solution else "")
        draw_into_files(svg_path, png_path, scene)
    _emit_text(
        text,
        out_path,
        as_json,
        {
            "found": True,
            "seed": chosen,
            "request": request,
            "problem": gh.PUZZLE.problem_identity(made.puzzle)["problem"],
            "format": out_format,
            "board": made.puzzle.to_rows(),
            "solutions": [gh.PUZZLE.answer_entry(made.puzzle, gh.PickUpOrder(made.puzzle, made.order))],
            **_effort(made),
        },
    )


def _effort(run: gh.Generated | gh.GenerationTimeout) -> dict[str, Any]:
    """What a generator run did, for --json: the same fields whether it made a puzzle or not."""
    return {
        "method": run.method,
        "restarts": run.restarts,
        "regrowths": run.regrowths,
        "checks": run.checks,
        "backtracks": run.backtracks,
        "seconds": round(run.seconds, 3),
        "compile_seconds": round(compile_seconds(), 3),
    }


def _given_up(err: gh.GenerationTimeout, seed: int, request: dict[str, Any], as_json: bool) -> NoReturn:
    """No puzzle by the time limit: the reason on stderr, with --json a document that says so
    (``"found": false``, as the find commands print), and exit 3."""
    _say_fallback(request)
    note(f"gave up: {err}")
    if as_json:
        document = {"puzzle": NAME, "found": False, "seed": seed, "request": request, "reason": str(err)}
        click.echo(json.dumps({**document, **_effort(err), "solutions": []}))
    raise CommandResult(EXIT_PARTIAL) from None


@click.command(
    "hint",
    context_settings=command_settings(),
    epilog=f"""\b
Names the next forced pick-up and why: which legal move leads on to a complete order (the
counter decides) and, for every other legal move, within how many pick-ups all its lines die
(a line dies where no move is left, or where a stone left can no longer be reached). --order
gives the pick-ups made so far (none: the hint names the start stone). --rate also prints the
puzzle's difficulty: the steps with a real choice and the deepest look-ahead a wrong move needs.

\b
Examples:
  boardpuzzles {NAME} hint {SAMPLE}
  boardpuzzles {NAME} hint {SAMPLE} --order "e3 d3 d4"
  boardpuzzles {NAME} hint {SAMPLE} --rate --json

{SAMPLE_HELP}

{FORMATS_HELP}

{EXIT_CODES_HELP}""",
)
@problem_options(gh.PUZZLE.params)
@click.option("--order", "order_text", metavar="ORDER", help="The pick-ups made so far (square names).")
@click.option("--rate", "with_rating", is_flag=True, help="Also rate the puzzle (it must have exactly one order).")
@time_limit_option()
@json_option
def hint(order_text: str | None, with_rating: bool, time_limit: float | None, as_json: bool, **kwargs: Any) -> None:
    """Name the next forced pick-up and why."""
    puzzle = _document(kwargs).puzzle
    prefix: gh.Order = ()
    if order_text is not None and order_text.strip():
        prefix = gh.read_order(puzzle, answer_text(order_text, literal=True))
    limits = Limits(time_limit)
    try:
        found = limits.run(gh.hint, puzzle, prefix, limits)
        rating = limits.run(gh.rate, puzzle, limits) if with_rating else None
    finally:
        limits.close()
    text = gh.hint_text(puzzle, found)
    if as_json:
        document: dict[str, Any] = {
            "puzzle": NAME,
            "problem": gh.PUZZLE.problem_identity(puzzle)["problem"],
            "after": [puzzle.name(c) for c in prefix],
            "forced": found.forced,
            "right": [puzzle.name(c) for c in found.right],
            "wrong": [{"stone": puzzle.name(c), "depth": d} for c, d in found.wrong],
            "text": text,
        }
        if rating is not None:
            document["rating"] = {"choices": rating.choices, "depth": rating.depth, "steps": list(rating.steps)}
        click.echo(json.dumps(document))
    else:
        click.echo(text)
        if rating is not None:
            click.echo(f"rating: {rating.describe()}")
    if not found.right:
        raise CommandResult(EXIT_NEGATIVE)


def _emit_text(text: str, out_path: str | None, as_json: bool, extra: dict[str, Any]) -> None:
    if out_path:
        write_file_atomically(out_path, text + "\n")
        note(f"wrote {out_path}")
    if as_json:
        click.echo(json.dumps({"puzzle": NAME, **extra, "text": text}))
    elif not out_path:
        click.echo(text)


@click.command(
    "layouts",
    context_settings=command_settings(),
    help="""Count the layouts of stones on the N x N board that have exactly one pick-up order.

\b
Prints the total and the classes up to the 8 symmetries of the square, then
the counts by number of stones (the empty board is not counted; one stone is).
One layout of each class is searched, in subtasks over --jobs threads:
N = 5 takes seconds, N = 6 (2^36 layouts) about 10 core-hours, so give it
--checkpoint FILE and --time-limit S and run the same command again to go on.""",
    epilog="""\b
Examples:
  boardpuzzles goishi layouts 5
  boardpuzzles goishi layouts 6 --checkpoint six.db --time-limit 3600

"""
    + COUNT_EXIT_CODES_HELP,
)
@click.argument("n", metavar="N", type=Whole(1, gh.MAX_LAYOUT_SIDE))
@checkpoint_option
@time_limit_option(what="Stop after S seconds with the layouts found so far (exit 3); see --checkpoint.")
@jobs_option
@quiet_option
@json_option
def layouts(
    n: int, checkpoint: str | None, time_limit: float | None, jobs: int | None, quiet: bool, as_json: bool
) -> None:
    # Opened once for the run: a file of another count is refused before any work.
    opened = Checkpoint(checkpoint, gh.layout_identity(n)) if checkpoint is not None else None
    try:
        _count_layouts(n, opened, time_limit, jobs or default_jobs(), quiet, as_json)
    finally:
        if opened is not None:
            opened.close()


def _count_layouts(
    n: int, checkpoint: Checkpoint | None, time_limit: float | None, jobs: int, quiet: bool, as_json: bool
) -> None:
    started = time.perf_counter()
    with ProgressBar(f"{n}x{n}", enabled=False if quiet else None, counting="layouts with one order") as bar:

        def progress(done: int, total: int, packed: int) -> None:
            bar(done, total, gh.unpack_layout_counts(n, packed).total)

        limits = Limits(time_limit, checkpoint=checkpoint, jobs=jobs, progress=progress)
        try:
            found = limits.run(gh.unique_layout_counts, n, limits)
        except TimeLimitReached as stop:
            bar.close()
            again = "run the same command again to go on" if checkpoint else "add --checkpoint FILE to keep them"
            note(
                f"stopped at the time limit after {stop.done} of {stop.total} subtasks "
                f"({stop.partial:,} layouts with one order so far); {again}"
            )
            if as_json:
                partial = {"partial_count": stop.partial, "subtasks_done": stop.done, "subtasks": stop.total}
                spent = {"seconds": round(search_seconds(started), 3), "compile_seconds": round(compile_seconds(), 3)}
                click.echo(json.dumps({"puzzle": NAME, "n": n, "complete": False, **partial, **spent}))
            raise CommandResult(EXIT_PARTIAL) from None
        except (KeyboardInterrupt, Interrupted):
            interrupted(bar, None if checkpoint is None else checkpoint.path)
            raise
        finally:
            limits.close()
    seconds = search_seconds(started)
    sizes = {k: [t, c] for k, (t, c) in enumerate(zip(found.by_size, found.classes_by_size, strict=True)) if t}
    if as_json:
        document = {"puzzle": NAME, "n": n, "complete": True, "layouts": found.total, "classes": found.classes}
        timing = {"seconds": round(seconds, 3), "compile_seconds": round(compile_seconds(), 3)}
        click.echo(json.dumps({**document, "by_stones": sizes, "jobs": jobs, **timing}))
        return
    layouts = "1 layout of 1x1 has" if n == 1 else f"{found.total} layouts of {n}x{n} have"
    click.echo(f"{layouts} exactly one order ({found.classes} up to symmetry)")
    total_width = max(len(str(total)) for total, _ in sizes.values())
    class_width = max(len(str(classes)) for _, classes in sizes.values()) + 2
    for k, (total, classes) in sizes.items():
        click.echo(f"  {k:>2} stone{'s' if k > 1 else ' '}: {total:>{total_width}} {f'({classes})':>{class_width}}")


COMMANDS = [animate, convert, generate, hint, layouts]
