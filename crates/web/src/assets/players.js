// A player's page ("/players/NAME"): their record, their results against each opponent
// (each computer level is an opponent of its own), and their newest games, each a link
// to its replay. Names are set as text, never as HTML.
"use strict";

const PREFIX = "/players/";

/// The name in the address, or null if it is not one (a broken %-escape).
function nameInPath() {
  try {
    return decodeURIComponent(location.pathname.slice(PREFIX.length));
  } catch {
    return null;
  }
}

function playerLink(name) {
  const link = document.createElement("a");
  link.href = `${PREFIX}${encodeURIComponent(name)}`;
  link.textContent = name;
  return link;
}

/// "Ada won", "a draw", "Bob resigned", "Bob left": how a game ended.
function resultWords(game) {
  const who = { x: game.x, o: game.o };
  const [side, how] = game.result.split("_");
  if (game.result === "draw") return "a draw";
  const words = { won: "won", resigned: "resigned", left: "left" }[how] || how;
  return `${who[side]} ${words}`;
}

/// "Ada (X)", "Computer (Impossible, O)": the game page's `seat` (replay.js), which this
/// page does not load.
function seat(name, mark) {
  const inner = name.endsWith(")") ? name.slice(0, -1) : null;
  return inner !== null && inner.includes("(") ? `${inner}, ${mark})` : `${name} (${mark})`;
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

function showOthers(others) {
  const line = document.getElementById("other-opponents");
  line.textContent = `…and ${plural(others, "other opponent", "other opponents")}, played less.`;
  line.hidden = others === 0;
}

function showOpponents(opponents) {
  const table = document.getElementById("opponents");
  const rows = table.querySelector("tbody");
  for (const rival of opponents) {
    const row = rows.insertRow();
    row.insertCell().append(playerLink(rival.opponent));
    for (const value of [rival.wins, rival.losses, rival.ties, rival.games]) {
      row.insertCell().textContent = String(value);
    }
  }
  table.hidden = opponents.length === 0;
  document.getElementById("no-opponents").hidden = opponents.length > 0;
}

function showRecent(games) {
  const items = games.map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/games/${game.id}`;
    link.className = "recent-game";
    link.textContent = `${seat(game.x, "X")} vs ${seat(game.o, "O")}`;
    const details = document.createElement("span");
    details.className = "recent-details";
    const when = new Date(game.started);
    const date = Number.isNaN(when.getTime()) ? game.started : when.toLocaleString();
    details.textContent =
      `${resultWords(game)} · ${plural(game.moves, "move", "moves")} · ${game.size}×${game.size}, ` +
      `${game.win} in a row · ${date}`;
    item.append(link, " ", details);
    return item;
  });
  document.getElementById("recent").replaceChildren(...items);
  document.getElementById("no-recent").hidden = games.length > 0;
}

async function showPlayer() {
  const status = document.getElementById("player-status");
  const heading = document.getElementById("player-name");
  const name = nameInPath();
  if (name === null) {
    heading.textContent = "No such player";
    status.textContent = "This address does not name a player.";
    return;
  }
  heading.textContent = name;
  try {
    const response = await fetch(`/api/players/${encodeURIComponent(name)}`);
    const body = await response.json().catch(() => ({}));
    // Nobody of that name has a game kept here (or the name cannot be anybody's):
    // said so, once, with nothing under it.
    if (response.status === 404) {
      heading.textContent = "No such player";
      status.textContent = `No player called ${name} has played here.`;
      return;
    }
    if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
    heading.textContent = body.name;
    document.title = `${body.name} · Tic Tac Toe`;
    status.textContent = body.games === 0
      ? "No game counted yet: the games below were left before their end."
      : `${plural(body.wins, "win", "wins")}, ${plural(body.losses, "loss", "losses")}, ` +
        `${plural(body.ties, "tie", "ties")} in ${plural(body.games, "game", "games")}.`;
    showOpponents(body.opponents);
    showOthers(body.other_opponents || 0);
    showRecent(body.recent);
    // Without a game counted, there is no record against anyone to show.
    document.getElementById("against-each").hidden = body.games === 0;
    document.getElementById("player-details").hidden = false;
  } catch (error) {
    status.textContent = `This player's page could not be read: ${error.message}`;
  }
}

showPlayer();
