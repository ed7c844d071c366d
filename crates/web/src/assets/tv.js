// TV ("/tv"): the live game of the highest-rated people who met in the lobby
// (GET /api/tv), watched as a spectator: its board, players and clocks, live from the
// game's event stream (GET /api/games/{id}/events). When it ends, its result stays for
// a few seconds, then the next game is shown; while none is played, the page says so
// and asks again every few seconds. The page holds no seat: it only watches (the game
// page cannot be framed, so the board is drawn here). Names are set as text only.
"use strict";

const $ = (id) => document.getElementById(id);
const MARKS = { X: "x", O: "o" };
const other = (mark) => (mark === "X" ? "O" : "X");

/// How long an ended game's result stays before the next game is asked for, and how
/// often TV is asked again while no game is played (or the server cannot be reached).
const RESULT_MS = 5000;
const ASK_AGAIN_MS = 5000;

const tv = {
  id: null, // the game shown
  game: null, // as the server sent it last
  events: null, // its event stream, while open
  next: null, // the timer of the next ask
  clock: null, // { shown, at, timer }: the running side's time, counted down here
};

/// "Ada (X)", "Computer (Impossible, O)": a player and their mark (as the game page).
function seatWords(game, mark) {
  const name = game.players[MARKS[mark]].name;
  const inner = name.endsWith(")") ? name.slice(0, -1) : null;
  return inner !== null && inner.includes("(") ? `${inner}, ${mark})` : `${name} (${mark})`;
}

/// The game's state in the game page's words.
function statusWords(game) {
  const name = (mark) => seatWords(game, mark);
  const resigned = { x_resigned: "X", o_resigned: "O" }[game.status];
  if (resigned) return `${name(resigned)} resigned: ${name(other(resigned))} wins.`;
  const left = { x_left: "X", o_left: "O" }[game.status];
  if (left) return `${name(left)} left. The game is not counted.`;
  const flagged = { x_timeout: "X", o_timeout: "O" }[game.status];
  if (flagged) return `${name(flagged)} ran out of time: ${name(other(flagged))} wins.`;
  const drawn = { x_timeout_draw: "X", o_timeout_draw: "O" }[game.status];
  if (drawn) return `${name(drawn)} ran out of time, but ${name(other(drawn))} could no longer win: a draw.`;
  if (game.status === "x_aborted" || game.status === "o_aborted") return "Aborted: a first move was not made in time.";
  if (game.status === "x_won") return `${name("X")} wins!`;
  if (game.status === "o_won") return `${name("O")} wins!`;
  if (game.status === "draw") return "A draw.";
  return `${name(game.to_move)} to move.`;
}

/// Asks which game is on, and shows it (or that none is).
async function tune() {
  clearTimeout(tv.next);
  let answer;
  try {
    const response = await fetch("/api/tv");
    answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
    $("tv-connection").hidden = true;
  } catch (error) {
    // A failed fetch says "Failed to fetch": said plainly instead.
    const words = error instanceof TypeError ? "the server cannot be reached" : error.message;
    $("tv-connection").hidden = false;
    $("tv-connection").textContent =
      `TV could not be asked (${words}). Trying again in ${ASK_AGAIN_MS / 1000} s…`;
    tv.next = setTimeout(tune, ASK_AGAIN_MS);
    return;
  }
  if (!answer.game) {
    showNothing();
    tv.next = setTimeout(tune, ASK_AGAIN_MS);
    return;
  }
  watch(answer.game);
}

/// Nothing on: said, and the last game put away.
function showNothing() {
  stopWatching();
  tv.id = null;
  tv.game = null;
  $("tv-players").textContent = "TV";
  $("tv-rule").textContent = "";
  $("tv-status").textContent = "No game is being played right now. Looking again every few seconds…";
  $("tv-board").hidden = true;
  $("tv-board").replaceChildren();
  $("tv-clocks").hidden = true;
  $("tv-links").hidden = true;
  showClocks(null);
}

function stopWatching() {
  if (tv.events) tv.events.close();
  tv.events = null;
}

/// Follows game `id`: the whole game at each change.
function watch(id) {
  stopWatching();
  tv.id = id;
  $("tv-game-link").href = `/games/${id}`;
  $("tv-links").hidden = false;
  const events = new EventSource(`/api/games/${id}/events`);
  tv.events = events;
  events.addEventListener("game", (event) => {
    if (tv.events === events) render(JSON.parse(event.data));
  });
  // The stream ended (the server stopping, or forgetting the game): TV asked again in
  // a moment, which finds this game again while it is played.
  events.addEventListener("error", () => {
    if (tv.events !== events) return;
    stopWatching();
    clearTimeout(tv.next);
    tv.next = setTimeout(tune, ASK_AGAIN_MS / 5);
  });
}

function render(game) {
  tv.game = game;
  $("tv-players").textContent = `${seatWords(game, "X")} vs ${seatWords(game, "O")}`;
  $("tv-rule").textContent = `${game.size}×${game.size}, ${game.win} in a row wins${game.rated ? " · rated" : ""}`;
  $("tv-status").textContent = statusWords(game);
  drawBoard(game);
  showClocks(game.clock || null);
  if (game.to_move === null) {
    // Over: the result stays a while, then the next game.
    stopWatching();
    clearTimeout(tv.next);
    tv.next = setTimeout(tune, RESULT_MS);
  }
}

function drawBoard(game) {
  const board = $("tv-board");
  board.hidden = false;
  board.style.setProperty("--size", String(game.size));
  if (board.children.length !== game.size * game.size) {
    const cells = [];
    for (let i = 0; i < game.size * game.size; i += 1) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.cell = String(i + 1);
      cell.setAttribute("role", "img");
      cells.push(cell);
    }
    board.replaceChildren(...cells);
  }
  const line = new Set(game.line || []);
  const last = game.moves[game.moves.length - 1];
  [...board.children].forEach((cell, index) => {
    const mark = game.board[index] === "." ? "" : game.board[index];
    cell.textContent = mark;
    const row = Math.floor(index / game.size) + 1;
    const column = (index % game.size) + 1;
    cell.setAttribute("aria-label", `row ${row}, column ${column}, ${mark || "empty"}`);
    cell.classList.toggle("x", mark === "X");
    cell.classList.toggle("o", mark === "O");
    cell.classList.toggle("win", line.has(index + 1));
    cell.classList.toggle("last", index + 1 === last);
  });
}

/// The clocks as the server sent them, the running side's counted down here between
/// its views (the server alone ends the game).
function showClocks(clock) {
  if (tv.clock && tv.clock.timer !== null) clearInterval(tv.clock.timer);
  tv.clock = null;
  $("tv-clocks").hidden = !clock;
  if (!clock) return;
  tv.clock = { shown: clock, at: performance.now(), timer: null };
  if (clock.running || clock.first_move_ms !== null) tv.clock.timer = setInterval(tickClocks, 200);
  tickClocks();
}

function tickClocks() {
  if (!tv.clock || !tv.game) return;
  const { shown: clock, at } = tv.clock;
  const spent = performance.now() - at;
  for (const mark of ["X", "O"]) {
    const left = clock[`${MARKS[mark]}_ms`] - (clock.running === mark ? spent : 0);
    const element = $(`tv-clock-${MARKS[mark]}`);
    element.textContent = `${seatWords(tv.game, mark)} ${clockWords(left)}`;
    element.classList.toggle("running", clock.running === mark);
    element.classList.toggle("low", clock.running === mark && left < 10000);
  }
  const mover = tv.game.to_move;
  if (!clock.running && clock.first_move_ms !== null && mover) {
    const left = clock.first_move_ms - spent;
    $(`tv-clock-${MARKS[mover]}`).textContent += ` · first move within ${Math.max(0, Math.ceil(left / 1000))} s`;
  }
}

/// Milliseconds as a clock shows them: "2:05", or "8.4" under ten seconds.
function clockWords(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return (Math.floor(left / 100) / 10).toFixed(1);
  const seconds = Math.floor(left / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

tune();
