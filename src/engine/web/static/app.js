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
    case "refused": say(msg.message, true); prefix = []; highlight(); break;
    case "error": say(msg.message, true); break;
    case "hint": showHint(msg); break;
    case "info": case "bestmove": showInfo(msg); break;
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

// One field per declared parameter (GET /api/games): a list for a boolean or
// a choice, the default first; a text field, its default as placeholder, otherwise.
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
    if (values) {
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
  send(msg);
}

function showInfo(msg) {
  if (mode !== "analyse") return;
  if (msg.move === null) { $("info").textContent += "stopped\n"; return; }
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

function pickReplay(i) { replayGame = replayGames[i]; replayPly = 0; showReplay(); }

async function showReplay() {
  const g = replayGame;
  if (!g) return;
  replayPly = Math.max(0, Math.min(replayPly, g.moves.length));
  const body = { game: g.game, options: g.options, seed: g.seed, moves: g.moves.slice(0, replayPly) };
  const r = await fetch("/api/render", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { say(data.error, true); return; }
  $("board").innerHTML = data.svg;
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
  $("new-game").onclick = newGame;
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
