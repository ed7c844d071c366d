// The ratings page ("/ratings?size=N&win=K"): one board's ranking (settled people and
// the computer levels' fixed anchors), and apart the people still provisional. The
// board is read from the address and changed with the form; names are set as text,
// never as HTML.
"use strict";

const TOP = 100;

/// The board the address names (3×3, 3 in a row unless told; the run is the size
/// unless told), kept within what a board can be; `changed` when the address asked for
/// one that cannot be.
function boardAsked() {
  const query = new URLSearchParams(location.search);
  const number = (key, fallback) => {
    const value = Number.parseInt(query.get(key) || "", 10);
    return Number.isInteger(value) ? value : fallback;
  };
  const [askedSize, askedWin] = [number("size", 3), number("win", null)];
  const size = Math.min(7, Math.max(3, askedSize));
  const win = Math.min(size, Math.max(3, askedWin === null ? size : askedWin));
  return { size, win, changed: size !== askedSize || (askedWin !== null && win !== askedWin) };
}

/// The run choices of a board of `size`: 3 to the size.
function fillWins(size, win) {
  const select = document.getElementById("ratings-win");
  const options = [];
  for (let run = 3; run <= size; run += 1) {
    const option = document.createElement("option");
    option.value = String(run);
    option.textContent = String(run);
    option.selected = run === win;
    options.push(option);
  }
  select.replaceChildren(...options);
}

function nameCell(row) {
  const cell = document.createElement("td");
  if (row.anchor) {
    // "Computer (Impossible)" kept whole, its note under it.
    const name = document.createElement("span");
    name.className = "level-name";
    name.textContent = row.name;
    const note = document.createElement("span");
    note.className = "anchor-note";
    note.textContent = "fixed anchor";
    cell.append(name, note);
    return cell;
  }
  const link = document.createElement("a");
  link.href = `/players/${encodeURIComponent(row.name)}`;
  link.textContent = row.name;
  cell.append(link);
  return cell;
}

/// One table's rows; `ranks` numbers them.
function fill(table, rows, ranks) {
  const body = table.querySelector("tbody");
  body.replaceChildren(...rows.map((row, index) => {
    const line = document.createElement("tr");
    if (row.anchor) line.className = "anchor";
    if (ranks) line.insertCell().textContent = String(index + 1);
    line.append(nameCell(row));
    line.insertCell().textContent = ratingShown(row.rating, row.provisional);
    line.insertCell().textContent = String(row.deviation);
    // A level's games are the calibration's, not games played here (the note under the
    // table says so, once).
    line.insertCell().textContent = row.anchor
      ? `${row.games.toLocaleString("en-US")}*`
      : row.games.toLocaleString("en-US");
    return line;
  }));
}

async function showRatings() {
  const { size, win, changed } = boardAsked();
  document.getElementById("ratings-size").value = String(size);
  fillWins(size, win);
  document.getElementById("ratings-title").textContent = `Ratings on ${boardWords(size, win)}`;
  document.title = `Ratings on ${boardWords(size, win)} · Tic Tac Toe`;
  const status = document.getElementById("ratings-status");
  try {
    const response = await fetch(`/api/ratings?size=${size}&win=${win}&top=${TOP}`);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
    const people = body.ratings.filter((row) => !row.anchor).length;
    fill(document.getElementById("ranked"), body.ratings, true);
    document.getElementById("ranked").hidden = false;
    fill(document.getElementById("provisional"), body.provisional, false);
    document.getElementById("provisional-part").hidden = body.provisional.length === 0;
    const said = people === 0
      ? body.provisional.length === 0
        ? "Nobody is rated on this board yet: the computer levels alone, at their fixed ratings."
        : "No player is ranked on this board yet (every player's rating is still provisional): the computer levels alone."
      : `${people} ranked ${people === 1 ? "player" : "players"}, best first, among the computer levels.`;
    status.textContent = changed ? `There is no such board: ${boardWords(size, win)} instead. ${said}` : said;
  } catch (error) {
    status.textContent = `The ratings could not be read: ${error.message}`;
  }
}

/// A board picked: the address names it (so it can be shared), and the lists follow.
function pick() {
  const size = Number(document.getElementById("ratings-size").value);
  const picked = Number(document.getElementById("ratings-win").value) || size;
  const win = Math.min(picked, size);
  history.replaceState(null, "", `/ratings?size=${size}&win=${win}`);
  showRatings();
}

document.getElementById("ratings-size").addEventListener("change", () => {
  // A new size starts at its own default run: as many in a row as the size.
  document.getElementById("ratings-win").value = document.getElementById("ratings-size").value;
  const size = Number(document.getElementById("ratings-size").value);
  fillWins(size, size);
  pick();
});
document.getElementById("ratings-win").addEventListener("change", pick);
showRatings();
