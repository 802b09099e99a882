"""The play page's script (:mod:`boardpuzzles.web.play_page` says what the page does): the
server's JSON in, the board's buttons, the panels and the status line out. Every action goes to
the server one at a time, in order; a failure says why and changes nothing. An action asks for
a refusal by the rules as data (``"refusal": "state"``: 200 with ``"refused"``, see
:mod:`boardpuzzles.web.puzzles`), and so does New for a URL to import, so a click the rules
refuse or a URL that holds no puzzle leaves no error in the browser's console; the status line
says it as it says a 422 or a 400. The pointer and the keyboard are
:mod:`boardpuzzles.web.play_input`'s."""

# ruff: noqa: E501 - JavaScript in a string, wrapped as it reads best

from boardpuzzles.web.play_input import INPUT
from boardpuzzles.web.shared_script import SHARED_SCRIPT

SCRIPT = (
    r"""
const $ = (id) => document.getElementById(id);
const STORE = "boardpuzzles-play-" + CONFIG.name;
const MAIN = CONFIG.tools[0].name, SECOND = CONFIG.tools.length > 1 ? CONFIG.tools[1].name : null;
const PHONE = matchMedia("(max-width: 760px)"), TOUCH = matchMedia("(pointer: coarse)");
const FINGER = 32, MARGIN_BELOW = 32;  // the smallest cell a finger hits reliably; room under the board
const LISTED = 6;  // faults listed under the board, the rest counted
let state = null, tool = MAIN, cursor = 0, busy = 0, clockBase = 0, clockAt = 0, note = null, generating = null;
let queue = Promise.resolve();  // the actions, one at a time in order
// A field of the state is a feature of the server: a server without it gets no button for it.
const has = (field) => state !== null && Object.prototype.hasOwnProperty.call(state, field);
const labelOf = (name) => CONFIG.tools.find((t) => t.name === name).label;
const squareSize = (n) => `${n}\u00d7${n}`;
// The sizes a difficulty offers ("" without difficulties): all, unless the play says otherwise
// (a closed knight's tour needs an even side).
const sizesFor = (difficulty) => CONFIG.sizes_by_difficulty[difficulty] || CONFIG.sizes;
const nearest = (sizes, n) => sizes.reduce((best, s) => (Math.abs(s - n) < Math.abs(best - n) ? s : best));

const saved = {
  get(key) { try { return JSON.parse(localStorage.getItem(`${STORE}-${key}`)); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem(`${STORE}-${key}`, JSON.stringify(value)); } catch (e) { /* private mode */ } },
};

// -------------------------------------------------------------- the server
class ServerGone extends Error {}

function setBusy(delta) {
  busy += delta;
  document.body.dataset.busy = busy > 0 ? "1" : "0";
}

async function api(path, body) {
  setBusy(1);
  try {
    let response;
    try {
      response = await fetch(path, body === undefined ? {cache: "no-store"} : {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    } catch (e) {
      throw new ServerGone("the server does not answer");
    }
    let doc = null;
    try { doc = await response.json(); } catch (e) { doc = null; }
    if (!response.ok || doc === null) {
      const err = new Error((doc && doc.error) || `the server answered ${response.status}`);
      err.status = response.status;
      throw err;
    }
    if (typeof doc.refused === "string") {  // a refusal asked for as data: the game is unchanged
      const err = new Error(doc.refused);
      err.refused = true;
      if (doc.moved_on) {  // changed in another tab: the game as it stands there
        const {refused, moved_on, ...game} = doc;
        err.game = game;
      }
      throw err;
    }
    return doc;
  } finally { setBusy(-1); }
}

// Runs task after every action before it (its answer rendered first).
function serial(task) {
  const run = queue.then(task, task);
  queue = run.catch(() => null);
  return run;
}

// A failure: the server gone gets its box; anything else says why on the status line (a move
// the rules refuse as "Not allowed: ..."; a new game's refusal, a URL it cannot read, as it is).
function failed(err, move = true) {
  if (err instanceof ServerGone) { $("gone").hidden = false; $("gone-retry").focus(); return; }
  note = {text: (move && (err.refused || err.status === 422) ? "Not allowed: " : "") + err.message, kind: "refused"};
  showStatus();
  note = null;
}

// An action on the game; resolves to null, or to the error (said unless quiet). ``remark(before,
// after)``, when given, may return a line for the status line about what the action did. It
// sends the history of the game it shows: a game another tab changed is shown as it stands, and
// the status line says what was not done (even for a quiet click: the board changed under it).
// A change queued before such a refusal was drawn (a drag's next cells, a second Undo) is dropped:
// it was meant for the game the page showed then, not for the one it shows now.
const NOT_DONE = {click: "Not played", undo: "Nothing was undone", redo: "Nothing was redone",
                  restart: "Not restarted", solve: "The solution was not shown"};
let changedElsewhereShown = 0;  // how many times the page has drawn a game changed in another tab
function act(path, body, options) {
  const {quiet = false, waiting = null, remark = null} = options || {};
  const queuedAt = changedElsewhereShown;
  return serial(async () => {
    if (!state || generating) return new Error("no game");
    if (path in NOT_DONE && queuedAt !== changedElsewhereShown) {
      const dropped = new Error("dropped: the game changed in another tab");
      dropped.spoken = true;  // the status line says so already
      return dropped;
    }
    if (waiting) { note = {text: waiting, kind: ""}; showStatus(); }
    try {
      const before = state;
      const seen = {refusal: "state", history: state.history};
      const next = await api(`/api/games/${state.game}/${path}`, Object.assign(seen, body));
      note = null;
      render(next);
      const said = remark && remark(before, next);
      if (said) tell(said, "note");
      return null;
    } catch (err) {
      note = null;
      if (err.game) {
        changedElsewhereShown += 1;
        render(err.game);
        tell(changedElsewhere(NOT_DONE[path] || "Not done"));
        err.spoken = true;
      }
      else if (!quiet || err instanceof ServerGone) failed(err); else showStatus();
      return err;
    }
  });
}

// -------------------------------------------------------------- the status line
function tick() {
  if (!state) return;
  const stopped = state.solved || state.revealed;
  $("clock").textContent = fmt(stopped ? state.seconds : clockBase + (Date.now() - clockAt) / 1000);
}

function say(text, kind) {
  $("status-text").textContent = text;  // whole: a long line wraps (a tooltip is no help on a phone)
  $("status").className = kind || "";
}

// The faults drawn and listed: the rules broken always, aids when they are on, all at a check.
function shownFaults() {
  const checking = Boolean(state.check), order = (f) => ["wrong", "aid", "unfinished"].indexOf(f.kind || "wrong");
  const shown = state.faults.filter((f) => checking || !f.kind || f.kind === "wrong" || (f.kind === "aid" && state.aids));
  return shown.sort((a, b) => order(a) - order(b));  // stable: each kind in the server's order
}

function startText() {
  const touch = TOUCH.matches || PHONE.matches;
  const second = SECOND ? `; ${touch ? "a long press" : "a right-click"} plays ${labelOf(SECOND).toLowerCase()}` : "";
  const how = CONFIG.drag ? `${touch ? "Tap" : "Click"} or drag across the cells to play` : `${touch ? "Tap" : "Click"} a cell to play`;
  return `${how}${second}.`;
}

function generatingText() {
  if (generating.url) return "Opening the puzzle\u2026";
  const d = generating.difficulty ? ` ${generating.difficulty}` : "";
  return `Generating a new ${squareSize(generating.size)}${d} puzzle\u2026`;
}

// The status line answers what the player just did: the hint or the check asked for last (each
// stays until the next move), else the mistakes, else how to play.
function showStatus() {
  if (note) { say(note.text, note.kind); return; }
  if (generating) { say(generatingText(), "busy"); return; }
  if (!state) return;
  if (state.revealed && state.solved) { say("The solution is shown: this puzzle does not count as solved.", "revealed"); return; }
  if (state.solved) { say(`Solved in ${fmt(state.seconds)}!`, "solved"); return; }
  const faults = shownFaults();
  const hint = () => say("Hint: " + state.hint.message, "hint");
  if (state.hint && state.asked === "hint") { hint(); return; }
  if (state.check) {
    say(state.check.message, state.check.mistake ? "fault" : "checked");
    return;
  }
  if (faults.length) {
    const more = faults.length > 1 ? ` (and ${faults.length - 1} more)` : "";
    say(faults[0].message + more, "fault");
    return;
  }
  if (state.hint) { hint(); return; }
  say(state.moves ? "No rule broken so far." : startText(), "");
}

// -------------------------------------------------------------- the board
function buildCells() {
  const g = state.geometry, box = $("cells"), n = g.rows * g.cols;
  const pct = (v, whole) => (100 * v / whole) + "%";
  Object.assign(box.style, {left: pct(g.left, g.width), top: pct(g.top, g.height),
    width: pct(g.cols * g.cell, g.width), height: pct(g.rows * g.cell, g.height),
    gridTemplateColumns: `repeat(${g.cols}, 1fr)`, gridTemplateRows: `repeat(${g.rows}, 1fr)`});
  if (box.childElementCount !== n || box.dataset.shape !== `${g.rows}x${g.cols}`) {
    box.textContent = "";
    box.dataset.shape = `${g.rows}x${g.cols}`;
    box.setAttribute("aria-label", `Board, ${g.rows} rows by ${g.cols} columns`);
    for (let i = 0; i < n; i++) {
      const b = document.createElement("button");
      b.type = "button"; b.tabIndex = -1; b.dataset.cell = i;
      box.appendChild(b);
    }
    cursor = Math.min(cursor, n - 1);
  }
  const shown = shownFaults();
  const faulty = new Set(shown.filter((f) => f.kind !== "unfinished").flatMap((f) => f.cells));
  const hinted = new Set(state.hint ? state.hint.cells : []);
  const buttons = box.children;
  for (let i = 0; i < n; i++) {
    const b = buttons[i], name = state.names[i] || `cell ${i}`;
    b.dataset.name = name;
    b.setAttribute("aria-label", `${name}, ${state.contents[i] || ""}${faulty.has(i) ? ", wrong" : ""}${hinted.has(i) ? ", hint" : ""}`);
    b.tabIndex = i === cursor ? 0 : -1;
    b.classList.toggle("cursor", i === cursor);
  }
}

// The board's size is set once a game (and on resizing), so it never moves while the game goes
// on. A desktop: as wide as the window's height lets the whole picture show, with the legend
// under it. A phone: the screen's width; a board whose cells would then be under a finger's
// width is drawn at that width in a frame that scrolls sideways, unless the player chose to
// fit it to the screen.
let fitted = null;
function fit(again) {
  if (!state || (fitted === state.game && !again)) return;
  fitted = state.game;
  const main = document.querySelector("main"), box = $("board-box"), g = state.geometry;
  main.style.width = ""; box.style.width = "";
  let zoomable = false;
  if (PHONE.matches) {
    zoomable = $("frame").getBoundingClientRect().width * g.cell / g.width < FINGER;
    if (zoomable && zoomed()) box.style.width = Math.ceil(FINGER * g.width / g.cell) + "px";
  } else {
    const widest = main.getBoundingClientRect().width;
    const top = $("board-box").getBoundingClientRect().top + window.scrollY;
    for (let pass = 0; pass < 2; pass++) {  // a narrower board may wrap the legend: measure again
      const room = window.innerHeight - top - $("legend").getBoundingClientRect().height - MARGIN_BELOW;
      main.style.width = Math.max(240, Math.min(widest, Math.floor(room * g.width / g.height))) + "px";
    }
  }
  document.body.classList.toggle("zoomed", zoomable && zoomed());
  $("zoom-box").hidden = !zoomable;
  if (zoomable) {
    $("zoom-text").textContent = zoomed()
      ? "The board is wider than the screen, so that each cell is a finger wide: swipe it sideways."
      : "The whole board fits the screen; its cells are small.";
    $("zoom").textContent = zoomed() ? "Fit the screen" : "Larger cells";
    $("zoom").setAttribute("aria-pressed", zoomed() ? "false" : "true");
  }
}
const zoomed = () => saved.get("zoom") !== false;

// -------------------------------------------------------------- drawing a state
function render(next) {
  const focused = document.activeElement && document.activeElement.parentElement === $("cells");
  const was = state;
  state = next;
  clockBase = state.seconds; clockAt = Date.now();
  $("picture").innerHTML = state.svg;
  $("caption").textContent = state.caption || "";
  $("caption").title = state.caption || "";
  buildCells();
  document.body.dataset.game = state.game;
  document.body.dataset.moves = String(state.moves);
  document.body.dataset.solved = state.solved ? "1" : "0";
  document.body.classList.toggle("solved", state.solved);
  renderButtons();
  renderLists();
  fit();
  renderPuzzle();
  history.replaceState(null, "", state.link + "#game=" + state.game);
  try { localStorage.setItem(STORE, state.game); } catch (e) { /* private mode */ }
  showStatus(); tick();
  if (focused) focusCursor();
  if (was && was.game === state.game && !was.solved && state.solved && !state.revealed) flashSolved();
}

// The board flashes twice when the player solves it, as in Tatham's collection (not when the
// solution is shown, nor when a solved game is opened again); with reduced motion it is framed
// in green for a moment instead.
const FLASH_MS = 1200;
let flashTimer = null;
function flashSolved() {
  const cells = $("cells");
  cells.classList.remove("flash");
  void cells.offsetWidth;  // a flash again starts again
  cells.classList.add("flash");
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => cells.classList.remove("flash"), FLASH_MS);
}

function renderButtons() {
  $("undo").disabled = !state.can_undo;
  $("redo").disabled = !state.can_redo;
  $("hint").disabled = state.solved;
  $("check").hidden = !has("check");
  $("check").disabled = state.solved;
  $("restart").hidden = !has("can_restart");
  $("restart").disabled = !state.can_restart;
  $("solve").hidden = !has("revealed") || CONFIG.solves === false;
  $("solve").disabled = state.solved;
  $("aids-box").hidden = !has("aids") || !CONFIG.aids;
  $("aids").checked = Boolean(state.aids);
}

function renderLists() {
  const legend = $("legend");
  legend.textContent = "";
  for (const entry of state.legend) {
    const li = document.createElement("li"), swatch = document.createElement("span");
    swatch.className = "swatch " + entry.kind + (entry.filled ? " filled" : "");
    swatch.style.background = entry.colour; swatch.style.borderColor = entry.colour;
    li.appendChild(swatch);
    li.appendChild(document.createTextNode(entry.text));  // its meaning: the swatch draws the mark
    legend.appendChild(li);
  }
  const ul = $("faults");
  ul.textContent = "";
  const faults = shownFaults(), listed = faults.length > LISTED + 1 ? LISTED : faults.length;
  for (const f of faults.slice(0, listed)) {
    const li = document.createElement("li");
    li.textContent = f.message;
    if (f.kind) li.className = f.kind;
    ul.appendChild(li);
  }
  if (listed < faults.length) {
    const li = document.createElement("li");
    li.className = "more"; li.textContent = `and ${faults.length - listed} more`;
    ul.appendChild(li);
  }
  if (state.hint) ul.appendChild(hintItem(state.hint));
}

// The hint in the list: its message, and its detail (why, in more words) on a quieter line under it.
function hintItem(hint) {
  const li = document.createElement("li");
  li.className = "hint"; li.textContent = "Hint: " + hint.message;
  if (hint.detail) {
    const detail = document.createElement("span");
    detail.className = "detail"; detail.textContent = hint.detail[0].toUpperCase() + hint.detail.slice(1);
    li.appendChild(detail);
  }
  return li;
}

// The panel "This puzzle": its size, difficulty and seed (none where every seed makes the same
// puzzle), its link and how far it reaches.
function renderPuzzle() {
  if (CONFIG.sizes.includes(state.size)) $("size").value = String(state.size);
  if (CONFIG.difficulties.includes(state.difficulty)) $("difficulty").value = state.difficulty;
  showSeedField();
  offerSizes();
  const info = $("puzzle-info");
  info.textContent = state.imported ? "Imported from its URL" : puzzleText(state, false) + (state.seeded ? ", seed " : "");
  if (state.seeded) {
    const seed = document.createElement("span");
    seed.id = "seed-shown"; seed.textContent = String(state.seed);
    info.appendChild(seed);
  }
  $("copy-seed").hidden = !state.seeded;
  const share = state.share || {link: state.link, reach: ""};
  $("share-link").href = new URL(share.link, location.href).href;
  $("reach").textContent = share.reach ? `: it works on ${share.reach}` : "";
  const exported = CONFIG.exports && state.url;
  if (exported) {
    $("export").href = state.url;
    try { $("export").textContent = new URL(state.url).host || state.url; } catch (e) { $("export").textContent = state.url; }
  }
  $("export-box").hidden = !exported;
  const previous = saved.get("previous");
  $("previous").hidden = !(previous && previous.game !== state.game);
  if (previous) { $("previous-link").href = previous.link; $("previous-link").textContent = `Back to the previous puzzle (${previous.text})`; }
}

// A game's puzzle in words: "8x8 easy", and ", seed 12" where the seed chose it (when withSeed).
function puzzleText(game, withSeed) {
  const d = game.difficulty ? ` ${game.difficulty}` : "";
  return squareSize(game.size) + d + (withSeed && game.seeded ? `, seed ${game.seed}` : "");
}

// The New panel's Seed field, only where the chosen difficulty's puzzle depends on the seed (a
// blank board does not).
function showSeedField() {
  $("seed-box").hidden = CONFIG.seedless.includes(CONFIG.difficulties.length ? $("difficulty").value : "");
}

// The New panel's sizes as the chosen difficulty offers them, like the presets of Tatham's
// collection: no New that the server would refuse. The others are greyed (a chosen one moves to
// the nearest offered), and a note under the panel says which it offers.
function offerSizes() {
  const difficulty = CONFIG.difficulties.length ? $("difficulty").value : "", offered = sizesFor(difficulty);
  for (const option of $("size").options) option.disabled = !offered.includes(Number(option.value));
  const size = Number($("size").value);
  if (!offered.includes(size)) $("size").value = String(nearest(offered, size));
  const some = offered.length < CONFIG.sizes.length;
  $("sizes-note").hidden = !some;
  $("sizes-note").textContent = some ? `${difficulty[0].toUpperCase()}${difficulty.slice(1)}: ${listed(offered.map(squareSize))} only.` : "";
}

function focusCursor() {
  const b = $("cells").children[cursor];
  if (b) b.focus();
}

// -------------------------------------------------------------- new puzzles
// Under way: moves made, not solved and not shown; New then asks first.
const underWay = () => state && state.moves > 0 && !state.solved && !state.revealed;

function ask(title, text, yes, no) {
  const dialog = $("ask");
  if (typeof dialog.showModal !== "function") return Promise.resolve(window.confirm(`${title}\n${text}`));
  return new Promise((resolve) => {
    $("ask-title").textContent = title; $("ask-text").textContent = text;
    $("ask-yes").textContent = yes; $("ask-no").textContent = no;
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), {once: true});
    dialog.showModal();
    $("ask-no").focus();
  });
}

async function leaveFor(settings) {
  if (underWay() && !(await ask("Start a new puzzle?",
    `This one is under way (${state.moves} move${state.moves === 1 ? "" : "s"}). It is kept: \u201cBack to the previous puzzle\u201d returns to it.`,
    "New puzzle", "Keep playing"))) return;
  newGame(settings, state);
}

// A new game (said why not, unless quiet); resolves to null, or to the error.
function newGame(settings, leaving, quiet) {
  return serial(async () => {
    generating = settings;
    $("veil-text").textContent = generatingText();
    $("veil").hidden = false;
    document.body.classList.add("generating");
    showStatus();
    let next = null, error = null;
    try {
      next = await api(`/api/${CONFIG.name}/new`, Object.assign({refusal: "state"}, leaving ? {replaces: leaving.game} : {}, settings));
    } catch (err) { error = err; }
    generating = null;
    $("veil").hidden = true;
    document.body.classList.remove("generating");
    if (error) {
      if (state) showStatus();
      if (!quiet || error instanceof ServerGone) failed(error, false);
      return error;
    }
    note = null;
    if (leaving && underWayWas(leaving)) {
      const what = leaving.imported ? "imported" : puzzleText(leaving, true);
      saved.set("previous", {game: leaving.game, link: `${leaving.link}#game=${leaving.game}`, text: what});
    }
    render(next);
    if (PHONE.matches) showBoard();
    return null;
  });
}
const underWayWas = (s) => s.moves > 0 && !s.solved && !s.revealed;

// On a phone the board may be out of sight after New (the buttons are under it): bring it back.
function showBoard() {
  const top = $("status").getBoundingClientRect().top, bottom = $("stage").getBoundingClientRect().bottom;
  if (top >= 0 && bottom <= window.innerHeight) return;
  const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  $("status").scrollIntoView({block: "start", behavior: smooth ? "smooth" : "auto"});
}

// The settings of the New panel, or null (said why) when the seed is not a number.
function chosenSettings() {
  const s = {size: Number($("size").value)};
  if (CONFIG.difficulties.length) s.difficulty = $("difficulty").value;
  const seed = $("seed-box").hidden ? "" : $("seed").value.trim();
  if (seed) {
    if (!/^[0-9]{1,10}$/.test(seed) || Number(seed) > 4294967295) {
      say("A seed is a whole number from 0 to 4294967295 (or leave it empty for a random one).", "refused");
      return null;
    }
    s.seed = Number(seed);
  }
  return s;
}

// The settings of the page's link (?size=..&difficulty=..&seed=.., or ?url=..), and a word on
// each parameter left out: one this puzzle does not have, or a value it does not take.
function linkSettings() {
  const q = new URLSearchParams(location.search), settings = {}, ignored = [];
  const shown = (name) => { const v = q.get(name); return `${name}=${v.length > 24 ? v.slice(0, 24) + "\u2026" : v}`; };
  const sizes = CONFIG.sizes.join(", "), difficulties = CONFIG.difficulties.join(", ");
  for (const name of new Set(q.keys())) {
    const value = q.get(name);
    if (name === "size") {
      if (/^[0-9]{1,4}$/.test(value) && CONFIG.sizes.includes(Number(value))) settings.size = Number(value);
      else ignored.push(`${shown(name)} (the sizes are ${sizes})`);
    } else if (name === "difficulty") {
      if (CONFIG.difficulties.includes(value)) settings.difficulty = value;
      else ignored.push(`${shown(name)} (${difficulties ? "the difficulties are " + difficulties : "this puzzle has no difficulties"})`);
    } else if (name === "seed") {
      if (/^[0-9]{1,10}$/.test(value) && Number(value) <= 4294967295) settings.seed = Number(value);
      else ignored.push(`${shown(name)} (a seed is a whole number from 0 to 4294967295)`);
    } else if (name === "url" && CONFIG.imports) {
      if (value) settings.url = value;
    } else {
      ignored.push(`${shown(name)} (${name === "url" ? "this puzzle imports no URLs" : "not a setting of this page"})`);
    }
  }
  if (settings.size !== undefined) {  // a size the difficulty does not offer (a closed tour on 5x5)
    const difficulty = settings.difficulty !== undefined ? settings.difficulty : CONFIG.difficulties[0] || "";
    if (!sizesFor(difficulty).includes(settings.size)) {
      ignored.push(`${shown("size")} (${difficulty} is offered on ${listed(sizesFor(difficulty).map(squareSize))})`);
      delete settings.size;
    }
  }
  if (settings.url !== undefined) for (const name of ["size", "difficulty", "seed"]) {
    if (name in settings) { ignored.push(`${shown(name)} (the URL's puzzle is opened)`); delete settings[name]; }
  }
  return {settings, ignored};
}

// Shows a line on the status line until the next change (as a refusal is shown).
function tell(text, kind = "refused") {
  note = {text, kind};
  showStatus();
  note = null;
}

async function copy(text, button) {
  const done = await copyText(text);
  const label = button.dataset.label || (button.dataset.label = button.textContent);
  button.textContent = done ? "Copied" : "Not copied";  // as short as the label: the panel keeps its layout
  if (!done) tell(`Could not copy: select ${button === $("copy-seed") ? "the seed" : "the link (right-click it)"} and copy it.`);
  setTimeout(() => { button.textContent = label; }, 1600);
}

// Back in step with the server: the game's state again (the box of a stopped server goes).
async function retry() {
  const id = state ? state.game : null;
  try {
    if (id) render(await api(`/api/games/${id}`)); else await api("/");
    $("gone").hidden = true;
  } catch (err) {
    if (!(err instanceof ServerGone)) { $("gone").hidden = true; failed(err); }
  }
}

// The game of the hash; else a new puzzle of the link's settings (a size, a difficulty, a seed,
// a URL: a random seed where it names none), leaving the game played last here with a way back
// to it; else, on a link with no settings, that game again. A link whose puzzle cannot be made
// opens the default one instead; the status line says what was left out of the link.
async function boot() {
  setUpControls();
  setInterval(tick, 1000);
  const m = /^#game=([0-9a-f]{1,64})$/.exec(location.hash);
  const {settings: link, ignored} = linkSettings();
  const ignoredText = () => `Left out of the link: ${ignored.join("; ")}.`;
  const named = Object.keys(link).length > 0;
  let last = null;
  try { last = localStorage.getItem(STORE); } catch (e) { last = null; }
  const id = m ? m[1] : named ? null : last;
  if (id) {
    try {
      const found = await api(`/api/games/${id}`);
      if (found.puzzle === CONFIG.name) { render(found); if (ignored.length) tell(ignoredText()); return; }
    } catch (err) {
      if (err instanceof ServerGone) { failed(err); return; }
    }
  }
  let leaving = null;  // the game played last here, left for the link's puzzle
  if (!m && named && last) {
    try {
      const found = await api(`/api/games/${last}`);
      if (found.puzzle === CONFIG.name) leaving = found;
    } catch (err) {
      if (err instanceof ServerGone) { failed(err); return; }
    }
  }
  const defaults = (difficulty) => {  // the default size, or the nearest the difficulty offers
    const d = difficulty !== undefined ? difficulty : CONFIG.difficulties[0];
    return Object.assign({size: nearest(sizesFor(d || ""), CONFIG.default_size)}, d !== undefined ? {difficulty: d} : {});
  };
  const error = await newGame(Object.assign(defaults(link.difficulty), link), leaving, named);
  if (error && !(error instanceof ServerGone) && named) {
    const what = link.url !== undefined ? "the puzzle's URL" : Object.keys(link).map((k) => `${k}=${link[k]}`).join(", ");
    ignored.push(`${what} (${error.message})`);
    if (await newGame(defaults(), leaving)) return;
  }
  if (ignored.length && state) tell(ignoredText());
}
"""
    + SHARED_SCRIPT
    + INPUT
    + r"""
boot();
"""
)
