// The game page. Two views on one page: the new-game form at "/", and a game at
// "/games/ID". Seats are held by tokens, which arrive in the URL fragment ("#x=TOKEN",
// "#o=TOKEN", or both on one device; a fragment is never sent to the server). The page
// moves them to the tab's session storage at once and takes them out of the address
// bar, so the address can be copied and shared without handing over a seat; a reload
// of the tab keeps them.
// Every rule is the server's: this page shows what the API answers, and sends requests.
// Names are only ever set as text (textContent), never as HTML. When the server cannot
// be reached (or its store fails), the page says the connection is lost and tries
// again by itself, waiting longer each time; once the server answers, it shows the game
// as the server has it and listens again. A finished game's page is its replay
// (replay.js, loaded first): the board after any of its moves, and the review.
"use strict";

const $ = (id) => document.getElementById(id);
const MARKS = { X: "x", O: "o" };
const other = (mark) => (mark === "X" ? "O" : "X");

// ---- The new-game form ------------------------------------------------------------

/// The computer's levels, weakest first: each one's name, and one line on how it plays
/// in the words the terminal uses (crates/console/src/words.rs, `how_it_plays`). Every
/// level chooser of the form lists these (its `data-level` is the one chosen at first).
const LEVELS = {
  random: ["Random", "Plays any empty cell."],
  easy: ["Easy", "Takes a win it can see, otherwise plays at random."],
  medium: ["Medium", "Wins when it can and blocks a single threat, but falls for a fork."],
  impossible: ["Impossible", "Plays perfectly: it never loses."],
};

function showSetup() {
  $("setup").hidden = false;
  const form = $("new-game");
  for (const select of form.querySelectorAll("select[data-level]")) {
    for (const [level, [name]] of Object.entries(LEVELS)) {
      const chosen = level === select.dataset.level;
      select.add(new Option(name, level, chosen, chosen));
    }
  }
  const refresh = () => {
    const mode = form.elements.mode.value;
    for (const label of form.querySelectorAll("[data-for]")) {
      label.hidden = !label.dataset.for.split(" ").includes(mode);
    }
    const size = Number(form.elements.size.value);
    const win = form.elements.win;
    const chosen = Math.min(Number(win.value) || size, size);
    win.replaceChildren();
    for (let k = 3; k <= size; k += 1) {
      win.add(new Option(String(k), String(k), false, k === chosen));
    }
    // On 3 x 3 there is nothing to choose: three in a row.
    $("win-choice").hidden = size === 3;
    for (const select of form.querySelectorAll("select[data-how]")) {
      $(select.dataset.how).textContent = (LEVELS[select.value] || [])[1] || "";
    }
  };
  form.addEventListener("change", refresh);
  refresh();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    createGame(form).catch((error) => {
      $("setup-error").textContent = error.message;
    });
  });
}

function human(name) {
  const trimmed = name.trim();
  return trimmed ? `human:${trimmed}` : "human";
}

async function createGame(form) {
  const f = form.elements;
  const mode = f.mode.value;
  const mine = f.side.value;
  const theirs = mine === "x" ? "o" : "x";
  const request = {
    size: Number(f.size.value),
    win: Number(f.win.value),
    first: f.first.value,
  };
  if (mode === "computer") {
    request[mine] = human(f.me.value);
    request[theirs] = f.level.value;
  } else if (mode === "watch") {
    request.x = f.xlevel.value;
    request.o = f.olevel.value;
  } else {
    const me = mode === "together" ? "x" : mine;
    request[me] = human(f.me.value);
    request[me === "x" ? "o" : "x"] = human(f.friend.value);
    request.seating = mode === "together" ? "together" : "apart";
  }
  const game = await api("POST", "/api/games", null, request);
  const fragment = new URLSearchParams();
  if (mode === "online") {
    fragment.set(mine, game.seats[mine].token);
    fragment.set("invite", game.seats[theirs].token);
  } else {
    for (const [key, seat] of Object.entries(game.seats)) fragment.set(key, seat.token);
  }
  location.assign(`/games/${game.id}#${fragment}`);
}

// ---- The API ------------------------------------------------------------------------

/// The answer's JSON, or an Error with `status` (0: no answer at all) and `lost`
/// (the server, or its store, cannot be used now: worth trying again later).
async function api(method, path, token, body) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw failure("the server cannot be reached", 0);
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw failure(answer.error || `the server answered ${response.status}`, response.status);
  }
  return answer;
}

function failure(message, status) {
  const error = new Error(message);
  error.status = status;
  error.lost = status === 0 || status === 502 || status === 503 || status === 504;
  return error;
}

// ---- A game -------------------------------------------------------------------------

const view = {
  id: null,
  tokens: {}, // "x" and/or "o"
  invite: null,
  named: false, // this page's person has chosen their name (or came with it)
  game: null, // null until the server has answered with the game
  hint: [],
  busy: false,
  events: null, // the live stream, while open
  lost: false, // the server cannot be reached: trying again
  retry: null, // the timer of the next try
  quickEnds: 0, // event streams in a row that ended soon after they opened
  armed: null, // the button pressed once whose next press acts ("resign", "hint", "undo")
  armedTimer: null,
};

const RETRY_FIRST_MS = 500;
const ARMED_MS = 5000;
const RETRY_MOST_MS = 8000;

function tokenFor(mark) {
  return view.tokens[MARKS[mark]] || null;
}

function heldMarks() {
  return ["X", "O"].filter((mark) => tokenFor(mark));
}

/// "Ada (X)", "Computer (Impossible, O)": who plays `mark` (replay.js's `seat`).
function nameOf(mark) {
  return seat(view.game.players[MARKS[mark]].name, mark);
}

/// The seats this tab holds in game `id`: those kept in the tab's session storage, and
/// any in the address's fragment, which are then kept there and taken out of the
/// address bar. Without session storage (disabled), the fragment stays where it is.
function takeSeats(id) {
  const key = `tictactoe.seats.${id}`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  let seats = {};
  try {
    seats = JSON.parse(sessionStorage.getItem(key) || "{}");
  } catch {
    seats = {};
  }
  for (const name of ["x", "o", "invite", "named"]) {
    if (fragment.get(name)) seats[name] = fragment.get(name);
  }
  try {
    sessionStorage.setItem(key, JSON.stringify(seats));
    if (location.hash) history.replaceState(null, "", location.pathname);
  } catch {
    // No session storage: the seats stay in the fragment, as before.
  }
  return seats;
}

function showGame(id) {
  view.id = id;
  const seats = takeSeats(id);
  for (const key of ["x", "o"]) {
    if (seats[key]) view.tokens[key] = seats[key];
  }
  view.invite = seats.invite || null;
  view.named = Boolean(seats.named);
  $("play").hidden = false;
  $("watch-link").value = `${location.origin}/games/${id}`;
  const mine = heldMarks();
  if (view.invite && mine.length === 1) {
    $("invite").hidden = false;
    $("invite-link").value = `${location.origin}/games/${id}#${MARKS[other(mine[0])]}=${view.invite}`;
  }
  for (const field of [$("invite-link"), $("watch-link")]) {
    field.addEventListener("focus", () => field.select());
  }
  $("copy-invite").addEventListener("click", () => copyLink($("invite-link"), "Invite link"));
  $("copy-watch").addEventListener("click", () => copyLink($("watch-link"), "Spectator link"));
  $("hint").addEventListener("click", () => act(askHint));
  $("undo").addEventListener("click", () => act(undo));
  $("agree").addEventListener("click", () => act(() => undo()));
  $("resign").addEventListener("click", () => act(resign));
  $("naming").addEventListener("submit", (event) => {
    event.preventDefault();
    act(chooseName);
  });
  $("rematch").addEventListener("click", () => act(rematch));
  // Joining a rematch the other player asked for takes this page's seat along.
  $("replay-rematch-link").addEventListener("click", (event) => {
    if (!view.game || !view.game.rematch || heldMarks().length === 0) return;
    event.preventDefault();
    view.following = true;
    follow(view.game.rematch);
  });
  $("board").addEventListener("keydown", moveFocus);

  reconnect(RETRY_FIRST_MS, false);
}

/// Live updates: the server sends the whole game after every change. The stream ends
/// when the server stops, or forgets the game from memory: then the game is asked for
/// again (at once, quietly, unless streams keep ending as soon as they open).
function listen(id) {
  if (view.events) view.events.close();
  const events = new EventSource(`/api/games/${id}/events`);
  const opened = Date.now();
  view.events = events;
  events.addEventListener("game", (event) => render(JSON.parse(event.data)));
  events.addEventListener("error", () => {
    if (view.events !== events) return;
    events.close();
    view.events = null;
    view.quickEnds = Date.now() - opened < 5000 ? view.quickEnds + 1 : 0;
    const wait = Math.min(100 * 2 ** view.quickEnds, RETRY_MOST_MS);
    clearTimeout(view.retry);
    view.retry = setTimeout(() => reconnect(RETRY_FIRST_MS, false), wait);
  });
}

/// Fetches the game and listens to it; if the server cannot be reached, says the
/// connection is lost and tries again after `delay`, then twice as long each time.
async function reconnect(delay, lost) {
  clearTimeout(view.retry);
  try {
    // With this page's seat, so that the server knows its player is here (`joined`).
    const game = await api("GET", `/api/games/${view.id}`, tokenFor(heldMarks()[0]));
    view.lost = false;
    $("connection").hidden = true;
    $("play").classList.remove("offline");
    render(game);
    listen(view.id);
  } catch (error) {
    if (error.status === 404) {
      gone();
    } else if (error.lost || lost) {
      connectionLost(delay, error);
    } else {
      $("status").textContent = `This game cannot be shown: ${error.message}`;
    }
  }
}

function connectionLost(delay, error) {
  view.lost = true;
  if (view.events) {
    view.events.close();
    view.events = null;
  }
  const seconds = Math.max(1, Math.round(delay / 1000));
  const connection = $("connection");
  connection.hidden = false;
  connection.textContent = `Connection lost (${error.message}). Trying again in ${seconds} s…`;
  $("play").classList.add("offline");
  clearTimeout(view.retry);
  view.retry = setTimeout(() => reconnect(Math.min(delay * 2, RETRY_MOST_MS), true), delay);
}

/// The server does not know this game (a mistyped link, or a server that lost its
/// games): nothing to show or to play.
function gone() {
  view.game = null;
  $("connection").hidden = true;
  $("play").classList.remove("offline");
  $("status").textContent =
    "This game is not on this server: the link may be mistyped, or the server no longer has it.";
  $("players").textContent = "No such game";
  $("board").replaceChildren();
  $("board").hidden = true;
  $("actions").hidden = true;
  $("links").hidden = true;
}

async function act(action) {
  if (view.busy || !view.game) return;
  if (![resign, askHint, undo].includes(action)) disarm();
  if (view.lost) {
    $("message").textContent = "The connection is lost: wait until it is back.";
    return;
  }
  view.busy = true;
  $("message").textContent = "";
  try {
    await action();
  } catch (error) {
    $("message").textContent = error.message;
    // The server or its store failed: show the game as the server has it, once it
    // answers again.
    if (error.lost) connectionLost(RETRY_FIRST_MS, error);
  } finally {
    view.busy = false;
  }
}

async function play(cell) {
  const game = view.game;
  if (!game || game.to_move === null) return;
  // A name typed but not yet sent goes first: the first move fixes it. Left as it was
  // filled in, the host's guess stands.
  if (!$("naming").hidden && tokenFor(game.to_move)) {
    if (!(await chooseName())) return;
    return play(cell);
  }
  const token = tokenFor(game.to_move);
  if (!token) {
    $("message").textContent = heldMarks().length
      ? `Wait for ${nameOf(game.to_move)} to move.`
      : "You are watching this game.";
    return;
  }
  view.hint = [];
  // The person's mark at once, and the other side's turn (a computer: "thinking"),
  // until the server answers with the game as it is; if it refuses, the game as it was.
  const shown = game.board[cell - 1] === "." ? provisional(game, cell) : game;
  render(shown);
  try {
    render(await api("POST", `/api/games/${view.id}/moves`, token, { cell }));
  } catch (error) {
    if (view.game === shown) render(game);
    throw error;
  }
}

/// `game` with the mover's mark on `cell`, as the page shows it while the server works.
function provisional(game, cell) {
  const mark = game.to_move;
  return {
    ...game,
    board: game.board.slice(0, cell - 1) + mark + game.board.slice(cell),
    moves: [...game.moves, cell],
    to_move: other(mark),
    undo_asked_by: null,
  };
}

/// Whether this page asks its person's name: the one invited to a game of two people
/// apart (a page holding one seat, with no invite to hand out), who has not chosen it
/// yet and has not moved (a name is chosen until the seat's first move).
function asksName(game) {
  const mine = heldMarks();
  if (view.named || view.invite || mine.length !== 1 || game.to_move === null) return false;
  const players = game.players;
  const me = players[MARKS[mine[0]]];
  return me.kind === "human" && !me.moved && players[MARKS[other(mine[0])]].kind === "human";
}

/// Remembers, for the tab, that this page's person has chosen their name.
function nameChosen() {
  view.named = true;
  const key = `tictactoe.seats.${view.id}`;
  try {
    const seats = JSON.parse(sessionStorage.getItem(key) || "{}");
    seats.named = "1";
    sessionStorage.setItem(key, JSON.stringify(seats));
  } catch {
    // No session storage: a reload asks again, until the first move.
  }
}

/// The name typed (empty keeps the one filled in), sent unless it is the name already:
/// whether the page has it now (not when the rules refuse it: said beside the field).
async function chooseName() {
  const mark = heldMarks()[0];
  const current = view.game.players[MARKS[mark]].name;
  const typed = $("naming-name").value.trim() || current;
  $("naming-error").textContent = "";
  if (typed !== current) {
    try {
      render(await api("POST", `/api/games/${view.id}/name`, tokenFor(mark), { name: typed }));
    } catch (error) {
      // A name the rules refuse: said beside it, to be typed again. A server out of
      // reach: asked again once it is back. Anything else (the seat has moved, the game
      // is over) ends the asking.
      if (error.status === 400) {
        $("naming-error").textContent = error.message;
        $("naming-name").focus();
        return false;
      }
      if (error.lost) throw error;
      nameChosen();
      render(view.game);
      throw error;
    }
  }
  nameChosen();
  render(view.game);
  $("message").textContent = `You play as ${view.game.players[MARKS[mark]].name}.`;
  return true;
}

async function askHint() {
  const game = view.game;
  const token = game && game.to_move && tokenFor(game.to_move);
  if (!token) throw new Error("A hint is for the player whose turn it is.");
  // In a rated game a hint makes it casual: said, and taken on the second press.
  if (game.rated && !armed("hint", "Hint: the game turns casual", CASUAL_BY_HINT)) return;
  const hint = await api("POST", `/api/games/${view.id}/hint`, token);
  view.hint = hint.best_moves;
  // The value as far as it is known: a bound never reads as an exact value.
  const verdict = {
    win: "you can win",
    draw: "best play draws",
    loss: "best play still loses",
    at_least_draw: "proven not to lose; whether you can win was not settled in time",
    unknown: "a best guess: not proven in time",
  }[hint.value];
  // Past a few cells, they are counted, not listed: they are lit up on the board (on
  // 7 x 7 nearly every cell can be best), as the terminal does.
  const count = hint.best_moves.length;
  const cells = count > HINT_CELLS_NAMED
    ? `any of the ${count} lit cells`
    : `${count > 1 ? "cells" : "cell"} ${hint.best_moves.join(", ")}`;
  // What the hint did (the game made casual) arrives with the game's next event.
  render(game);
  $("message").textContent = `Hint: ${cells} (${verdict}).${game.rated ? ` ${MADE_CASUAL}` : ""}`;
}

/// The most cells a hint names one by one (as the terminal's `HINT_CELLS_NAMED`).
const HINT_CELLS_NAMED = 6;

/// On one device either seat may undo; otherwise the seat this page holds asks.
/// Against the computer, taking back a move makes a rated game casual: said, and
/// done on the second press.
async function undo() {
  const game = view.game;
  const last = game.to_move ? other(game.to_move) : null;
  const token = (last && tokenFor(last)) || tokenFor(heldMarks()[0]);
  const againstComputer = ["x", "o"].some((key) => game.players[key].kind === "computer");
  if (game.rated && againstComputer && !armed("undo", "Undo: the game turns casual", CASUAL_BY_UNDO)) {
    return;
  }
  view.hint = [];
  const answer = await api("POST", `/api/games/${view.id}/undo`, token);
  render(answer);
  // What was taken back (against the computer: the person's move and its reply). An
  // undo asked of the other player takes nothing back yet: the status says so.
  const taken = game.moves.length - answer.moves.length;
  if (taken > 0) {
    const taken_back = taken === 1
      ? "The last move was taken back."
      : `The last ${taken} moves were taken back.`;
    const casual = game.rated && againstComputer ? ` ${MADE_CASUAL}` : "";
    $("message").textContent = `${taken_back}${casual}`;
  }
}

/// Resigning asks first: the first press arms the button and says what it means, the
/// second (within ARMED_MS, with nothing else pressed between) resigns.
async function resign() {
  const said =
    "Press Resign again to give up: the game counts as your loss. Anything else keeps playing.";
  if (!armed("resign", "Resign: are you sure?", said)) return;
  // On one device either seat may resign: the one whose turn it is.
  const mine = heldMarks();
  const seat = mine.length === 2 && view.game.to_move ? view.game.to_move : mine[0];
  render(await api("POST", `/api/games/${view.id}/resign`, tokenFor(seat)));
}

/// What a hint and an undo against the computer do to a rated game (the core's words),
/// and what they did.
const CASUAL_BY_HINT =
  "A hint makes this rated game casual: it will rate nobody. Press Hint again to go ahead.";
const CASUAL_BY_UNDO =
  "Taking back a move against the computer makes this rated game casual: it will rate nobody. Press Undo again to go ahead.";
const MADE_CASUAL = "This game is casual now: it rates nobody.";

/// Whether the button `name` was pressed just before (armed): then it acts now, and
/// is disarmed. Otherwise it is armed, labelled `label`, and `said` says what a
/// second press (within ARMED_MS, with nothing else pressed between) will do.
function armed(name, label, said) {
  if (view.armed === name) {
    disarm();
    return true;
  }
  disarm();
  const button = $(name);
  view.armed = name;
  view.armedLabel = button.textContent;
  view.armedSaid = said;
  button.classList.add("armed");
  button.textContent = label;
  $("message").textContent = said;
  view.armedTimer = setTimeout(disarm, ARMED_MS);
  return false;
}

/// The armed button, if any, back as it was, and what it said gone.
function disarm() {
  if (!view.armed) return;
  const button = $(view.armed);
  view.armed = null;
  clearTimeout(view.armedTimer);
  button.classList.remove("armed");
  button.textContent = view.armedLabel;
  if ($("message").textContent === view.armedSaid) $("message").textContent = "";
}

/// Copies a link to the clipboard; where the page may not (no secure context), selects
/// it and says how to copy it.
async function copyLink(field, what) {
  try {
    await navigator.clipboard.writeText(field.value);
    $("message").textContent = `${what} copied.`;
  } catch {
    field.hidden = false;
    field.focus();
    field.select();
    $("message").textContent = `${what} selected: press Ctrl-C (or ⌘-C) to copy it.`;
  }
}

async function rematch() {
  const token = heldMarks().length ? tokenFor(heldMarks()[0]) : null;
  // Asked for here: this page goes on to the rematch at once (the other player's page
  // says so, and lets them finish reading first).
  view.askedRematch = true;
  const next = await api("POST", `/api/games/${view.id}/rematch`, token);
  follow(next.id);
}

/// A rematch this page did not ask for is offered, not forced: the other player may
/// still be reading the finished game's review. "Ada wants a rematch: Join".
function showRematch(game) {
  const offered = Boolean(game.rematch) && !view.following;
  $("replay-rematch").hidden = !offered;
  if (!offered) return;
  const mine = heldMarks();
  const link = $("replay-rematch-link");
  link.href = `/games/${game.rematch}`;
  if (mine.length === 1) {
    $("replay-rematch-text").textContent = `${game.players[MARKS[other(mine[0])]].name} wants a rematch, sides swapped: `;
    link.textContent = "Join";
  } else if (mine.length === 2) {
    $("replay-rematch-text").textContent = "The rematch has begun: ";
    link.textContent = "Play it";
  } else {
    $("replay-rematch-text").textContent = "The players went on to a rematch: ";
    link.textContent = "Watch it";
  }
}

/// Each person keeps their token in a rematch, on the other mark.
function follow(nextId) {
  const fragment = new URLSearchParams();
  if (view.tokens.x) fragment.set("o", view.tokens.x);
  if (view.tokens.o) fragment.set("x", view.tokens.o);
  // The names carry over to the rematch: nobody is asked again.
  if (fragment.toString()) fragment.set("named", "1");
  const hash = fragment.toString();
  location.assign(`/games/${nextId}${hash ? `#${hash}` : ""}`);
}

// ---- Drawing ------------------------------------------------------------------------

function buildBoard(size) {
  const board = $("board");
  board.style.setProperty("--size", String(size));
  const cells = [];
  for (let i = 0; i < size * size; i += 1) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cell";
    button.dataset.cell = String(i + 1);
    button.addEventListener("click", () => act(() => play(i + 1)));
    cells.push(button);
  }
  board.replaceChildren(...cells);
}

function render(game) {
  const before = view.game;
  const changed =
    before &&
    (before.moves.length !== game.moves.length ||
      before.status !== game.status ||
      before.to_move !== game.to_move ||
      before.undo_asked_by !== game.undo_asked_by);
  if (changed) {
    // Messages describe the present: a refusal or a hint of a moment ago is gone.
    view.hint = [];
    $("message").textContent = "";
    disarm();
  }
  view.game = game;
  // The page that asked for the rematch goes on to it; everyone else is offered it
  // beside the finished game's replay (showRematch), and goes when they choose.
  if (game.rematch && !view.following && view.askedRematch) {
    view.following = true;
    follow(game.rematch);
  }
  if (game.to_move === null && game.status !== "in_progress") {
    startReplay(game, () => render(view.game));
    showRematch(game);
  }
  // The position shown: the game as it is, or, in a replay, after the chosen move.
  const shown = replayPosition(game);
  const board = $("board");
  $("actions").hidden = false;
  if (board.children.length !== game.size * game.size) buildBoard(game.size);
  const line = new Set(shown.line || []);
  const last = shown.moves[shown.moves.length - 1];
  // A hint's cells; in a replay, the cells that would have kept what the move shown
  // threw away (replay.js).
  const hint = new Set([...view.hint, ...replayBetterCells()]);
  [...board.children].forEach((button, index) => {
    const cell = index + 1;
    const mark = shown.board[index] === "." ? "" : shown.board[index];
    const row = Math.floor(index / game.size) + 1;
    const column = (index % game.size) + 1;
    button.textContent = mark;
    button.setAttribute("aria-label", `row ${row}, column ${column}, ${mark || "empty"}`);
    button.classList.toggle("x", mark === "X");
    button.classList.toggle("o", mark === "O");
    button.classList.toggle("win", line.has(cell));
    button.classList.toggle("last", cell === last);
    button.classList.toggle("hint", hint.has(cell));
    button.tabIndex = index === focusIndex(game) ? 0 : -1;
  });
  $("players").textContent = `${nameOf("X")} vs ${nameOf("O")}`;
  // The name field is filled in once, with the host's guess, and then left to the person.
  const naming = $("naming");
  const asking = asksName(game);
  if (asking && naming.hidden) $("naming-name").value = game.players[MARKS[heldMarks()[0]]].name;
  naming.hidden = !asking;
  $("status").textContent = statusText(game);
  const mine = heldMarks();
  const over = game.to_move === null;
  const myTurn = !over && tokenFor(game.to_move) !== null;
  $("hint").hidden = mine.length === 0 || over;
  $("hint").disabled = !myTurn;
  $("undo").hidden = mine.length === 0 || over;
  $("undo").disabled = game.moves.length === 0 || (game.undo_asked_by && mine.length === 1 && game.undo_asked_by === mine[0]);
  $("agree").hidden = !(game.undo_asked_by && mine.length === 1 && game.undo_asked_by !== mine[0]);
  $("resign").hidden = mine.length === 0 || over;
  const show = game.players.x.kind === "computer" && game.players.o.kind === "computer";
  $("rematch").hidden = !over || (mine.length === 0 && !show);
  // The friend invited has opened their link: say so, and the invite is done.
  const invited = view.invite && mine.length === 1 ? other(mine[0]) : null;
  const arrived = invited !== null && (game.joined || []).includes(invited);
  $("joined").hidden = !arrived;
  $("joined").textContent = arrived ? `${nameOf(invited)} has joined.` : "";
  $("invite").hidden = $("invite").hidden || over || arrived;
  $("copy-invite").hidden = $("invite").hidden;
  if ($("invite").hidden) $("invite-link").hidden = true;
}

/// The cell that Tab lands on: the last one focused, or the first empty one.
function focusIndex(game) {
  const focused = [...$("board").children].indexOf(document.activeElement);
  if (focused >= 0) return focused;
  const empty = game.board.indexOf(".");
  return empty >= 0 ? empty : 0;
}

function statusText(game) {
  if (game.status === "x_resigned" || game.status === "o_resigned") {
    const loser = game.status === "x_resigned" ? "X" : "O";
    return `${nameOf(loser)} resigned: ${nameOf(other(loser))} wins.`;
  }
  if (game.status === "x_left" || game.status === "o_left") {
    return `${nameOf(game.status === "x_left" ? "X" : "O")} left. The game is not counted.`;
  }
  if (game.status === "x_won") return `${nameOf("X")} wins!`;
  if (game.status === "o_won") return `${nameOf("O")} wins!`;
  if (game.status === "draw") return "A draw.";
  const mover = game.to_move;
  const player = game.players[MARKS[mover]];
  let text;
  if (tokenFor(mover)) {
    text = heldMarks().length === 2 ? `${nameOf(mover)} to move.` : `Your turn (${mover}).`;
  } else if (player.kind === "computer") {
    text = `${nameOf(mover)} is thinking…`;
  } else if ((game.joined || []).includes(mover)) {
    text = `Waiting for ${nameOf(mover)}.`;
  } else {
    text = `Waiting for ${nameOf(mover)} to open the invite link.`;
  }
  if (game.undo_asked_by) text += ` ${nameOf(game.undo_asked_by)} asks to take back a move.`;
  return text;
}

/// Arrow keys move between cells; Enter or Space plays (buttons do that by themselves).
function moveFocus(event) {
  const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  const step = steps[event.key];
  const cells = [...$("board").children];
  const index = cells.indexOf(document.activeElement);
  // A finished game's arrow keys step through its replay (replay.js).
  if (!step || index < 0 || !view.game || replay.active) return;
  event.preventDefault();
  const size = view.game.size;
  const row = Math.min(size - 1, Math.max(0, Math.floor(index / size) + step[0]));
  const column = Math.min(size - 1, Math.max(0, (index % size) + step[1]));
  const next = cells[row * size + column];
  cells.forEach((cell) => { cell.tabIndex = -1; });
  next.tabIndex = 0;
  next.focus();
}

// ---- Start --------------------------------------------------------------------------

const match = location.pathname.match(/^\/games\/([^/]+)$/);
if (match && /^[0-9a-f]+$/.test(match[1])) {
  showGame(match[1]);
} else if (match) {
  // A game's address with no game id in it: mistyped, said so, not the new-game form.
  $("play").hidden = false;
  gone();
} else {
  showSetup();
}
