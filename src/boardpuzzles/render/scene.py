"""How piece letters are drawn by the picture back ends (the scene itself, what to draw, is
:class:`boardpuzzles.scene.Scene`).

Glossary
--------
style   how a piece letter is drawn: shape (``queen``, ``stone``, ``letter``), fill and outline.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardpuzzles.scene import Scene

__all__ = ["PIECE_STYLES", "PieceStyle", "Scene", "style_for"]


@dataclass(frozen=True)
class PieceStyle:
    shape: str  # "queen" | "stone" | "letter"
    fill: str
    stroke: str
    text: str = ""


#: How the letters our puzzles use are drawn; any other letter is drawn as itself in a circle.
PIECE_STYLES: dict[str, PieceStyle] = {
    "Q": PieceStyle("queen", "#222222", "#222222", "\u265b"),
    "X": PieceStyle("stone", "#1a1a1a", "#000000"),
    "O": PieceStyle("stone", "#fafafa", "#333333"),
}


def style_for(piece: str) -> PieceStyle:
    return PIECE_STYLES.get(piece, PieceStyle("letter", "#ffffff", "#333333", piece))
