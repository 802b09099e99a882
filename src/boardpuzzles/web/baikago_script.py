"""The Baikago page's script (:mod:`boardpuzzles.web.baikago_page` says what the page does): the
server's JSON in, the board, the panels and the status line out; the pointer and the keys. The
board's drawing is :mod:`boardpuzzles.web.baikago_board_script`'s, included after it."""

# ruff: noqa: E501 - JavaScript in a string, wrapped as it reads best

from boardpuzzles.web.baikago_board_script import BOARD_SCRIPT
from boardpuzzles.web.shared_script import SHARED_SCRIPT

SCRIPT = (
    r""""use strict";
const CONFIG = __CONFIG__;
// Board geometry in points (one point = one unit of the SVG, the lines' spacing): the wood runs
// past the outer lines as on a real board, further than a stone's radius (STONE), so that a stone
// on an edge lies whole on the wood; the rim on the left and at the bottom is wider and holds the
// coordinates. The lines run from LABEL to LABEL + n - 1 across, from RIM to RIM + n - 1 down.
const STONE = 0.47, LABEL = 0.95, RIM = 0.62;
const boardUnits = (n) => LABEL + n - 1 + RIM;
const STRENGTH_NAMES = {1: "1 (weak)", 2: "2", 3: "3", 4: "4 (strong)"};
const $ = (id) => document.getElementById(id);
const TOUCH = matchMedia("(pointer: coarse)"), NARROW = matchMedia("(max-width: 760px)");
// The smallest point a finger hits reliably, in CSS pixels.
const FINGER = 32;

let state = null;      // the game as the server last sent it
let pending = null;    // the point the human just played, drawn before the server confirms it
let busy = false;      // a move, reply or new game is on its way
let epoch = 0;         // bumped by a new game: answers for an older game are dropped
let cursor = 0;        // the keyboard cursor (index of the point that takes the focus)
let builtSize = 0;
let offered = null;    // settings offered for a new game, while the offer shows
let retry = null;
let notice = "";       // said before the status until the next move (a new game, a lost game)
let refusal = "";      // why the last click played nothing (a point taken, the game over): said until the next change

// -------------------------------------------------------------- storage (may be unavailable)
const saved = {
  get(key) { try { return JSON.parse(localStorage.getItem("baikago." + key)); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem("baikago." + key, JSON.stringify(value)); } catch (e) { /* private mode */ } },
};

// -------------------------------------------------------------- the server
class ServerError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}
// A refusal asked for as data (the request's "refusal": "state"): the reason, and the game as it
// stands (unchanged, unless it had moved on in another tab: then "moved_on").
class Refused extends Error {
  constructor(message, game) { super(message); this.game = game; }
}
const REFUSAL = {refusal: "state"};
async function api(path, body) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {cache: "no-store"} : {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  } catch (e) {
    throw new ServerError("Cannot reach the server: start it again, then press Try again.", 0);
  }
  let data = null;
  try { data = await response.json(); } catch (e) { /* not JSON: say the status */ }
  if (!response.ok) throw new ServerError((data && data.error) || `The server answered ${response.status}.`, response.status);
  if (data && typeof data.refused === "string") throw new Refused(data.moved_on ? changedElsewhere("") : `Not allowed: ${data.refused}.`, data);
  return data;
}

// -------------------------------------------------------------- utilities
const colourOf = (s, index) => (index % 2 === 0 ? "black" : "white");
const humanMoves = (s) => s.moves.filter((_, i) => colourOf(s, i) === s.human).length;
const settingsOf = (s) => ({human: s.human, strength: s.strength, size: s.size});
const sameSettings = (a, b) => a.human === b.human && a.strength === b.strength && a.size === b.size;
const describe = (t) => `you play ${t.human}, computer strength ${t.strength}, ${t.size}\u00d7${t.size}`;
const nameOf = (i) => state.names[i];
function stoneAt(i) {
  const n = state.size, c = state.rows[Math.floor(i / n)][i % n];
  if (c === "X") return "black";
  if (c === "O") return "white";
  return nameOf(i) === pending ? state.human : null;
}
// The server's size, or on a narrow screen the largest offered whose points are a finger wide.
function pointPixels(n) { return $("board-wrap").getBoundingClientRect().width / boardUnits(n); }
function defaultSize() {
  if (pointPixels(CONFIG.size) >= FINGER) return CONFIG.size;
  const fits = CONFIG.sizes.filter((n) => n <= CONFIG.size && pointPixels(n) >= FINGER);
  return fits.length ? Math.max(...fits) : Math.min(...CONFIG.sizes);
}
function wantedSettings() {
  return {human: $("human").value, strength: Number($("strength").value), size: Number($("size").value)};
}
// The link of a game's settings: it opens a new game with them (the hash names the game itself).
function linkOf(t) {
  return `${location.pathname}?human=${t.human}&strength=${t.strength}&size=${t.size}`;
}
// The settings a link names (?human=..&strength=..&size=..), and a word on each one left out.
function linkSettings() {
  const q = new URLSearchParams(location.search), settings = {}, ignored = [];
  const shown = (name) => { const v = q.get(name); return `${name}=${v.length > 24 ? v.slice(0, 24) + "\u2026" : v}`; };
  for (const name of new Set(q.keys())) {
    const value = q.get(name);
    if (name === "human" && (value === "black" || value === "white")) settings.human = value;
    else if (name === "strength" && CONFIG.strengths.map(String).includes(value)) settings.strength = Number(value);
    else if (name === "size" && CONFIG.sizes.map(String).includes(value)) settings.size = Number(value);
    else ignored.push(`${shown(name)} (${
      name === "human" ? "you play black or white"
      : name === "strength" ? "the strengths are " + listed(CONFIG.strengths.map(String))
      : name === "size" ? "the boards are " + listed(CONFIG.sizes.map((n) => `${n}\u00d7${n}`))
      : "not a setting of this page"})`);
  }
  return {settings, ignored};
}
function remember(s) {
  history.replaceState(null, "", linkOf(s) + "#game=" + s.game);
  saved.set("game", s.game);
  saved.set("settings", settingsOf(s));
  saved.set("aids", Boolean(s.aids));
}
// A game left for a new one while under way (the human had moved, not over): a link back to it.
const underWay = (s) => humanMoves(s) > 0 && !s.over;
function keepPrevious(left) {
  if (!left || !underWay(left)) return;
  const moves = `${left.moves.length} move${left.moves.length === 1 ? "" : "s"}`;
  saved.set("previous", {game: left.game, link: linkOf(settingsOf(left)) + "#game=" + left.game,
                         text: `${describe(settingsOf(left))}, ${moves}`});
}
function previousGame() {
  const p = saved.get("previous");
  const ok = p && typeof p.game === "string" && typeof p.link === "string" && typeof p.text === "string";
  return ok && p.link.startsWith(location.pathname + "?") ? p : null;
}
function gameInUrl() {
  const m = /^#game=([0-9a-f]{1,64})$/.exec(location.hash);
  return m ? m[1] : null;
}

const canPlay = () => state && !busy && !state.over && state.turn === state.human && !pending;
const thinking = () => state && !state.over && (pending || state.turn !== state.human);

function statusText() {
  return (refusal ? refusal + " " : "") + (notice ? notice + " " : "") + gameStatus();
}
function gameStatus() {
  if (!state) return "Loading\u2026";
  if (state.over) return resultLine() + ". " + resultDetail();
  if (thinking()) return busy ? "The computer is thinking\u2026" : "Waiting for the computer.";
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const turn = `Your move (${state.human}).`;
  if (last && colourOf(state, state.moves.length - 1) !== state.human) return `The computer played ${last}. ${turn}`;
  if (state.moves.length) return turn;
  return `${turn} ${TOUCH.matches || NARROW.matches ? "Tap a point to play." : "Click a point, or use the arrow keys and Enter."}`;
}
// How the game ended, in plain words: the winning cross (its centre and arms), or why it is a draw.
function resultDetail() {
  if (!state.winner) return state.result[0].toUpperCase() + state.result.slice(1) + ".";
  const crosses = state.crosses.map((c) =>
    `${c.orientation === "+" ? "a +" : "an \u00d7"} centred on ${c.centre} (${listed(c.points.slice(1))})`);
  return `${state.winner[0].toUpperCase() + state.winner.slice(1)} wins with ${listed(crosses)}.`;
}
// The rules in plain words (the server's crosses: + or \u00d7 or both, at any distance or up to one).
function rulesText(rules) {
  const shapes = {"+": "in a + (along the lines)", "x": "in an \u00d7 (on the diagonals)"};
  const shape = listed([...rules.orientations].map((o) => shapes[o] || o)).replace(" and ", " or ");
  const reach = rules.max_d === null ? "" : `, at most ${rules.max_d} point${rules.max_d === 1 ? "" : "s"} away`;
  return `Make a cross of five of your stones first: a centre and four stones at the same distance from it${reach}, ${shape}.`;
}
// The clock, as on the play pages: the time played, stopped at the end of the game. It counts on
// from the time the last answer said (clockBase, when it came: clockAt), set again by each answer
// that says another time or is of another game (clockOf): a new game's 0 is a time too.
let clockBase = 0, clockAt = 0, clockOf = null;
function tick() {
  if (!state) return;
  const text = fmt(state.over ? state.seconds : clockBase + (Date.now() - clockAt) / 1000);
  if ($("clock").textContent !== text) $("clock").textContent = text;
}
function resultLine() {
  return {human: "You won", computer: "The computer won", draw: "Draw"}[state.outcome];
}

function show() {
  document.body.dataset.busy = busy ? "1" : "0";
  if (!state) return;
  if (builtSize !== state.size) {
    const hadFocus = $("points").contains(document.activeElement);
    build(state.size);
    if (hadFocus) $("points").children[cursor].focus();
  }
  document.body.dataset.over = state.over ? "1" : "0";
  if (state.seconds !== clockBase || state.game !== clockOf) { clockBase = state.seconds; clockAt = Date.now(); clockOf = state.game; }
  tick();
  document.body.dataset.game = state.game;
  document.body.classList.toggle("thinking", Boolean(busy && thinking()));
  document.body.classList.toggle("yours", Boolean(canPlay()));
  document.body.classList.toggle("human-black", state.human === "black");
  document.body.classList.toggle("human-white", state.human === "white");
  drawBoard();
  drawPoints();
  drawMoves();
  const text = statusText();
  if ($("status-text").textContent !== text) $("status-text").textContent = text;
  $("status").classList.toggle("sr", state.over);  // the result box says it on screen; this line still announces it
  $("result").hidden = !state.over;
  if (state.over) {
    $("result").className = state.outcome;
    $("result-line").textContent = resultLine();
    $("result-time").textContent = fmt(state.seconds);
    // the result box hides the status line: it says the refusal, or the notice (the game changed in
    // another tab) before the result's detail
    $("result-detail").textContent = refusal || (notice ? notice + " " : "") + resultDetail();
    $("result-detail").classList.toggle("refused", Boolean(refusal));
  }
  $("aids").checked = Boolean(state.aids);
  $("value").hidden = !(state.aids && state.value);  // with the aids on, on a solved board: what perfect play gives
  if (state.value) $("value").textContent = `With perfect play from here: ${state.value === "draw" ? "a draw" : state.value}.`;
  $("game-info").textContent =
    `You play ${state.human}${state.human === "black" ? " (first)" : ""} against computer strength ${state.strength}, ` +
    `on a ${state.size}\u00d7${state.size} board.`;
  $("share-link").href = new URL(linkOf(settingsOf(state)), location.href).href;
  const previous = previousGame();
  $("previous").hidden = !previous || previous.game === state.game;
  if (previous) { $("previous-link").href = previous.link; $("previous-link").textContent = `Back to the previous game (${previous.text})`; }
  $("undo").disabled = busy || !state.can_undo;
  $("redo").disabled = busy || !state.can_redo;
  const small = pointPixels(state.size) < FINGER && defaultSize() < state.size;
  $("size-note").hidden = !small;
  if (small) $("size-note").textContent = `The points are small on this screen: ${defaultSize()}\u00d7${defaultSize()} suits it best.`;
  if (!offered) setSelects(settingsOf(state));
}

function setSelects(t) {
  $("human").value = t.human; $("strength").value = String(t.strength); $("size").value = String(t.size);
}

function showError(err, again) {
  retry = again;
  $("error-text").textContent = err.message;
  $("retry").hidden = !again;
  $("error").hidden = false;
}
function hideError() { $("error").hidden = true; retry = null; }

// -------------------------------------------------------------- actions
// Each runs at most one at a time; an error shows with a way to try again, and nothing else
// changes. A game that moved on elsewhere is shown as it stands, and the status line says what
// this action did not do (undone: "Not played") and why; the computer then moves if the game
// stands on its turn.
async function run(action, undone) {
  if (busy) return;
  const mine = ++epoch;
  let movedOn = false;
  busy = true; hideError(); show();
  try {
    await action(() => mine === epoch);
  } catch (err) {
    if (mine !== epoch) return;
    pending = null;
    if (err instanceof Refused && err.game && err.game.moved_on) {
      const {refused, moved_on, ...game} = err.game;
      movedOn = true;
      adopt(game, undone);
    } else if (err instanceof Refused) {
      notice = err.message;  // on the status line, until the next move
    } else if (err.status === 404 && state) {
      showError(new Error("This game is no longer on the server. Start a new game."), null);
    } else {
      showError(err, resume);
    }
  } finally {
    if (mine === epoch) { busy = false; show(); }
  }
  if (movedOn && mine === epoch) computerNext();
}

// The game as another tab left it, and the status line says so (undone: what was not done).
function adopt(game, undone) {
  state = game; refusal = "";
  notice = changedElsewhere(undone);
}
// After adopt: the computer's move, when the game stands on its turn.
function computerNext() {
  if (state && !state.over && state.turn !== state.human) run((current) => computerTurn(current));
}

async function computerTurn(current) {
  while (current() && state && !state.over && state.turn !== state.human) {
    show();
    const next = await api("/api/reply", {game: state.game});
    if (!current()) return;
    state = next; refusal = ""; show();
  }
}

// A click on a point: the human's stone, or a word on why not (as the play pages say a refusal).
function play(index) {
  if (!state) return;
  const why = state.over ? "the game is over: start a new one"
    : thinking() ? "wait for the computer's move"
    : stoneAt(index) ? `${nameOf(index)} is taken` : "";
  if (why || !canPlay()) {
    if (why) { refusal = `Not allowed: ${why}.`; show(); }
    return;
  }
  cursor = index;
  const name = nameOf(index), seen = seenOf(state);
  notice = ""; refusal = "";
  run(async (current) => {
    pending = name; show();
    const next = await api("/api/move", Object.assign({point: name}, seen, REFUSAL));
    if (!current()) return;
    pending = null; state = next; show();
    await computerTurn(current);
  }, "Not played");
}

function newGame(settings, note, focusBoard) {
  offered = null; $("offer").hidden = true;
  busy = false;  // a new game may start while the computer thinks about the old one
  notice = ""; refusal = "";
  const leaving = state && state.game;  // the server may let it make room for others first
  run(async (current) => {
    const body = Object.assign({aids: Boolean(state && state.aids)}, settings, leaving ? {replaces: leaving} : {});
    const next = await api("/api/new", body);
    if (!current()) return;
    if (leaving) keepPrevious(state);
    state = next; pending = null; remember(state);
    notice = note || "";
    show();
    if (focusBoard) $("points").children[cursor].focus();  // the button that was pressed is gone
    await computerTurn(current);
  });
}

// Undo and Redo: each then lets the computer move if it is its turn (a redo that ends before its reply).
function undo() {
  if (!state || busy) return;
  // The server's undo does nothing then; it is refused here, as the play pages' server refuses it.
  if (!state.can_undo) { notice = "Not allowed: nothing to undo."; refusal = ""; show(); return; }
  changeBy("/api/undo", "Nothing was undone");
}
function redo() {
  if (!state || busy) return;
  changeBy("/api/redo", "Nothing was redone");
}
// What a move, an undo or a redo says of the game the page shows: its moves and the moves undone
// (the history token; the ply alone misses another tab undoing, playing and undoing again). A game
// that moved on elsewhere is refused as data.
function seenOf(game) {
  return {game: game.game, ply: game.moves.length, history: game.history};
}
function changeBy(path, undone) {
  notice = ""; refusal = "";
  run(async (current) => {
    const next = await api(path, Object.assign(seenOf(state), REFUSAL));
    if (!current()) return;
    state = next; show();
    await computerTurn(current);
  }, undone);
}

// Back in step with the server: the game in the URL (or the last one), else a new game; a link
// that names settings and no game opens a new game with them, leaving the game played last here
// with a way back to it (as the play pages do).
function resume() {
  const link = state || gameInUrl() ? {settings: {}, ignored: []} : linkSettings();
  const named = Object.keys(link.settings).length > 0 || link.ignored.length > 0;
  const id = gameInUrl() || (state && state.game) || (named ? null : saved.get("game"));
  run(async (current) => {
    if (id) {
      try {
        const next = await api("/api/state?game=" + id);
        if (!current()) return;
        state = next; remember(state); show();
        await computerTurn(current);
        return;
      } catch (err) {
        if (err.status !== 404) throw err;
      }
    }
    let leaving = null;  // the game played last here, left for the link's
    const last = named && !id ? saved.get("game") : null;
    if (typeof last === "string" && /^[0-9a-f]{1,64}$/.test(last)) {
      try {
        leaving = await api("/api/state?game=" + last);
      } catch (err) {
        if (err.status !== 404) throw err;
      }
      if (!current()) return;
    }
    const settings = Object.assign({human: "black", strength: 2, size: defaultSize()}, saved.get("settings") || {});
    if (!CONFIG.sizes.includes(settings.size)) settings.size = defaultSize();
    Object.assign(settings, link.settings);
    const next = await api("/api/new", Object.assign({aids: saved.get("aids") === true}, settings,
                                                     leaving ? {replaces: leaving.game} : {}));
    if (!current()) return;
    keepPrevious(leaving);
    state = next; remember(state);
    if (id) notice = "Your last game is no longer on the server, so a new one has started.";
    if (link.ignored.length) notice = `Left out of the link: ${link.ignored.join("; ")}.`;
    show();
    await computerTurn(current);
  });
}

// The Assistance switch: asked for beside whatever is on its way (a move, the computer's reply),
// so it never waits for the computer nor stops it; the answer brings the value, or the next does.
// With nothing on its way, other moves in the answer were played elsewhere: the page shows them.
async function setAids(on) {
  if (!state) return;
  const game = state.game;
  let movedOn = false;
  // at once, not when the answer comes: a new game started meanwhile (a changed size) takes it
  state.aids = on; saved.set("aids", on); show();
  try {
    const next = await api("/api/aids", {game: game, on: on});
    if (!state || state.game !== game) return;
    movedOn = !busy && next.moves.join() !== state.moves.join();
    if (movedOn) adopt(next, "");
    else if (!busy) state = next;
    else state.aids = next.aids;  // the answer on its way brings the value
    saved.set("aids", Boolean(state.aids));
  } catch (err) {
    if (state && state.game === game) { state.aids = !on; saved.set("aids", !on); }
    showError(err, null);
  }
  show();
  if (movedOn) computerNext();
}

function settingsChanged() {
  if (!state) return;
  const wanted = wantedSettings();
  if (sameSettings(wanted, settingsOf(state))) { offered = null; $("offer").hidden = true; return; }
  if (state.over || humanMoves(state) === 0) {
    newGame(wanted, `New game: ${describe(wanted)}.`);
    return;
  }
  offered = wanted;
  $("offer-text").textContent = `Start a new game (${describe(wanted)})? This one is kept: \u201cBack to the previous game\u201d returns to it.`;
  $("offer").hidden = false;
}

// Copies text to the clipboard; the button says whether it did (as on the play pages).
async function copy(text, button) {
  const done = await copyText(text);
  const label = button.dataset.label || (button.dataset.label = button.textContent);
  button.textContent = done ? "Copied" : "Select it and copy";
  setTimeout(() => { button.textContent = label; }, 1600);
}

// -------------------------------------------------------------- keyboard
function moveCursor(event) {
  if (!state) return;
  const n = state.size, r = Math.floor(cursor / n), c = cursor % n;
  const steps = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  let next = null;
  if (steps[event.key]) {
    const [dr, dc] = steps[event.key];
    next = Math.min(n - 1, Math.max(0, r + dr)) * n + Math.min(n - 1, Math.max(0, c + dc));
  } else if (event.key === "Home") next = r * n;
  else if (event.key === "End") next = r * n + n - 1;
  if (next === null) return;
  event.preventDefault();
  const points = $("points").children;
  points[cursor].tabIndex = -1;
  cursor = next;
  points[cursor].tabIndex = 0;
  points[cursor].focus();
}

// Ctrl+Z (Cmd+Z) undoes; Ctrl+Y, Ctrl+Shift+Z (Cmd+Shift+Z) redo, as on the play pages; not while
// the focus is in a menu or a field, whose own keys they are.
function onKey(e) {
  const wanted = inField(e.target) ? null : historyKey(e);
  if (!wanted) return;
  e.preventDefault();
  if (wanted === "redo") redo(); else undo();
}

// -------------------------------------------------------------- the title's kanji
// Without a CJK font the three characters are drawn as identical boxes: then show only the
// Latin name (the kanji stay in the tooltip and for screen readers).
function checkKanji() {
  const span = document.querySelector(".kanji");
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const g = canvas.getContext("2d", {willReadFrequently: true});
  if (!g) return;
  g.font = `40px ${getComputedStyle(span).fontFamily}`;
  const shapes = [..."梅花碁"].map((ch) => {
    g.clearRect(0, 0, 48, 48); g.fillText(ch, 2, 40);
    return g.getImageData(0, 0, 48, 48).data.join(",");
  });
  if (shapes[0] === shapes[1] && shapes[1] === shapes[2]) {
    span.hidden = true;
    document.querySelector("h1").title = "梅花碁 (plum-blossom go)";
  }
}

// -------------------------------------------------------------- start
for (const s of CONFIG.strengths) $("strength").add(new Option(STRENGTH_NAMES[s] || String(s), String(s)));
for (const n of CONFIG.sizes) $("size").add(new Option(`${n}\u00d7${n}`, String(n)));
$("points").addEventListener("click", (e) => {
  const b = e.target.closest(".pt");
  if (b) play(Number(b.dataset.index));
});
$("points").addEventListener("keydown", moveCursor);
$("points").addEventListener("focusin", (e) => {
  const b = e.target.closest(".pt");
  if (b && Number(b.dataset.index) !== cursor) { $("points").children[cursor].tabIndex = -1; cursor = Number(b.dataset.index); b.tabIndex = 0; }
});
$("new").onclick = () => newGame(offered || wantedSettings());
$("again").onclick = () => newGame(wantedSettings(), "", true);
$("rule").textContent = rulesText(CONFIG.rules);
$("undo").onclick = undo;
$("copy-link").onclick = () => copy($("share-link").href, $("copy-link"));
setInterval(tick, 1000);
$("aids").addEventListener("change", () => setAids($("aids").checked));
{
  const boards = CONFIG.solved.map((n) => `${n}\u00d7${n}`);
  $("aids-note").textContent = boards.length
    ? `Aids tell who wins from the position with perfect play (on ${listed(boards)}), and can give the game away.`
    : "No board here has been solved, so there are no aids to show.";
}
$("redo").onclick = redo;
document.addEventListener("keydown", onKey);
$("retry").onclick = () => retry && retry();
for (const id of ["human", "strength", "size"]) $(id).addEventListener("change", settingsChanged);
$("offer-yes").onclick = () => newGame(offered);
$("offer-no").onclick = () => { offered = null; $("offer").hidden = true; setSelects(settingsOf(state)); };
window.addEventListener("hashchange", () => { if (gameInUrl() && (!state || gameInUrl() !== state.game)) { busy = false; resume(); } });
try { checkKanji(); } catch (e) { /* a canvas may be blocked: the title then shows both names */ }
resume();
"""
    + BOARD_SCRIPT  # function declarations: hoisted, so the code above may call them
    + SHARED_SCRIPT
)
