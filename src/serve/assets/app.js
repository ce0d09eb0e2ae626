// Chariot's page. It draws what the server says and sends what the player does: legality,
// endings, notation and every search come from the server (src/serve/); nothing here knows
// the rules beyond which squares the server listed as a piece's targets.
"use strict";

const START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const SVG = "http://www.w3.org/2000/svg";
const CELL = 100;
const CHINESE = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};
const WESTERN = { K: "K", A: "A", B: "E", N: "H", R: "R", C: "C", P: "P" };

const $ = (id) => document.getElementById(id);

// The game: start position, moves (ICCS), the ply shown, and the server's view of it.
const game = {
  fen: START_FEN,
  moves: [],
  texts: [],
  ply: 0,
  view: null,
  // A result the rules did not give (a resignation): {result, reason}.
  resigned: null,
};
const ui = {
  tab: null,
  flipped: false,
  selected: null,
  drag: null,
  analysing: false,
  // The search whose reports are shown, and what it is for ("analyse" or "play").
  search: null,
  searchMode: null,
  lines: [],
  lastInfo: null,
  // Answers that arrived before the request that started them returned, by search number.
  early: {},
  busy: false,
};

// ---- Server calls ----------------------------------------------------------------------

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try { message = JSON.parse(text).error; } catch (_) { /* not JSON: show as is */ }
    throw new Error(message);
  }
  return response.headers.get("Content-Type").startsWith("application/json") ? JSON.parse(text) : text;
}

function gameBody(extra) {
  return Object.assign({ fen: game.fen, moves: game.moves, ply: game.ply }, extra || {});
}

function setStatus(text, error) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", !!error);
}

// ---- The board -------------------------------------------------------------------------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Square name (a0..i9, files from Red's left, ranks from Red's side) to the centre drawn.
function centre(square) {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square.slice(1));
  const col = ui.flipped ? 8 - file : file;
  const row = ui.flipped ? rank : 9 - rank;
  return [50 + col * CELL, 50 + row * CELL];
}

function squareAt(col, row) {
  const file = ui.flipped ? 8 - col : col;
  const rank = ui.flipped ? row : 9 - row;
  return String.fromCharCode(97 + file) + rank;
}

function drawGrid() {
  $("evalbar").classList.toggle("flipped", ui.flipped);
  const grid = $("grid");
  grid.replaceChildren();
  grid.setAttribute("class", "grid");
  el("rect", { x: 50, y: 50, width: 800, height: 900, class: "frame", fill: "none", stroke: "#3b2a17" }, grid);
  for (let row = 0; row < 10; row++) el("line", { x1: 50, y1: 50 + row * CELL, x2: 850, y2: 50 + row * CELL }, grid);
  for (let col = 0; col < 9; col++) {
    if (col === 0 || col === 8) {
      el("line", { x1: 50 + col * CELL, y1: 50, x2: 50 + col * CELL, y2: 950 }, grid);
    } else {
      el("line", { x1: 50 + col * CELL, y1: 50, x2: 50 + col * CELL, y2: 450 }, grid);
      el("line", { x1: 50 + col * CELL, y1: 550, x2: 50 + col * CELL, y2: 950 }, grid);
    }
  }
  for (const top of [50, 750]) {
    el("path", { d: `M350 ${top} l200 200 M550 ${top} l-200 200` }, grid);
  }
  // Marks where cannons and pawns start.
  const spots = [[1, 2], [7, 2], [0, 3], [2, 3], [4, 3], [6, 3], [8, 3]];
  for (const [col, r] of spots) {
    for (const row of [r, 9 - r]) {
      const x = 50 + col * CELL, y = 50 + row * CELL;
      let d = "";
      for (const sx of [-1, 1]) {
        if ((sx < 0 && col === 0) || (sx > 0 && col === 8)) continue;
        for (const sy of [-1, 1]) {
          d += `M${x + sx * 8} ${y + sy * 22} v${-sy * 14} h${sx * 14}`;
        }
      }
      el("path", { d, "stroke-width": 2 }, grid);
    }
  }
  // Outlines (glyphs.js), not text: the board needs no Chinese font on the machine.
  [["楚", 190], ["河", 290], ["漢", 610], ["界", 710]].forEach(([ch, x]) => {
    el("path", { d: GLYPHS[ch], class: "river", transform: `translate(${x} 500) scale(0.9)` }, grid);
  });
  const hits = $("hits");
  hits.replaceChildren();
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 9; col++) {
      el("rect", {
        x: col * CELL, y: row * CELL, width: CELL, height: CELL,
        class: "hit", "data-sq": squareAt(col, row),
      }, hits);
    }
  }
}

function drawPiece(letter, square, parent) {
  const red = letter === letter.toUpperCase();
  const western = $("piece-set").value === "western";
  const [x, y] = centre(square);
  const g = el("g", {
    class: `piece ${red ? "red" : "black"}${western ? " western" : ""}`,
    "data-sq": square,
    "data-piece": letter,
    transform: `translate(${x} ${y})`,
  }, parent);
  el("circle", { r: 45, class: "disc" }, g);
  el("circle", { r: 38, class: "ring" }, g);
  if (western) {
    el("text", { y: 2 }, g).textContent = WESTERN[letter.toUpperCase()];
  } else {
    el("path", { d: GLYPHS[CHINESE[letter]], class: "glyph", transform: "scale(1.12)" }, g);
  }
  return g;
}

function drawPosition() {
  const view = game.view;
  const pieces = $("pieces");
  pieces.replaceChildren();
  const marks = $("marks");
  marks.replaceChildren();
  $("targets").replaceChildren();
  if (!view) return;
  if (view.last) {
    for (const [cls, sq] of [["last-from", view.last.slice(0, 2)], ["last-to", view.last.slice(2)]]) {
      const [x, y] = centre(sq);
      el("rect", { x: x - 47, y: y - 47, width: 94, height: 94, rx: 10, class: cls }, marks);
    }
  }
  for (let i = 0; i < 90; i++) {
    const letter = view.board[i];
    if (letter === ".") continue;
    const square = String.fromCharCode(97 + (i % 9)) + Math.floor(i / 9);
    const g = drawPiece(letter, square, pieces);
    if (square === ui.selected) g.classList.add("selected");
    if (view.check && (letter === "K" || letter === "k") && (letter === "K") === (view.side === "red")) {
      const [x, y] = centre(square);
      el("circle", { cx: x, cy: y, r: 50, class: "check" }, marks);
    }
  }
  if (ui.selected) {
    for (const to of view.legal[ui.selected] || []) {
      const [x, y] = centre(to);
      const capture = pieceAt(to) !== ".";
      el("circle", { cx: x, cy: y, r: capture ? 44 : 14, class: capture ? "target capture" : "target", "data-sq": to }, $("targets"));
    }
  }
  drawArrow();
}

function pieceAt(square) {
  const index = (square.charCodeAt(0) - 97) + 9 * Number(square.slice(1));
  return game.view.board[index];
}

function drawArrow() {
  const arrows = $("arrows");
  arrows.replaceChildren();
  const best = ui.lines[1];
  if (!best || !best.pv.iccs.length || ui.searchPly !== game.ply) return;
  const mv = best.pv.iccs[0];
  const [x1, y1] = centre(mv.slice(0, 2));
  const [x2, y2] = centre(mv.slice(2));
  const len = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const tipX = x2 - ux * 20, tipY = y2 - uy * 20;
  el("line", { x1, y1, x2: tipX - ux * 30, y2: tipY - uy * 30, class: "arrow" }, arrows);
  el("path", {
    d: `M${tipX} ${tipY} L${tipX - ux * 48 - uy * 26} ${tipY - uy * 48 + ux * 26} L${tipX - ux * 48 + uy * 26} ${tipY - uy * 48 - ux * 26} Z`,
    fill: "rgba(30,120,60,0.75)",
  }, arrows);
}

// ---- Whose move ------------------------------------------------------------------------

function playAs() { return $("play-as").value; }
function engineSide() {
  const me = playAs();
  return me === "none" ? null : me === "red" ? "black" : "red";
}
function atEnd() { return game.ply === game.moves.length; }
function over() { return !!(game.resigned || (game.view && game.view.ending)); }

function canMove() {
  if (!game.view || over() || ui.busy) return false;
  if (playAs() === "none") return true;
  return atEnd() && game.view.side === playAs() && ui.searchMode !== "play";
}

// ---- Updating the game -----------------------------------------------------------------

function show(view) {
  game.view = view;
  game.ply = view.ply;
  game.texts = view.moves;
  ui.selected = null;
  drawPosition();
  drawMoves();
  drawEnding();
  updateButtons();
  if (!over() && ui.searchMode !== "play") {
    const turn = view.side === "red" ? "Red" : "Black";
    setStatus(`${turn} to move${view.check ? " (check)" : ""}${atEnd() ? "" : ` · move ${view.ply} of ${game.moves.length}`}`);
  }
}

async function goTo(ply) {
  ply = Math.max(0, Math.min(ply, game.moves.length));
  if (ply === game.ply && game.view) return;
  try {
    game.ply = ply;
    show(await api("/api/position", gameBody()));
    afterChange();
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function tryMove(from, to) {
  ui.selected = null;
  if (!canMove()) { drawPosition(); return; }
  ui.busy = true;
  try {
    const view = await api("/api/move", gameBody({ move: from + to }));
    game.moves = view.moves.map((m) => m.iccs);
    ui.busy = false;
    show(view);
    afterChange();
  } catch (e) {
    ui.busy = false;
    drawPosition();
    setStatus(e.message, true);
  }
}

// After the position shown changes: the engine moves if it is its turn, else analysis follows.
function afterChange() {
  ui.lines = [];
  drawLines();
  if (!over() && atEnd() && game.view.side === engineSide()) {
    engineMove();
  } else if (ui.analysing) {
    analyse();
  } else if (ui.search !== null) {
    stopSearch();
  }
}

// ---- Searches --------------------------------------------------------------------------

async function startSearch(body) {
  if (!ui.tab) { setStatus("Not connected to the server yet", true); return; }
  ui.lines = [];
  ui.searchPly = game.ply;
  ui.searchMode = body.mode;
  ui.search = null;
  ui.lastInfo = null;
  ui.early = {};
  drawLines();
  try {
    const answer = await api("/api/search", gameBody(Object.assign({ tab: ui.tab }, body)));
    ui.search = answer.search;
    // A quick search may end before its number comes back.
    const done = ui.early[answer.search];
    if (done) onDone(done);
  } catch (e) {
    ui.searchMode = null;
    setStatus(e.message, true);
  }
}

function analyse() {
  startSearch({ mode: "analyse", multipv: Number($("multipv").value) });
}

function engineMove() {
  const level = $("level").value;
  const body = { mode: "play", movetime: Number($("movetime").value) };
  if (level !== "full") body.elo = Number(level);
  setStatus("Chariot is thinking…");
  updateButtons();
  startSearch(body);
}

async function stopSearch() {
  if (!ui.tab) return;
  ui.search = null;
  ui.searchMode = null;
  try { await api("/api/stop", { tab: ui.tab }); } catch (_) { /* the tab is gone; nothing runs */ }
}

function onInfo(info) {
  if (info.search !== ui.search) return;
  ui.lines[info.multipv] = info;
  if (info.multipv !== 1) { drawLines(); return; }
  ui.lastInfo = info;
  drawLines();
  drawArrow();
  drawEval(info);
}

async function onDone(done) {
  if (done.search !== ui.search) {
    if (ui.search === null) ui.early[done.search] = done;
    return;
  }
  const mode = ui.searchMode;
  ui.search = null;
  ui.searchMode = null;
  if (mode === "play" && done.move) {
    try {
      game.ply = game.moves.length;
      const view = await api("/api/move", gameBody({ move: done.move }));
      game.moves = view.moves.map((m) => m.iccs);
      show(view);
      if (ui.analysing && !over()) analyse();
    } catch (e) {
      setStatus(e.message, true);
    }
  } else if (mode === "analyse") {
    if (ui.analysing) setAnalysing(false);
    $("search-info").textContent += " · done";
  }
  updateButtons();
}

function setAnalysing(on) {
  ui.analysing = on;
  $("go").textContent = on ? "Stop" : "Analyse";
  $("go").classList.toggle("on", on);
}

// ---- Panel -----------------------------------------------------------------------------

function scoreText(info, forRed) {
  const sign = forRed && info.side === "black" ? -1 : 1;
  if (info.score.mate !== undefined) {
    const n = sign * info.score.mate;
    return (n > 0 ? "+" : n < 0 ? "-" : "") + "M" + Math.abs(n);
  }
  const cp = sign * info.score.cp;
  return (cp >= 0 ? "+" : "") + (cp / 100).toFixed(2);
}

function drawLines() {
  const list = $("lines");
  list.replaceChildren();
  const notation = $("notation").value;
  for (const info of ui.lines) {
    if (!info) continue;
    const li = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = scoreText(info, true);
    li.appendChild(score);
    li.appendChild(document.createTextNode(" " + info.pv[notation].join(" ")));
    list.appendChild(li);
  }
  const info = ui.lastInfo;
  if (!ui.lines.length || !info) {
    $("search-info").textContent = ui.searchMode === "play" ? "Chariot is thinking…" : "\u00a0";
    return;
  }
  // Win/draw/loss come for the side to move; shown, like the scores, for Red.
  const [w, d, l] = info.side === "red" ? info.wdl : [...info.wdl].reverse();
  const who = info.mode === "play" ? "Chariot's search" : "Analysis";
  $("search-info").textContent =
    `${who}: depth ${info.depth}/${info.seldepth} · ${scoreText(info, true)} · ` +
    `Red W/D/L ${w}/${d}/${l} ‰ · ${(info.nps / 1000).toFixed(0)} kN/s · ${(info.time / 1000).toFixed(1)} s`;
}

// The bar shows Red's expected share of the points, from the server's win/draw/loss model.
function drawEval(info) {
  const [w, d, l] = info.wdl;
  const share = info.side === "red" ? (w + d / 2) / 1000 : (l + d / 2) / 1000;
  $("evalfill").style.height = `${(share * 100).toFixed(1)}%`;
  $("evaltext").textContent = scoreText(info, true);
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const notation = $("notation").value;
  const blackFirst = game.view && game.view.start_fen.split(" ")[1] === "b";
  let number = Number((game.view ? game.view.start_fen : START_FEN).split(" ")[5]) || 1;
  let li = null;
  const cell = (text, cls) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    li.appendChild(span);
    return span;
  };
  game.texts.forEach((texts, i) => {
    const black = (i % 2 === 1) !== blackFirst;
    if (!black || i === 0) {
      li = document.createElement("li");
      list.appendChild(li);
      cell(`${number}.`, "num");
      if (black) cell("…", "mv");
    }
    const mv = cell(texts[notation], "mv" + (i + 1 === game.ply ? " current" : ""));
    mv.dataset.ply = i + 1;
    mv.addEventListener("click", () => goTo(i + 1));
    if (black) number++;
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function drawEnding() {
  const box = $("ending");
  let text = null;
  if (game.resigned) text = game.resigned.reason;
  else if (game.view && game.view.ending && atEnd()) text = game.view.ending.text;
  box.hidden = !text;
  box.textContent = text || "";
  if (text) setStatus(text);
}

function updateButtons() {
  const thinking = ui.searchMode === "play";
  $("take-back").disabled = !game.moves.length || thinking;
  $("resign").disabled = playAs() === "none" || over() || !game.moves.length;
  $("first").disabled = $("back").disabled = game.ply === 0;
  $("forward").disabled = $("last").disabled = atEnd();
  $("go").disabled = thinking;
}

// ---- Actions ---------------------------------------------------------------------------

async function newGame(fen) {
  await stopSearch();
  game.fen = fen || START_FEN;
  game.moves = [];
  game.texts = [];
  game.ply = 0;
  game.resigned = null;
  game.view = null;
  ui.flipped = playAs() === "black";
  drawGrid();
  await goTo(0);
}

async function takeBack() {
  await stopSearch();
  let ply = game.moves.length - 1;
  // Back to the player's own turn, past the engine's reply.
  if (playAs() !== "none" && ply > 0 && sideAfter(ply) !== playAs()) ply--;
  game.moves = game.moves.slice(0, Math.max(ply, 0));
  game.texts = game.texts.slice(0, game.moves.length);
  game.resigned = null;
  game.ply = -1;
  await goTo(game.moves.length);
}

// The side to move after `ply` moves of this game.
function sideAfter(ply) {
  const first = game.fen.split(" ")[1] === "b" ? "black" : "red";
  return ply % 2 === 0 ? first : first === "red" ? "black" : "red";
}

function resign() {
  const me = playAs();
  if (me === "none" || over()) return;
  stopSearch();
  game.resigned = {
    result: me === "red" ? "0-1" : "1-0",
    reason: `${me === "red" ? "Red" : "Black"} resigns: ${me === "red" ? "Black" : "Red"} wins`,
  };
  drawEnding();
  updateButtons();
}

async function load() {
  try {
    const loaded = await api("/api/load", { text: $("load-text").value });
    await stopSearch();
    $("play-as").value = "none";
    game.fen = loaded.fen;
    game.moves = loaded.moves;
    game.resigned = null;
    game.ply = -1;
    drawGrid();
    show(loaded.state);
    const n = loaded.moves.length;
    setStatus(n ? `Loaded a game of ${n} plies: ← → step through it` : "Position loaded");
    afterChange();
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function exportPgn() {
  try {
    const names = { red: "Player", black: "Chariot" };
    if (playAs() === "black") { names.red = "Chariot"; names.black = "Player"; }
    if (playAs() === "none") { names.red = "?"; names.black = "?"; }
    const body = { fen: game.fen, moves: game.moves, notation: $("notation").value, red: names.red, black: names.black };
    if (game.resigned) Object.assign(body, game.resigned);
    const text = await api("/api/pgn", body);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
    link.download = "chariot-game.pgn";
    link.click();
    URL.revokeObjectURL(link.href);
    $("load-text").value = text;
    setStatus("PGN exported (also shown below)");
  } catch (e) {
    setStatus(e.message, true);
  }
}

// ---- Pointer: click or drag ------------------------------------------------------------

function squareFromEvent(event) {
  const svg = $("board");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const col = Math.floor(p.x / CELL), row = Math.floor(p.y / CELL);
  if (col < 0 || col > 8 || row < 0 || row > 9) return null;
  return { square: squareAt(col, row), x: p.x, y: p.y };
}

function ownPiece(square) {
  const letter = pieceAt(square);
  if (letter === ".") return false;
  const red = letter === letter.toUpperCase();
  return (game.view.side === "red") === red;
}

function onPointerDown(event) {
  if (!game.view) return;
  const at = squareFromEvent(event);
  if (!at) return;
  if (ownPiece(at.square) && canMove()) {
    ui.selected = at.square;
    drawPosition();
    const g = $("pieces").querySelector(`[data-sq="${at.square}"]`);
    ui.drag = { from: at.square, g, moved: false, x: at.x, y: at.y };
    $("board").setPointerCapture(event.pointerId);
  } else if (ui.selected) {
    tryMove(ui.selected, at.square);
  } else if (ui.searchMode === "play") {
    setStatus("Wait for Chariot's move");
  }
}

function onPointerMove(event) {
  const drag = ui.drag;
  if (!drag) return;
  const at = squareFromEvent(event);
  if (!at) return;
  if (!drag.moved && Math.hypot(at.x - drag.x, at.y - drag.y) < 12) return;
  drag.moved = true;
  drag.g.classList.add("dragging");
  drag.g.setAttribute("transform", `translate(${at.x} ${at.y})`);
  $("pieces").appendChild(drag.g);
}

function onPointerUp(event) {
  const drag = ui.drag;
  ui.drag = null;
  if (!drag || !drag.moved) return;
  const at = squareFromEvent(event);
  if (at && at.square !== drag.from) tryMove(drag.from, at.square);
  else drawPosition();
}

// ---- Start -----------------------------------------------------------------------------

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("tab", (e) => {
    ui.tab = JSON.parse(e.data).tab;
    setStatus("Connected");
    if (game.view) show(game.view);
    afterChange();
  });
  events.addEventListener("info", (e) => onInfo(JSON.parse(e.data)));
  events.addEventListener("done", (e) => onDone(JSON.parse(e.data)));
  events.addEventListener("queued", (e) => {
    if (JSON.parse(e.data).search === ui.search) $("search-info").textContent = "Waiting for a free search…";
  });
  events.onerror = () => {
    ui.tab = null;
    setStatus("Lost the server; reconnecting…", true);
  };
}

function setup() {
  const level = $("level");
  for (let elo = 1200; elo <= 2800; elo += 200) {
    level.add(new Option(`Elo ${elo}`, String(elo)));
  }
  level.add(new Option("Full strength", "full"));
  level.value = "2000";
  $("new-game").onclick = () => newGame(game.fen === START_FEN ? START_FEN : game.fen);
  $("take-back").onclick = takeBack;
  $("resign").onclick = resign;
  $("flip").onclick = () => { ui.flipped = !ui.flipped; drawGrid(); drawPosition(); };
  $("go").onclick = () => {
    setAnalysing(!ui.analysing);
    if (ui.analysing) analyse(); else stopSearch();
  };
  $("multipv").onchange = () => { if (ui.analysing) analyse(); };
  $("notation").onchange = () => { drawLines(); drawMoves(); };
  $("piece-set").onchange = drawPosition;
  $("play-as").onchange = () => {
    ui.flipped = playAs() === "black";
    drawGrid();
    drawPosition();
    updateButtons();
    afterChange();
  };
  $("first").onclick = () => goTo(0);
  $("back").onclick = () => goTo(game.ply - 1);
  $("forward").onclick = () => goTo(game.ply + 1);
  $("last").onclick = () => goTo(game.moves.length);
  $("load-button").onclick = load;
  $("export").onclick = exportPgn;
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", () => { ui.drag = null; drawPosition(); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    const keys = {
      ArrowLeft: () => goTo(game.ply - 1),
      ArrowRight: () => goTo(game.ply + 1),
      Home: () => goTo(0),
      End: () => goTo(game.moves.length),
      f: () => $("flip").click(),
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  // A link may set the start: #fen=...&moves=h2e2,h9g7&play=none&analyse=1
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("play")) $("play-as").value = params.get("play");
  if (params.get("analyse") === "1") setAnalysing(true);
  ui.flipped = playAs() === "black";
  drawGrid();
  game.fen = params.get("fen") || START_FEN;
  game.moves = params.get("moves") ? params.get("moves").split(",") : [];
  game.ply = game.moves.length;
  api("/api/position", gameBody()).then((view) => {
    game.moves = view.moves.map((m) => m.iccs);
    show(view);
    connect();
  }).catch((e) => {
    setStatus(e.message, true);
    game.fen = START_FEN;
    game.moves = [];
    game.ply = 0;
    api("/api/position", gameBody()).then(show).then(connect);
  });
}

setup();
