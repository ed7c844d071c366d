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

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/// Round steps for the rating axis: the first that makes at most five lines.
const STEPS = [10, 20, 25, 50, 100, 200, 250, 500, 1000];

/// The rating over time on one board, as a line with its axes: one point after each
/// rated game, oldest on the left, each with its date, rating and ± as a tooltip and
/// a link to its game; the ratings on the left, the first and last game's dates below.
/// It scales to its box (a viewBox), so it fits a phone's 390 px as it fits a desk.
function ratingChart(board) {
  const points = board.history;
  const [width, height] = [400, 200];
  const [left, right, top, bottom] = [52, 14, 10, 28];
  const ratings = points.map((p) => p.rating);
  const spread = Math.max(40, Math.max(...ratings) - Math.min(...ratings));
  const step = STEPS.find((candidate) => spread / candidate <= 4) || 1000;
  const low = Math.floor((Math.min(...ratings) - spread * 0.1) / step) * step;
  const high = Math.ceil((Math.max(...ratings) + spread * 0.1) / step) * step;
  const x = (i) => left + (points.length === 1
    ? (width - left - right) / 2
    : (i * (width - left - right)) / (points.length - 1));
  const y = (r) => top + ((high - r) * (height - top - bottom)) / (high - low);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img" });
  const title = svg("title", {});
  const first = points[0];
  const last = points[points.length - 1];
  title.textContent = `Rating on ${boardWords(board.size, board.win)} after each of the last ` +
    `${plural(points.length, "game", "games")}: from ${ratingShown(first.rating, false)} ` +
    `to ${ratingShown(last.rating, board.provisional)}`;
  chart.append(title);
  for (let value = low; value <= high; value += step) {
    chart.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), class: "rating-grid" }));
    const label = svg("text", { x: left - 6, y: y(value) + 4, class: "rating-axis", "text-anchor": "end" });
    label.textContent = value.toLocaleString("en-US");
    chart.append(label);
  }
  // The first and last games' dates below (their times too when all were played in
  // one day).
  const oneDay = dayWords(first.ended) === dayWords(last.ended);
  const when = (time) => (oneDay ? timeWords(time) : dayWords(time));
  const dates = points.length === 1 ? [[0, "middle"]] : [[0, "start"], [points.length - 1, "end"]];
  for (const [i, anchor] of dates) {
    const label = svg("text", { x: x(i), y: height - 6, class: "rating-axis", "text-anchor": anchor });
    label.textContent = when(points[i].ended);
    chart.append(label);
  }
  chart.append(svg("polyline", {
    points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "),
    class: "rating-line",
    fill: "none",
  }));
  for (const [i, p] of points.entries()) {
    const link = svg("a", { href: `/games/${p.game}` });
    const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 4, class: "rating-point" });
    const tip = svg("title", {});
    tip.textContent = `${dayWords(p.ended)}: ${ratingShown(p.rating, p.provisional)} ± ${p.deviation}` +
      (i > 0 ? ` (${changeShown(p.rating - points[i - 1].rating)})` : "");
    dot.append(tip);
    link.append(dot);
    chart.append(link);
  }
  return chart;
}

/// A day and time as the reader's clock writes them ("28 Nov, 14:05"); the text as sent
/// if it is not a time.
function timeWords(time) {
  const when = new Date(time);
  if (Number.isNaN(when.getTime())) return time;
  return when.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/// A day as the reader's calendar writes it ("28 Nov 2026"); the text as sent if it is
/// not a time.
function dayWords(time) {
  const when = new Date(time);
  if (Number.isNaN(when.getTime())) return time;
  return when.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

function showRatings(ratings) {
  const boards = (ratings || []).filter((board) => board.history.length > 0).map((board) => {
    const figure = document.createElement("figure");
    figure.className = "rating-board";
    const caption = document.createElement("figcaption");
    const link = document.createElement("a");
    link.href = `/ratings?size=${board.size}&win=${board.win}`;
    link.textContent = boardWords(board.size, board.win);
    caption.append(link,
      `: ${ratingShown(board.rating, board.provisional)} ± ${board.deviation} after ` +
      `${plural(board.games, "game", "games")}` +
      (board.provisional ? " (provisional: too few games to rank yet)" : ""));
    figure.append(caption, ratingChart(board));
    return figure;
  });
  document.getElementById("rating-boards").replaceChildren(...boards);
  document.getElementById("ratings").hidden = boards.length === 0;
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
    showRatings(body.ratings);
    // A player's puzzles are their own: the link is on their own page, signed in.
    signedIn.then((account) => {
      const own = account.name !== null && account.name.toLowerCase() === body.name.toLowerCase();
      document.getElementById("train").hidden = !own;
    });
    // Without a game counted, there is no record against anyone to show.
    document.getElementById("against-each").hidden = body.games === 0;
    document.getElementById("player-details").hidden = false;
  } catch (error) {
    status.textContent = `This player's page could not be read: ${error.message}`;
  }
}

showPlayer();
