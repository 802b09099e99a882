"""The Baikago page's board, part of its script (:mod:`boardpuzzles.web.baikago_script`, which
includes it after its own code): the point buttons, the SVG of the wood, lines, star points,
coordinates, stones and winning cross, and the list of moves, drawn from the script's ``state``.
Function declarations only, so the script may call them above the place it includes them; they
read the script's constants (the geometry: ``STONE``, ``LABEL``, ``RIM``) when called."""

# ruff: noqa: E501 - JavaScript in a string, wrapped as it reads best

BOARD_SCRIPT = r"""
// -------------------------------------------------------------- drawing
function build(n) {
  const points = $("points");
  points.textContent = "";
  const full = boardUnits(n), pct = (v) => (100 * v / full) + "%";
  Object.assign(points.style, {left: pct(LABEL - 0.5), top: pct(RIM - 0.5), width: pct(n), height: pct(n),
                               gridTemplateColumns: `repeat(${n}, 1fr)`, gridTemplateRows: `repeat(${n}, 1fr)`});
  points.setAttribute("aria-label", `Board, ${n} by ${n}`);
  for (let i = 0; i < n * n; i++) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "pt"; b.tabIndex = -1; b.dataset.index = i;
    points.appendChild(b);
  }
  cursor = Math.floor(n / 2) * (n + 1);
  builtSize = n;
}

// Star points as go boards have them: four near the corners and the centre; the sides too from 19.
function starPoints(n) {
  if (n < 7) return n % 2 ? [[(n - 1) / 2, (n - 1) / 2]] : [];
  const edge = n >= 13 ? 3 : 2, mid = (n - 1) / 2, lines = [edge, n - 1 - edge];
  if (n >= 19 && n % 2) lines.splice(1, 0, mid);
  const out = [];
  for (const r of lines) for (const c of lines) out.push([r, c]);
  if (n % 2 && !(n >= 19)) out.push([mid, mid]);
  return out;
}

function drawBoard() {
  const n = state.size, full = boardUnits(n);
  const x = (c) => LABEL + c, y = (r) => RIM + r;
  const parts = [`<defs>
    <radialGradient id="g-black" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#6a6a6a"/><stop offset="1" stop-color="#050505"/></radialGradient>
    <radialGradient id="g-white" cx="35%" cy="30%" r="80%"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#cfcac0"/></radialGradient>
    <linearGradient id="g-wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e4bf6c"/><stop offset="1" stop-color="#d2a64e"/></linearGradient>
  </defs>`];
  parts.push(`<rect class="wood" x="0.02" y="0.02" width="${full - 0.04}" height="${full - 0.04}" rx="0.12" fill="url(#g-wood)" stroke="#9a7630" stroke-width="0.04"/>`);
  for (let i = 0; i < n; i++) {
    const w = i === 0 || i === n - 1 ? 0.06 : 0.035;
    parts.push(`<line x1="${x(0)}" y1="${y(i)}" x2="${x(n - 1)}" y2="${y(i)}" stroke="#5a4010" stroke-width="${w}" stroke-linecap="square"/>`);
    parts.push(`<line x1="${x(i)}" y1="${y(0)}" x2="${x(i)}" y2="${y(n - 1)}" stroke="#5a4010" stroke-width="${w}" stroke-linecap="square"/>`);
  }
  for (const [r, c] of starPoints(n)) parts.push(`<circle cx="${x(c)}" cy="${y(r)}" r="0.1" fill="#5a4010"/>`);
  // The coordinates, on the rim between the wood's edge and an edge stone.
  const label = `font-size="0.34" fill="#4a3a26" text-anchor="middle" dominant-baseline="central" font-family="system-ui, sans-serif"`;
  const band = (LABEL - STONE) / 2;
  for (let r = 0; r < n; r++) parts.push(`<text x="${band}" y="${y(r)}" ${label}>${n - r}</text>`);
  for (let c = 0; c < n; c++) {
    const file = state.names[(n - 1) * n + c].replace(/\d+$/, "");
    parts.push(`<text x="${x(c)}" y="${full - band}" ${label}>${file}</text>`);
  }
  const win = new Set(state.cross);
  for (let i = 0; i < n * n; i++) {
    const stone = stoneAt(i);
    if (!stone) continue;
    const r = Math.floor(i / n), c = i % n, name = nameOf(i);
    const edge = stone === "white" ? ` stroke="#8a8478" stroke-width="0.03"` : "";
    parts.push(`<circle class="stone ${stone}${name === pending ? " pending" : ""}" data-point="${name}" cx="${x(c)}" cy="${y(r)}" r="${STONE}" fill="url(#g-${stone})"${edge}/>`);
    if (win.has(name)) parts.push(`<circle class="win-ring" cx="${x(c)}" cy="${y(r)}" r="0.5" fill="none" stroke="var(--win)" stroke-width="0.08"/>`);
  }
  // The winning cross as a figure: each arm joined to the opposite one through the centre.
  for (const cross of state.crosses) {
    const at = cross.points.map((p) => state.names.indexOf(p)).map((i) => [x(i % n), y(Math.floor(i / n))]);
    const [cx, cy] = at[0], arms = at.slice(1), done = new Set();
    arms.forEach(([ax, ay], k) => {
      const j = arms.findIndex(([bx, by]) => Math.abs(bx - (2 * cx - ax)) < 1e-9 && Math.abs(by - (2 * cy - ay)) < 1e-9);
      if (done.has(k) || j < 0) return;
      done.add(k); done.add(j);
      const [bx, by] = arms[j];
      parts.push(`<line class="win-figure" x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="#fff" stroke-opacity="0.7" stroke-width="0.26" stroke-linecap="round"/>`);
      parts.push(`<line class="win-figure" x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="var(--win)" stroke-width="0.14" stroke-linecap="round"/>`);
    });
  }
  // The last move: a dot inside the stone, so it never hides the winning ring around it.
  const last = pending || state.last;
  if (last) {
    const i = state.names.indexOf(last), stone = stoneAt(i);
    parts.push(`<circle class="last-mark" cx="${x(i % n)}" cy="${y(Math.floor(i / n))}" r="0.14" fill="${stone === "black" ? "#fff" : "#222"}"/>`);
  }
  const svg = $("board");
  svg.setAttribute("viewBox", `0 0 ${full} ${full}`);
  svg.innerHTML = parts.join("");
}

function drawPoints() {
  const n = state.size, win = new Set(state.cross), last = pending || state.last;
  const points = $("points").children, yours = canPlay();
  for (let i = 0; i < n * n; i++) {
    const b = points[i], name = nameOf(i), stone = stoneAt(i);
    b.dataset.point = name;
    b.className = "pt" + (stone ? " taken " + (stone === "black" ? "X" : "O") : "") + (win.has(name) ? " win" : "");
    let label = `${name}, ${stone || "empty"}`;
    if (name === last) label += ", last move";
    if (win.has(name)) label += ", winning cross";
    b.setAttribute("aria-label", label);
    b.setAttribute("aria-disabled", stone || !yours ? "true" : "false");
    b.tabIndex = i === cursor ? 0 : -1;
  }
}

function drawMoves() {
  const list = $("moves");
  list.textContent = "";
  const moves = state.moves.slice();
  if (pending) moves.push(pending);
  moves.forEach((name, i) => {
    const li = document.createElement("li"), colour = colourOf(state, i);
    li.innerHTML = `<span class="n">${i + 1}.</span><span class="dot ${colour}" aria-hidden="true"></span><span class="sr">${colour} </span>${name}`;
    if (i === moves.length - 1) li.className = "last";
    list.appendChild(li);
  });
  $("no-moves").hidden = moves.length > 0;
  list.hidden = moves.length === 0;
  list.scrollTop = list.scrollHeight;
}
"""
