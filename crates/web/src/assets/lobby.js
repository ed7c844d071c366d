// The lobby ("/lobby"): the open games on a clock (seeks), live, each with Accept; a
// form to open one, or to wait in the quick-pairing pool; and, while this person's own
// seek waits, "Waiting for an opponent…" until someone takes it, then its game.
// The list follows GET /api/lobby/events, and falls back to asking GET /api/lobby
// every 2 s when the stream cannot be had. The page holds no secret: a guest's seek is
// a cookie of its own (sent only with that seek's requests), which the server turns
// into the guest's seat's cookie once the seek is a game; no script reads either.
// Names are set as text, never as HTML; every refusal is shown in the server's words.
"use strict";

const $ = (id) => document.getElementById(id);

/// How often the lobby is asked for when its stream cannot be had, and after how many
/// such answers the stream is tried again.
const POLL_MS = 2000;
const POLLS_BEFORE_STREAM = 15;
/// Waits before asking about one's own seek again after its stream broke: the first,
/// and the longest (a seek lasts about 20 s without a sign of its owner).
const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 4000;
/// Where the page keeps its own seek's id for this tab, so that a reload follows it
/// again rather than leaving it to lapse.
const OWN_KEY = "tictactoe.seek";

const lobby = {
  account: null, // the name signed in as, once known
  seeks: [], // the open seeks, as the server listed them last
  stream: null, // the lobby's event stream, while open
  poll: null, // the timer of the next ask, while the stream cannot be had
  polls: 0, // answers asked for since the stream broke
  own: null, // this person's waiting seek: { id, kind, what }
  following: null, // that seek's event stream, while open
  retry: null, // the timer of the next ask about it
  retryMs: RETRY_FIRST_MS,
  going: false, // on the way to the game: nothing more to follow
  blocked: new Set(), // the accounts this person blocked from this page (lower case)
};

// ---- The API ------------------------------------------------------------------------

/// The answer's JSON (null for none), or an Error in the server's words with `status`
/// (0: no answer at all). The cookies go with it: the session's, and a seek's.
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw failure("the server cannot be reached", 0);
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    // A refusal's words are the server's; anything else in the way (a proxy's page)
    // is named by its status.
    throw failure((answer && answer.error) || `the server answered ${response.status}`, response.status);
  }
  return answer;
}

function failure(message, status) {
  const error = new Error(message);
  error.status = status;
  return error;
}

// ---- Words --------------------------------------------------------------------------

/// "3 × 3", or "5 × 5, 4 in a row" where the run is not the board's size.
function boardText(size, win) {
  return win === size ? `${size} × ${size}` : `${size} × ${size}, ${win} in a row`;
}

/// A number of seconds as a clock's choice says it: "30 s", "2 min", "1 h".
function secondsText(seconds) {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/// "3+2" (minutes each, seconds added a move), "30 s a move".
function clockText(clock) {
  if (clock.per_move !== undefined) return `${secondsText(clock.per_move)} a move`;
  const initial = clock.initial % 60 === 0 ? String(clock.initial / 60) : `${clock.initial} s`;
  return `${initial}+${clock.increment}`;
}

/// "3 × 3, 3+2, rated": the game a seek asks for, in one line.
function seekText(seek) {
  return `${boardText(seek.size, seek.win)}, ${clockText(seek.clock)}, ${seek.rated ? "rated" : "casual"}`;
}

// ---- The list -----------------------------------------------------------------------

/// Whether `seek` is this page's person's: the one it follows, or (signed in) one their
/// account opened elsewhere. Accepting one's own seek is refused, so it is not offered.
function isMine(seek) {
  if (lobby.own && lobby.own.id === seek.id) return true;
  return seek.account && lobby.account !== null &&
    seek.owner.toLowerCase() === lobby.account.toLowerCase();
}

/// One seek's row: who, their rating, the board, the clock, rated or not, and what this
/// person may do with it.
function seekRow(seek) {
  const row = document.createElement("li");
  row.className = "seek";
  row.dataset.seek = seek.id;
  const owner = document.createElement(seek.account ? "a" : "span");
  owner.className = "seek-owner";
  owner.textContent = seek.owner;
  if (seek.account) owner.href = `/players/${encodeURIComponent(seek.owner)}`;
  const rating = document.createElement("span");
  rating.className = "seek-rating";
  // A guest has no rating of their own: the number would be everybody's start.
  rating.textContent = seek.account ? ratingShown(seek.rating, false) : "guest";
  const parts = [owner, rating];
  for (const [name, words] of [
    ["seek-board", boardText(seek.size, seek.win)],
    ["seek-clock", clockText(seek.clock)],
    ["seek-rated", seek.rated ? "Rated" : "Casual"],
  ]) {
    const part = document.createElement("span");
    part.className = name;
    part.textContent = words;
    parts.push(part);
  }
  const action = document.createElement("span");
  action.className = "seek-action";
  if (isMine(seek)) {
    action.textContent = "Yours";
  } else if (seek.rated && !lobby.account) {
    // A rated game needs an account: signing in comes back here.
    const link = document.createElement("a");
    link.className = "button";
    link.href = signInPath("/lobby");
    link.textContent = "Sign in to accept";
    link.setAttribute("aria-label", `Sign in to accept ${seek.owner}'s game: ${seekText(seek)}`);
    action.append(link);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary accept";
    button.textContent = "Accept";
    button.setAttribute("aria-label", `Accept ${seek.owner}'s game: ${seekText(seek)}`);
    button.addEventListener("click", () => accept(seek, button));
    action.append(button);
  }
  if (!isMine(seek) && seek.account && lobby.account) {
    // Signed in, one may block an account: never paired with them again, and neither
    // accepts the other's seek.
    const blocking = document.createElement("button");
    blocking.type = "button";
    blocking.className = "block";
    blocking.textContent = "Block";
    blocking.setAttribute("aria-label", `Block ${seek.owner}: never meet them here again`);
    blocking.addEventListener("click", () => block(seek, blocking));
    action.append(" ", blocking);
  }
  row.classList.toggle("mine", isMine(seek));
  row.append(...parts, action);
  return row;
}

/// The list as `seeks` has it. Rows already shown stay in place (a focused Accept
/// keeps its focus); each is redrawn only when what it offers changed.
function showSeeks(all) {
  lobby.seeks = all;
  // The people one blocked are not shown: nobody meets them here.
  const seeks = all.filter((seek) => !lobby.blocked.has(seek.owner.toLowerCase()));
  const list = $("seeks");
  const shown = new Map([...list.children].map((row) => [row.dataset.seek, row]));
  seeks.forEach((seek, index) => {
    const key = `${isMine(seek)} ${lobby.account}`;
    let row = shown.get(seek.id);
    if (!row || row.dataset.key !== key) {
      const fresh = seekRow(seek);
      fresh.dataset.key = key;
      if (row) row.replaceWith(fresh);
      row = fresh;
    }
    if (list.children[index] !== row) list.insertBefore(row, list.children[index] || null);
  });
  while (list.children.length > seeks.length) list.lastElementChild.remove();
  const count = seeks.length;
  $("lobby-status").textContent = count === 0
    ? "No open games right now: open one, and it shows here for anyone to accept."
    : `${count} open game${count === 1 ? "" : "s"}, oldest first.`;
}

/// The lobby live: the whole list at once, then again at each change. A stream that
/// cannot be had (or breaks) is replaced by asking every POLL_MS.
function listenToLobby() {
  clearTimeout(lobby.poll);
  const events = new EventSource("/api/lobby/events");
  lobby.stream = events;
  events.addEventListener("lobby", (event) => showSeeks(JSON.parse(event.data).seeks));
  events.addEventListener("error", () => {
    if (lobby.stream !== events) return;
    events.close();
    lobby.stream = null;
    lobby.polls = 0;
    pollLobby();
  });
}

async function pollLobby() {
  try {
    showSeeks((await api("GET", "/api/lobby")).seeks);
    lobby.polls += 1;
    if (lobby.polls >= POLLS_BEFORE_STREAM) {
      listenToLobby();
      return;
    }
  } catch (error) {
    $("lobby-status").textContent =
      `The lobby could not be read (${error.message}). Trying again in ${POLL_MS / 1000} s…`;
  }
  lobby.poll = setTimeout(pollLobby, POLL_MS);
}

/// Accepts `seek`: the game begins at once, and its page is this person's seat's. One's
/// own waiting seek, if any, is closed once the game is had.
async function accept(seek, button) {
  $("lobby-error").textContent = "";
  button.disabled = true;
  try {
    const game = await api("POST", `/api/seeks/${seek.id}/accept`);
    lobby.going = true;
    if (lobby.own) {
      const own = lobby.own.id;
      stopFollowing();
      await api("DELETE", `/api/seeks/${own}`).catch(() => {});
    }
    location.assign(`/games/${game.id}`);
  } catch (error) {
    button.disabled = false;
    // Taken by someone else, or gone: the list (live, or asked for every POLL_MS) shows
    // it gone in a moment; the words stay until the next try.
    $("lobby-error").textContent = `${seek.owner}'s game could not be accepted: ${error.message}.`;
  }
}

/// Blocks `seek`'s owner (the account signed in never meets them here again), and hides
/// their row.
async function block(seek, button) {
  $("lobby-error").textContent = "";
  button.disabled = true;
  try {
    await api("POST", "/api/blocks", { name: seek.owner });
    lobby.blocked.add(seek.owner.toLowerCase());
    showSeeks(lobby.seeks);
    $("lobby-status").textContent = `${seek.owner} is blocked: you will not meet here again.`;
  } catch (error) {
    button.disabled = false;
    $("lobby-error").textContent = `${seek.owner} could not be blocked: ${error.message}.`;
  }
}

// ---- One's own seek -----------------------------------------------------------------

/// The game the form asks for, as the API writes it.
function asked(form) {
  const f = form.elements;
  const size = Number(f.size.value);
  return {
    size,
    win: Math.min(size, Number(f.win.value) || size),
    rated: !f.rated.disabled && f.rated.checked,
    clock: clockOf(f.clock.value),
  };
}

/// A clock chosen in the form ("180+2": seconds and increment; "30s": a move at a time)
/// as the API writes it (as the game page's form does).
function clockOf(choice) {
  const perMove = choice.match(/^(\d+)s$/);
  if (perMove) return { per_move: Number(perMove[1]) };
  const [, initial, increment] = choice.match(/^(\d+)\+(\d+)$/);
  return { initial: Number(initial), increment: Number(increment) };
}

/// Opens a seek in the lobby (`kind` "lobby") or waits in the quick-pairing pool
/// ("pool") for the game the form describes, and follows it.
async function openSeek(kind) {
  const form = $("seek-form");
  $("lobby-error").textContent = "";
  $("seek-said").textContent = "";
  const buttons = [$("open-seek"), $("quick-pairing")];
  for (const button of buttons) button.disabled = true;
  try {
    const seek = await api("POST", kind === "pool" ? "/api/pairing" : "/api/seeks", asked(form));
    follow(seek);
  } catch (error) {
    $("lobby-error").textContent = kind === "pool"
      ? `Quick pairing could not start: ${error.message}.`
      : `The game could not be opened: ${error.message}.`;
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

/// Follows `seek`, this person's, until it is a game (then goes there) or is closed.
/// Following it is what keeps it listed: a seek nobody follows lapses.
function follow(seek) {
  lobby.own = { id: seek.id, kind: seek.kind, what: seekText(seek) };
  try {
    sessionStorage.setItem(OWN_KEY, seek.id);
  } catch {
    // No session storage: a reload forgets the seek, which then lapses.
  }
  $("seek-form").hidden = true;
  $("waiting").hidden = false;
  $("waiting-text").textContent = "Waiting for an opponent…";
  $("waiting-what").textContent = seek.kind === "pool"
    ? `Quick pairing: ${lobby.own.what}. You will be paired with the waiting player of the closest rating.`
    : `Your game: ${lobby.own.what}. It is listed below for anyone to accept.`;
  showSeeks(lobby.seeks);
  listenToSeek();
}

function listenToSeek() {
  clearTimeout(lobby.retry);
  if (!lobby.own || lobby.going) return;
  const id = lobby.own.id;
  const events = new EventSource(`/api/seeks/${id}/events`);
  lobby.following = events;
  events.addEventListener("seek", (event) => {
    lobby.retryMs = RETRY_FIRST_MS;
    seekChanged(JSON.parse(event.data), false);
  });
  // The stream ends once the seek is a game or closed (whose event came first), when
  // the server stops, or when it cannot be had: the seek is asked about once.
  events.addEventListener("error", () => {
    if (lobby.following !== events) return;
    events.close();
    lobby.following = null;
    askAboutSeek();
  });
}

function stopFollowing() {
  clearTimeout(lobby.retry);
  if (lobby.following) lobby.following.close();
  lobby.following = null;
}

/// Asks about one's own seek (which keeps it open too): a game goes there, a closed
/// seek is said, an open one is followed again; a server out of reach is asked again,
/// waiting longer each time.
async function askAboutSeek() {
  if (!lobby.own || lobby.going) return;
  const id = lobby.own.id;
  try {
    const seek = await api("GET", `/api/seeks/${id}`);
    if (!lobby.own || lobby.own.id !== id) return;
    if (seekChanged(seek, true)) return;
    $("waiting-text").textContent = "Waiting for an opponent…";
    lobby.retry = setTimeout(listenToSeek, lobby.retryMs);
    lobby.retryMs = Math.min(lobby.retryMs * 2, RETRY_MOST_MS);
  } catch (error) {
    if (!lobby.own || lobby.own.id !== id) return;
    if (error.status === 404) {
      ended("Your game is no longer on this server: open another.");
      return;
    }
    const wait = lobby.retryMs;
    $("waiting-text").textContent =
      `Connection lost (${error.message}). Trying again in ${Math.max(1, Math.round(wait / 1000))} s…`;
    lobby.retry = setTimeout(askAboutSeek, wait);
    lobby.retryMs = Math.min(wait * 2, RETRY_MOST_MS);
  }
}

/// One's own seek as the server has it now; `asked`: answered to GET /api/seeks/{id}
/// (which has given a guest their seat's cookie already). Whether it is over here.
function seekChanged(seek, asked) {
  if (!lobby.own || seek.id !== lobby.own.id) return true;
  if (seek.status === "taken") {
    goToGame(seek, asked);
    return true;
  }
  if (seek.status === "closed") {
    ended("Your game was closed: it waited with nobody following it, or you opened another. Open one again.");
    return true;
  }
  return false;
}

/// The seek became a game: asked about once more unless just asked (the answer gives a
/// guest their seat's cookie in it), then its page.
async function goToGame(seek, asked) {
  if (lobby.going) return;
  lobby.going = true;
  stopFollowing();
  $("waiting-text").textContent = "An opponent came: going to the game…";
  $("cancel-seek").hidden = true;
  let wait = RETRY_FIRST_MS;
  while (!asked) {
    try {
      await api("GET", `/api/seeks/${seek.id}`);
      asked = true;
    } catch (error) {
      if (error.status === 404) break;
      // Without that answer a guest would only watch their own game: asked again.
      $("lobby-error").textContent = `Your seat in the game is not had yet (${error.message}): trying again…`;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, RETRY_MOST_MS);
    }
  }
  forgetOwn();
  location.assign(`/games/${seek.game}`);
}

/// One's own seek is over without a game: said, and the form is back.
function ended(said) {
  stopFollowing();
  forgetOwn();
  $("waiting").hidden = true;
  $("seek-form").hidden = false;
  $("seek-said").textContent = said;
  showSeeks(lobby.seeks);
}

function forgetOwn() {
  lobby.own = null;
  try {
    sessionStorage.removeItem(OWN_KEY);
  } catch {
    // Nothing kept.
  }
}

/// Cancel: the seek closed. Taken meanwhile, it is a game: followed there.
async function cancel() {
  if (!lobby.own) return;
  const id = lobby.own.id;
  const button = $("cancel-seek");
  button.disabled = true;
  $("lobby-error").textContent = "";
  try {
    await api("DELETE", `/api/seeks/${id}`);
    ended("Your game was taken off the lobby.");
  } catch (error) {
    if (error.status === 409 || error.status === 404) {
      askAboutSeek();
    } else {
      $("lobby-error").textContent = `Your game could not be cancelled: ${error.message}.`;
    }
  } finally {
    button.disabled = false;
  }
}

/// A seek this tab was following before a reload: followed again while it is open,
/// its game opened if it became one.
async function resume() {
  let id = null;
  try {
    id = sessionStorage.getItem(OWN_KEY);
  } catch {
    return;
  }
  if (!id) return;
  try {
    const seek = await api("GET", `/api/seeks/${id}`);
    if (!seek.yours || seek.status === "closed") {
      forgetOwn();
    } else if (seek.status === "taken") {
      lobby.own = { id: seek.id, kind: seek.kind, what: seekText(seek) };
      goToGame(seek, true);
    } else {
      follow(seek);
    }
  } catch {
    forgetOwn();
  }
}

// ---- The form -----------------------------------------------------------------------

function setUpForm(account) {
  const form = $("seek-form");
  const f = form.elements;
  const refresh = () => {
    const size = Number(f.size.value);
    // The run defaults to the board's size (as on the game page's form); a run picked
    // is kept while the board allows it.
    const chosen = f.win.dataset.picked ? Math.min(Number(f.win.value) || size, size) : size;
    f.win.replaceChildren();
    for (let k = 3; k <= size; k += 1) f.win.add(new Option(String(k), String(k), false, k === chosen));
    $("seek-win-choice").hidden = size === 3;
    // Rated needs an account, for the one who opens and the one who accepts alike.
    f.rated.disabled = !account.name;
    if (!account.name) f.rated.checked = false;
    const rated = f.rated.checked;
    $("seek-rated-text").textContent = account.name
      ? rated
        ? "Rated: the result changes both players' ratings; only someone signed in can accept."
        : "Casual: the result rates nobody."
      : account.unknown
        ? "Whether you are signed in is not known just now: the game is casual."
        : "You play as a guest: guest games are casual, they rate nobody.";
    $("seek-sign-in").hidden = Boolean(account.name);
    $("seek-rated-note").classList.toggle("is-rated", rated);
  };
  f.win.addEventListener("change", () => {
    f.win.dataset.picked = "yes";
  });
  form.addEventListener("change", refresh);
  refresh();
  $("seek-sign-in").href = signInPath("/lobby");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    openSeek("lobby");
  });
  $("quick-pairing").addEventListener("click", () => openSeek("pool"));
  $("cancel-seek").addEventListener("click", cancel);
}

// ---- Start --------------------------------------------------------------------------

signedIn.then(async (account) => {
  lobby.account = account.name;
  if (account.name) {
    // Whom one blocked before: their seeks are not shown (nor could be accepted).
    const known = await api("GET", "/api/blocks").catch(() => ({ blocked: [] }));
    lobby.blocked = new Set(known.blocked.map((name) => name.toLowerCase()));
  }
  setUpForm(account);
  listenToLobby();
  resume();
});
