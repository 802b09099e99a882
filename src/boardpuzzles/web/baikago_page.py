"""The Baikago web page: one self-contained HTML document (no framework, nothing fetched but the
server's own JSON), kept apart from the server so each reads on its own; its style is
:mod:`boardpuzzles.web.baikago_style`'s and its script :mod:`boardpuzzles.web.baikago_script`'s.

How the page plays (see ``web/baikago.py`` for the API):

- a click (or Enter/Space on the keyboard cursor) draws the human's stone at once, posts it to
  ``/api/move``, then asks ``/api/reply`` for the computer's move while a "thinking" line shows;
- Undo and Redo (Ctrl+Z or Cmd+Z; Ctrl+Y, Ctrl+Shift+Z or Cmd+Shift+Z), as on the puzzles' play
  pages: the keys do nothing while the focus is in a field or a menu, and the buttons are
  enabled as the state's ``can_undo`` and ``can_redo`` say. A refusal (nothing to undo or redo)
  is asked for as data (``"refusal": "state"``), so it leaves no error in the browser's console,
  and the status line says it until the next move;
- a move, an undo or a redo sends the number of moves the page shows: when the game has moved on
  in another tab, nothing is done, the board shows the game as it stands, and the status line
  says so ("Nothing was undone: the game changed in another tab."), as it does when
  the answer to the Assistance switch brings moves played elsewhere; the computer then moves if
  the game stands on its turn. No request of the page is answered 4xx for it;
- the game id sits in the URL hash and in localStorage, so a reload (or a new tab) finds the
  game the server keeps; the settings (colour, strength, board size) belong to a game, and
  changing one either starts a new game at once (no move of the human's yet) or offers to;
- the board is an SVG (wood, lines, star points, coordinates, stones, the winning cross as a
  figure) under a grid of transparent buttons, one per point, that carry the clicks, the focus,
  the arrow-key cursor and the labels screen readers read ("h8, empty"); the wood runs past the
  outer lines further than a stone's radius, as on a real board, and the coordinates sit on its
  wider rim on the left and at the bottom;
- a click that plays nothing says why on the status line ("d4 is taken", "wait for the
  computer's move"; on a finished game, in the result box: "the game is over: start a new
  one"), until the next change, as the play pages say a refusal; no request is sent for it;
- the status, the result and an error share one slot of fixed height above the board, so the
  board never moves; the move list has two columns, black's moves and white's, and scrolls;
- an aid, as on the puzzles' play pages: off unless the Assistance switch turns it on (the
  state's ``aids``, kept with the game and carried into the next game the page starts), a line
  under the board says what perfect play gives from the position on a solved board (the config's
  ``solved`` sizes; the state's ``value``);
- a clock says the time played (the state's ``seconds``), stopped at the end, as on the play
  pages; *Copy link* copies the link of the game's settings (``?human=..&strength=..&size=..``),
  which opens a new game with them (a setting the page lacks is left out, and the status line
  says so); a game under way that a new one replaces (such a link, New game, a setting changed)
  is kept, and a *Back to the previous game* link returns to it, as on the play pages; the Keys
  panel lists the keys (not on a phone);
- on a narrow screen a new player's board is the largest offered whose points are at least 32 px
  (a finger's width), and the status speaks of taps, not keys.
"""

# ruff: noqa: E501 - the page is HTML, CSS and JavaScript in a string, wrapped as those read best

from __future__ import annotations

import json
from typing import Any

from boardpuzzles.web.baikago_script import SCRIPT
from boardpuzzles.web.baikago_style import STYLE


def render_page(config: dict[str, Any]) -> str:
    """The page, with the server's settings (default size, the sizes and strengths offered)."""
    # "</" inside a script would end it early; JSON allows "<\/" for it.
    page = PAGE.replace("__STYLE__", STYLE).replace("__SCRIPT__", SCRIPT)
    return page.replace("__CONFIG__", json.dumps(config).replace("</", "<\\/"))


PAGE = r"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Baikago (plum-blossom go)</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 6 6'%3E%3Crect width='6' height='6' rx='1' fill='%23dcb35c'/%3E%3Cg fill='%23111'%3E%3Ccircle cx='3' cy='3' r='.8'/%3E%3Ccircle cx='1.2' cy='3' r='.8'/%3E%3Ccircle cx='4.8' cy='3' r='.8'/%3E%3Ccircle cx='3' cy='1.2' r='.8'/%3E%3Ccircle cx='3' cy='4.8' r='.8'/%3E%3C/g%3E%3C/svg%3E">
<style>__STYLE__</style></head>
<body data-busy="1" data-over="0">
<div class="page">
<header>
  <h1>Baikago<span class="kanji" lang="ja" title="Baikago: plum-blossom go">梅花碁</span></h1>
  <p class="rule" id="rule">Make a cross of five of your stones first: a centre and four stones at the same
    distance from it, in a + (along the lines) or in an &times; (on the diagonals).</p>
</header>
<div class="layout">
<main>
  <div id="slot">
  <div id="status" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span><span id="status-text">Loading&hellip;</span><span id="clock" aria-label="time played">0:00</span></div>
  <div id="result" hidden><span id="result-head"><span id="result-line"></span><span id="result-time" aria-label="time played"></span></span><span id="result-detail"></span>
    <button type="button" class="action primary" id="again">New game</button></div>
  <div id="error" role="alert" hidden><span id="error-text"></span>
    <button type="button" class="action" id="retry">Try again</button></div>
  </div>
  <div class="board-wrap" id="board-wrap">
    <svg id="board" aria-hidden="true" focusable="false"></svg>
    <div id="points" role="group" aria-label="Board" aria-describedby="board-help"></div>
  </div>
  <p id="board-help" class="sr">Arrow keys move between points; Enter or Space plays a stone.</p>
  <p id="value" class="value" hidden></p>
</main>
<aside>
  <section class="panel" aria-labelledby="game-h">
    <h2 id="game-h">This game</h2>
    <p class="game-info" id="game-info"></p>
    <div class="buttons">
      <button type="button" class="action" id="undo" title="Undo (Ctrl+Z)" aria-keyshortcuts="Control+Z">Undo</button>
      <button type="button" class="action" id="redo" title="Redo (Ctrl+Y)" aria-keyshortcuts="Control+Y">Redo</button>
      <button type="button" class="action" id="new">New game</button>
      <button type="button" class="action" id="copy-link">Copy link</button>
    </div>
    <p class="help">Its <a id="share-link" href="#">link</a> opens a new game with these settings.</p>
    <p class="help" id="previous" hidden><a id="previous-link" href="#">Back to the previous game</a></p>
  </section>
  <section class="panel" aria-labelledby="aids-h">
    <h2 id="aids-h">Assistance</h2>
    <label class="switch"><input type="checkbox" id="aids" role="switch" aria-describedby="aids-note"> Show aids</label>
    <p class="help" id="aids-note"></p>
  </section>
  <section class="panel" aria-labelledby="settings-h">
    <h2 id="settings-h">Settings</h2>
    <div class="settings">
      <label for="human">You play</label>
      <select id="human"><option value="black">black (first)</option><option value="white">white</option></select>
      <label for="strength">Computer</label><select id="strength"></select>
      <label for="size">Board</label><select id="size"></select>
    </div>
    <div id="offer" hidden>
      <p id="offer-text"></p>
      <div class="buttons"><button type="button" class="action primary" id="offer-yes">Start new game</button>
        <button type="button" class="action" id="offer-no">Keep this game</button></div>
    </div>
    <p class="help" id="settings-help">Settings belong to a game: changing one starts a new game.</p>
    <p class="help" id="size-note" hidden></p>
  </section>
  <section class="panel" aria-labelledby="moves-h">
    <h2 id="moves-h">Moves</h2>
    <ol id="moves"></ol><p class="empty-list" id="no-moves">No moves yet.</p>
  </section>
  <details class="keys" id="keys-box"><summary>Keys</summary><p id="keys">Arrows move between points, <kbd>Home</kbd> and <kbd>End</kbd>
    to the ends of a row, <kbd>Enter</kbd> or <kbd>Space</kbd> plays a stone, <kbd>Ctrl+Z</kbd> undo,
    <kbd>Ctrl+Y</kbd> or <kbd>Ctrl+Shift+Z</kbd> redo (<kbd>Cmd</kbd> on a Mac).</p></details>
</aside>
</div>
</div>
<script>
__SCRIPT__
</script>
</body></html>
"""
