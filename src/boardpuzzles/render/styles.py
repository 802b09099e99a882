"""How piece letters are drawn by the picture back ends (the scene itself, what to draw, is
:class:`boardpuzzles.scene.Scene`).

Glossary
--------
style   how a piece letter is drawn: shape (``queen``, ``stone``, ``letter``), fill and outline,
        and its name in tooltips.
queen   drawn as a shape (a crown outline with a ball on each point), never as a font glyph:
        fonts may lack the chess symbols, and a shape looks the same in SVG and PNG.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PIECE_STYLES", "QUEEN_BALLS", "QUEEN_OUTLINE", "PieceStyle", "style_for"]


@dataclass(frozen=True)
class PieceStyle:
    shape: str  # "queen" | "stone" | "letter"
    fill: str
    stroke: str
    text: str = ""
    name: str = ""  # for tooltips: "queen", "black stone"


#: How the letters our puzzles use are drawn; any other letter is drawn as itself in a circle.
PIECE_STYLES: dict[str, PieceStyle] = {
    "Q": PieceStyle("queen", "#222222", "#f4f4f4", name="queen"),
    "X": PieceStyle("stone", "#1a1a1a", "#000000", name="black stone"),
    "O": PieceStyle("stone", "#fafafa", "#333333", name="white stone"),
}

#: The queen in a unit square (x right, y down): the outline of a five-pointed crown on a foot ...
QUEEN_OUTLINE: tuple[tuple[float, float], ...] = (
    (0.20, 0.88),
    (0.80, 0.88),
    (0.80, 0.79),
    (0.73, 0.74),
    (0.87, 0.33),
    (0.67, 0.56),
    (0.68, 0.25),
    (0.56, 0.52),
    (0.50, 0.19),
    (0.44, 0.52),
    (0.32, 0.25),
    (0.33, 0.56),
    (0.13, 0.33),
    (0.27, 0.74),
    (0.20, 0.79),
)
#: ... and a ball on each point of the crown: (x, y, radius).
QUEEN_BALLS: tuple[tuple[float, float, float], ...] = (
    (0.13, 0.29, 0.055),
    (0.32, 0.21, 0.055),
    (0.50, 0.14, 0.06),
    (0.68, 0.21, 0.055),
    (0.87, 0.29, 0.055),
)


def style_for(piece: str) -> PieceStyle:
    return PIECE_STYLES.get(piece, PieceStyle("letter", "#ffffff", "#333333", piece, piece))
