// The replay of a finished game, on its page ("/games/ID"): the board after any number
// of its moves (First, Previous, Next, Last, or the keyboard: ← → Home End), the move
// played highlighted, and beside it the review of every move by perfect play, polled
// while the server computes it. app.js draws the board; this file says which position
// it shows (`replayPosition`) and words the review. Names are set as text only.
"use strict";

const replay = {
  active: false,
  game: null, // the finished game, as the server answered it
  ply: 0, // how many of its moves are on the board
  review: null, // the review's moves, once computed
  polling: null, // the timer of the next poll
  onStep: null, // app.js's redraw
};

const REVIEW_POLL_MS = 400;
const REVIEW_RETRY_MS = 3000;

/// What each value means for the player who moved.
const VALUE_WORDS = {
  win: "a win",
  draw: "a draw",
  loss: "a loss",
  at_least_draw: "at least a draw",
  at_most_draw: "at most a draw",
  unknown: "unknown",
};

/// Starts the replay of `game`, which is over, at its end; `redraw` draws the board.
/// Called again with the same game, it only takes the newer view.
function startReplay(game, redraw) {
  const first = !replay.active || replay.game.id !== game.id;
  replay.game = game;
  replay.onStep = redraw;
  if (!first) return;
  replay.active = true;
  replay.ply = game.moves.length;
  $("replay").hidden = false;
  $("review").hidden = false;
  document.querySelector("main").classList.add("replaying");
  $("replay-first").addEventListener("click", () => stepTo(0));
  $("replay-previous").addEventListener("click", () => stepTo(replay.ply - 1));
  $("replay-next").addEventListener("click", () => stepTo(replay.ply + 1));
  $("replay-last").addEventListener("click", () => stepTo(replay.game.moves.length));
  document.addEventListener("keydown", replayKeys);
  pollReview();
  showStep();
}

/// The position the board shows: the game after `replay.ply` moves (the winning line
/// only at the end).
function replayPosition(game) {
  if (!replay.active || replay.ply >= game.moves.length) return game;
  const cells = [...".".repeat(game.size * game.size)];
  let mark = game.first;
  for (const cell of game.moves.slice(0, replay.ply)) {
    cells[cell - 1] = mark;
    mark = mark === "X" ? "O" : "X";
  }
  return { ...game, board: cells.join(""), moves: game.moves.slice(0, replay.ply), line: null };
}

function stepTo(ply) {
  const last = replay.game.moves.length;
  const next = Math.max(0, Math.min(last, ply));
  if (next === replay.ply) return;
  replay.ply = next;
  showStep();
  if (replay.onStep) replay.onStep();
}

/// ← and → step, Home and End go to either end; not while typing in a field.
function replayKeys(event) {
  if (!replay.active || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && target.closest && target.closest("input, select, textarea")) return;
  const steps = {
    ArrowLeft: () => replay.ply - 1,
    ArrowRight: () => replay.ply + 1,
    Home: () => 0,
    End: () => replay.game.moves.length,
  };
  const step = steps[event.key];
  if (!step) return;
  event.preventDefault();
  stepTo(step());
}

/// A player and the mark they play in one pair of brackets: "Ada (X)"; a name that ends
/// in brackets of its own takes the mark inside them, "Computer (Impossible, O)" (as the
/// terminal's `words::seat`).
function seat(name, mark) {
  const inner = name.endsWith(")") ? name.slice(0, -1) : null;
  return inner !== null && inner.includes("(") ? `${inner}, ${mark})` : `${name} (${mark})`;
}

function playerName(game, mark) {
  return seat(game.players[mark === "X" ? "x" : "o"].name, mark);
}

/// The cells that would have kept what the move shown threw away: lit on the board.
function replayBetterCells() {
  if (!replay.active || !replay.review || replay.ply === 0) return [];
  const move = replay.review[replay.ply - 1];
  return move && move.exact && move.before !== move.after ? move.best_moves : [];
}

/// "3", "3 or 7", "1, 3, 7 or 9".
function cellsOr(cells) {
  if (cells.length < 2) return cells.join("");
  return `${cells.slice(0, -1).join(", ")} or ${cells[cells.length - 1]}`;
}

/// What a move did, as far as it was proven: "kept the draw", "threw away the win; 3
/// or 7 kept it", "not proven in time".
function judgement(move) {
  if (!move.exact) return "not proven in time";
  if (move.before === move.after) {
    return { win: "kept the win", draw: "kept the draw", loss: "the game was lost already" }[move.before];
  }
  const had = move.before === "win" ? "win" : move.before === "draw" ? "draw" : VALUE_WORDS[move.before];
  const keeping = move.best_moves.length ? `; ${cellsOr(move.best_moves)} kept it` : "";
  return `threw away the ${had}${keeping}`;
}

/// "3. Ada (X) played 1: kept the win".
function moveWords(game, move) {
  return `${move.ply}. ${playerName(game, move.mark)} played ${move.cell}: ${judgement(move)}`;
}

/// "a win → a win": the value for the mover before and after the move.
function valueWords(move) {
  return `${VALUE_WORDS[move.before] || move.before} → ${VALUE_WORDS[move.after] || move.after}`;
}

function showStep() {
  const game = replay.game;
  const last = game.moves.length;
  $("replay-position").textContent = replay.ply === 0
    ? `The start of the game (${last} moves in all).`
    : `Move ${replay.ply} of ${last}.`;
  $("replay-first").disabled = replay.ply === 0;
  $("replay-previous").disabled = replay.ply === 0;
  $("replay-next").disabled = replay.ply === last;
  $("replay-last").disabled = replay.ply === last;
  const reviewed = replay.review && replay.review[replay.ply - 1];
  let words = "";
  if (reviewed) {
    words = `${moveWords(game, reviewed)} (${valueWords(reviewed)}).`;
  } else if (replay.ply > 0) {
    const mark = replay.ply % 2 === 1 ? game.first : (game.first === "X" ? "O" : "X");
    words = `${replay.ply}. ${playerName(game, mark)} played ${game.moves[replay.ply - 1]}.`;
  }
  $("replay-move").textContent = words;
  for (const item of $("review-moves").children) {
    const current = Number(item.dataset.ply) === replay.ply;
    item.classList.toggle("current", current);
    if (current) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
}

/// Asks for the review until the server has it: 202 says how far it has come.
async function pollReview() {
  clearTimeout(replay.polling);
  const status = $("review-status");
  const progress = $("review-progress");
  try {
    const answer = await api("GET", `/api/games/${replay.game.id}/review`);
    if (answer.progress) {
      const { done, total } = answer.progress;
      status.textContent = `Reviewing the moves with perfect play… ${done} of ${total}.`;
      progress.hidden = false;
      progress.max = Math.max(1, total);
      progress.value = done;
      replay.polling = setTimeout(pollReview, REVIEW_POLL_MS);
      return;
    }
    progress.hidden = true;
    showReview(answer);
  } catch (error) {
    progress.hidden = true;
    status.textContent = `The review could not be had: ${error.message}`;
    if (error.lost) {
      status.textContent += " Trying again…";
      replay.polling = setTimeout(pollReview, REVIEW_RETRY_MS);
    }
  }
}

function showReview(review) {
  const game = replay.game;
  replay.review = review.moves;
  const thrown = review.moves.filter((move) => move.exact && move.before !== move.after).length;
  $("review-status").textContent = review.moves.length === 0
    ? "No move was played."
    : (thrown === 0 ? "No move threw anything away" : `${thrown === 1 ? "One move" : `${thrown} moves`} threw something away`) +
      (review.exact ? "." : "; some moves were not proven in time.");
  const items = review.moves.map((move) => {
    const item = document.createElement("li");
    item.dataset.ply = String(move.ply);
    item.classList.add(move.exact ? (move.before === move.after ? "kept" : "threw") : "unproven");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "review-move";
    button.textContent = moveWords(game, move);
    button.addEventListener("click", () => stepTo(move.ply));
    const values = document.createElement("span");
    values.className = "review-values";
    values.textContent = valueWords(move);
    item.append(button, values);
    return item;
  });
  $("review-moves").replaceChildren(...items);
  showStep();
  // The board lights the better cells of the move shown, now that they are known.
  if (replay.onStep) replay.onStep();
}
