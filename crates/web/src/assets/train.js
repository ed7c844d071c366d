// The training page ("/train"): the signed-in account's open puzzles, put to them one
// at a time on a clickable board (a player's puzzles are their own: the server shows
// them to that account only). A visitor who is not signed in is asked to sign in, and
// comes back here. Every word about a puzzle or an answer is the server's (the
// console's words); this page only places them. Names are set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

const training = { name: null, puzzles: [], index: 0, done: false, missed: null };

/// `text` in the status line; an error is painted as one.
function say(text, isError = false) {
  const status = $("train-status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

/// The server's JSON, or an Error in its words (with the answer's `status`).
async function ask(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Error("the server cannot be reached");
  }
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(json.error || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return json;
}

/// Not signed in (or no longer): the way to sign in, and back here.
function askToSignIn() {
  $("puzzle").hidden = true;
  $("train-notes").replaceChildren();
  say("");
  $("train-sign-in").hidden = false;
}

function puzzlesPath(name) {
  return `/api/players/${encodeURIComponent(name)}/puzzles`;
}

async function start(name) {
  training.name = name;
  $("puzzle").hidden = true;
  $("train-notes").replaceChildren();
  say("Loading…");
  try {
    const found = await ask("GET", puzzlesPath(name));
    training.puzzles = found.puzzles;
    training.index = 0;
    // With no puzzle, the first note says so: it is the status; the rest are listed.
    const none = found.puzzles.length === 0;
    const notes = (none ? found.notes.slice(1) : found.notes).map((note) => {
      const item = document.createElement("li");
      item.textContent = note;
      return item;
    });
    $("train-notes").replaceChildren(...notes);
    say(none ? found.notes[0] || "" : "");
    if (none) return;
    show();
  } catch (error) {
    if (error.status === 401) {
      askToSignIn();
      return;
    }
    say(`The puzzles could not be read: ${error.message}`, true);
  }
}

function show() {
  const puzzle = training.puzzles[training.index];
  training.done = false;
  training.missed = null;
  $("puzzle-title").textContent = puzzle.title;
  $("puzzle-prompt").textContent = puzzle.prompt;
  $("verdict").textContent = "";
  $("verdict").className = "verdict";
  for (const button of ["try-again", "see-answer", "next-puzzle"]) $(button).hidden = true;
  const board = $("board");
  board.style.setProperty("--size", String(puzzle.size));
  const cells = [...puzzle.board].map((mark, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.cell = String(index + 1);
    button.className = "cell";
    if (mark === ".") {
      button.setAttribute("aria-label", `cell ${index + 1}`);
      button.addEventListener("click", () => answer(index + 1));
    } else {
      button.textContent = mark;
      button.classList.add(mark.toLowerCase());
      button.disabled = true;
    }
    return button;
  });
  board.replaceChildren(...cells);
  $("puzzle").hidden = false;
}

async function answer(cell) {
  if (training.done) return;
  const puzzle = training.puzzles[training.index];
  const path = `${puzzlesPath(training.name)}/${puzzle.game}/${puzzle.ply}`;
  say("");
  try {
    const judged = await ask("POST", path, { cell });
    $("verdict").className = `verdict ${judged.judged}`;
    if (judged.judged === "unproven") {
      $("verdict").textContent = judged.said;
      return;
    }
    training.done = true;
    for (const button of $("board").children) {
      if (Number(button.dataset.cell) === cell) {
        button.textContent = puzzle.to_move;
        button.classList.add(puzzle.to_move.toLowerCase(), "last");
      }
      button.disabled = true;
    }
    if (judged.judged === "wrong") {
      // Another try on the same position first, as the console offers; the answer
      // (what the review said, the best moves lit) when the player asks for it.
      training.missed = judged;
      $("verdict").textContent = `${judged.said} ${judged.then}`;
      $("try-again").hidden = false;
      $("see-answer").hidden = false;
      $("try-again").focus();
    } else {
      $("verdict").textContent = judged.then ? `${judged.said} ${judged.then}` : judged.said;
      offerNext();
    }
    $("answered").scrollIntoView({ block: "nearest" });
  } catch (error) {
    if (error.status === 401) {
      askToSignIn();
      return;
    }
    say(error.message, true);
  }
}

/// The button to the next puzzle (or to start again after the last), focused.
function offerNext() {
  $("try-again").hidden = true;
  $("see-answer").hidden = true;
  const next = $("next-puzzle");
  next.hidden = false;
  next.textContent = training.index + 1 < training.puzzles.length ? "Next puzzle" : "Start again";
  next.focus();
}

/// After a wrong answer: what the review said of the move in the game, and the best
/// moves lit; the puzzle stays open.
function seeAnswer() {
  const missed = training.missed;
  if (missed === null) return;
  const lit = new Set(missed.best_moves);
  for (const button of $("board").children) {
    const number = Number(button.dataset.cell);
    button.classList.toggle("hint", lit.has(number));
    if (button.classList.contains("last") && !lit.has(number)) {
      button.textContent = "";
      button.classList.remove("x", "o", "last");
    }
  }
  $("verdict").textContent = `${missed.said} ${missed.answer}`;
  offerNext();
}

function next() {
  if (training.index + 1 < training.puzzles.length) {
    training.index += 1;
    show();
  } else {
    start(training.name);
  }
}

// The script is deferred: the page is there.
{
  $("next-puzzle").addEventListener("click", next);
  $("try-again").addEventListener("click", show);
  $("see-answer").addEventListener("click", seeAnswer);
  say("Loading…");
  signedIn.then((account) => {
    if (account.name) {
      start(account.name);
    } else if (account.unknown) {
      say("The server cannot say now whether you are signed in: reload the page in a moment.", true);
    } else {
      askToSignIn();
    }
  });
}
