// The scoreboard page: /api/scores as a table, the best TOP players, each name a link
// to the player's page. Names are set as text, never as HTML.
"use strict";

const TOP = 100;

async function showScores() {
  const status = document.getElementById("scores-status");
  const table = document.getElementById("scores");
  try {
    const response = await fetch(`/api/scores?top=${TOP}`);
    // A refusal's words are the server's (`{"error": ...}`, never a path of its own);
    // anything else in the way (a proxy's page, say) is named by its status.
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
    const rows = table.querySelector("tbody");
    body.players.forEach((player, index) => {
      const row = rows.insertRow();
      row.insertCell().textContent = String(index + 1);
      // Each name leads to the player's page: their results by opponent, their games.
      const link = document.createElement("a");
      link.href = `/players/${encodeURIComponent(player.name)}`;
      link.textContent = player.name;
      row.insertCell().append(link);
      for (const value of [player.wins, player.losses, player.ties, player.games]) {
        row.insertCell().textContent = String(value);
      }
    });
    table.hidden = body.players.length === 0;
    const count = body.players.length;
    status.textContent = count === 0
      ? "No games recorded yet."
      : count === TOP
        ? `The best ${TOP} players.`
        : `${count} player${count === 1 ? "" : "s"}, best first.`;
  } catch (error) {
    status.textContent = `The scoreboard could not be read: ${error.message}`;
  }
}

showScores();
