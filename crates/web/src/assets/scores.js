// The scoreboard page: /api/scores as a table, the best TOP players, each name a link
// to the player's page, with their rating on 3×3 (the board most play; each board has
// its own, on the ratings page). Names are set as text, never as HTML.
"use strict";

const TOP = 100;

/// Each rated person's 3×3 rating by name (ranked and provisional alike); null when
/// they cannot be read (the scores are still shown, and the status says so).
async function classicRatings() {
  try {
    const response = await fetch(`/api/ratings?size=3&win=3&top=1000`);
    if (!response.ok) return null;
    const body = await response.json();
    return new Map(body.ratings.concat(body.provisional).map((row) => [row.name, row]));
  } catch {
    return null;
  }
}

async function showScores() {
  const status = document.getElementById("scores-status");
  const table = document.getElementById("scores");
  try {
    const response = await fetch(`/api/scores?top=${TOP}`);
    // A refusal's words are the server's (`{"error": ...}`, never a path of its own);
    // anything else in the way (a proxy's page, say) is named by its status.
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
    const ratings = await classicRatings();
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
      const rating = ratings === null ? undefined : ratings.get(player.name);
      row.insertCell().textContent = ratings === null
        ? ""
        : rating ? ratingShown(rating.rating, rating.provisional) : "—";
    });
    table.hidden = body.players.length === 0;
    const count = body.players.length;
    const listed = count === 0
      ? "No games recorded yet."
      : count === TOP
        ? `The best ${TOP} players.`
        : `${count} player${count === 1 ? "" : "s"}, best first.`;
    // Each board has its own ratings: this page shows 3×3's, the board most play.
    status.textContent = ratings === null
      ? `${listed} The ratings could not be read just now.`
      : count === 0 ? listed : `${listed} Ratings on 3×3.`;
  } catch (error) {
    status.textContent = `The scoreboard could not be read: ${error.message}`;
  }
}

showScores();
