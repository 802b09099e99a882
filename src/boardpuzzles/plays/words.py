"""Words for what is on each cell, read off a scene, for screen readers: "queen", "given black
stone", "step 3", "picked up, 4", "empty"; never a bare letter.

A cell's words are, in order of preference: its tooltip's text without the square's name (a
play writes "given queen" there), its label with what the label means ("step 3"), its piece's
name (the play's ``pieces``, else the picture's piece styles), and, without a tooltip, what its
mark means when the scene's legend says ("a legal next square"); "empty" when there is nothing.
:func:`listed` writes names in a list for the plays' messages, :func:`take_one_off` the advice
of a dead end that taking one of a few things off mends.
"""

from __future__ import annotations

from collections.abc import Mapping

from boardpuzzles.scene import Scene

#: How many things :func:`take_one_off` names at most; more are counted, not named.
NAMED = 4


def listed(words: list[str], last: str = "and") -> str:
    """Words in a list: "a4", "a4 and b4", "a4, b4 and c4" (``last="or"``: "a4, b4 or c4")."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def take_one_off(what: str, names: list[str], kind: str = "") -> str:
    """What to say when no solution holds the ``what`` placed ("pairs", "kings") together but one
    holds all of them save any one of ``names`` (the likeliest first): "no solution holds these
    pairs together: take off d1-e1 or a4-b4 and the rest can still be completed"; past ``NAMED``
    of them, the first few and how many others ("take off d1-e1, a4-b4, c2-c3 or one of the 5
    others marked, and ..."). ``kind`` says what each name is ("king": "the king on b6 or e6").
    No names: no one of them taken off is enough ("take two or more off")."""
    if not names:
        return f"no solution holds these {what}, even with any one of them taken off: take two or more off (undo)"
    shown = [*names[: NAMED - 1], f"one of the {len(names) - NAMED + 1} others marked"] if len(names) > NAMED else names
    them = f"the {kind} on {listed(shown, 'or')}" if kind else listed(shown, "or")
    comma = "," if len(names) > NAMED else ""
    return f"no solution holds these {what} together: take off {them}{comma} and the rest can still be completed"


def scene_words(scene: Scene, pieces: Mapping[str, str] | None = None) -> list[str]:
    """Words for every cell of the scene, in cell order (see the module docstring)."""
    return [cell_words(scene, cell, pieces or {}) for cell in scene.grid.cells()]


def cell_words(scene: Scene, cell: int, pieces: Mapping[str, str]) -> str:
    from boardpuzzles.render.styles import style_for

    words = []
    name = scene.grid.name(cell)
    if cell in scene.tooltips:
        words.append(scene.tooltips[cell].removeprefix(f"{name}: "))
    elif cell in scene.labels:
        meaning = scene.label_meaning or "number"
        words.append(f"{meaning} {scene.labels[cell]}")
    if cell in scene.pieces and cell not in scene.tooltips:
        letter = scene.pieces[cell]
        style = style_for(letter)
        words.insert(0, pieces.get(letter) or (style.name if style.name != letter else f"piece {letter}"))
    if cell in scene.faded and cell not in scene.tooltips:
        words.insert(0, "picked up")
    meaning = scene.mark_meanings.get(scene.marks.get(cell, ""), "")
    if meaning and cell not in scene.tooltips:
        words.append(meaning)
    return ", ".join(words) or "empty"
