// The scoreboard page: /api/scores as a table. Names are set as text, never as HTML.
"use strict";

async function showScores() {
  const status = document.getElementById("scores-status");
  const table = document.getElementById("scores");
  try {
    const response = await fetch("/api/scores");
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    const rows = table.querySelector("tbody");
    body.players.forEach((player, index) => {
      const row = rows.insertRow();
      for (const value of [index + 1, player.name, player.wins, player.losses, player.ties, player.games]) {
        row.insertCell().textContent = String(value);
      }
    });
    table.hidden = body.players.length === 0;
    status.textContent = body.players.length === 0
      ? "No games recorded yet."
      : `${body.players.length} player${body.players.length === 1 ? "" : "s"}, best first.`;
  } catch (error) {
    status.textContent = `The scoreboard could not be read: ${error.message}`;
  }
}

showScores();
