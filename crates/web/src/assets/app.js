// The game page. Two views on one page: the new-game form at "/", and a game at
// "/games/ID". The page holds no secret: a signed-in player's seat is their account's
// (the session's cookie), a guest's seat is a cookie of its own, sent only with that
// game's requests; no script reads either (HttpOnly). The page learns which seats are
// its person's from the server (`yours` in GET /api/games/ID), so a reload, or the tab
// closed and the game opened again, gives the seat back. A friend's invite link,
// "/games/ID#invite=CODE", is taken out of the address bar at once and exchanged for a
// seat of the friend's own (POST /api/games/ID/join); the address then is the plain
// "/games/ID", the spectator's link.
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

/// What the form says of rating, for each way to play: signed in, and not.
const RATED_NOTES = {
  computer: "Rated: your rating on this board changes with the result.",
  online: "Rated if your friend is signed in when they open the invite; casual if they play as a guest.",
  together: "Casual: the other player on this device plays as a guest.",
};

async function showSetup() {
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
    // The run defaults to the board's size, as the terminal and `--win` have it; a run
    // the person picked is kept while the board allows it.
    const chosen = win.dataset.picked ? Math.min(Number(win.value) || size, size) : size;
    win.replaceChildren();
    for (let k = 3; k <= size; k += 1) {
      win.add(new Option(String(k), String(k), false, k === chosen));
    }
    // On 3 x 3 there is nothing to choose: three in a row.
    $("win-choice").hidden = size === 3;
    for (const select of form.querySelectorAll("select[data-how]")) {
      $(select.dataset.how).textContent = (LEVELS[select.value] || [])[1] || "";
    }
    // Rated or casual, said before the game: only people are rated, and a guest never.
    const people = mode !== "watch";
    $("rated-note").hidden = !people || !setupAccount.known;
    $("rated-text").textContent = setupAccount.name
      ? RATED_NOTES[mode] || ""
      : "You play as a guest: guest games are casual, they rate nobody.";
    $("rated-sign-in").hidden = Boolean(setupAccount.name);
    $("rated-note").classList.toggle("is-rated", Boolean(setupAccount.name) && mode !== "together");
  };
  form.elements.win.addEventListener("change", () => {
    form.elements.win.dataset.picked = "yes";
  });
  form.addEventListener("change", refresh);
  refresh();
  // Signed in, the player's name is the account's: not typed, and not editable.
  const account = await signedIn;
  setupAccount.known = !account.unknown;
  setupAccount.name = account.name;
  const me = form.elements.me;
  if (account.name) {
    me.value = account.name;
    me.readOnly = true;
    me.setAttribute("aria-describedby", "rated-text");
  }
  $("rated-sign-in").href = signInPath("/");
  refresh();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    createGame(form).catch((error) => {
      $("setup-error").textContent = error.message;
    });
  });
}

/// The account signed in, as the form knows it (`known` once the server said).
const setupAccount = { name: null, known: false };

function human(name) {
  const trimmed = name.trim();
  return trimmed ? `human:${trimmed}` : "human";
}

/// Starts the game the form describes and goes to its page. The person's seat is the
/// account's when signed in (named for it), a guest's otherwise; with a friend online,
/// the friend's seat is held open for the invite, whose link the game's page shows.
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
  // Signed in, the seat is the account's: named for it (the form's field says so once
  // the server has answered; a form sent before that waits for the answer).
  const account = await signedIn;
  const me = account.name ? `human:${account.name}` : human(f.me.value);
  if (mode === "computer") {
    request[mine] = me;
    request[theirs] = f.level.value;
  } else if (mode === "watch") {
    request.x = f.xlevel.value;
    request.o = f.olevel.value;
  } else {
    const seat = mode === "together" ? "x" : mine;
    request[seat] = me;
    request[seat === "x" ? "o" : "x"] = human(f.friend.value);
    request.seating = mode === "together" ? "together" : "apart";
    if (mode === "online") request.invite = theirs;
    const clock = clockOf(f.clock.value);
    if (clock) request.clock = clock;
  }
  const game = await api("POST", "/api/games", request);
  if (game.invite) remember(game.id, { invite: game.invite.url });
  location.assign(`/games/${game.id}`);
}

/// A clock chosen in a form ("180+2": seconds and increment; "30s": a move at a time)
/// as the API writes it; none for "".
function clockOf(choice) {
  const perMove = choice.match(/^(\d+)s$/);
  if (perMove) return { per_move: Number(perMove[1]) };
  const increment = choice.match(/^(\d+)\+(\d+)$/);
  if (increment) return { initial: Number(increment[1]), increment: Number(increment[2]) };
  return null;
}

// ---- The API ------------------------------------------------------------------------

/// The answer's JSON, or an Error with `status` (0: no answer at all) and `lost`
/// (the server, or its store, cannot be used now: worth trying again later). The
/// cookies go with it (same origin): the session's, and this game's seat's.
async function api(method, path, body) {
  const headers = {};
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
  yours: [], // the seats ("X", "O") this page's person holds, as the server said last
  account: null, // the account signed in, if any
  invite: null, // the invite link this page's person handed out (the host's)
  joining: null, // an invite's code from the address, until it is exchanged for a seat
  askName: false, // a guest who took an invite, asked their name before their first move
  casual: null, // what made a rated game casual, where this page saw it happen
  game: null, // null until the server has answered with the game
  hint: [],
  busy: false,
  events: null, // the live stream, while open
  lost: false, // the server cannot be reached: trying again
  retry: null, // the timer of the next try
  quickEnds: 0, // event streams in a row that ended soon after they opened
  armed: null, // the button pressed once whose next press acts ("resign", "hint", "undo")
  armedTimer: null,
  ratingChanges: null, // the game whose rating changes were asked for (once a game)
};

const RETRY_FIRST_MS = 500;
const ARMED_MS = 5000;
const RETRY_MOST_MS = 8000;

/// Whether this page's person holds the seat at `mark`.
function holds(mark) {
  return view.yours.includes(mark);
}

/// The seats this page's person holds, X first.
function heldMarks() {
  return ["X", "O"].filter(holds);
}

/// "Ada (X)", "Computer (Impossible, O)": who plays `mark` (replay.js's `seat`).
function nameOf(mark) {
  return seat(view.game.players[MARKS[mark]].name, mark);
}

// What the page remembers of a game in the browser (local storage, keyed by game, the
// newest few games only): the invite link its host handed out, whether a guest who
// took an invite is still to choose their name, what made the game casual. No seat's
// secret: those are cookies, which no script reads.
const NOTES_KEY = "tictactoe.games";
const NOTES_KEPT = 30;

function notes() {
  try {
    return JSON.parse(localStorage.getItem(NOTES_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/// The notes on game `id`.
function recalled(id) {
  return notes()[id] || {};
}

/// `change` added to the notes on game `id` (a key set to null is dropped).
function remember(id, change) {
  const all = notes();
  const note = { ...(all[id] || {}), ...change, at: Date.now() };
  for (const key of Object.keys(note)) if (note[key] === null) delete note[key];
  all[id] = note;
  const newest = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0));
  try {
    localStorage.setItem(NOTES_KEY, JSON.stringify(Object.fromEntries(newest.slice(0, NOTES_KEPT))));
  } catch {
    // No local storage: the page forgets these on a reload.
  }
}

function showGame(id) {
  view.id = id;
  // An invite's code is taken out of the address bar before anything else: the
  // address shown (and kept in the history) is the plain one, a spectator's link.
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (/^[0-9a-fA-F]{32}$/.test(fragment.get("invite") || "")) view.joining = fragment.get("invite");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  const note = recalled(id);
  view.invite = note.invite || null;
  view.askName = Boolean(note.askName);
  view.casual = note.casual || null;
  $("play").hidden = false;
  $("watch-link").value = `${location.origin}/games/${id}`;
  if (view.invite) $("invite-link").value = new URL(view.invite, location.origin).href;
  for (const field of [$("invite-link"), $("watch-link")]) {
    field.addEventListener("focus", () => field.select());
  }
  $("copy-invite").addEventListener("click", () => copyLink($("invite-link"), "Invite link"));
  $("copy-watch").addEventListener("click", () =>
    copyLink($("watch-link"), view.game && view.game.to_move === null ? "Game link" : "Spectator link"));
  $("hint").addEventListener("click", () => act(askHint));
  $("undo").addEventListener("click", () => act(undo));
  $("agree").addEventListener("click", () => act(() => undo()));
  $("resign").addEventListener("click", () => act(resign));
  $("naming").addEventListener("submit", (event) => {
    event.preventDefault();
    act(chooseName);
  });
  $("rematch").addEventListener("click", () => act(rematch));
  // Joining a rematch the other player asked for: asked for here too, which gives this
  // page's person their seat in it (a spectator just follows the link).
  $("replay-rematch-link").addEventListener("click", (event) => {
    if (!view.game || !view.game.rematch || heldMarks().length === 0) return;
    event.preventDefault();
    act(rematch);
  });
  $("board").addEventListener("keydown", moveFocus);

  signedIn.then((account) => {
    view.account = account.name;
    reconnect(RETRY_FIRST_MS, false);
  });
}

/// The invite's code exchanged for a seat: the account's when signed in, otherwise a
/// guest's (a cookie), who is then asked their name before their first move. Refused,
/// the page says why and shows the game to watch.
async function takeInvite() {
  try {
    const joined = await api("POST", `/api/games/${view.id}/join`, { invite: view.joining });
    view.joining = null;
    // A guest's seat comes with its token (for programs; the page has the cookie).
    if (Object.keys(joined.seats || {}).length > 0) {
      view.askName = true;
      remember(view.id, { askName: true });
    }
  } catch (error) {
    if (error.lost) throw error;
    view.joining = null;
    if (error.status === 404) return;
    // Said for as long as the page is open: the game goes on, this person watches it.
    $("notice").hidden = false;
    $("notice").textContent = error.status === 403
      ? "This invite was taken already, or is not this game's: you are watching the game."
      : `The invite could not be taken (${error.message}): you are watching the game.`;
  }
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
    if (view.joining) await takeInvite();
    // With this page's seat (its cookie, or the session), so that the server knows its
    // player is here (`joined`); the answer says which seats are this person's.
    const game = await api("GET", `/api/games/${view.id}`);
    view.yours = game.yours || [];
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
  // The server sends the start of an id that one game begins with on to that game
  // (303): the start of an id still here is none's, or several games'.
  $("status").textContent = /^[0-9a-f]{1,31}$/i.test(view.id || "")
    ? `No single game here has an id that starts with “${view.id}”: the link may be ` +
      "mistyped, or several games start so and more of the id tells them apart."
    : "This game is not on this server: the link may be mistyped, or the server no longer has it.";
  $("players").textContent = "No such game";
  $("rule").textContent = "";
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
  if (!$("naming").hidden && holds(game.to_move)) {
    if (!(await chooseName())) return;
    return play(cell);
  }
  if (!holds(game.to_move)) {
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
    render(await api("POST", `/api/games/${view.id}/moves`, { cell }));
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

/// Whether this page asks its person's name: a guest who took an invite to a game of
/// two people apart (a page holding one seat), who has not chosen it yet and has not
/// moved (a name is chosen until the seat's first move). A signed-in player plays
/// under their account's name, and a rematch keeps the names: nobody else is asked.
function asksName(game) {
  const mine = heldMarks();
  if (!view.askName || mine.length !== 1 || game.to_move === null) return false;
  const players = game.players;
  const me = players[MARKS[mine[0]]];
  return me.kind === "human" && !me.moved && players[MARKS[other(mine[0])]].kind === "human";
}

/// Remembers that this page's person has chosen their name.
function nameChosen() {
  view.askName = false;
  remember(view.id, { askName: null });
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
      render(await api("POST", `/api/games/${view.id}/name`, { name: typed }));
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
  if (!game || !game.to_move || !holds(game.to_move)) {
    throw new Error("A hint is for the player whose turn it is.");
  }
  // In a rated game a hint makes it casual: said, and taken on the second press. So it
  // does in a game that would be rated once the friend invited comes signed in.
  const rates = game.rated || awaitsRatedFriend(game);
  const warning = game.rated ? CASUAL_BY_HINT : CASUAL_BY_HINT_WAITING;
  if (rates && !armed("hint", "Hint: the game turns casual", warning)) return;
  if (rates) madeCasual("a hint was taken");
  const hint = await api("POST", `/api/games/${view.id}/hint`);
  // Every free cell proven to keep the draw: said in words, nothing lit (on 7 x 7 the
  // whole board would be), as the terminal says it.
  const free = game.board.split("").filter((cell) => cell === ".").length;
  const everywhere = hint.value === "draw" && hint.exact && free > 1 && hint.best_moves.length === free;
  // Where every cell is as good, the move Impossible itself would play is lit (on 7 x 7
  // with five in a row: the centre), if it has one.
  view.hint = everywhere && hint.preferred.length > 0 ? hint.preferred : hint.best_moves;
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
  const preferred = hint.preferred.length > 0
    ? `; Impossible would play ${hint.preferred.join(" or ")} (lit)`
    : "";
  const cells = everywhere
    ? `every free cell keeps the draw, so any move will do${preferred}`
    : count > HINT_CELLS_NAMED
      ? `any of the ${count} lit cells`
      : `${count > 1 ? "cells" : "cell"} ${hint.best_moves.join(", ")}`;
  // The game is casual now: the server's events say so with its next change (a hint
  // changes nothing else), so the page says it at once.
  render(rates ? { ...game, rated: false } : game);
  const said = everywhere ? `Hint: ${cells}.` : `Hint: ${cells} (${verdict}).`;
  $("message").textContent = `${said}${rates ? ` ${MADE_CASUAL}` : ""}`;
}

/// The most cells a hint names one by one (as the terminal's `HINT_CELLS_NAMED`).
const HINT_CELLS_NAMED = 6;

/// On one device either seat may undo; otherwise the seat this page holds asks.
/// Against the computer, taking back a move makes a rated game casual: said, and
/// done on the second press.
async function undo() {
  const game = view.game;
  const againstComputer = ["x", "o"].some((key) => game.players[key].kind === "computer");
  if (game.rated && againstComputer && !armed("undo", "Undo: the game turns casual", CASUAL_BY_UNDO)) {
    return;
  }
  if (game.rated && againstComputer) madeCasual("a move was taken back");
  view.hint = [];
  const answer = await api("POST", `/api/games/${view.id}/undo`);
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
  // On one device either seat may resign: the server takes the one whose turn it is.
  render(await api("POST", `/api/games/${view.id}/resign`));
}

/// What a hint and an undo against the computer do to a rated game (the core's words),
/// and what they did.
const CASUAL_BY_HINT =
  "A hint makes this rated game casual: it will rate nobody. Press Hint again to go ahead.";
const CASUAL_BY_HINT_WAITING =
  "A hint makes this game casual: it will rate nobody, even if your friend comes signed in. Press Hint again to go ahead.";
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

/// Asks for the rematch (the same one, whoever asked first), which gives this page's
/// person their seat in it on the other mark (a guest's with a new cookie), and goes
/// there. The other player's page offers it, and lets them finish reading first.
async function rematch() {
  view.following = true;
  try {
    const next = await api("POST", `/api/games/${view.id}/rematch`);
    location.assign(`/games/${next.id}`);
  } catch (error) {
    view.following = false;
    throw error;
  }
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
  // A rated game turned casual while this page watched: by a hint (between two
  // people, only a hint does it), or help against the computer.
  if (before && before.id === game.id && before.rated && !game.rated && !view.casual) {
    const people = ["x", "o"].every((key) => game.players[key].kind === "human");
    madeCasual(people ? "a hint was taken" : "a hint or a take-back was used");
  }
  // The friend invited came, and the game is not rated: they came as a guest (the
  // host's own seat being the account's, and no hint taken).
  const friend = view.invite && heldMarks().length === 1 ? other(heldMarks()[0]) : null;
  const came = friend !== null && (game.joined || []).includes(friend);
  if (came && !game.rated && !view.casual && ownSeats(game)) madeCasual("your friend plays as a guest");
  view.game = game;
  // Everyone but the page that asked for the rematch is offered it beside the finished
  // game's replay (showRematch), and goes when they choose.
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
  // The board's rule, on every board: how many in a row win.
  $("rule").textContent = `${boardWords(game.size, game.win)} wins`;
  // The name field is filled in once, with the host's guess, and then left to the person.
  const naming = $("naming");
  const asking = asksName(game);
  if (asking && naming.hidden) $("naming-name").value = game.players[MARKS[heldMarks()[0]]].name;
  naming.hidden = !asking;
  $("status").textContent = statusText(game);
  showClocks(game);
  showRated(game);
  const mine = heldMarks();
  const over = game.to_move === null;
  const myTurn = !over && holds(game.to_move);
  $("hint").hidden = mine.length === 0 || over;
  $("hint").disabled = !myTurn;
  $("undo").hidden = mine.length === 0 || over;
  $("undo").disabled = game.moves.length === 0 || (game.undo_asked_by && mine.length === 1 && game.undo_asked_by === mine[0]);
  $("agree").hidden = !(game.undo_asked_by && mine.length === 1 && game.undo_asked_by !== mine[0]);
  $("resign").hidden = mine.length === 0 || over;
  const show = game.players.x.kind === "computer" && game.players.o.kind === "computer";
  // Once someone asked for the rematch, the offer beside the replay is the way to it.
  $("rematch").hidden = !over || (mine.length === 0 && !show) || Boolean(game.rematch);
  // The friend invited has opened their link: say so, and the invite is done.
  const invited = view.invite && mine.length === 1 ? other(mine[0]) : null;
  const arrived = invited !== null && (game.joined || []).includes(invited);
  $("joined").hidden = !arrived;
  $("joined").textContent = arrived ? `${nameOf(invited)} has joined.` : "";
  $("invite").hidden = invited === null || over || arrived;
  $("copy-invite").hidden = $("invite").hidden;
  // A game being played is watched by its link; an ended one is read there.
  $("copy-watch").textContent = over ? "Copy game link" : "Copy spectator link";
  $("watch-link").setAttribute("aria-label", over ? "Game link" : "Spectator link");
  if ($("invite").hidden) $("invite-link").hidden = true;
}

/// A game on a clock: each side's time as the server sent it, the running side's
/// counted down here between the server's views (the server alone ends the game).
const clocks = { shown: null, at: 0, timer: null };

function showClocks(game) {
  const clock = game.clock;
  $("clocks").hidden = !clock;
  clocks.shown = clock ? { ...clock, names: { X: nameOf("X"), O: nameOf("O") } } : null;
  clocks.at = performance.now();
  if (clock && clock.running && clocks.timer === null) {
    clocks.timer = setInterval(tickClocks, 100);
  }
  tickClocks();
}

function tickClocks() {
  const clock = clocks.shown;
  if (!clock || !clock.running) {
    clearInterval(clocks.timer);
    clocks.timer = null;
  }
  if (!clock) return;
  const spent = clock.running ? performance.now() - clocks.at : 0;
  for (const mark of ["X", "O"]) {
    const left = clock[`${MARKS[mark]}_ms`] - (clock.running === mark ? spent : 0);
    const element = $(`clock-${MARKS[mark]}`);
    element.textContent = `${clock.names[mark]} ${clockWords(left)}`;
    element.classList.toggle("running", clock.running === mark);
    element.classList.toggle("low", clock.running === mark && left < 10000);
  }
  if (!clock.running && clock.first_move_ms !== null && view.game && view.game.to_move) {
    const left = clock.first_move_ms - (performance.now() - clocks.at);
    $(`clock-${MARKS[view.game.to_move]}`).textContent +=
      ` · first move within ${Math.max(0, Math.ceil(left / 1000))} s`;
    if (clocks.timer === null) clocks.timer = setInterval(tickClocks, 250);
  }
}

/// Milliseconds as a clock shows them: "2:05", or "8.4" under ten seconds.
function clockWords(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return (Math.floor(left / 100) / 10).toFixed(1);
  const seconds = Math.floor(left / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/// Remembers what made the game casual (`why`), for the line that says so.
function madeCasual(why) {
  view.casual = why;
  remember(view.id, { casual: why });
}

/// Whether this page's person holds seats, all of them their account's (named for it).
function ownSeats(game) {
  const account = (view.account || "").toLowerCase();
  const mine = heldMarks();
  return account !== "" && mine.length > 0 &&
    mine.every((mark) => game.players[MARKS[mark]].name.toLowerCase() === account);
}

/// Whether the game waits for the friend invited, and would be rated if they come
/// signed in: the host's seat is their account's, and nothing made the game casual.
function awaitsRatedFriend(game) {
  const mine = heldMarks();
  return Boolean(view.invite) && mine.length === 1 && game.to_move !== null && !view.casual &&
    !(game.joined || []).includes(other(mine[0])) && ownSeats(game);
}

/// Whether `name` is the one a front end gives a person who gave none ("Player 1").
function nameless(name) {
  return /^player [12xo]$/i.test(name);
}

/// Whether the game rates its players, and if not, why, as far as this page can tell:
/// "Rated", or "Casual: a guest plays". Computers alone: nothing to say.
function ratedWords(game) {
  const people = ["X", "O"].filter((mark) => game.players[MARKS[mark]].kind === "human");
  if (people.length === 0) return null;
  const over = game.to_move === null;
  if (game.status === "x_left" || game.status === "o_left") {
    return { rated: false, text: "Not rated: a player left before the end." };
  }
  if (game.status === "x_aborted" || game.status === "o_aborted") {
    return { rated: false, text: "Not rated: aborted, a first move was not made in time." };
  }
  if (game.rated) {
    // A game given up before each side had moved counts for nobody.
    const early = (game.status === "x_resigned" || game.status === "o_resigned") &&
      !(game.players.x.moved && game.players.o.moved);
    if (early) return { rated: false, text: "Not rated: it ended before each side had moved." };
    return { rated: true, text: over ? "Rated." : "Rated: the result changes the players' ratings." };
  }
  if (view.casual) return { rated: false, text: `Casual: ${view.casual}.` };
  const account = (view.account || "").toLowerCase();
  const mine = heldMarks();
  const guest = mine.some((mark) => game.players[MARKS[mark]].name.toLowerCase() !== account);
  if (guest) {
    return {
      rated: false,
      text: mine.length === 1 ? "Casual: you play as a guest." : "Casual: a guest plays.",
      signIn: !view.account,
    };
  }
  if (people.some((mark) => nameless(game.players[MARKS[mark]].name))) {
    return { rated: false, text: "Casual: a guest plays." };
  }
  if (awaitsRatedFriend(game)) {
    return { rated: false, text: "Rated if your friend signs in before opening the invite." };
  }
  if (mine.length > 0) {
    return {
      rated: false,
      text: people.length === 1 ? "Casual: a hint or a take-back was used." : "Casual: a guest plays, or a hint was taken.",
    };
  }
  return { rated: false, text: "Casual: a guest plays, or help was taken." };
}

function showRated(game) {
  const words = ratedWords(game);
  const line = $("rated");
  line.hidden = words === null;
  if (words === null) return;
  line.classList.toggle("is-rated", words.rated);
  $("rated-words").textContent = words.text;
  $("rated-link").hidden = !words.signIn;
  if (words.signIn) $("rated-link").href = signInPath();
  if (words.rated && game.to_move === null) {
    showRatingChanges(game);
  } else {
    $("rating-change").hidden = true;
  }
}

/// What the ended game did to its people's ratings, as the terminal's result screen
/// says it ("Ada 1,500 → 1,086? (−414)"): asked once per game, again at the next
/// change if it could not be read.
function showRatingChanges(game) {
  if (view.ratingChanges === game.id) return;
  view.ratingChanges = game.id;
  api("GET", `/api/games/${game.id}/rating`).then((answer) => {
    if (view.game === null || view.game.id !== game.id || answer.changes.length === 0) return;
    // A win that moved nothing is the ceiling's doing: said, so it reads as a rule, not
    // a mistake (docs/ratings.md, "Nobody is rated above perfect play").
    const won = {
      x_won: "X", o_won: "O", o_resigned: "X", x_resigned: "O", o_timeout: "X", x_timeout: "O",
    }[game.status];
    const againstLevel = ["x", "o"].some((key) => game.players[key].kind === "computer");
    const capped = answer.changes.some((change) => change.change === 0 && change.mark === won);
    const why = capped && againstLevel
      ? " (a win over a level lifts nobody past the next stronger level's rating)"
      : capped ? " (nobody is rated above perfect play)" : "";
    $("rating-change").textContent = answer.changes.map(ratingChangeWords).join(" · ") + why;
    $("rating-change").hidden = false;
  }).catch(() => {
    view.ratingChanges = null;
  });
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
  const flagged = { x_timeout: "X", o_timeout: "O" }[game.status];
  if (flagged) return `${nameOf(flagged)} ran out of time: ${nameOf(other(flagged))} wins.`;
  const drawnOnTime = { x_timeout_draw: "X", o_timeout_draw: "O" }[game.status];
  if (drawnOnTime) {
    return `${nameOf(drawnOnTime)} ran out of time, but ${nameOf(other(drawnOnTime))} could no longer win: a draw.`;
  }
  if (game.status === "x_aborted" || game.status === "o_aborted") {
    return "Aborted: a first move was not made in time. The game is not counted.";
  }
  if (game.status === "x_won") return `${nameOf("X")} wins!`;
  if (game.status === "o_won") return `${nameOf("O")} wins!`;
  if (game.status === "draw") return "A draw.";
  const mover = game.to_move;
  const player = game.players[MARKS[mover]];
  let text;
  if (holds(mover)) {
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
if (match && /^[0-9a-f]{32}$/i.test(match[1])) {
  showGame(match[1]);
} else if (match) {
  // A game's address with no whole game id in it (the server sent on any start of an
  // id that one game begins with): mistyped, said so, not the new-game form.
  view.id = match[1];
  $("play").hidden = false;
  gone();
} else {
  showSetup();
}
