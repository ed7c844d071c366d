// The training page ("/train", or "/train?name=NAME"): asks for a name, then puts that
// player's open puzzles to them one at a time on a clickable board. Every word about a
// puzzle or an answer is the server's (the console's words); this page only places
// them. Names are set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

const training = { name: null, puzzles: [], index: 0, done: false };

/// `text` in the status line; an error is painted as one.
function say(text, isError = false) {
  const status = $("train-status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

/// The server's JSON, or an Error in its words.
async function ask(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(json.error || `the server answered ${response.status}`);
  return json;
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
    say(`The puzzles could not be read: ${error.message}`, true);
  }
}

function show() {
  const puzzle = training.puzzles[training.index];
  training.done = false;
  $("puzzle-title").textContent = puzzle.title;
  $("puzzle-prompt").textContent = puzzle.prompt;
  $("verdict").textContent = "";
  $("next-puzzle").hidden = true;
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
    $("verdict").textContent = judged.said;
    if (judged.judged === "unproven") return;
    training.done = true;
    const lit = new Set(judged.judged === "wrong" ? judged.best_moves : []);
    for (const button of $("board").children) {
      const number = Number(button.dataset.cell);
      if (number === cell) {
        button.textContent = puzzle.to_move;
        button.classList.add(puzzle.to_move.toLowerCase(), "last");
      }
      button.classList.toggle("hint", lit.has(number));
      button.disabled = true;
    }
    const next = $("next-puzzle");
    next.hidden = false;
    next.textContent = training.index + 1 < training.puzzles.length ? "Next puzzle" : "Start again";
  } catch (error) {
    say(error.message, true);
  }
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
  $("trainee").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("trainee-name").value.trim();
    if (name) start(name);
  });
  $("next-puzzle").addEventListener("click", next);
  const asked = new URLSearchParams(location.search).get("name");
  if (asked) {
    $("trainee-name").value = asked;
    start(asked);
  }
}
