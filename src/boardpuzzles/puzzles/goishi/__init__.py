"""Goishi Hiroi (碁石ひろい, "picking up go stones"): pick up every stone in one walk.

Stones lie on the points of a grid. Start at any stone and pick it up; then move along a row or
a column and pick up the first stone still on the board in that direction (stones already picked
up are gone, and the walk passes over their points); at each stone go straight on or turn 90
degrees, never back the way you came; turning is only possible at a stone, since each move ends
at one. Pick up every stone. Published puzzles (Nikoli, puzz.link, "Zen Solitaire") have exactly
one answer. The seed article (the fourth of the series this project started from) solves it by
depth-first search from every stone, stopping at the first answer.

Glossary
--------
point       a cell of the grid; it holds a stone or is empty.
stone       an ``O`` in pictures; :class:`Puzzle` keeps their cells in row-major order.
order       the answer: the cells of all stones in pick-up order (``Order``, a tuple of cells).
            Printed as a board of pick-up numbers (``1`` is picked first) and as square names
            (``a1`` is the bottom-left point, as everywhere in boardpuzzles).
step        moving from one stone to the next; step ``k`` picks up the ``k``-th stone.
arrival     the direction of the step that reached the current stone; the next step may not be
            its reverse.
state       (stones left, current stone, arrival): all that the rest of the walk depends on; the
            kernel memoises the number of completions of each state it meets.
ambiguity   a point of the walk where another choice also leads to a complete order; the
            generator regrows a random walk from its first ambiguity until it has none.

Roads not taken: a SAT/ILP model (cspuz does that; heavyweight for boards this small), and
Hamiltonian-path reductions to a visibility graph (the graph changes as stones are picked up,
which is exactly what the memoised state captures).

Modules: ``rules`` (the puzzle, the independent checker, orders as text), ``search`` (the
memoised counter and the layouts with one order), ``pictures``, ``generator`` (unique puzzles),
``hints`` (hints and ratings), ``files`` (the file formats, also :mod:`boardpuzzles.formats.goishi`),
``protocol`` (answers, JSON, ``PUZZLE``). Everything public is importable from here.
"""

from boardpuzzles.puzzles.goishi.generator import (
    DISTANCE_POWER,
    FEWEST_UNIQUE_STONES,
    GROW_BACK,
    GROW_JUMP,
    GROW_KINDS,
    GROW_MIDDLE,
    GROW_PATIENCE,
    GROW_STEPS,
    GROW_TRIES,
    JOIN_FROM,
    JOIN_TRIES,
    JUMP_WEIGHT,
    METHODS,
    MOST_UNIQUE_STONES,
    SEED_SIDE,
    SEEDS,
    Generated,
    GenerationTimeout,
    fallback_reason,
    first_ambiguity,
    gave_up_message,
    generate,
    impossible_request,
)
from boardpuzzles.puzzles.goishi.hints import (
    LOOKAHEAD_CAP,
    Hint,
    Rating,
    hint,
    hint_text,
    rate,
)
from boardpuzzles.puzzles.goishi.pictures import (
    CURRENT_MARK,
    PickUpOrder,
    answer_text,
    frame,
    frames,
    numbered_picture,
    text_frame,
    to_scene,
)
from boardpuzzles.puzzles.goishi.protocol import (
    DENSE_7,
    PUZZLE,
    answer_from_json,
    answer_to_json,
    describe,
    looks_like_url,
    pick_up_orders,
    read_answer,
    read_order,
)
from boardpuzzles.puzzles.goishi.rules import (
    DIRECTION_NAMES,
    DIRECTIONS,
    MAX_SIDE,
    MAX_STONES,
    NAME,
    NO_DIRECTION,
    STONE,
    Order,
    Problem,
    Puzzle,
    arrival,
    as_puzzle,
    check,
    first_problem,
    legal_moves,
    order_names,
    parse_order,
    violations,
)
from boardpuzzles.puzzles.goishi.search import (
    COUNT_CEILING,
    LAYOUT_CHUNK,
    MAX_LAYOUT_SIDE,
    MAX_MEMO_SLOTS,
    Counter,
    LayoutCounts,
    count,
    count_at_most,
    first_two,
    image_bytes,
    is_unique,
    layout_identity,
    load_kernels,
    problem_identity,
    signed_word,
    solutions,
    solve,
    square_images,
    stone_bits,
    tables,
    turned,
    unique_layout_counts,
    unpack_layout_counts,
)

__all__ = [
    "COUNT_CEILING",
    "CURRENT_MARK",
    "Counter",
    "DENSE_7",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "DISTANCE_POWER",
    "FEWEST_UNIQUE_STONES",
    "GROW_BACK",
    "GROW_JUMP",
    "GROW_KINDS",
    "GROW_MIDDLE",
    "GROW_PATIENCE",
    "GROW_STEPS",
    "GROW_TRIES",
    "Generated",
    "GenerationTimeout",
    "Hint",
    "JOIN_FROM",
    "JOIN_TRIES",
    "JUMP_WEIGHT",
    "LAYOUT_CHUNK",
    "LOOKAHEAD_CAP",
    "LayoutCounts",
    "MAX_LAYOUT_SIDE",
    "MAX_MEMO_SLOTS",
    "MAX_SIDE",
    "MAX_STONES",
    "METHODS",
    "MOST_UNIQUE_STONES",
    "NAME",
    "NO_DIRECTION",
    "Order",
    "PickUpOrder",
    "PUZZLE",
    "Problem",
    "Puzzle",
    "Rating",
    "SEEDS",
    "SEED_SIDE",
    "STONE",
    "STONE_BITS",
    "answer_from_json",
    "answer_text",
    "answer_to_json",
    "arrival",
    "as_puzzle",
    "check",
    "count",
    "count_at_most",
    "describe",
    "first_ambiguity",
    "first_problem",
    "first_two",
    "frame",
    "frames",
    "fallback_reason",
    "generate",
    "hint",
    "hint_text",
    "is_unique",
    "legal_moves",
    "load_kernels",
    "looks_like_url",
    "numbered_picture",
    "order_names",
    "parse_order",
    "pick_up_orders",
    "problem_identity",
    "rate",
    "read_answer",
    "read_order",
    "signed_word",
    "solutions",
    "solve",
    "gave_up_message",
    "image_bytes",
    "impossible_request",
    "layout_identity",
    "square_images",
    "tables",
    "text_frame",
    "to_scene",
    "turned",
    "unique_layout_counts",
    "unpack_layout_counts",
    "violations",
]


def __getattr__(name: str) -> object:
    if name == "STONE_BITS":  # an array, made on first use (importing the puzzle loads no numpy)
        return stone_bits()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
