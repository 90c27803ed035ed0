// crossridor serve: the page. The server decides everything (legal moves,
// what this seat may see); the page draws the SVG it gets and turns clicks
// into moves along the "paths" (element ids to click) of the legal moves.
"use strict";

const $ = (id) => document.getElementById(id);
let GAMES = {};
let mode = "play";
let ws = null;
let legal = [];          // [{move, paths: [[id, ...], ...]}]
let prefix = [];         // ids clicked so far towards a move
let current = null;      // the last state message
let history = [];        // analysis: the moves of the position shown
let replayGames = [];
let replayGame = null;
let replayPly = 0;
let review = null;       // the review shown: the server's review message, and the mode it belongs to
const SVG_NS = "http://www.w3.org/2000/svg";

function say(text, refused) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (refused ? " refused" : "");
}

// --- connection ----------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onopen = () => { $("conn").textContent = "connected"; };
  ws.onclose = () => { $("conn").textContent = "disconnected, retrying…"; setTimeout(connect, 1000); };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { say("not connected", true); return; }
  ws.send(JSON.stringify(msg));
}

function receive(msg) {
  switch (msg.type) {
    case "state": showState(msg); break;
    case "refused":
      say(msg.message, true); prefix = []; highlight();
      if (review && !review.data) $("rv-progress").textContent = "";
      break;
    case "error":
      say(msg.message, true);
      if (review && !review.data) $("rv-progress").textContent = "";      // the review was refused
      break;
    case "hint": showHint(msg); break;
    case "info": case "bestmove": showInfo(msg); break;
    case "review_progress": $("rv-progress").textContent = `reviewing: ${msg.text}`; break;
    case "review": showReview(msg); break;
    case "position": showPosition(msg); break;
  }
}

// --- the board -------------------------------------------------------------
function showState(msg) {
  current = msg;
  if (msg.mode === "analyse") { history = msg.history || []; $("an-moves").value = joinMoves(history); }
  if (msg.mode && msg.mode !== mode) return;           // a late message of another mode
  $("board").innerHTML = msg.svg;
  $("board").classList.toggle("thinking", !!msg.thinking);
  legal = msg.legal || [];
  prefix = [];
  highlight();
  fillMoveBox();
  const v = msg.view;
  let status = msg.result ? `game over: ${msg.result}` : statusText(v);
  if (msg.thinking) status = "the engine is thinking…";
  $("status").textContent = status;
  $("board").dataset.plies = v.history.length;
  if (msg.message) say(msg.message); else if (!msg.thinking) say("");
  if (msg.mode === "play") setBar(msg.eval || null, msg.view.game);
}

// --- the evaluation bar ------------------------------------------------------
// a seat as the game names it (a review's game may not be the one the setup shows)
function seatName(seat, game) { return `${(game || gameName()) === "quoridor" ? "player" : "seat"} ${seat}`; }

function outlookText(o) {
  if (o.result_in === 0) return o.expected >= 0.5 ? "has won" : "has lost";     // decided: the game is over
  if (o.result_in !== null && o.result_in !== undefined) {
    const n = Math.abs(o.result_in);
    return `${o.result_in > 0 ? "wins" : "loses"} in ${n} pl${n === 1 ? "y" : "ies"}`;
  }
  return typeof o.expected === "number" ? o.expected.toFixed(2) : "";
}

// {seat, expected, result_in}: the expected score of that seat (seat 1 when two
// sides play for one result), null when there is none to show
function setBar(ev, game) {
  const bar = $("evalbar");
  bar.classList.toggle("unknown", !ev);
  bar.dataset.expected = ev ? ev.expected : "";
  $("eval-fill").style.height = ev ? `${Math.round(100 * ev.expected)}%` : "0";
  $("eval-text").textContent = ev ? `${seatName(ev.seat, game)}: ${outlookText(ev)}` : "";
}

function statusText(v) {
  if (v.status) return v.status;
  if (v.over) return "game over";
  if (v.chance) return "chance to move";
  return v.to_move === null ? "" : `player ${v.to_move} to move`;   // seats are 1..n
}

function nextIds() {
  const ids = new Set();
  for (const m of legal) for (const p of m.paths) {
    if (p.length > prefix.length && prefix.every((id, i) => p[i] === id)) ids.add(p[prefix.length]);
  }
  return ids;
}

function highlight() {
  const board = $("board");
  board.querySelectorAll(".legal, .picked, .hint").forEach((e) => e.classList.remove("legal", "picked", "hint"));
  for (const id of nextIds()) { const e = document.getElementById(id); if (e) e.classList.add("legal"); }
  for (const id of prefix) { const e = document.getElementById(id); if (e) e.classList.add("picked"); }
}

function onBoardClick(ev) {
  if (mode === "replay") return;
  const target = ev.target.closest("[id]");
  if (!target || !$("board").contains(target)) return;
  const id = target.id;
  if (!nextIds().has(id)) {
    const move = target.dataset.move;
    prefix = [];
    highlight();
    if (move && mode === "play" && /^(sq|wall|col)-/.test(id)) send({ type: "move", move: move });  // the server says why not
    else if (move || id.startsWith("hand-") || id.startsWith("cell-")) say(`${move || id}: not a legal choice here`, true);
    return;
  }
  prefix.push(id);
  const done = legal.filter((m) => m.paths.some((p) => p.length === prefix.length && p.every((x, i) => x === prefix[i])));
  if (done.length === 1) { makeMove(done[0].move); prefix = []; }
  highlight();
}

function makeMove(move) {
  say("");
  if (mode === "play") send({ type: "move", move: move });
  else if (mode === "analyse") analyse(history.concat([move]));
}

function fillMoveBox() {
  const list = $("move-list");
  list.innerHTML = "";
  for (const m of legal) list.add(new Option(m.move, m.move));
  const buttons = $("move-buttons");
  buttons.innerHTML = "";
  const plain = legal.filter((m) => m.paths.length === 0);
  if (plain.length <= 8) for (const m of plain) {
    const b = document.createElement("button");
    b.textContent = m.move;
    b.className = "move-button";
    b.onclick = () => makeMove(m.move);
    buttons.appendChild(b);
  }
}

function showHint(msg) {
  say(`hint: ${msg.move}`);
  for (const p of msg.paths) for (const id of p) { const e = document.getElementById(id); if (e) e.classList.add("hint"); }
}

// --- setup ---------------------------------------------------------------------
function gameName() { return $("game").value; }

// The game's parameters as text: the server reads each by its declared kind.
function options() {
  const out = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const v = el.value.trim();
    if (v !== "") out[el.dataset.option] = v;
  }
  return out;
}

function playerCount() {
  const o = options();
  if (o.players) return Number(o.players);
  const p = GAMES[gameName()].params.find((q) => q.name === "players");
  return p && p.default ? p.default : 2;
}

// A board's value as the server reads it: N for N x N, "WxH" otherwise.
function boardValue(w, h) { return w === h ? String(w) : `${w}x${h}`; }

// Every board of a "board" parameter (widths and heights as [low, high]),
// as [value, label]: the squares first, then the others by width and height.
function boardChoices(p) {
  const squares = [], others = [];
  for (let w = p.widths[0]; w <= p.widths[1]; w++) {
    for (let h = p.heights[0]; h <= p.heights[1]; h++) (w === h ? squares : others).push([boardValue(w, h), `${w}x${h}`]);
  }
  return [["squares", squares], ["W x H (columns x rows)", others]];
}

function boardSelect(p) {
  const input = document.createElement("select");
  const chosen = String(p.default);
  for (const [name, boards] of boardChoices(p)) {
    if (!boards.length) continue;
    const group = document.createElement("optgroup");
    group.label = name;
    for (const [value, label] of boards) group.appendChild(new Option(label, value, false, value === chosen));
    input.appendChild(group);
  }
  return input;
}

// One field per declared parameter (GET /api/games): a list for a boolean, a
// choice or a board, the default first (chosen, for a board); a text field,
// its default as placeholder, otherwise.
function renderOptions() {
  const g = GAMES[gameName()];
  const box = $("options");
  box.innerHTML = "";
  for (const p of g.params) {
    const label = document.createElement("label");
    label.textContent = p.name + " ";
    label.title = p.doc;
    const values = p.type === "bool" ? [true, false] : p.type === "choice" ? p.choices : null;
    let input;
    if (p.type === "board") {
      input = boardSelect(p);
    } else if (values) {
      input = document.createElement("select");
      if (p.default === null) input.add(new Option("default", ""));
      const ordered = p.default === null ? values : [p.default, ...values.filter((v) => v !== p.default)];
      for (const v of ordered) input.add(new Option(String(v), String(v)));
    } else {
      input = document.createElement("input");
      input.size = 6;
      input.placeholder = p.default === null ? "default" : String(p.default);
    }
    input.dataset.option = p.name;
    input.id = "opt-" + p.name;
    input.onchange = renderSeats;
    label.appendChild(input);
    box.appendChild(label);
  }
  $("engine").value = g.engine;
  renderSeats();
}

function renderSeats() {
  const box = $("seats");
  box.innerHTML = "You play: ";
  const n = playerCount();
  for (let s = 1; s <= n; s++) {       // seats are 1..n, as the server counts them
    const label = document.createElement("label");
    label.style.display = "inline";
    const c = document.createElement("input");
    c.type = "checkbox";
    c.value = s;
    c.id = "seat-" + s;
    c.checked = s === 1;
    label.appendChild(c);
    label.append(gameName() === "quoridor" ? ` player ${s}  ` : ` seat ${s}  `);
    box.appendChild(label);
  }
}

function newGame() {
  const seats = [...$("seats").querySelectorAll("input:checked")].map((c) => Number(c.value));
  if (!seats.length) { say("choose at least one seat", true); return; }
  say("");
  send({ type: "new", game: gameName(), options: options(), seats: seats, engine: $("engine").value.trim() });
}

// --- analysis ----------------------------------------------------------------------
function splitMoves(text) {
  text = text.trim();
  if (!text) return [];
  if (gameName() === "crosswise") return text.split(";").map((s) => s.trim()).filter(Boolean);
  return text.split(/[\s,]+/).filter((t) => t && !/^\d+\.+$/.test(t));
}

function joinMoves(moves) { return moves.join(gameName() === "crosswise" ? "; " : " "); }

function analyse(moves) {
  $("info").textContent = "";
  const seed = $("an-seed").value.trim();
  const msg = { type: "analyse", game: gameName(), options: options(), engine: $("an-engine").value.trim() };
  const position = $("an-position").value.trim();
  if (position && moves === undefined) msg.position = position;
  else msg.moves = moves === undefined ? splitMoves($("an-moves").value) : moves;
  if (moves !== undefined) $("an-position").value = "";
  if (seed) msg.seed = Number(seed);
  const lines = Number($("an-multipv").value);
  if (Number.isInteger(lines) && lines >= 1) msg.multipv = lines;    // the server says if it is too many
  showLines([]);
  setBar(null);
  send(msg);
}

function showLines(lines) {
  const body = $("lines").tBodies[0];
  body.innerHTML = "";
  for (const l of lines || []) {
    const row = body.insertRow();
    row.className = `rank-${l.rank}`;
    const score = typeof l.score === "number" && !Number.isInteger(l.score) ? l.score.toFixed(3) : l.score;
    for (const [text, cls] of [[l.rank], [l.move], [score], [outlookText(l)], [l.depth], [l.pv.join(" "), "pv"]]) {
      const cell = row.insertCell();
      cell.textContent = String(text);
      if (cls) cell.className = cls;
    }
  }
}

function showInfo(msg) {
  if (mode !== "analyse") return;
  if (msg.move === null) { $("info").textContent += "stopped\n"; return; }
  showLines(msg.lines);
  setBar(msg.eval || null);
  const score = typeof msg.score === "number" && !Number.isInteger(msg.score) ? msg.score.toFixed(3) : msg.score;
  const line = msg.type === "bestmove" ? `bestmove ${msg.move}` :
    `depth ${msg.depth} score ${score} nodes ${msg.nodes} nps ${msg.nps} time ${msg.seconds} pv ${msg.pv.join(" ")}`;
  $("info").textContent += line + "\n";
  $("info").scrollTop = $("info").scrollHeight;
  if (msg.svg) { $("board").innerHTML = msg.svg; highlight(); }
}

// the server takes only JSON (a form of another site cannot post to it)
const JSON_HEADERS = { "Content-Type": "application/json" };

// --- replay ------------------------------------------------------------------
async function loadRecords(file) {
  const text = await file.text();
  let r, data;
  try {
    r = await fetch("/api/replay", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ records: text }) });
    data = await r.json();
  } catch (e) {
    say(`the replay failed: ${r ? `HTTP ${r.status}` : e}`, true);
    return;
  }
  if (!r.ok) { say(data.error, true); return; }
  replayGames = data.games;
  const list = $("replay-games");
  list.innerHTML = "";
  data.games.forEach((g, i) => list.add(new Option(`#${g.index} ${g.game} ${g.result} (${g.moves.length} moves)`, i)));
  // the first error says why, e.g. where a long file was cut short
  const more = data.errors.length > 1 ? ` (and ${data.errors.length - 1} more)` : "";
  say(data.errors.length ? `${data.games.length} games; not replayed: ${data.errors[0]}${more}` : `${data.games.length} games`,
      data.errors.length > 0);
  if (data.games.length) { list.value = 0; pickReplay(0); }
}

function pickReplay(i) { replayGame = replayGames[i]; replayPly = 0; clearReview(); showReplay(); }

async function showReplay() {
  const g = replayGame;
  if (!g) return;
  replayPly = Math.max(0, Math.min(replayPly, g.moves.length));
  const body = { game: g.game, options: g.options, seed: g.seed, moves: g.moves.slice(0, replayPly) };
  const r = await fetch("/api/render", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { say(data.error, true); return; }
  $("board").innerHTML = data.svg;
  $("board").dataset.plies = replayPly;
  markPly(replayPly);
  $("status").textContent = `${g.engines.join(" vs ")}: ${g.result} (${g.reason})`;
  $("rp-ply").textContent = `move ${replayPly} of ${g.moves.length}`;
  const box = $("rp-moves");
  box.innerHTML = "";
  g.moves.forEach((m, k) => {
    const s = document.createElement("span");
    s.textContent = m;
    if (k === replayPly - 1) s.className = "current";
    s.onclick = () => { replayPly = k + 1; showReplay(); };
    box.append(s, " ");
  });
}

// --- game review -------------------------------------------------------------------
// Play: the tab's game once it is over (the server knows it); Replay: the game
// shown (the page sends its moves). The server searches every ply again.
function askReview() {
  const msg = { type: "review", engine: $("rv-engine").value.trim() };
  if (mode === "replay") {
    const g = replayGame;
    if (!g) { say("open a records file first", true); return; }
    Object.assign(msg, { game: g.game, options: g.options, seed: g.seed, moves: g.moves });
  }
  clearReview();
  review = { mode: mode, data: null };
  $("rv-progress").textContent = "reviewing…";
  send(msg);
}

function clearReview() {
  review = null;
  $("rv-graph").innerHTML = "";
  $("rv-summary").textContent = "";
  $("rv-marks").tBodies[0].innerHTML = "";
  $("rv-progress").textContent = "";
}

// seat 1's expected score after ply p (two sides: the other side's is its
// complement), or the mover's own; null where the page was not sent one
function plyValue(data, p) {
  if (p.expected_after === null || p.expected_after === undefined) return null;
  if (!data.two_sides) return { seat: p.seat, expected: p.expected_after, result_in: shifted(p.result_in_after) };
  const mine = data.sides.findIndex((side) => side.includes(1));
  const theirs = data.sides.findIndex((side) => side.includes(p.seat));
  const flip = mine !== theirs;
  const r = shifted(p.result_in_after);
  return { seat: 1, expected: flip ? 1 - p.expected_after : p.expected_after,
           result_in: r === null ? null : (flip ? -r : r) };
}

// a proven result counted from before the ply's move, counted from after it (0: the game is decided)
function shifted(r) {
  if (r === null || r === undefined) return null;
  return r > 0 ? r - 1 : r + 1;
}

function showReview(data) {
  if (!review || review.mode !== mode) return;          // a review of another mode's game
  review.data = data;
  $("rv-progress").textContent = data.message || `reviewed ${data.plies.length} plies`;
  drawGraph(data);
  const marks = $("rv-marks").tBodies[0];
  marks.innerHTML = "";
  for (const p of data.plies) {
    const row = marks.insertRow();
    row.dataset.ply = p.ply;
    if (p.mark) row.className = p.mark;
    const value = p.expected_before === undefined || p.expected_before === null ? "" :
      `${p.expected_before.toFixed(2)} → ${p.expected_after.toFixed(2)}`;
    const cells = [p.ply, p.chance ? "chance" : seatName(p.seat, data.game), p.played, p.best || "", value,
                   typeof p.loss === "number" ? p.loss.toFixed(2) : "", p.mark || ""];
    cells.forEach((text, i) => {
      const cell = row.insertCell();
      cell.textContent = String(text);
      if (i === 6) cell.className = "mark";
    });
    row.onclick = () => goPly(p.ply);
  }
  $("rv-summary").textContent = data.summary.map((s) => `${seatName(s.seat, data.game)}: ${count(s.moves, "move")}, ` +
    `mean loss ${s.mean_loss === null ? "-" : s.mean_loss.toFixed(3)}, ${count(s.marks.inaccuracy, "inaccuracy")}, ` +
    `${count(s.marks.mistake, "mistake")}, ${count(s.marks.blunder, "blunder")}`).join("; ");
}

function count(n, word) {
  return `${n} ${n === 1 ? word : word.endsWith("y") ? word.slice(0, -1) + "ies" : word + "s"}`;
}

function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

const MARK_COLOURS = { inaccuracy: "#e0b000", mistake: "#e67e22", blunder: "#c0392b" };
const SEAT_COLOURS = ["#1f5fa8", "#2e8b57", "#8e44ad", "#b9770e"];

// The evaluation over the game: one point per judged ply (the value after its
// move), a line per seat (one for seat 1 when two sides play), marks as
// coloured dots; clicking a point shows the position after that ply.
function drawGraph(data) {
  const W = 720, H = 236, L = 40, R = 12, T = 28, B = 28;
  const n = Math.max(data.moves, 1);
  const x = (ply) => (L + (W - L - R) * ply / n).toFixed(1);
  const y = (v) => (T + (H - T - B) * (1 - v)).toFixed(1);
  const svg = svgEl("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, "font-size": 11, "font-family": "sans-serif" });
  const caption = data.two_sides ? `expected score of ${seatName(1, data.game)} after each ply` :
    "expected score of each seat after its own moves";
  svgEl("title", {}, svg).textContent = caption;
  svgEl("text", { x: L, y: 14, "font-size": 12 }, svg).textContent = caption +
    " (click a point for the position after it)";
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0.5 ? "#888" : "#ddd" }, svg);
    svgEl("text", { x: L - 4, y: Number(y(v)) + 4, "text-anchor": "end" }, svg).textContent = String(v);
  }
  const step = Math.max(1, Math.ceil(n / 12));
  for (let ply = 0; ply <= n; ply += step) {
    svgEl("text", { x: x(ply), y: H - 10, "text-anchor": "middle" }, svg).textContent = String(ply);
  }
  const points = [];
  for (const p of data.plies) {
    const v = plyValue(data, p);
    if (v) points.push({ p: p, v: v, line: data.two_sides ? 1 : p.seat });
  }
  for (const line of [...new Set(points.map((q) => q.line))]) {
    const mine = points.filter((q) => q.line === line);
    svgEl("polyline", { points: mine.map((q) => `${x(q.p.ply)},${y(q.v.expected)}`).join(" "), fill: "none",
                        stroke: SEAT_COLOURS[(line - 1) % SEAT_COLOURS.length], "stroke-width": 2,
                        class: `seat-${line}` }, svg);
  }
  for (const q of points) {
    const c = svgEl("circle", { cx: x(q.p.ply), cy: y(q.v.expected), r: q.p.mark ? 6 : 3.5,
                                fill: q.p.mark ? MARK_COLOURS[q.p.mark] : SEAT_COLOURS[(q.line - 1) % SEAT_COLOURS.length],
                                stroke: "#333", "stroke-width": q.p.mark ? 1 : 0,
                                class: `pt${q.p.mark ? " mark " + q.p.mark : ""}`, "data-ply": q.p.ply }, svg);
    svgEl("title", {}, c).textContent = `ply ${q.p.ply}, ${seatName(q.p.seat, data.game)}: ${q.p.played}` +
      (q.p.mark ? ` (${q.p.mark}; best ${q.p.best})` : "") + ` - ${seatName(q.v.seat, data.game)} ${outlookText(q.v)}`;
    c.addEventListener("click", () => goPly(q.p.ply));
  }
  $("rv-graph").innerHTML = "";
  $("rv-graph").appendChild(svg);
}

// The position after ply k on the board, its point and row highlighted, the bar at its value.
function goPly(k) {
  if (!review || !review.data) return;
  if (mode === "replay") { replayPly = k; showReplay(); }
  else if (mode === "play") send({ type: "show", ply: k });
  const p = review.data.plies.find((q) => q.ply === k);
  const v = p ? plyValue(review.data, p) : null;
  if (v) setBar(v, review.data.game);
  markPly(k);
}

function markPly(k) {
  for (const e of document.querySelectorAll("#rv-graph .pt.current, #rv-marks tr.current")) e.classList.remove("current");
  for (const e of document.querySelectorAll(`#rv-graph .pt[data-ply="${k}"], #rv-marks tr[data-ply="${k}"]`)) {
    e.classList.add("current");
  }
}

function showPosition(msg) {
  if (mode !== "play") return;
  $("board").innerHTML = msg.svg;
  $("board").dataset.plies = msg.ply;
  legal = [];
  prefix = [];
  fillMoveBox();
  $("status").textContent = `after ply ${msg.ply} of ${current ? current.view.history.length : msg.ply}` +
    (current && current.result ? ` (game over: ${current.result})` : "");
}

// --- wiring ------------------------------------------------------------------
function setMode(m) {
  mode = m;
  document.body.className = m;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.mode === m);
  $("board").innerHTML = "";
  legal = [];
  fillMoveBox();
  $("status").textContent = "";
  say("");
  clearReview();
  setBar(null);
  send({ type: "stop" });
  if (m === "replay" && replayGame) showReplay();
}

async function init() {
  const data = await (await fetch("/api/games")).json();
  GAMES = data.games;
  for (const name of Object.keys(GAMES)) $("game").add(new Option(name, name));
  $("game").value = "quoridor";
  $("game").onchange = renderOptions;
  renderOptions();
  for (const b of document.querySelectorAll("nav button")) b.onclick = () => setMode(b.dataset.mode);
  $("board").addEventListener("click", onBoardClick);
  $("new-game").onclick = () => { clearReview(); newGame(); };
  $("review-game").onclick = askReview;
  $("rv-stop").onclick = () => send({ type: "stop" });
  $("undo").onclick = () => send({ type: "undo" });
  $("hint").onclick = () => send({ type: "hint" });
  $("analyse").onclick = () => analyse();
  $("stop").onclick = () => send({ type: "stop" });
  $("an-back").onclick = () => analyse(history.slice(0, -1));
  $("play-move").onclick = () => {
    const typed = $("move-text").value.trim();
    makeMove(typed || $("move-list").value);
    $("move-text").value = "";
  };
  $("records").onchange = (e) => { if (e.target.files.length) loadRecords(e.target.files[0]); };
  $("replay-games").onchange = (e) => pickReplay(Number(e.target.value));
  $("rp-first").onclick = () => { replayPly = 0; showReplay(); };
  $("rp-prev").onclick = () => { replayPly--; showReplay(); };
  $("rp-next").onclick = () => { replayPly++; showReplay(); };
  $("rp-last").onclick = () => { replayPly = replayGame ? replayGame.moves.length : 0; showReplay(); };
  document.addEventListener("keydown", (e) => {
    if (mode !== "replay" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") { replayPly--; showReplay(); }
    if (e.key === "ArrowRight") { replayPly++; showReplay(); }
  });
  setMode("play");
  connect();
}

init();
