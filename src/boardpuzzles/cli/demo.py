"""`boardpuzzles demo` (a short tour of every puzzle) and `boardpuzzles warmup`."""

from __future__ import annotations

import time

import click

from boardpuzzles.cli.common import note, spaced_rows
from boardpuzzles.formats import goishi as goishi_formats
from boardpuzzles.puzzles import baikago, goishi, hyperqueen, knights_tour, less_than_three, queens


def side_by_side(blocks: list[str], gap: int = 4) -> str:
    """Text blocks printed next to each other, top-aligned."""
    split = [b.splitlines() for b in blocks]
    width = [max(map(len, lines)) for lines in split]
    height = max(map(len, split))
    rows = []
    for i in range(height):
        parts = [(lines[i] if i < len(lines) else "").ljust(w) for lines, w in zip(split, width)]
        rows.append((" " * gap).join(parts).rstrip())
    return "\n".join(rows)


def _heading(text: str) -> None:
    click.secho(f"\n== {text}", bold=True)


@click.command(
    "demo",
    context_settings={"help_option_names": ["-h", "--help"]},
    short_help="A short tour of every puzzle, checked against published counts.",
)
def demo() -> None:
    """A short tour of every puzzle, and a few counts checked against their published values."""
    note("Preparing the search kernels (compiled on first use, then cached on disk)...")
    _compile_kernels()
    _heading("HyperQueen 7x7: 7 queens on a torus, none attacking another (the seed article's puzzle)")
    boards = [hyperqueen.to_board(7, p) for p in hyperqueen.solutions(7)]
    for start in range(0, len(boards), 4):
        click.echo(side_by_side([spaced_rows(b.rows()) for b in boards[start : start + 4]]) + "\n")
    click.echo(f"{len(boards)} placements; one class under rotations, reflections and shifts:")
    (representative,) = hyperqueen.solutions(7, group="torus")
    click.echo(hyperqueen.to_board(7, representative).to_text(spaced=True))

    _heading("Less Than Three: 12 black and 12 white stones on 6x6, no three of a colour in any line")
    rules = less_than_three.SEED
    first = next(less_than_three.solutions(rules))
    click.echo(spaced_rows(first.rows()))
    click.echo("(every straight line counts, the slopes 1:2 and 2:1 too)")
    found = less_than_three.find(less_than_three.Rules(23, 1), time_limit=30)
    if found.board is not None:
        _heading(f"No three in line on 23x23, found in {found.seconds:.2f}s (symmetric under '{found.symmetry}')")
        click.echo(spaced_rows(found.board.rows()))

    _heading("Knight's tours: the seed's 5x5 from a corner, and a closed tour of 8x8 found at once")
    seed_tour = next(knights_tour.solutions(5, start=20))  # a1, bottom left
    found_tour = knights_tour.find(8, closed=True)
    click.echo(side_by_side([knights_tour.picture(5, 5, seed_tour), knights_tour.picture(8, 8, found_tour.tour)]))

    _heading("Goishi Hiroi: a published 15x15 puzzle (gridpuzzle.com 16n76), solved and proven unique")
    puzzle = goishi_formats.read(GOISHI_15).puzzle
    started = time.perf_counter()
    order = goishi.solve(puzzle)
    unique = goishi.is_unique(puzzle)
    click.echo(goishi.numbered_picture(puzzle, order))
    click.echo(
        f"{'unique' if unique else 'NOT unique'}: {len(order)} stones picked up ({time.perf_counter() - started:.3f}s)"
    )

    _heading("Baikago: black completes a + cross on e5 (distance 1) on a 9x9 board")
    position = baikago.Position(baikago.Rules(size=9))
    for name in ["e5", "a1", "d5", "a9", "f5", "i1", "e6", "i9", "e4"]:
        position.make_named(name)
    click.echo(str(position))
    click.echo(position.outcome().describe(position.grid))

    _heading("Counts (each compared with its published value)")
    checks = [
        ("hyperqueen count 13", lambda: hyperqueen.count(13), 4524, "OEIS A051906"),
        ("hyperqueen count 17", lambda: hyperqueen.count(17), 140692, "OEIS A051906"),
        ("hyperqueen count 19", lambda: hyperqueen.count(19), 820496, "OEIS A051906"),
        ("hyperqueen count 13 --unique", lambda: hyperqueen.count_classes(13), 11, "OEIS A053994"),
        (
            "hyperqueen count 13 --unique --group multipliers",
            lambda: hyperqueen.count_classes(13, "multipliers"),
            7,
            "OEIS A062166",
        ),
        ("hyperqueen count 12", lambda: hyperqueen.count(12), 0, "Polya: gcd(12, 6) > 1"),
        ("queens count 8", lambda: queens.count(8), 92, "OEIS A000170"),
        ("queens count 8 --unique", lambda: queens.count_classes(8, "dihedral"), 12, "OEIS A002562"),
        ("queens count 12", lambda: queens.count(12), 14200, "OEIS A000170"),
        ("less-than-three count", lambda: less_than_three.count(), 42, "the seed article"),
        (
            "less-than-three count --colours 1 --size 10",
            lambda: less_than_three.count(less_than_three.Rules(10, 1)),
            1135,
            "OEIS A000755",
        ),
        (
            "less-than-three count --colours 1 --size 9 --unique",
            lambda: less_than_three.count_classes(less_than_three.Rules(9, 1)),
            51,
            "OEIS A000769",
        ),
        ("knights-tour count 5 --start a1", lambda: knights_tour.count(5, start=20), 304, "the seed article"),
        ("knights-tour count 6", lambda: knights_tour.count(6), 6637920, "OEIS A165134"),
        (
            "knights-tour count 6 --closed --undirected",
            lambda: knights_tour.count(6, closed=True, undirected=True),
            9862,
            "OEIS A001230",
        ),
    ]
    for command, compute, published, source in checks:
        started = time.perf_counter()
        value = compute()
        seconds = time.perf_counter() - started
        verdict = click.style("ok", fg="green") if value == published else click.style("MISMATCH", fg="red")
        click.echo(f"  boardpuzzles {command:<50} {value:>10,}  {verdict} ({source})  {seconds:.2f}s")
    click.echo(
        "\nNext: `boardpuzzles hyperqueen --help`, `boardpuzzles queens count 15`, "
        "`boardpuzzles hyperqueen solve 7 --svg hq7.svg`, `boardpuzzles less-than-three find --size 20`,\n"
        "`boardpuzzles knights-tour find 1000 --closed --json > tour.json`."
    )


@click.command(
    "warmup",
    context_settings={"help_option_names": ["-h", "--help"]},
    short_help="Compile the search kernels now (cached on disk).",
)
def warmup() -> None:
    """Compile the search kernels now (they are cached on disk; later runs start fast)."""
    started = time.perf_counter()
    _compile_kernels()
    note(f"kernels ready ({time.perf_counter() - started:.1f}s)")


#: gridpuzzle.com hiroimono 16n76 (see tests/data/goishi/published_instances.md).
GOISHI_15 = "goishi/15/15/etufvvurv7fvpruvvvtvvvvufvv1vvvsfvvvvvvvbuvrn"


def _compile_kernels() -> None:
    hyperqueen.count(5)
    hyperqueen.count_classes(5)
    queens.count(6)
    queens.count_classes(6, "dihedral")
    next(queens.solutions(5))
    less_than_three.count(less_than_three.Rules(4, 1))
    less_than_three.count_classes(less_than_three.Rules(4, 1))
    less_than_three.find(less_than_three.Rules(4, 1))
    knights_tour.count(5, start=0)
    knights_tour.count_closed(5, 6)
    knights_tour.find(6, closed=True)
    small = goishi_formats.read("goishi/4/4/1370").puzzle
    goishi.is_unique(small)
    goishi.solve(small)
    from boardpuzzles.puzzles.baikago.ai import ComputerPlayer

    game = baikago.Position(baikago.Rules(size=7))
    game.make_named("d4")
    ComputerPlayer(game.rules, strength=1).choose_for(game)
