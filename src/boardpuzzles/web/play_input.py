"""The play page's input (part of :mod:`boardpuzzles.web.play_script`): the panels' buttons, the
pointer on the board and the keyboard.

- A click plays the chosen tool on a cell (one the rules take but that changes nothing, or on
  a play of pairs one that moves the pick, says so on the status line); a right-click, a long press (half a second, a finger
  held still) or Shift+click plays the other tool: the second (``tools[1]``), or the first when
  the second is chosen. A play with no second tool keeps the browser's own menus.
- On a play that takes drags (``CONFIG.drag``: paths and pairs) a press that moves plays a
  click on each cell the pointer enters, in order (cells a fast pointer skips over included);
  clicks the rules refuse along the way are passed over quietly, and said only when the whole
  drag played nothing.
- Keys: the arrows move a cursor (wrapping at the edges; the first key moves it too, and
  brings the focus to the board when it was elsewhere), Enter or Space plays the tool there
  (with Shift, the other one), each tool's key picks it, Ctrl+Z / Ctrl+Y undo and redo, ``?``
  asks for a hint and ``!`` for a check.
"""

# ruff: noqa: E501 - JavaScript in a string, wrapped as it reads best

INPUT = r"""
// -------------------------------------------------------------- tools and the panels' buttons
const LONG_PRESS_MS = 500, STILL_PX = 10;

function chooseTool(name) {
  tool = name;
  for (const b of $("tools").children) b.setAttribute("aria-pressed", b.dataset.tool === name ? "true" : "false");
}
// The tool a right-click, a long press or Shift plays: the second, or the first when the second is chosen.
const otherTool = () => (SECOND === null ? null : tool === SECOND ? MAIN : SECOND);

function play(cell, which, quiet) {
  if (!state || state.solved || generating || !$("gone").hidden) return Promise.resolve(new Error("not now"));
  cursor = cell;
  const used = which || tool;
  return act("click", {cell: cell, tool: used}, {quiet: quiet, remark: quiet ? null : (before, after) => clickRemark(before, after, cell, used)});
}

// What a click the rules take but that does not do what it seems to says on the status line:
// one that changes nothing (erasing an empty square), and on a play of pairs one that moves the
// pick because the square is not beside the one picked (the state's "picked"). The server plays
// them without a word, as its rules say; the page says why the board did not change.
function clickRemark(before, after, cell, used) {
  if (after.game !== before.game || after.solved) return null;
  const name = (c) => after.names[c] || `cell ${c}`, same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const was = before.state, now = after.state;
  if (same(was, now)) {
    return used === "erase" ? `Nothing to ${labelOf(used).toLowerCase()} on ${name(cell)}.` : `${labelOf(used)} on ${name(cell)} changes nothing.`;
  }
  const picks = (s) => s !== null && typeof s === "object" && "picked" in s && "pairs" in s;
  if (picks(was) && picks(now) && was.picked !== null && was.picked !== cell && now.picked === cell && same(was.pairs, now.pairs)) {
    return `${name(cell)} is not beside ${name(was.picked)}: ${name(cell)} is picked instead.`;
  }
  return null;
}

function setUpControls() {
  for (const t of CONFIG.tools) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "tool"; b.dataset.tool = t.name;
    b.innerHTML = `${t.label} <kbd></kbd>`; b.querySelector("kbd").textContent = t.key;
    b.title = `${t.label} (${t.key})`;
    b.setAttribute("aria-keyshortcuts", t.key);
    b.addEventListener("click", () => chooseTool(t.name));
    $("tools").appendChild(b);
  }
  chooseTool(tool);
  if (SECOND) {
    $("second-note").hidden = false;
    $("second-note").textContent = `Right-click, long press or Shift+click: ${labelOf(SECOND).toLowerCase()}.`;
    $("second-note").title = `${labelOf(MAIN)} when ${labelOf(SECOND).toLowerCase()} is the chosen tool`;
  }
  const keys = CONFIG.tools.map((t) => `<kbd>${t.key}</kbd> ${t.label.toLowerCase()}`).join(", ");
  $("keys").innerHTML = `Arrows move, <kbd>Enter</kbd> or <kbd>Space</kbd> plays the tool${SECOND ? " (with <kbd>Shift</kbd>, the other)" : ""}, ${keys}, <kbd>Ctrl+Z</kbd> undo, <kbd>Ctrl+Y</kbd> redo, <kbd>?</kbd> hint, <kbd>!</kbd> check.`;
  $("board-help").textContent = `Arrow keys move between cells; Enter or Space plays the chosen tool${SECOND ? "; with Shift, the other tool" : ""}.`;
  for (const s of CONFIG.sizes) $("size").add(new Option(squareSize(s), String(s)));
  $("size").value = String(CONFIG.default_size);
  if (CONFIG.difficulties.length) {
    for (const d of CONFIG.difficulties) $("difficulty").add(new Option(d, d));
  } else { $("difficulty-box").hidden = true; }
  showSeedField();
  offerSizes();
  $("difficulty").addEventListener("change", () => { showSeedField(); offerSizes(); });
  document.body.classList.toggle("drag", Boolean(CONFIG.drag));
  setUpBoard();
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("hint").addEventListener("click", () => act("hint", {}, {waiting: "Looking for a hint\u2026"}));
  $("check").addEventListener("click", () => act("check"));
  $("restart").addEventListener("click", () => act("restart"));
  $("solve").addEventListener("click", async () => {
    if (!state || state.solved) return;
    if (await ask("Show the solution?", "The solution is played on the board (undo takes it back), and this puzzle no longer counts as solved by you.",
                  "Show solution", "Keep trying")) act("solve", {}, {waiting: "Looking for the solution\u2026"});
  });
  $("aids").addEventListener("change", async () => {
    const wanted = $("aids").checked;
    if (await act("aids", {on: wanted}) && state) $("aids").checked = Boolean(state.aids);
  });
  $("new").addEventListener("click", () => { const s = chosenSettings(); if (s) leaveFor(s); });
  $("copy-seed").addEventListener("click", () => state && copy(String(state.seed), $("copy-seed")));
  $("copy-link").addEventListener("click", () => copy($("share-link").href, $("copy-link")));
  $("zoom").addEventListener("click", () => { saved.set("zoom", !zoomed()); fit(true); });
  $("gone-retry").addEventListener("click", retry);
  $("gone-reload").addEventListener("click", () => location.reload());
  if (CONFIG.imports) {
    $("import-form").hidden = false;
    $("import-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const url = $("import-url").value.trim();
      if (url) leaveFor({url: url}); else say("Paste a puzzle's URL to import it.", "refused");
    });
  }
  window.addEventListener("resize", () => fit(true));
  document.addEventListener("keydown", onKey);
}

// -------------------------------------------------------------- the pointer on the board
let press = null;          // the pointer held down on the board, while it is
let skipClick = false;     // the click that ends a drag or a long press was played already

// The cell under a point of the window, or null off the board.
function cellAt(x, y) {
  const r = $("cells").getBoundingClientRect(), g = state.geometry;
  if (x < r.left || y < r.top || x >= r.right || y >= r.bottom) return null;
  return Math.floor((y - r.top) * g.rows / r.height) * g.cols + Math.floor((x - r.left) * g.cols / r.width);
}

function setUpBoard() {
  const cells = $("cells");
  cells.addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (skipClick) { skipClick = false; return; }
    if (b) play(Number(b.dataset.cell), e.shiftKey && otherTool() ? otherTool() : tool);
  });
  cells.addEventListener("contextmenu", (e) => {
    if (!otherTool()) return;  // nothing to play: the browser's menu stays
    e.preventDefault();
    if (press && press.type !== "mouse") return;  // a long press: played by its timer
    const cell = state && cellAt(e.clientX, e.clientY);
    if (cell !== null && cell !== undefined) play(cell, otherTool());
  });
  cells.addEventListener("pointerdown", (e) => {
    skipClick = false;
    if (!state || e.button !== 0 || !e.isPrimary) return;
    const cell = cellAt(e.clientX, e.clientY);
    if (cell === null) return;
    press = {id: e.pointerId, type: e.pointerType, start: cell, last: cell, x: e.clientX, y: e.clientY,
             lx: e.clientX, ly: e.clientY, dragging: false, long: false, timer: null, played: 0, refused: null};
    if (e.pointerType !== "mouse" && otherTool()) {
      const held = press;
      held.timer = setTimeout(() => {
        held.long = true; held.timer = null;
        if (navigator.vibrate) navigator.vibrate(15);
        play(held.start, otherTool());
      }, LONG_PRESS_MS);
    }
  });
  cells.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (press.timer && Math.hypot(e.clientX - press.x, e.clientY - press.y) > STILL_PX) { clearTimeout(press.timer); press.timer = null; }
    if (!CONFIG.drag || press.long) return;
    for (const cell of cellsAlong(press.lx, press.ly, e.clientX, e.clientY)) {
      if (cell === press.last) continue;
      if (!press.dragging) { press.dragging = true; dragOnto(press, press.start); }
      press.last = cell;
      dragOnto(press, cell);
    }
    press.lx = e.clientX; press.ly = e.clientY;
  });
  const release = (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (press.timer) clearTimeout(press.timer);
    const done = press;
    press = null;
    if (done.dragging || done.long) skipClick = true;
    // a drag that played nothing says why, unless the status line has said it (another tab)
    if (done.dragging) serial(async () => { if (!done.played && done.refused && !done.refused.spoken) failed(done.refused); });
  };
  cells.addEventListener("pointerup", release);
  cells.addEventListener("pointercancel", release);
}

// The cells a pointer crosses between two points, sampled a quarter of a cell apart.
function cellsAlong(x0, y0, x1, y1) {
  const r = $("cells").getBoundingClientRect(), step = r.width / state.geometry.cols / 4;
  const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / step)), out = [];
  for (let i = 1; i <= n; i++) {
    const cell = cellAt(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n);
    if (cell !== null && cell !== out[out.length - 1]) out.push(cell);
  }
  return out;
}

function dragOnto(held, cell) {
  play(cell, tool, true).then((err) => { if (err) held.refused = err; else held.played += 1; });
}

// -------------------------------------------------------------- the keyboard
function moveCursor(dr, dc) {
  const g = state.geometry;
  let r = Math.floor(cursor / g.cols) + dr, c = cursor % g.cols + dc;
  r = (r + g.rows) % g.rows; c = (c + g.cols) % g.cols;
  const old = $("cells").children[cursor];
  if (old) { old.tabIndex = -1; old.classList.remove("cursor"); }
  cursor = r * g.cols + c;
  const b = $("cells").children[cursor];
  b.tabIndex = 0; b.classList.add("cursor"); b.focus();
}

function onKey(e) {
  const target = e.target;
  if (inField(target) || $("ask").open) return;
  const key = e.key;
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    const wanted = historyKey(e);
    if (wanted) { e.preventDefault(); act(wanted); }
    return;
  }
  if (e.altKey) return;
  const onBoard = target && target.parentElement === $("cells");
  const arrows = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (key in arrows && state) {
    e.preventDefault();
    moveCursor(...arrows[key]);  // from the cursor, focused or not: the first key moves as the next ones do
    return;
  }
  if (onBoard && (key === "Enter" || key === " ")) {
    e.preventDefault();  // played here, not as the button's click, so Shift can pick the other tool
    if (!e.repeat) play(Number(target.dataset.cell), e.shiftKey && otherTool() ? otherTool() : tool);
    return;
  }
  if (key === "?") { e.preventDefault(); if (!$("hint").disabled) $("hint").click(); return; }
  if (key === "!") { e.preventDefault(); if (!$("check").hidden && !$("check").disabled) $("check").click(); return; }
  const t = CONFIG.tools.find((t) => t.key === key.toLowerCase());
  if (t) { e.preventDefault(); chooseTool(t.name); }
}
"""
